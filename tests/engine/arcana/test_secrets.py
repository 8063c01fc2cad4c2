"""Indistinguishability in the engine: two games identical except for WHICH agent a player lays
face down (or which tasks they keep) look the same to everyone else, byte for byte, through
every following action, refusal, undo and redo, until the card is turned face up.

Channels compared for the public table and every other seat: `view`, `public_result`,
`public_record`, the refusal of each action, the legal actions of a decision that is not the
owner's. Twins and moves come from `tests/support/twins.py`.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from twins import (
    AGENT_TWINS,
    TASK_TWINS,
    Twins,
    agent_twins,
    examples,
    next_move,
    reveals,
    task_twins,
)

from engine.arcana import (
    RULES,
    State,
    encode_action,
    hidden_cards,
    pending,
    public_record,
    public_records,
    public_result,
    view,
)
from engine.protocol import Applied
from engine.records import header

PICKS = st.lists(st.integers(0, 2**20), min_size=10, max_size=30)
SETTINGS = settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


class Game:
    """One of the twins: its position, its record and its redo stack (as the journal keeps)."""

    def __init__(self, twins: Twins, side: int) -> None:
        self.setup = twins.setups[side]
        self.state = RULES.setup(self.setup)
        self.done: list = []
        self.undone: list = []
        for action in [*twins.prefix, *([twins.first[side]] if twins.first[side] else [])]:
            self.play(action)

    def play(self, action) -> object:
        outcome = RULES.apply(self.state, action)
        if isinstance(outcome, Applied):
            self.state = outcome.state
            self.done.append(action)
        return outcome

    def replay(self) -> None:
        self.state = RULES.setup(self.setup)
        actions, self.done = self.done, []
        for action in actions:
            self.play(action)

    def lines(self) -> list[dict]:
        return [header("arcana", self.setup), *(encode_action(a) for a in self.done)]


def public(game: Game, owner: int, answer: object) -> bytes:
    """Everything every viewer but the owner may see, as bytes."""
    state: State = game.state
    seen: dict = {"answer": answer}
    viewers = [None, *(p for p in range(state.players) if p != owner)]
    records = public_records(game.lines(), viewers)
    for viewer in viewers:
        seen[str(viewer)] = {
            "view": view(state, viewer),
            "result": public_result(state, viewer),
            "record": records[viewer],
        }
    if pending(state).player != owner:
        seen["legal"] = [encode_action(a) for a in RULES.legal_actions(state)]
    return json.dumps(seen, sort_keys=True).encode()


def drive(twins: Twins, picks: list[int]) -> int:
    """Play the same moves in both twins, comparing every public channel after each; the
    number of positions compared."""
    a, b = Game(twins, 0), Game(twins, 1)
    assert public(a, twins.owner, None) == public(b, twins.owner, None)
    compared = 1
    for pick in picks:
        move = next_move(a.state, pick, twins)
        if move is None:
            break
        answers = []
        for side, game in enumerate((a, b)):
            if move[0] == "undo":
                answer = bool(game.done)
                if game.done:
                    game.undone.append(game.done.pop())
                    game.replay()
            elif move[0] == "redo":
                answer = bool(game.undone)
                if game.undone:
                    game.play(game.undone.pop())
            else:
                outcome = game.play(move[1 + side] if move[0] == "both" else move[1])
                if isinstance(outcome, Applied):
                    if reveals(outcome.events, twins.secrets):
                        return compared  # the card is turned up: public from now on
                    game.undone.clear()
                    answer = "applied"
                else:
                    answer = [outcome.code, outcome.message]
            answers.append(answer)
        assert public(a, twins.owner, answers[0]) == public(b, twins.owner, answers[1]), move
        compared += 1
        if move[0] == "both":
            event("the face-down agent was moved (a location), still face down")
    return compared


@SETTINGS
@given(**AGENT_TWINS, picks=PICKS)
def test_which_agent_lies_face_down_cannot_be_told(seed, players, variant, warmup, picks):
    twins = agent_twins(seed, players, variant, warmup)
    if twins is None:
        event("the game ended before a face-down choice")
        return
    state_a, state_b = twins.states()
    assert hidden_cards(state_a) != hidden_cards(state_b)  # the twins really differ
    compared = drive(twins, picks)
    event(f"positions compared: {min(compared, 40) // 10 * 10}+")


@SETTINGS
@given(**TASK_TWINS, picks=PICKS)
def test_which_tasks_were_kept_cannot_be_told(seed, players, picks):
    twins = task_twins(seed, players)
    state_a, state_b = twins.states()
    assert state_a.tasks != state_b.tasks
    compared = drive(twins, picks)
    event(f"positions compared: {min(compared, 40) // 10 * 10}+")


def test_the_public_result_counts_a_hidden_agent_and_never_lists_it():
    twins = agent_twins(seed=7, players=2, variant="basic", warmup=0)
    assert twins is not None
    state_a, _ = twins.states()
    (secret,) = hidden_cards(state_a)
    shown = public_result(state_a)
    assert secret not in json.dumps(shown)
    assert sum(sum(stake["hidden"]) for stake in shown["stakes"]) == 1
    assert all(isinstance(player["owned"], int) for player in shown["players"])
    mine = public_result(state_a, twins.owner)
    assert secret in mine["players"][twins.owner]["owned"]
    assert any(secret in side for stake in mine["stakes"] for side in stake["agents"])


def test_a_record_names_an_agent_again_once_it_was_turned_up():
    """A face-down agent is null only in the lines of its current face-down spell."""
    twins = agent_twins(seed=11, players=2, variant="basic", warmup=0)
    assert twins is not None
    lines, _ = twins.records()
    (secret,) = hidden_cards(twins.states()[0])
    assert public_record(lines)[-1]["card"] is None
    assert public_record(lines, twins.owner)[-1]["card"] == secret
    game = Game(twins, 0)
    while secret in hidden_cards(game.state):  # play on to the evaluation that turns it up
        game.play(next(a for a in RULES.legal_actions(game.state) if a.card != secret))
    assert public_record(game.lines())[len(lines) - 1]["card"] == secret


def _random_record(seed: int, moves: int) -> list[dict]:
    import random

    from engine.arcana import is_terminal, random_setup

    rng = random.Random(seed)
    setup = random_setup(rng, 3)
    state = RULES.setup(setup)
    lines = [header("arcana", setup)]
    while len(lines) <= moves and not is_terminal(state):
        action = rng.choice(RULES.legal_actions(state))
        state = RULES.apply(state, action).state
        lines.append(encode_action(action))
    return lines


def test_a_kept_replay_gives_what_a_replay_from_the_start_gives() -> None:
    """The web pages keep one PublicReplay and ask after every move; growing, undone (a
    shorter record), another game, or a line that does not replay, it answers as
    `public_records` from scratch."""
    from engine.arcana import PublicReplay
    from engine.records import RecordError

    viewers = (None, 0, 1, 2)
    game, other = _random_record(5, 90), _random_record(6, 40)
    kept = PublicReplay()
    lengths = [*range(1, len(game) + 1, 7), len(game), len(game) - 5, len(game) - 4]
    for length in lengths:
        assert kept.records(game[:length], viewers) == public_records(game[:length], viewers)
    assert kept.records(other, viewers) == public_records(other, viewers)
    assert kept.records(game, viewers) == public_records(game, viewers)  # longer, not grown
    changed = [*other, other[-1]]  # the last move played twice: it does not replay
    with pytest.raises(RecordError):
        public_records(changed, viewers)
    with pytest.raises(RecordError):
        kept.records(changed, viewers)
    assert kept.records(game, viewers) == public_records(game, viewers)
