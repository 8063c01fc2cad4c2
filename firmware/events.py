"""What reaches the companion's single game thread, from readers, buttons and the clock.

The scanner's `placed` becomes a `Tap`; buttons become `Press`; device health becomes
`Trouble`/`Recovered`. One queue carries them all, so the game has exactly one owner.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from firmware.language import text

# What is wrong with a device: no answer, or answers with an IRQ line that never falls.
Fault = Literal["not_answering", "irq_wire"]


@dataclass(frozen=True, slots=True)
class Tap:
    """A card arrived on a pad: the reader's role, the tag's UID, and its written id if any."""

    pad: str
    uid: str
    written_id: str | None = None


@dataclass(frozen=True, slots=True)
class Press:
    """A button was pressed (or held, for the long-press meaning)."""

    button: str
    held: bool = False


@dataclass(frozen=True, slots=True)
class Crowded:
    """Two or more tags on one pad: the reader cannot tell which card is meant."""

    pad: str


class Device(NamedTuple):
    """Which device: its kind ("reader", "display") and the role it serves ("stake-2")."""

    kind: str
    role: str

    @property
    def label(self) -> str:
        """The device as the screens name it, in the current language: "Reader stake-2"."""
        return text(f"device.{self.kind}", role=self.role)

    def trouble(self, fault: Fault) -> str:
        """What the screens say of it in the current language: "Reader stake-2 not answering"
        (`firmware.language`'s `trouble.<fault>`)."""
        return text(f"trouble.{fault}", device=self.label)


@dataclass(frozen=True, slots=True)
class Trouble:
    """A device stopped answering (`fault`: "not_answering", "irq_wire"); the screens say so
    in the language of the game shown (`Device.trouble`)."""

    device: Device
    fault: Fault


@dataclass(frozen=True, slots=True)
class Recovered:
    device: Device


@dataclass(frozen=True, slots=True)
class Tick:
    """The clock moved: notices may expire, the watchdog is pinged."""


@dataclass(frozen=True, slots=True)
class Ask:
    """The web app's question for the game thread (firmware/web/live.py): `fn()` runs there,
    between two events, and its answer (or exception) goes into `answer`, a
    concurrent.futures.Future. The companion never sees it."""

    fn: Callable[[], Any]
    answer: Future[Any]

    def run(self) -> None:
        try:
            self.answer.set_result(self.fn())
        except Exception as err:  # the asker gets it; the loop goes on
            self.answer.set_exception(err)


Event = Tap | Press | Crowded | Trouble | Recovered | Tick | Ask
