"""A game that ends on an agent's tap that also settles the round: the struggles stay on their
stakes over the ranking until OK, Select pages through the breakdowns and back round to the
ranking, and nothing more is played."""

from __future__ import annotations

import random

from engine.arcana import RULES
from engine.arcana.actions import decode_action
from engine.arcana.events import StakeEvaluated
from engine.arcana.playout import random_playout
from engine.arcana.setup import initial_state
from firmware.controllers.arcana.screens import Prompt, table_screens
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.screens import (
    BreakdownScreen,
    RankingScreen,
    RefusalScreen,
    StruggleScreen,
    render,
)
from firmware.tabletop import EmulatedTable

PADS = ("stake-0", "stake-1", "stake-2", "stake-3", "stake-4")


def a_game_ending_on_struggles() -> tuple[dict, list[dict]]:
    """A sensible two-player game whose last action (an agent) settles stakes and ends it."""
    for seed in range(50):
        played = random_playout(random.Random(seed), 2, "basic", "sensible", record=True)
        state = initial_state(played["setup"])
        for line in played["lines"]:
            outcome = RULES.apply(state, decode_action(line))
            state = outcome.state
        if line["action"] == "agent" and any(isinstance(e, StakeEvaluated) for e in outcome.events):
            return played["setup"], played["lines"]
    raise AssertionError("no sensible game of 50 ends on an agent that settles the round")


def image(top, role: str):
    return top.screens()[role].tobytes()


def test_the_last_struggles_stay_until_ok_and_select_pages_round_to_the_ranking(tmp_path):
    setup, lines = a_game_ending_on_struggles()
    with Journal.open(tmp_path) as journal:
        game = journal.start("arcana", setup)
        for line in lines[:-1]:
            journal.append(game, line)
    last = lines[-1]
    with EmulatedTable(tmp_path, GameShelf()) as top:
        top.tap(PADS[last["stake"]], last["card"])  # the last move, at the table
        controller = top.companion.controller
        assert controller.is_over()
        shown = controller.screens()
        struggles = [pad for pad in PADS if isinstance(shown[pad], StruggleScreen)]
        assert struggles  # the round's struggles, on their stakes
        assert isinstance(shown["status"], RankingScreen)
        plain = table_screens(controller.state, Prompt(), len(PADS))
        top.press("ok")  # seen: the stakes as the game left them
        for role, model in zip(("status", *PADS), plain, strict=True):
            assert image(top, role) == render(model).tobytes(), role
        ranking = image(top, "status")
        pages = []
        for _ in range(2):
            top.press("select")
            pages.append(controller.screens()["status"])
        assert [type(page) for page in pages] == [BreakdownScreen, BreakdownScreen]
        assert [page.page for page in pages] == [1, 2]
        top.press("select")  # past the last player's: the ranking again
        assert image(top, "status") == ranking
        top.press("undo")  # the last move taken back, and put back: the ranking first again
        top.press("undo", held=True)
        top.wait(4)  # the "Redone" notice fades
        assert image(top, "status") == ranking
        top.press("select")
        assert top.companion.controller.screens()["status"].page == 1
        top.tap("stake-1", "m_agent_01")  # a card after the end: refused where it was tapped
        assert image(top, "stake-1") == render(RefusalScreen("The game is over")).tobytes()
        assert len(top.journal.lines(top.companion.game_id)) == len(lines)
