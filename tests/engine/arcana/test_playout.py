"""Whole bot games: the playouts the benchmark and the simulator rely on."""

from __future__ import annotations

import random

import pytest

from engine.arcana import RULES, is_terminal, load_catalog, random_playout, random_setup
from engine.arcana.playout import MAX_ROUNDS
from engine.arcana.setup import VARIANTS
from engine.records import dumps, load

# Nothing can be won nor bribed: no stake is ever won, so the game-end card never comes up.
UNWINNABLE = {
    **{f"m_agent_{n:02d}": {"arcana": {"political": 99, "financial": 99}} for n in range(1, 41)},
    **{f"m_loc_{n:02d}": {"arcana": {"spiritual": 99}} for n in range(1, 11)},
    **{f"m_relic_{n:02d}": {"arcana": {"military": 99}} for n in range(1, 11)},
}


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


def test_a_playout_summary_says_how_long_the_game_was_and_which_variant_it_was():
    played = random_playout(random.Random(1), 2)
    assert played.keys() == {"actions", "rounds", "finished", "variant"}  # no record by default
    assert played["finished"] and played["actions"] > played["rounds"] > 1
    variants = set()
    for seed in range(8):
        played = random_playout(random.Random(seed), 2, record=True)
        assert played["variant"] == played["setup"]["variant"] == played["state"].variant
        variants.add(played["variant"])
    assert variants == set(VARIANTS)  # no variant given: either, at random
    assert random_playout(random.Random(1), 3, "advanced")["variant"] == "advanced"


def test_a_playout_deals_and_records_the_catalog_it_is_given(test_catalog):
    played = random_playout(
        random.Random(4), 2, "basic", "sensible", record=True, catalog=load_catalog(test_catalog())
    )
    assert played["finished"] and played["setup"]["catalog"] == test_catalog()
    _, state, _ = load(dumps("arcana", played["setup"], played["lines"]).splitlines())
    assert state == played["state"] and state.catalog.source == test_catalog()


@pytest.mark.parametrize("policy", ["random", "sensible"])
def test_a_game_nobody_can_win_is_cut_after_the_last_round_allowed(test_catalog, policy):
    catalog = load_catalog(test_catalog(UNWINNABLE))
    played = random_playout(random.Random(1), 2, "basic", policy, record=True, catalog=catalog)
    assert not played["finished"] and played["state"].phase == "play"
    # every round up to MAX_ROUNDS was played: it stopped as the next one began
    assert played["rounds"] == played["state"].round == MAX_ROUNDS + 1
    assert played["actions"] == len(played["lines"])


def test_an_unknown_policy_is_refused_not_played_as_random():
    refused = r"unknown policy 'sensibel' \(policies: random, sensible\)"
    with pytest.raises(ValueError, match=refused):
        random_playout(random.Random(1), 2, policy="sensibel")
