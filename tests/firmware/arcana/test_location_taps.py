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


def a_swap_with_an_emptied_stake() -> tuple[dict, list[dict], str]:
    """A sensible two-player game up to a turn where a stake shows no market card (its pile
    is used up) and the player to act may swap stakes: its setup, its lines, the location."""
    for seed in range(50):
        played = random_playout(random.Random(seed), 2, "basic", "sensible", record=True)
        state = initial_state(played["setup"])
        for at, line in enumerate(played["lines"]):
            if pending(state).kind == "turn" and None in [s.market for s in state.stakes]:
                for action in RULES.legal_actions(state):
                    if action.kind == "location" and "a" in dict(action.params):
                        return played["setup"], played["lines"][:at], action.card
            state = RULES.apply(state, decode_action(line)).state
    raise AssertionError("no sensible game of 50 comes to a swap beside an emptied stake")


def test_a_stake_that_shows_no_market_card_cannot_be_swapped(tmp_path):
    setup, lines, location = a_swap_with_an_emptied_stake()
    with Journal.open(tmp_path) as journal:
        game = journal.start("arcana", setup)
        for line in lines:
            journal.append(game, line)
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
