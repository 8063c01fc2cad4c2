"""The working copy `apply` edits: a Draft frozen untouched is the position it was made from,
whatever the position (acted or not), and its per-seat groups take no negative seat."""

from __future__ import annotations

import random

import pytest

from engine.arcana import RULES, random_setup
from engine.arcana.state import Draft, Seats


def test_a_draft_frozen_untouched_is_its_position() -> None:
    rng = random.Random(3)
    state = RULES.setup(random_setup(rng, 3, "advanced"))
    seen = set()
    for _ in range(60):
        assert Draft(state).freeze() == state
        seen.add(state.acted)
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state))).state
    assert seen == {False, True}  # both kinds of turn were frozen back


def test_a_seat_group_refuses_a_negative_seat_and_copies_a_group_once() -> None:
    seats = Seats(((1,), (2,)), list)
    with pytest.raises(IndexError) as raised:
        seats[-1]
    assert raised.value.args == (-1,)
    assert seats[1] is seats[1] and seats[1] == [2]
    assert seats.refreeze(tuple) == ((1,), (2,))
