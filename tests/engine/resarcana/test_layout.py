"""The packed state's layout (`engine.resarcana.state.GLOBALS` and `SEAT`, one field per line)
is the one the constants and a real state follow."""

from __future__ import annotations

import random

from engine.resarcana import RULES, Position, random_setup, state
from engine.resarcana.state import GLOBALS, SEAT, G, W


def test_each_field_name_has_the_index_of_its_line():
    assert [getattr(state, name) for name in GLOBALS] == list(range(G))
    assert [getattr(state, name) for name in SEAT] == list(range(W))


def test_a_state_holds_the_globals_then_one_block_per_seat():
    first = RULES.setup(random_setup(random.Random(3), 3))
    assert len(first) == G + 3 * W
    look = Position(first)
    assert first[state.ROUND] == 1 and first[state.DEAL].players == 3
    assert [first[G + q * W + state.HAND_SIZE] for q in range(3)] == [3, 3, 3]
    assert [look.deck_size(q) for q in range(3)] == [3, 3, 3]
