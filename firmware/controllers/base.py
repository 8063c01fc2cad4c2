"""What a controller answers, and what the companion expects of one."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from firmware.screens import Screen

if TYPE_CHECKING:
    from engine.arcana.catalog import Catalog


@dataclass(frozen=True, slots=True)
class Play:
    """Apply this engine action (the companion journals it before acknowledging)."""

    action: Any


@dataclass(frozen=True, slots=True)
class Refuse:
    """Nothing changes; show the sentence on the pad's screen (or the status screen)."""

    message: str
    pad: str | None = None


@dataclass(frozen=True, slots=True)
class Ask:
    """Only what the screens ask changed (a mode, a prompt, a choice); nothing to journal."""


@dataclass(frozen=True, slots=True)
class Begin:
    """Setup is complete: start a journalled game with this record setup."""

    game: str
    setup: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Bind:
    """Enrollment: remember that this tag stands for this card (of this catalog); once the
    journal has it, the controller's `accepted` is called, as after a played action."""

    uid: str
    card: str
    catalog: str


@dataclass(frozen=True, slots=True)
class PairPhone:
    """Open a one-time pairing code for the owner's phone (held Select on the game choice):
    the web app shows its QR code on the status screen; with the web app off, a refusal."""


Reply = Play | Refuse | Ask | Begin | Bind | PairPhone


class Controller(Protocol):
    """A game (or the setup before one) at the table: every method the companion calls.

    Controllers derive from it (`class ArcanaController(Controller)`) and so inherit the defaults
    of `raw_tap` (no: the tag goes through the card registry) and `prompting` (nothing half
    entered); the other methods each controller writes.
    """

    state: Any  # the engine state (None during setup)

    def raw_tap(self, pad: str, uid: str, written_id: str | None) -> Reply | None:
        """A tag as the reader saw it, before the registry names its card: a Reply for
        controllers that want the tag itself (enrollment), None to let the registry decide."""
        return None

    def tap(self, pad: str, card: str) -> Reply:
        """A known card was tapped on a pad."""
        ...

    def press(self, button: str, held: bool) -> Reply:
        """A button other than Undo was pressed."""
        ...

    def accepted(self, events: tuple[Any, ...]) -> None:
        """The last Play was applied and journalled; `self.state` is already the new state."""
        ...

    def reset_prompt(self) -> None:
        """Drop any half-entered choice (after undo/redo or a refused action)."""
        ...

    def prompting(self) -> bool:
        """True while a choice is half entered: Undo then only cancels it (`reset_prompt`)."""
        return False

    def is_over(self) -> bool:
        """True once the game has ended (the ranking is on the screens)."""
        ...

    def screens(self) -> dict[str, Screen]:
        """One screen model per display role, a pure function of the state and the prompt;
        the companion renders each at its display's size (128x64 or 128x32)."""
        ...


@runtime_checkable
class Shelf(Protocol):
    """What the controllers and the web pages read of the games they belong to
    (`firmware.games.GameShelf`): the table's pads and seats, the status role, the random draws
    left to the table, the Arcana catalog and the card ids a tag may stand for."""

    pads: tuple[str, ...]  # the full table's reader roles, in table order
    seats: tuple[str, ...]  # Res Arcana's seats 1, 2, ... as pads
    status_role: str
    rng: random.Random

    @property
    def catalog(self) -> Catalog: ...

    def cards(self, game: str | None) -> set[str]: ...
