"""Whole games through the emulated table, set up and played by the demo bot: 2, 3 and 4
players to the end, the ranking and the breakdowns, and a resume after a power cut."""

from __future__ import annotations

import pytest

from engine.arcana import RULES, load_catalog
from engine.records import load
from firmware.controllers.arcana import Bot, play_demo_game
from firmware.games import GameShelf
from firmware.screens import (
    BreakdownScreen,
    RankedPlayer,
    RankingScreen,
    RefusalScreen,
    ScoreLine,
    render,
)
from firmware.tabletop import EmulatedTable

CARDS = load_catalog("sample").cards


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def replayed(journal, game_id):
    """The game's state rebuilt from its journal alone (its exported record, replayed)."""
    _, state, _ = load(journal.record(game_id).splitlines())
    return state


def ranking(result) -> RankingScreen:
    points = [p["vp"] for p in result["players"]]
    order = sorted(range(len(points)), key=lambda p: (-points[p], p))
    return RankingScreen(
        tuple(
            RankedPlayer(
                1 + sum(v > points[p] for v in points), result["players"][p]["name"], points[p]
            )
            for p in order
        )
    )


# Seeds whose games also move an agent by a location (and, advanced, discard a relic,
# place its militia and put won cards under a base), all entered as taps and presses.
BASIC = {"agent", "bribe", "reveal", "location"}
ADVANCED = BASIC | {"discard", "militia", "stash"}


@pytest.mark.parametrize(
    ("players", "variant", "seed", "actions"),
    [(2, "basic", 14, BASIC), (3, "advanced", 6, ADVANCED), (4, "basic", 32, BASIC)],
)
def test_the_bot_plays_a_whole_game_through_taps(tmp_path, players, variant, seed, actions):
    with EmulatedTable(tmp_path, GameShelf()) as top:
        result = play_demo_game(top, Bot(seed, players, variant))
        companion = top.companion
        assert result["finished"] is True
        assert len(result["players"]) == players
        assert companion.journal.unfinished() is None  # the journal holds a finished game
        state = replayed(companion.journal, companion.game_id)
        assert RULES.result(state) == result
        assert same(top.screens()["status"], render(ranking(result)))
        played = {line["action"] for line in companion.journal.lines(companion.game_id)}
        assert played == actions


def fulfilled(tasks, owned) -> list[str]:
    """Tasks met by the market cards owned (house rule [10]), counted from outside."""
    fiefs = [CARDS[c].fief for c in owned if CARDS[c].main]
    return [t for t in tasks if fiefs.count(CARDS[t].fief) >= CARDS[t].count]


def test_the_ranking_pages_through_each_players_breakdown(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as top:
        result = play_demo_game(top, Bot(1, 2, "advanced"))
        _, setup = top.companion.journal.setup(top.companion.game_id)
        for seat, player in enumerate(result["players"]):
            top.press("select")
            under = sum(CARDS[c].vp for c in player["under_base"])
            cards = sum(CARDS[c].vp for c in player["owned"] if c not in player["under_base"])
            done = fulfilled(setup["tasks"][seat], player["owned"])
            tasks = sum(CARDS[t].vp for t in done)
            assert cards + under + tasks == player["vp"]
            lines = (
                ScoreLine("Cards", cards),
                ScoreLine("Under base", under),
                ScoreLine(f"Tasks {len(done)}/2", tasks),
            )
            expected = BreakdownScreen(player["name"], player["vp"], lines, seat + 1, 2)
            assert same(top.screens()["status"], render(expected))
        top.press("select")
        assert same(top.screens()["status"], render(ranking(result)))
        top.tap("stake-1", "m_agent_01")
        assert same(top.screens()["stake-1"], render(RefusalScreen("The game is over")))


def test_a_game_resumes_after_a_power_cut_with_the_same_screens(tmp_path):
    bot = Bot(11, 2)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        for step in bot.setup_steps():
            top.perform(step)
        moves = 0
        controller = top.companion.controller
        # stop mid-game where nothing transient (results of a struggle) is on the screens
        while moves < 25 or controller.results:
            for step in bot.next_steps(controller.state):
                top.perform(step)
            moves += 1
        screens = top.screens()
        lines = top.journal.lines(top.companion.game_id)
        state = controller.state
    with EmulatedTable(tmp_path, GameShelf()) as top:
        assert top.companion.controller.state == state
        assert top.journal.lines(top.companion.game_id) == lines
        for role, image in top.screens().items():
            assert same(image, screens[role]), role
        result = play_demo_game(top, bot)
        assert result["finished"] is True
        assert top.journal.lines(top.companion.game_id)[: len(lines)] == lines
