"""The game API both engines speak, in the spirit of OpenSpiel and boardgame.io.

A game is a module-level object with pure functions over immutable states:

    outcome = rules.apply(state, action)
    if isinstance(outcome, Rejection):
        print(outcome.message)          # "Seer's Orb needs 2 calm, you have 1"
    else:
        state, events = outcome.state, outcome.events

`apply` never mutates its argument; a rejected action leaves the caller holding the very
same state. Events are small frozen dataclasses owned by each game; each has a `kind`
(a short word such as "paid" or "struggle") and knows how to become plain JSON data.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Rejection:
    """An action that is not allowed here, with a sentence a player understands.

    `code` is a stable word for programs and tests (`"cannot_afford"`, `"not_your_turn"`);
    `message` is what the screen shows.
    """

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


# The codes both games give for the same refusal; a code only one game knows stays with its
# engine (`docs/arcana-engine.md`, `docs/res-arcana-engine.md` list them all).
GAME_OVER = "game_over"  # the game has ended: nothing more is played
NOT_YOUR_TURN = "not_your_turn"  # another player is to act
UNKNOWN_PLAYER = "unknown_player"  # no such seat at this table
UNKNOWN_ACTION = "unknown_action"  # not one of the game's actions
UNKNOWN_CARD = "unknown_card"  # no such card in the game
WRONG_KIND = "wrong_kind"  # the card is not of a kind this action takes
BAD_PARAMS = "bad_params"  # the action's other values do not fit it


class EngineError(Exception):
    """The base of every exception the engine raises (as gpiozero's `GPIOZeroError`).

    Each keeps the built-in base its callers catch as a second base (`RecordError` and
    `CatalogError` are ValueErrors), so `except ValueError` still sees them."""


class IllegalAction(EngineError):
    """Raised by convenience wrappers (`play`) when `apply` answers with a Rejection."""

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.message)
        self.rejection = rejection


@dataclass(frozen=True, slots=True)
class Applied(Generic[S]):
    """The new state after an accepted action and the events that describe what happened."""

    state: S
    events: tuple[Any, ...]


def event_to_json(event: Any) -> dict[str, Any]:
    """Turn a game event (a frozen dataclass with a `kind` class attribute) into plain data."""
    data: dict[str, Any] = {"kind": event.kind}
    for field in fields(event):
        data[field.name] = _plain(getattr(event, field.name))
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    return value


class Rules(Protocol[S, A]):
    """What a game module offers to records, the companion, bots and benchmarks."""

    name: str  # "arcana" or "res-arcana", as in a record header

    def setup(self, setup: dict[str, Any]) -> S:
        """Build the first state from a record's `setup` object (raise RecordError if bad)."""
        ...

    def decode_action(self, line: dict[str, Any]) -> A:
        """Turn a record's action line into an action (raise RecordError if it does not fit)."""
        ...

    def encode_action(self, action: A) -> dict[str, Any]:
        """Turn an action into a record's action line."""
        ...

    def apply(self, state: S, action: A) -> Applied[S] | Rejection:
        """Apply an action: the new state and events, or a Rejection and nothing changed."""
        ...

    def legal_actions(self, state: S) -> list[A]:
        """Every legal action in the state, in a stable order."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True once the game is over: no action is legal and `result` holds the ranking."""
        ...

    def result(self, state: S) -> dict[str, Any]:
        """The replay result object of `../spec/records.md` for this state."""
        ...


def play(rules: Rules[S, A], state: S, action: A) -> Applied[S]:
    """Apply an action that must be legal; raise IllegalAction otherwise (for tests and bots)."""
    outcome = rules.apply(state, action)
    if isinstance(outcome, Rejection):
        raise IllegalAction(outcome)
    return outcome
