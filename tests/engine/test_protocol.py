"""Both engines behind `engine.protocol.Rules`: the same calls play either game to its end."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.arcana
import engine.resarcana
from engine.protocol import Rejection, Rules


def _arcana_game(seed: int) -> tuple[Any, list[Any]]:
    played = engine.arcana.random_playout(random.Random(seed), 2 + seed % 3, record=True)
    rules = engine.arcana.RULES
    return rules.setup(played["setup"]), [rules.decode_action(line) for line in played["lines"]]


def _res_arcana_game(seed: int) -> tuple[Any, list[Any]]:
    played = engine.resarcana.random_playout(random.Random(seed), 2 + seed % 3)
    return engine.resarcana.RULES.setup(played["setup"]), played["moves"]


GAMES = [
    pytest.param(engine.arcana.RULES, _arcana_game, engine.arcana.is_terminal, id="arcana"),
    pytest.param(
        engine.resarcana.RULES, _res_arcana_game, engine.resarcana.is_terminal, id="res-arcana"
    ),
]


def _walk(rules: Rules[Any, Any], state: Any, moves: list[Any]) -> list[bool]:
    """`is_terminal` before every move and after the last, through the protocol alone."""
    seen = []
    for action in moves:
        seen.append(rules.is_terminal(state))
        outcome = rules.apply(state, action)
        assert not isinstance(outcome, Rejection), outcome.message
        state = outcome.state
    seen.append(rules.is_terminal(state))
    return seen


@pytest.mark.parametrize(("rules", "game", "module_is_terminal"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_is_terminal_is_false_until_the_last_action_and_true_after_it(
    rules, game, module_is_terminal, seed
):
    state, moves = game(seed)
    assert moves, "a playout plays at least one action"
    assert _walk(rules, state, moves) == [False] * len(moves) + [True]
    assert not module_is_terminal(state)


@pytest.mark.parametrize(("rules", "game", "module_is_terminal"), GAMES)
def test_a_terminal_state_has_no_legal_action_and_refuses_the_last_one_again(
    rules, game, module_is_terminal
):
    state, moves = game(4)
    for action in moves:
        state = rules.apply(state, action).state
    assert rules.is_terminal(state) and module_is_terminal(state)
    assert rules.legal_actions(state) == []
    again = rules.apply(state, moves[-1])
    assert isinstance(again, Rejection) and again.code == "game_over"
    assert rules.result(state)["winners"]
