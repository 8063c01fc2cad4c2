"""The secrets' edges, one case each: who sees a face-down agent and a kept task, what a finished
game shows, which cards an action lays face down, and `PublicReplay`'s promises (a spell stays
null until the card is turned up, only new lines are replayed, a line that does not replay is
named with its number and the rules' reason). The Hypothesis twins in `test_secrets.py` state
that nothing else tells the secrets apart."""

from __future__ import annotations

import random

import pytest
from twins import agent_twins, task_twins

import engine.arcana.secrets as secrets_module
from engine.arcana import (
    RULES,
    PublicReplay,
    decode_action,
    encode_action,
    hidden_cards,
    is_terminal,
    laid_face_down,
    public_record,
    public_records,
    public_result,
    random_setup,
)
from engine.arcana.scoring import result
from engine.arcana.state import Action
from engine.protocol import Applied
from engine.records import RecordError, header


def _record(seed: int, moves: int, setup: dict | None = None) -> list[dict]:
    rng = random.Random(seed)
    setup = setup or random_setup(rng, 3)
    state = RULES.setup(setup)
    lines = [header("arcana", setup)]
    while len(lines) <= moves and not is_terminal(state):
        action = rng.choice(RULES.legal_actions(state))
        state = RULES.apply(state, action).state
        lines.append(encode_action(action))
    return lines


def _replayed(lines: list[dict]):
    state = RULES.setup(lines[0]["setup"])
    for line in lines[1:]:
        state = RULES.apply(state, decode_action(line)).state
    return state


def test_kept_tasks_are_seen_by_their_owner_only_until_the_game_is_over() -> None:
    twins = task_twins(seed=3, players=2)
    owner, other = twins.owner, 1 - twins.owner
    setup = twins.setups[0]
    mine, theirs = setup["tasks"][owner], setup["tasks"][other]
    state = RULES.setup(setup)
    assert hidden_cards(state, owner) == frozenset(theirs)
    assert hidden_cards(state, other) == frozenset(mine)
    assert hidden_cards(state) == frozenset(mine) | frozenset(theirs)
    lines = [header("arcana", setup)]
    tasks = public_record(lines, owner)[0]["setup"]["tasks"]
    assert tasks[owner] == mine and tasks[other] == [None] * len(theirs)
    assert public_record(lines)[0]["setup"]["tasks"] == [[None] * len(t) for t in setup["tasks"]]

    finished = _record(4, 10_000, setup)
    over = _replayed(finished)
    assert over.phase == "over"
    assert hidden_cards(over) == frozenset()
    assert public_result(over) == result(over)  # every card was turned up for the scoring
    assert public_record(finished)[0]["setup"]["tasks"] == setup["tasks"]


def test_a_face_down_agent_is_hidden_from_the_others_only() -> None:
    twins = agent_twins(seed=7, players=2, variant="basic", warmup=0)
    assert twins is not None
    owner, other = twins.owner, 1 - twins.owner
    secret = twins.pair[0]
    state, _ = twins.states()
    assert hidden_cards(state) == {secret}
    assert hidden_cards(state, other) == {secret}
    assert hidden_cards(state, owner) == frozenset()
    assert all(
        hidden == [0, 0] for hidden in (s["hidden"] for s in public_result(state, owner)["stakes"])
    )
    assert sum(sum(s["hidden"]) for s in public_result(state, other)["stakes"]) == 1
    lines, _ = twins.records()
    assert public_record(lines, owner) == lines  # the owner sees every line as it is


def test_only_a_face_down_placement_is_laid_face_down() -> None:
    twins = agent_twins(seed=7, players=2, variant="basic", warmup=0)
    assert twins is not None
    before = RULES.setup(twins.setups[0])
    for action in twins.prefix:
        before = RULES.apply(before, action).state
    assert laid_face_down(before, twins.first[0]) == {twins.pair[0]}
    laid = {action: laid_face_down(before, action) for action in RULES.legal_actions(before)}
    assert all(cards <= {action.card} for action, cards in laid.items())
    assert any(action.kind == "agent" and not cards for action, cards in laid.items())
    assert any(action.kind != "agent" for action in laid)  # those lay nothing face down
    assert all(not cards for action, cards in laid.items() if action.kind != "agent")
    assert laid_face_down(before, Action("agent", twins.owner, "no-such-card", 0)) == frozenset()


def test_a_face_down_agent_stays_null_in_every_line_of_its_spell() -> None:
    twins = agent_twins(seed=11, players=2, variant="basic", warmup=0)
    assert twins is not None
    lines, _ = twins.records()
    placed = len(lines) - 1
    (secret,) = hidden_cards(twins.states()[0])
    state, grown, kept = twins.states()[0], list(lines), PublicReplay()
    for _ in range(3):  # three more moves that leave it face down
        action = next(a for a in RULES.legal_actions(state) if a.card != secret)
        outcome = RULES.apply(state, action)
        if secret not in hidden_cards(outcome.state):
            break
        state = outcome.state
        grown.append(encode_action(action))
        for record in (public_record(grown), kept.records(grown, (None,))[None]):
            assert record[placed]["card"] is None
            assert record[placed - 1] == grown[placed - 1]  # the line before still as it was
    assert len(grown) > len(lines)


def test_a_kept_replay_replays_only_the_new_lines(monkeypatch) -> None:
    applied = []
    real = secrets_module.apply

    def counting(state, action):
        applied.append(action)
        return real(state, action)

    monkeypatch.setattr(secrets_module, "apply", counting)
    game = _record(5, 30)
    kept = PublicReplay()
    kept.records(game[:10], (None, 0))
    assert len(applied) == 9
    kept.records(game[:10], (None, 1))  # asked again: nothing to replay
    assert len(applied) == 9
    kept.records(game[:15], (None,))
    assert len(applied) == 14
    kept.records(game[:12], (None,))  # an undo: from the start
    assert len(applied) == 14 + 11


def test_a_line_that_does_not_replay_is_named_with_its_number_and_reason() -> None:
    game = _record(6, 40)
    changed = [*game, game[-1]]  # the last move played twice
    refusal = RULES.apply(_replayed(game), decode_action(game[-1]))
    assert not isinstance(refusal, Applied)
    kept = PublicReplay()
    kept.records(game, (None,))
    with pytest.raises(RecordError) as raised:
        kept.records(changed, (None,))
    assert raised.value.line == len(changed)
    assert raised.value.reason == refusal.message
    assert str(raised.value) == f"line {len(changed)}: {refusal.message}"
    assert kept.records(game, (None, 0)) == public_records(game, (None, 0))  # replayed afresh


def test_the_line_before_a_spell_still_names_the_card() -> None:
    """Seed 15: a location moves an agent face up (line 17), then on to a stake where it lies
    face down (line 18): line 17 was seen as it is and keeps its name."""
    rng = random.Random(15)
    setup = random_setup(rng, rng.choice([2, 3, 4]))
    state = RULES.setup(setup)
    lines = [header("arcana", setup)]
    while len(lines) < 19:
        action = rng.choice(RULES.legal_actions(state))
        state = RULES.apply(state, action).state
        lines.append(encode_action(action))
    moved = lines[17]["params"]["card"]
    assert lines[18]["params"]["card"] == moved and moved in hidden_cards(state)
    shown = public_record(lines)
    assert shown[17] == lines[17]
    assert shown[18]["params"]["card"] is None
    assert PublicReplay().records(lines, (None,))[None] == shown
