"""The scenario helpers that tests, tutorials and demos build situations with."""

from __future__ import annotations

import random

import pytest

from engine.resarcana import Position, random_playout
from engine.resarcana.scenario import adjust, deal, everyone_passes, finished_game, setup_state


def test_everyone_passes_gives_every_event_of_the_round_in_order():
    state = setup_state(deal(players=("Ann", "Ben", "Cid"), start=1))
    state, events = everyone_passes(state)
    passes = [(e["player"], e["first"]) for e in events if e["kind"] == "passed"]
    assert passes == [(1, True), (2, False), (0, False)]
    assert [e["kind"] for e in events[:2]] == ["passed", "drew"]
    assert [e["kind"] for e in events].count("drew") == 3
    assert Position(state).round == 2


def test_adjust_refuses_a_field_a_state_does_not_have():
    state = setup_state(deal())
    with pytest.raises(KeyError) as err:
        adjust(state, 0, colour="red")
    assert err.value.args == ("no field 'colour' to adjust",)
    with pytest.raises(KeyError):
        adjust(state, essences={})  # a seat's field, not a global one


def test_finished_game_is_the_first_seed_on_whose_game_ends():
    # Seed 4's two-player random game stalls (nobody can reach 10 VP); seed 5's ends.
    assert not random_playout(random.Random(4), 2)["finished"]
    game = finished_game(4, 2)
    assert game["finished"]
    assert game["moves"] == random_playout(random.Random(5), 2)["moves"]
    assert finished_game(3, 2)["moves"] == random_playout(random.Random(3), 2)["moves"]
