"""What the table's displays show: the controller's screens, a notice over them, or trouble.

The companion handles events and keeps what the screens need (the controller's screen
models, the notices, the devices in trouble); this module turns those into images and sends
them, one per display:

    drawing = Drawing(displays, roles, single_pad=None)
    images = drawing.frames(controller.screens(), notices, troubles)
    failed = [role for role, ok in drawing.send(images, notices).items() if not ok]

A notice is a value (`Notice`: what kind, what it says, until when), made where it happens
and drawn here; a device is a `Device(kind, role)`, never a string to cut apart.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from PIL import Image

from firmware.events import Device, Fault
from firmware.language import text as tr
from firmware.screens import (
    SIZE_128X64,
    SIZES,
    DeviceTroubleScreen,
    RefusalScreen,
    Screen,
    UndoScreen,
    UnknownCardScreen,
    render,
)

log = logging.getLogger(__name__)

SINGLE = "main"  # the role of the only pad and screen of a minimal table
UNKNOWN_CARD = "Unknown card - enroll it"  # en.toml's notice.unknown_card, as the tests read it

NoticeKind = Literal["refusal", "unknown_card", "undone", "redone"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A short notice over a role's screen until `until` (the companion's clock).

    `kind` says what it is: a refusal (`detail` is the sentence), an unknown card, or an
    undone or redone action (`detail` describes the action in a few words).
    """

    kind: NoticeKind
    detail: str = ""
    until: float = 0.0

    @property
    def message(self) -> str:
        """The notice as one line of text in the current language (the simulator's answers,
        the demo's captions); the detail was said in the game's language where it was made."""
        if self.kind == "unknown_card":
            return tr("notice.unknown_card")
        if self.kind in ("undone", "redone"):
            return f"{tr(f'notice.{self.kind}')}: {self.detail}"
        return self.detail


def notice_screen(notice: Notice) -> Screen:
    """The screen model of a notice: an unknown card, an undo or redo, or a refusal."""
    if notice.kind == "unknown_card":
        return UnknownCardScreen()
    if notice.kind in ("undone", "redone"):
        return UndoScreen(notice.detail, notice.kind.capitalize())
    return RefusalScreen(notice.detail)


def trouble_screen(device: Device, fault: Fault) -> Screen:
    """The screen model of a device in trouble, in the current language: "Reader stake-2 not
    answering"."""
    return DeviceTroubleScreen(device.trouble(fault))


class Health(Protocol):
    ok: bool


class Display(Protocol):
    """A display as the companion sees it (hardware.display.Display fits)."""

    size: tuple[int, int]
    health: Health  # `ok` is False while the display does not answer

    def show(self, image: Image.Image) -> object: ...


class SinglePad:
    """A minimal table's one pad and one screen stand for every role in turn.

    Holding Select moves to the next role (status, stake-0, stake-1, ...): the screen shows
    that role and a tap on the pad counts as a tap on its pad. A notice (a refusal, an
    unknown card) is shown whatever the role, the newest first.
    """

    def __init__(self, roles: tuple[str, ...]) -> None:
        self.roles = roles
        self.index = 0

    @property
    def focus(self) -> str:
        return self.roles[self.index]

    def next(self) -> None:
        self.index = (self.index + 1) % len(self.roles)

    def shown(self, notices: Mapping[str, Notice]) -> str:
        if notices:
            return max(notices, key=lambda role: notices[role].until)
        return self.focus


class Drawing:
    """The images of a table's screen roles, and sending them to its displays."""

    def __init__(
        self,
        displays: Mapping[str, Display],
        roles: tuple[str, ...],
        single_pad: SinglePad | None = None,
    ) -> None:
        self.displays = displays
        self.roles = roles  # every role drawn (a minimal table: all the full table's)
        self.single_pad = single_pad

    def size(self, role: str) -> tuple[int, int]:
        """The pixel size of the display showing a role (128x64 unless it says otherwise)."""
        display = self.displays.get(SINGLE if self.single_pad is not None else role)
        size = None if display is None else display.size
        return size if size in SIZES else SIZE_128X64

    def frames(
        self,
        models: Mapping[str, Screen],
        notices: Mapping[str, Notice],
        troubles: Mapping[Device, Fault],
    ) -> dict[str, Image.Image]:
        """The image of every role: its screen model, a notice over it, or its reader's
        trouble."""
        frames = {}
        for role in self.roles:
            size = self.size(role)
            notice = notices.get(role)
            reader = Device("reader", role)
            if notice is not None:
                image = render(notice_screen(notice), size)
            elif reader in troubles:
                image = render(trouble_screen(reader, troubles[reader]), size)
            elif role in models:
                image = render(models[role], size)
            else:
                image = Image.new("1", size)  # nothing to show: dark
            frames[role] = image
        return frames

    def send(
        self, frames: Mapping[str, Image.Image], notices: Mapping[str, Notice]
    ) -> dict[str, bool]:
        """Send each display its frame (a minimal table's: the newest notice, else the role
        in focus); whether each display took it. A failing display never raises."""
        if self.single_pad is None:
            return {role: _show(role, d, frames[role]) for role, d in self.displays.items()}
        role = self.single_pad.shown(notices)
        return {SINGLE: _show(SINGLE, self.displays[SINGLE], frames[role])}


def _show(role: str, display: Display, image: Image.Image) -> bool:
    try:
        display.show(image)
    except Exception as err:  # any device error: report it and go on
        log.warning("display %s failed: %s", role, err)
        return False
    return bool(display.health.ok)


__all__ = [
    "SINGLE",
    "UNKNOWN_CARD",
    "Display",
    "Drawing",
    "Notice",
    "SinglePad",
    "notice_screen",
    "trouble_screen",
]
