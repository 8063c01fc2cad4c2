"""Both game controllers take the end of the game from the engine (`Rules.is_terminal`)."""

from __future__ import annotations

import random

import pytest

import engine.arcana
import engine.resarcana
from firmware.controllers.arcana import ArcanaController
from firmware.controllers.base import Refuse
from firmware.controllers.resarcana import ResArcanaController
from firmware.games import GameShelf


def _arcana(seed: int, whole: bool):
    played = engine.arcana.random_playout(random.Random(seed), 2, record=True)
    rules = engine.arcana.RULES
    state = rules.setup(played["setup"])
    lines = played["lines"] if whole else played["lines"][:-1]
    for line in lines:
        state = rules.apply(state, rules.decode_action(line)).state
    return ArcanaController(GameShelf(), state)


def _res_arcana(seed: int, whole: bool):
    played = engine.resarcana.random_playout(random.Random(seed), 2)
    rules = engine.resarcana.RULES
    state = rules.setup(played["setup"])
    for action in played["moves"] if whole else played["moves"][:-1]:
        state = rules.apply(state, action).state
    return ResArcanaController(GameShelf(), state)


@pytest.mark.parametrize(
    ("build", "rules", "touch"),
    [
        (_arcana, engine.arcana.RULES, lambda c: c.tap("stake-0", "m_agent_01")),
        (_res_arcana, engine.resarcana.RULES, lambda c: c.press("ok", held=False)),
    ],
    ids=["arcana", "res-arcana"],
)
def test_the_controller_is_over_exactly_when_the_engine_says_the_state_is_terminal(
    build, rules, touch
):
    before, after = build(5, whole=False), build(5, whole=True)
    assert (before.is_over(), rules.is_terminal(before.state)) == (False, False)
    assert (after.is_over(), rules.is_terminal(after.state)) == (True, True)
    refused = touch(after)  # what the game's controller refuses once the game is over
    assert isinstance(refused, Refuse) and refused.message.startswith("The game is over")
