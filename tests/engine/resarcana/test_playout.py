"""Random playouts (the benchmark's games) and the `bench engine` command around them."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from engine.protocol import Rules
from engine.resarcana import RULES, random_playout, random_setup
from engine.resarcana.playout import MAX_ACTIONS


def test_rules_speaks_the_game_protocol():
    assert isinstance(RULES.name, str) and RULES.name == "res-arcana"
    for method in ("setup", "decode_action", "encode_action", "apply", "legal_actions", "result"):
        assert callable(getattr(RULES, method)), method
        assert method in Rules.__dict__


def test_a_playout_is_deterministic_per_seed():
    first = random_playout(random.Random(42), 3)
    again = random_playout(random.Random(42), 3)
    assert first["moves"] == again["moves"] and first["state"] == again["state"]
    assert first["actions"] == len(first["moves"])
    assert first["rounds"] >= 1 and isinstance(first["finished"], bool)


def test_playouts_mostly_finish_and_never_exceed_the_cap():
    games = [random_playout(random.Random(seed), 2 + seed % 3) for seed in range(60)]
    assert all(g["actions"] <= MAX_ACTIONS for g in games)
    assert all(g["finished"] == RULES.result(g["state"])["finished"] for g in games)
    assert sum(g["finished"] for g in games) >= 50


class Constant(random.Random):
    """A random source stuck at one value (shuffles then keep the given order)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def chosen_and_legal(game):
    state = RULES.setup(game["setup"])
    for action in game["moves"]:
        yield action, RULES.legal_actions(state)
        state = RULES.apply(state, action).state


def test_the_policy_passes_below_0_15():
    game = random_playout(Constant(0.1), 2)
    assert [a.kind for a in game["moves"]] == ["pass"] * len(game["moves"])
    assert game["finished"] is False  # nobody ever scores


def test_the_policy_otherwise_takes_the_action_at_floor_r_times_n():
    game = random_playout(Constant(0.5), 3)
    for action, legal in chosen_and_legal(game):
        assert action == legal[len(legal) // 2]


def test_bench_engine_prints_the_figures(repo_root):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware",
            "bench",
            "engine",
            "--game",
            "res-arcana",
            "--seconds",
            "0.2",
            "--seed",
            "3",
        ],
        capture_output=True,
        text=True,
        cwd=repo_root,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["game"] == "res-arcana" and figures["seed"] == 3
    assert figures["games"] >= 1 and figures["actions"] > 0
    assert figures["actions_per_s"] > 0 and figures["games_per_s"] > 0


def test_at_exactly_0_15_the_policy_does_not_pass():
    game = random_playout(Constant(0.15), 2)
    for action, legal in chosen_and_legal(game):
        assert action == legal[int(0.15 * len(legal))]


def test_a_playout_draws_one_number_per_choice_and_one_more_to_pass():
    # The policy, step by step on the same random source: with other actions than the
    # pass, one draw decides whether to pass (below 0.15) and, if not, a second picks the
    # action; with the pass alone, one draw picks it. Benchmarks compare figures across
    # versions on these games.
    for seed in range(6):
        game = random_playout(random.Random(seed), 2 + seed % 3)
        rng = random.Random(seed)
        random_setup(rng, 2 + seed % 3)
        for action, legal in chosen_and_legal(game):
            if len(legal) > 1 and rng.random() < 0.15:
                assert action == legal[-1]
            else:
                assert action == legal[int(rng.random() * len(legal))]
