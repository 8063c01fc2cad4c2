"""A location's parameters tapped on the wrong pad: a pad without a stake, a stake that shows
no market card, a militia as the agent to move. Each is refused with its sentence on the
tapping pad, the location stays asked for, and the right taps then play it."""

from __future__ import annotations

import random

from engine.arcana import RULES, pending
from engine.arcana.actions import decode_action
from engine.arcana.playout import random_playout
from engine.arcana.setup import initial_state
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.screens import RefusalScreen, render
from firmware.tabletop import EmulatedTable
from tests.firmware.arcana.conftest import ArcanaController

THREE = ("blades", "ferrymen", "thieves")
STAKES_THREE = ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03")


def test_a_pad_without_a_stake_is_no_stake_to_swap_or_move_to(table):
    table.seat(THREE, STAKES_THREE)
    table.tap("stake-0", "blades_agent_5")
    table.top.tap("stake-4", "ferrymen_location")  # a location starts on any pad
    table.refused(
        "stake-4", "ferrymen_location", "No stake on this pad with 3 players", prompting=True
    )
    table.top.tap("stake-1", "ferrymen_location")
    table.refused(
        "stake-4", "ferrymen_location", "No stake on this pad with 3 players", prompting=True
    )
    line = table.tap("stake-3", "ferrymen_location")
    assert line["params"] == {"a": 1, "b": 3}
    table.tap("stake-2", "thieves_agent_1")
    table.top.tap("stake-4", "blades_location")
    table.top.tap("stake-4", "blades_agent_5")  # the agent to move: tapped on any pad
    table.refused(
        "stake-4", "blades_agent_5", "No stake on this pad with 3 players", prompting=True
    )
    line = table.tap("stake-2", "blades_agent_5")
    assert line["params"] == {"card": "blades_agent_5", "to": 2}


def test_a_militia_is_no_agent_to_move(table):
    table.seat(variant="advanced")
    table.top.press("select")
    table.tap("stake-4", "blades_relic")  # discarded: Blades place a militia
    table.tap("stake-2", "militia_2")
    table.tap("stake-0", "ferrymen_agent_1")
    table.tap("stake-1", "blades_agent_5")
    table.tap("stake-3", "ferrymen_agent_2")
    table.top.tap("stake-0", "blades_location")
    table.refused("stake-2", "militia_2", "Militia cannot be moved", prompting=True)
    table.top.tap("stake-1", "blades_agent_5")
    line = table.tap("stake-4", "blades_agent_5")
    assert line["params"] == {"card": "blades_agent_5", "to": 4}


def a_swap_in_a_late_game(stakes_shown: int, legal: bool) -> tuple[dict, list[dict], str]:
    """A sensible two-player game up to a turn where only `stakes_shown` stakes still show a
    market card (the others' piles are used up) and the player to act holds a swap location,
    which the rules let them play now (`legal`) or not: its setup, its lines, the location."""
    for seed in range(50):
        played = random_playout(random.Random(seed), 2, "basic", "sensible", record=True)
        state = initial_state(played["setup"])
        for at, line in enumerate(played["lines"]):
            waiting = pending(state)
            shown = sum(stake.market is not None for stake in state.stakes)
            if waiting.kind == "turn" and shown == stakes_shown:
                swaps = {a.card for a in RULES.legal_actions(state) if "a" in dict(a.params or ())}
                for card in sorted(state.possession[waiting.player]):
                    found = state.catalog.cards[card]
                    if found.effect == "swap_stakes" and (card in swaps) == legal:
                        return played["setup"], played["lines"][:at], card
            state = RULES.apply(state, decode_action(line)).state
    raise AssertionError(f"no sensible game of 50 comes to a swap with {stakes_shown} stakes")


def resume(tmp_path, setup: dict, lines: list[dict]) -> None:
    """Journal a game as the table would have, so that the next table resumes it."""
    with Journal.open(tmp_path) as journal:
        game = journal.start("arcana", setup)
        for line in lines:
            journal.append(game, line)


def test_a_swap_with_one_stake_showing_a_card_is_refused_before_asking(tmp_path):
    setup, lines, location = a_swap_in_a_late_game(stakes_shown=1, legal=False)
    resume(tmp_path, setup, lines)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        table = ArcanaController(top)
        table.refused("stake-2", location, "Swapping needs two stakes with a market card")


def test_a_stake_that_shows_no_market_card_cannot_be_swapped(tmp_path):
    setup, lines, location = a_swap_in_a_late_game(stakes_shown=4, legal=True)
    resume(tmp_path, setup, lines)
    with EmulatedTable(tmp_path, GameShelf()) as top:  # the game resumes at that turn
        table = ArcanaController(top)
        empty = [s.market for s in table.state.stakes].index(None)
        shown = [i for i, s in enumerate(table.state.stakes) if s.market is not None]
        top.tap("stake-0", location)
        assert table.controller.prompting()
        message = f"Stake {empty + 1} shows no market card"
        table.refused(f"stake-{empty}", location, message, prompting=True)
        top.tap(f"stake-{shown[0]}", location)
        line = table.tap(f"stake-{shown[1]}", location)
        assert line["params"] == {"a": shown[0], "b": shown[1]}


def test_a_location_without_parameters_is_played_at_once(table):
    table.seat(
        ("usurers", "blades"), ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03", "m_agent_06")
    )
    line = table.tap("stake-3", "usurers_location")
    assert line == {"player": 0, "action": "location", "card": "usurers_location"}
    assert not table.controller.prompting()


def test_a_location_out_of_turn_is_refused_with_the_rules_sentence(table):
    table.seat()  # Blades to play
    table.refused("stake-1", "ferrymen_location", "Blades to play")


def test_a_location_out_of_turn_is_refused_in_the_language_of_the_game(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(language="de")) as top:
        table = ArcanaController(top)
        table.seat()  # Blades to play
        before = table.lines()
        top.tap("stake-1", "ferrymen_location")
        refused = render(RefusalScreen("Du bist nicht am Zug"), language="de")
        assert top.screens()["stake-1"].tobytes() == refused.tobytes()
        assert table.lines() == before and not table.controller.prompting()


def test_a_new_card_tapped_on_a_pad_without_a_stake_is_refused(table):
    table.seat(THREE, STAKES_THREE)
    table.tap("stake-2", "blades_agent_4")
    table.tap("stake-3", "ferrymen_agent_1")
    table.tap("stake-1", "thieves_agent_1")
    table.tap("stake-2", "blades_relic")  # bought by the bribe: stake 3 waits for a card
    table.refused("stake-4", "m_agent_05", "No stake on this pad with 3 players")
    line = table.tap("stake-2", "m_agent_05")
    assert line == {"action": "reveal", "stake": 2, "card": "m_agent_05"}


def test_a_militia_tapped_on_a_pad_without_a_stake_is_refused(table):
    tasks = (("task_01", "task_05"), ("task_02", "task_06"), ("task_03", "task_07"))
    table.seat(THREE, STAKES_THREE, variant="advanced", tasks=tasks)
    table.top.press("select")
    table.tap("stake-0", "blades_relic")  # discarded: Blades place a militia
    table.refused("stake-4", "militia_2", "No stake on this pad with 3 players")
    line = table.tap("stake-3", "militia_2")
    assert line == {"player": 0, "action": "militia", "card": "militia_2", "stake": 3}
