"""Both engines behind `engine.protocol.Rules`: the same calls play either game to its end."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import engine.arcana
import engine.resarcana
from engine import protocol
from engine.protocol import Rejection, Rules
from engine.resarcana.actions import Action as ResAction


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
    assert isinstance(again, Rejection) and again.code == protocol.GAME_OVER
    assert rules.result(state)["winners"]


TWO_PLAYERS = 3  # a seed for which both game builders above seat two players


def _other(seat: int) -> int:
    return 1 - seat


# The same refusal in both games, as (code, an Arcana action, a Res Arcana action), each made
# from the first legal action `a` of a new two-player game (seat `a.player` to play).
SHARED = [
    (
        protocol.NOT_YOUR_TURN,
        lambda a: a._replace(player=_other(a.player)),
        lambda a: ResAction(_other(a.player), "pass"),
    ),
    (protocol.UNKNOWN_PLAYER, lambda a: a._replace(player=7), lambda a: ResAction(7, "pass")),
    (
        protocol.UNKNOWN_ACTION,
        lambda a: a._replace(kind="juggle"),
        lambda a: ResAction(a.player, "juggle"),
    ),
    (
        protocol.UNKNOWN_CARD,
        lambda a: a._replace(card="no_card"),
        lambda a: ResAction(a.player, "play", "no_card"),
    ),
    (
        protocol.WRONG_KIND,
        lambda a: a._replace(kind="location"),  # an agent played as a location
        lambda a: ResAction(a.player, "buy", "seer_orb"),  # an artifact bought like a place
    ),
]


@pytest.mark.parametrize(("code", "arcana", "res_arcana"), SHARED, ids=[s[0] for s in SHARED])
def test_both_games_refuse_the_same_thing_with_the_same_code(code, arcana, res_arcana):
    for rules, game, make in (
        (engine.arcana.RULES, _arcana_game, arcana),
        (engine.resarcana.RULES, _res_arcana_game, res_arcana),
    ):
        state, _ = game(TWO_PLAYERS)
        first = rules.legal_actions(state)[0]
        assert first.kind != "reveal" and first.player in (0, 1)
        refused = rules.apply(state, make(first))
        assert isinstance(refused, Rejection), rules.name
        assert (rules.name, refused.code) == (rules.name, code)
        assert refused.message  # and a sentence for the screen


def test_the_shared_codes_are_distinct_words():
    codes = [protocol.GAME_OVER, protocol.BAD_PARAMS, *(s[0] for s in SHARED)]
    assert len(set(codes)) == len(codes) and all(c.isidentifier() for c in codes)


@dataclasses.dataclass(frozen=True)
class _Spot:
    stake: str
    cards: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class _Paid:
    kind = "paid"  # a class attribute, as the games' events have it: not a field
    player: int
    cost: dict[str, int]
    spots: tuple[_Spot, ...]
    taken: list[tuple[int, str]]


def test_an_event_becomes_plain_json_data_all_the_way_down():
    event = _Paid(
        player=1,
        cost={"gold": 2, 3: 1},
        spots=(_Spot("stake-0", ("orb",)),),
        taken=[(0, "ring")],
    )
    data = protocol.event_to_json(event)
    assert data == {
        "kind": "paid",
        "player": 1,
        "cost": {"gold": 2, "3": 1},  # JSON keys are text
        "spots": [{"stake": "stake-0", "cards": ["orb"]}],
        "taken": [[0, "ring"]],
    }
    assert json.loads(json.dumps(data)) == data


def test_play_applies_a_legal_action_and_raises_a_refused_one_with_its_rejection():
    rules = engine.arcana.RULES
    state, _ = _arcana_game(TWO_PLAYERS)
    first = rules.legal_actions(state)[0]
    assert protocol.play(rules, state, first) == rules.apply(state, first)
    wrong = first._replace(player=_other(first.player))
    with pytest.raises(protocol.IllegalAction) as raised:
        protocol.play(rules, state, wrong)
    assert raised.value.rejection == rules.apply(state, wrong)
    assert raised.value.rejection.code == protocol.NOT_YOUR_TURN
    assert str(raised.value) == str(raised.value.rejection) == raised.value.rejection.message


@pytest.mark.parametrize(("rules", "game", "module_is_terminal"), GAMES)
def test_the_rules_encode_each_action_as_a_record_line_that_decodes_back(
    rules, game, module_is_terminal
):
    _, moves = game(5)
    lines = [rules.encode_action(action) for action in moves]
    assert all(isinstance(line, dict) and line for line in lines)
    assert json.loads(json.dumps(lines)) == lines  # plain JSON, as the journal stores it
    assert [rules.decode_action(line) for line in lines] == moves
