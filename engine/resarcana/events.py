"""What happened, as small frozen dataclasses (`engine.protocol.event_to_json` makes them JSON).

Events describe changes (deltas), never totals, so the events of an action can be built once
and shared: applying a canonical action allocates no event at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.resarcana.essences import Essences


@dataclass(frozen=True, slots=True)
class Played:
    kind: ClassVar[str] = "played"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Paid:
    kind: ClassVar[str] = "paid"
    player: int
    card: str
    essences: Essences


@dataclass(frozen=True, slots=True)
class Activated:
    kind: ClassVar[str] = "activated"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Gained:
    """Essences from a power or a discard (`card` is the card used or discarded)."""

    kind: ClassVar[str] = "gained"
    player: int
    card: str
    essences: Essences


@dataclass(frozen=True, slots=True)
class Scored:
    """VP tokens from a power."""

    kind: ClassVar[str] = "scored"
    player: int
    card: str
    vp: int


@dataclass(frozen=True, slots=True)
class Bought:
    kind: ClassVar[str] = "bought"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class MonumentRevealed:
    """The top hidden monument turned face up (`card` None when the stack is unknown)."""

    kind: ClassVar[str] = "monument_revealed"
    card: str | None


@dataclass(frozen=True, slots=True)
class Discarded:
    kind: ClassVar[str] = "discarded"
    player: int
    card: str


@dataclass(frozen=True, slots=True)
class Passed:
    """`first` when this is the round's first pass: the player starts the next round."""

    kind: ClassVar[str] = "passed"
    player: int
    first: bool


@dataclass(frozen=True, slots=True)
class Drew:
    """The top card of the deck went to the hand (`card` None when unknown or hidden)."""

    kind: ClassVar[str] = "drew"
    player: int
    card: str | None


@dataclass(frozen=True, slots=True)
class RoundEnded:
    kind: ClassVar[str] = "round_ended"
    round: int


@dataclass(frozen=True, slots=True)
class RoundStarted:
    kind: ClassVar[str] = "round_started"
    round: int
    start_player: int


@dataclass(frozen=True, slots=True)
class Produced:
    kind: ClassVar[str] = "produced"
    player: int
    essences: Essences


@dataclass(frozen=True, slots=True)
class GameEnded:
    """`winners` are seats (shared victory on equal VP); `ranks` 1 = first, ties share."""

    kind: ClassVar[str] = "game_ended"
    round: int
    winners: tuple[int, ...]
    vp: tuple[int, ...]
    ranks: tuple[int, ...]


def seen_by(event: object, player: int | None) -> object:
    """The event as `player` may see it (None: the table): others' draws hide the card."""
    if isinstance(event, Drew) and event.card is not None and event.player != player:
        return Drew(event.player, None)
    return event
