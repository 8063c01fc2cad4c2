"""Hypothesis: random legal games never fail and keep every invariant; illegal actions are
rejected with the state untouched; a game's record replays to the very same game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.protocol import Applied, Rejection
from engine.records import dumps, load
from engine.resarcana import (
    CARDS,
    RULES,
    Action,
    Position,
    physical_setup,
    random_setup,
    state_to_json,
)
from engine.resarcana.actions import ACTIONS
from engine.resarcana.essences import GUARD
from engine.resarcana.state import DEAL, ESS

SETTINGS = settings(max_examples=25, deadline=None)
games = st.tuples(st.integers(0, 2**32), st.integers(2, 4), st.booleans())


def play_random(seed: int, players: int, physical: bool, check=None):
    """A random game through the public API; `check(state)` after every action."""
    rng = random.Random(seed)
    setup = random_setup(rng, players)
    if physical:
        setup = physical_setup(setup)
    state = RULES.setup(setup)
    moves = []
    while not Position(state).finished and Position(state).round <= 60:
        legal = RULES.legal_actions(state)
        action = legal[-1] if rng.random() < 0.15 else rng.choice(legal)
        outcome = RULES.apply(state, action)
        assert isinstance(outcome, Applied), outcome
        state = outcome.state
        moves.append(action)
        if check:
            check(state)
    return setup, moves, state


def invariants(state) -> None:
    look = Position(state)
    tableaus = []
    for seat in range(look.players):
        stock = look.seat(seat, ESS)
        assert stock >= 0 and not stock & GUARD
        assert min(look.essences(seat).counts()) >= 0
        places = [c for c in look.tableau(seat) if CARDS[c].kind == "place"]
        monuments = [c for c in look.tableau(seat) if CARDS[c].kind == "monument"]
        expected = sum(CARDS[c].vp for c in places) + 2 * len(monuments) + look.tokens(seat)
        assert look.vp(seat) == expected
        assert look.hand_size(seat) >= len(look.hand(seat)) and look.hand_size(seat) >= 0
        tableaus += look.tableau(seat)
    assert len(tableaus) == len(set(tableaus))
    if look.deal.hands_known:
        where: dict[str, int] = {}
        piles = [look.discarded(), tableaus]
        for seat in range(look.players):
            piles += [look.hand(seat), look.deck(seat)]
            assert look.hand_size(seat) == len(look.hand(seat))
            assert look.deck_size(seat) == len(look.deck(seat))
        for pile in piles:
            for card in pile:
                if CARDS[card].kind == "artifact":
                    where[card] = where.get(card, 0) + 1
        assert set(where.values()) <= {1}
        assert len(where) == 6 * look.players  # every dealt artifact is somewhere, once


@SETTINGS
@given(games)
def test_random_legal_games_never_fail_and_keep_the_invariants(game):
    seed, players, physical = game
    _, _, state = play_random(seed, players, physical, invariants)
    if Position(state).finished:
        result = RULES.result(state)
        best = max(p["vp"] for p in result["players"])
        assert best >= 10
        assert result["winners"] == [p["name"] for p in result["players"] if p["vp"] == best]


@SETTINGS
@given(games)
def test_the_record_of_a_game_replays_to_the_same_game(game):
    setup, moves, state = play_random(*game)
    text = dumps("res-arcana", setup, [RULES.encode_action(a) for a in moves])
    _, replayed, actions = load(text.splitlines())
    assert replayed == state
    assert actions == moves
    assert [RULES.decode_action(RULES.encode_action(a)) for a in moves] == moves


odd_actions = st.builds(
    Action,
    st.integers(-1, 5),
    st.sampled_from(["play", "activate", "buy", "discard", "pass", "steal"]),
    st.sampled_from([*CARDS, None, "magic_carpet"]),
    st.sampled_from(["gold", "calm", "fire", "life", "death", None, "air"]),
)


@SETTINGS
@given(
    games,
    st.integers(0, 400),
    st.lists(st.one_of(st.sampled_from(ACTIONS), odd_actions), max_size=30),
)
def test_illegal_actions_are_rejected_and_leave_the_state_untouched(game, stop, tries):
    seed, players, physical = game
    rng = random.Random(seed)
    setup = random_setup(rng, players)
    state = RULES.setup(physical_setup(setup) if physical else setup)
    for _ in range(stop):
        legal = RULES.legal_actions(state)
        if not legal:
            break
        state = RULES.apply(state, rng.choice(legal)).state
    legal = set(RULES.legal_actions(state))
    before = state_to_json(state)
    for action in tries:
        if action in legal:
            continue
        outcome = RULES.apply(state, action)
        assert isinstance(outcome, Rejection), action
        assert outcome.code and outcome.message.endswith(".")
        assert state_to_json(state) == before and state[DEAL] is state[DEAL]
