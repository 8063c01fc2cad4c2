"""Whole bot games: the playouts the benchmark and the simulator rely on."""

from __future__ import annotations

import random

import pytest

from engine.arcana import RULES, is_terminal, random_playout, random_setup
from engine.records import dumps, load


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["random", "sensible"])
def test_a_playout_is_a_complete_legal_game_that_replays(players, policy):
    played = random_playout(random.Random(players), players, policy=policy, record=True)
    assert played["finished"] and is_terminal(played["state"])
    assert played["actions"] == len(played["lines"])
    assert played["rounds"] == played["state"].round
    _, state, actions = load(dumps("arcana", played["setup"], played["lines"]).splitlines())
    assert state == played["state"] and len(actions) == played["actions"]


def test_sensible_players_end_the_sample_game_in_a_sensible_number_of_rounds():
    rounds = [
        random_playout(random.Random(seed), 2 + seed % 3, policy="sensible")["rounds"]
        for seed in range(12)
    ]
    # the game-end card needs 8 to 12 wins of the free-trade stake first
    assert all(3 <= r <= 25 for r in rounds), rounds
    assert 6 <= sorted(rounds)[len(rounds) // 2] <= 15, rounds


def test_random_setup_deals_distinct_guilds_stakes_and_tasks():
    setup = random_setup(random.Random(9), 4, "advanced")
    assert len({p["guild"] for p in setup["players"]}) == 4
    assert len(set(setup["stakes"])) == 5
    kept = [t for tasks in setup["tasks"] for t in tasks]
    assert len(kept) == len(set(kept)) == 8
    assert RULES.setup(setup).variant == "advanced"
