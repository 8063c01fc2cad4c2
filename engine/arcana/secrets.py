"""What a viewer may not see: face-down agents and kept tasks, counted and never listed.

    hidden_cards(state, viewer=None)     # frozenset of card ids nobody but their owner sees
    laid_face_down(state, action)        # the cards this action would lay face down
    public_result(state, viewer=None)    # the replay result with hidden cards only counted
    public_record(lines, viewer=None)    # record lines with the hidden cards' ids as null
    public_records(lines, viewers)       # the same for several viewers, one replay

Rules: (1) a face-down agent is seen by its owner only, until it is turned face up (house
rules [5], [7], [8], [9]); (2) kept tasks are seen by their owner only, until the game is over
(they are scored); (3) a hidden card is never listed, not even as a null whose place in a
sorted list names it: it is counted; (4) a player's possession is a count for others, as in
`view` (listing it would name the hidden card as the one missing); (5) once the game is over
every card has been turned up for the scoring [11], and the full result is public.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.arcana.actions import decode_action
from engine.arcana.events import AgentMoved, AgentPlaced
from engine.arcana.rules import apply
from engine.arcana.scoring import result
from engine.arcana.setup import initial_state
from engine.arcana.state import Action, State
from engine.protocol import Applied
from engine.records import RecordError

HIDDEN = None  # what a hidden card id becomes in a record line


def hidden_cards(state: State, viewer: int | None = None) -> frozenset[str]:
    """The card ids in this position that `viewer` (None: the public table) may not see."""
    hidden = _face_down(state, viewer)
    if state.phase != "over":
        hidden.update(t for p, tasks in enumerate(state.tasks) if p != viewer for t in tasks)
    return frozenset(hidden)


def _face_down(state: State, viewer: int | None) -> set[str]:
    return {
        card
        for stake in state.stakes
        for player, side in enumerate(stake.agents)
        if player != viewer
        for card, down in side
        if down
    }


def laid_face_down(state: State, action: Action) -> frozenset[str]:
    """The cards `action`, applied to `state` (the position before it), lays face down:
    what an undo or redo notice must not name. Empty for an action `apply` refuses."""
    outcome = apply(state, action)
    if not isinstance(outcome, Applied):
        return frozenset()
    return frozenset(
        event.card
        for event in outcome.events
        if isinstance(event, AgentPlaced | AgentMoved) and event.face_down
    )


def public_result(state: State, viewer: int | None = None) -> dict[str, Any]:
    """The replay result (`../shared/spec/records.md`) as `viewer` may see it.

    Until the game is over, another player's face-down agents leave `stakes[i].agents[p]`
    and are counted in `stakes[i].hidden[p]`, and their `owned` is a count.
    """
    out = result(state)
    if state.phase == "over":
        return out
    for entry, stake in zip(out["stakes"], state.stakes, strict=True):
        entry["agents"] = [
            sorted(c for c, down in side if p == viewer or not down)
            for p, side in enumerate(stake.agents)
        ]
        entry["hidden"] = [
            0 if p == viewer else sum(down for _, down in side)
            for p, side in enumerate(stake.agents)
        ]
    for p, player in enumerate(out["players"]):
        if p != viewer:
            player["owned"] = len(player["owned"])
    return out


def public_record(lines: list[dict[str, Any]], viewer: int | None = None) -> list[dict[str, Any]]:
    """A valid Arcana record (header first, as JSON objects) as `viewer` may see it
    (RecordError if a line does not replay).

    A line keeps its card ids unless it names a card that has lain face down (for someone
    other than the viewer) from that line, or an earlier one, until now: those become null.
    Lines from before a card's current face-down spell still name it (they were seen then).
    Other players' kept tasks in the header are null until the game is over.
    """
    return public_records(lines, (viewer,))[viewer]


def public_records(
    lines: list[dict[str, Any]], viewers: Iterable[int | None]
) -> dict[int | None, list[dict[str, Any]]]:
    """`public_record` for several viewers at the cost of one replay."""
    return PublicReplay().records(lines, viewers)


class PublicReplay:
    """`public_records` of a record that grows a line at a time, as a table's web pages ask
    for it after every move: only the lines added since the last call are replayed. A record
    that is not the last one plus new lines (an undo, another game) is replayed from its
    start.

        replay = PublicReplay()
        replay.records(lines, (0, 1))       # the same as public_records(lines, (0, 1))
    """

    def __init__(self) -> None:
        self._lines: list[dict[str, Any]] = []  # the record replayed so far
        self._state: State | None = None
        self._since: dict[tuple[int, str], int] = {}  # (owner, face-down card) -> first line

    def records(
        self, lines: list[dict[str, Any]], viewers: Iterable[int | None]
    ) -> dict[int | None, list[dict[str, Any]]]:
        known = len(self._lines)
        if self._state is None or len(lines) < known or lines[:known] != self._lines:
            self._lines, self._since = [lines[0]], {}
            self._state = initial_state(lines[0]["setup"])
        state, since = self._state, self._since
        for number in range(len(self._lines), len(lines)):
            outcome = apply(state, decode_action(lines[number]))
            if not isinstance(outcome, Applied):  # the journal replays, so this is not expected
                self._state = None  # replay the next record from its start
                raise RecordError(outcome.message, number + 1)
            state = outcome.state
            since = {key: since.get(key, number) for key in _face_down_by_owner(state)}
            self._lines.append(lines[number])
            self._state, self._since = state, since
        out = {}
        for viewer in viewers:
            spells = {card: first for (owner, card), first in since.items() if owner != viewer}
            record = [_redact(lines[0], hidden_cards(state, viewer) - set(spells))]
            for number, line in enumerate(lines[1:], start=1):
                record.append(_redact(line, {c for c, first in spells.items() if first <= number}))
            out[viewer] = record
        return out


def _face_down_by_owner(state: State) -> list[tuple[int, str]]:
    return [
        (player, card)
        for stake in state.stakes
        for player, side in enumerate(stake.agents)
        for card, down in side
        if down
    ]


def _redact(value: Any, secret: set[str] | frozenset[str]) -> Any:
    if isinstance(value, str):
        return HIDDEN if value in secret else value
    if isinstance(value, list):
        return [_redact(item, secret) for item in value]
    if isinstance(value, dict):
        return {key: _redact(item, secret) for key, item in value.items()}
    return value
