"""A whole table on emulated hardware, running the companion: the demo, the web simulator
and the end-to-end tests all play through this.

A tap places an emulated NTAG on the pad's emulated PN532; the real adafruit driver reads it
through the scanner, the companion handles it, and luma draws into emulated displays whose
decoded frames `screens()` returns.

    top = EmulatedTable(state_dir, games=GameShelf())
    top.tap("stake-2", "blades_agent_3")
    top.press("ok")
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections import deque
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from PIL import Image

from firmware.companion import Companion, Games
from firmware.events import Event, Tick
from firmware.inputs import from_scanner, wire_buttons
from firmware.journal import Journal
from firmware.steps import Step
from hardware.nfc.scanner import Scanner
from hardware.nfc.tags import Ntag
from hardware.profile import Profile, load_profile
from hardware.table import TableDevices, build_table


class ManualClock:
    """A clock that moves only when told to, so emulated time costs no real time."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def uid_for(card: str) -> str:
    """The 7-byte NTAG UID an emulated card carries (stable, manufacturer byte 0x04)."""
    return "04" + hashlib.sha1(card.encode()).hexdigest()[:12]


class EmulatedTable:
    """An emulated table with the companion running on it, driven one step at a time."""

    def __init__(
        self,
        state_dir: Path | str,
        games: Games,
        profile: Profile | str = "full-table",
        *,
        written_ids: bool | Collection[str] = True,
        hold_s: float = 0.05,
        displays: Callable[[TableDevices], Mapping[str, Any]] | None = None,
    ) -> None:
        """`displays`: what the companion draws on, made from the table's devices (default
        the table's own; the web app's bench wraps them as `arcana-table run` does)."""
        profile = load_profile(profile) if isinstance(profile, str) else profile
        profile = _with_hold(profile, hold_s)
        self.clock = ManualClock()
        # The displays' retry back-off runs on the same manual clock as the notices.
        self.table: TableDevices = build_table(profile, emulated=True, clock=self.clock)
        # Same readers, but on the manual clock (the table's own scanner is left unused).
        self.scanner = Scanner(
            list(self.table.readers.values()),
            absence_s=profile.absence_s,
            one_field_at_a_time=profile.one_field_at_a_time,
            clock=self.clock,
            watch_period=False,  # cycles run per tap, not on a period: nothing to warn about
        )
        self.absence_s = profile.absence_s
        self.written_ids = written_ids
        self.tap_latencies: list[float] = []  # seconds, tag placed -> last display byte
        self.inbox: deque[Event] = deque()
        wire_buttons(self.table.buttons, self.inbox.append)
        self.journal = Journal.open(state_dir)
        self.displays = dict(self.table.displays if displays is None else displays(self.table))
        self.companion = Companion(
            self.displays, self.journal, games, buzzer=self.table.buzzer, clock=self.clock
        )
        self.companion.start()
        self.settle()

    # -- the players' hands -----------------------------------------------------------------
    def tag_for(self, card: str) -> Ntag:
        """The card's emulated tag: with its id written on it, or bare (bound by UID).

        `written_ids` is True (every tag carries its id), False (none does) or the set of
        cards whose tags carry it.
        """
        if isinstance(self.written_ids, bool):
            written = self.written_ids
        else:
            written = card in self.written_ids
        return Ntag(uid_for(card), card_id=card if written else None)

    def tap(self, pad: str, card: str | Ntag) -> None:
        """Put a card on a pad, let the table read it, and take it away again."""
        chip = self.table.pads[pad]
        tag = card if isinstance(card, Ntag) else self.tag_for(card)
        started = time.perf_counter()
        chip.place(tag)
        self.settle()  # read, handled, journalled and drawn: the tap-to-screen latency
        self.tap_latencies.append(time.perf_counter() - started)
        chip.remove(tag.uid)
        self.clock.advance(self.absence_s + 0.01)
        self.settle()

    def press(self, button: str, held: bool = False) -> None:
        """Press a button (or hold it down past its hold time) on its emulated pin."""
        if not held:
            self.table.press(button)
        else:
            pressed = self.table.buttons[button]
            before = pressed.holds
            self.table.hold_down(button)
            deadline = time.monotonic() + 30.0  # a loaded machine can be slow; ends at the hold
            while pressed.holds == before and time.monotonic() < deadline:
                time.sleep(0.005)  # gpiozero's hold timer runs on real time
            self.table.let_go(button)
        self.settle()

    def perform(self, step: Step) -> None:
        """Carry out one step: a tap of its card on its pad, or a press (held or not)."""
        if step.kind == "tap":
            assert step.card is not None  # a Step's tap always has its card
            self.tap(step.target, step.card)
        else:
            self.press(step.target, held=step.held)

    def wait(self, seconds: float) -> None:
        """Let emulated time pass (notices expire)."""
        self.clock.advance(seconds)
        self.inbox.append(Tick())
        self.settle()

    # -- the table ----------------------------------------------------------------------------
    def settle(self) -> None:
        """One scan cycle, then every pending event through the companion."""
        for tag_event in self.scanner.cycle():
            event = from_scanner(tag_event)
            if event is not None:
                self.inbox.append(event)
        while self.inbox:
            self.handle(self.inbox.popleft())

    def handle(self, event: Event) -> None:
        """One event through the companion (a subclass may watch it, as a loop's hooks do)."""
        self.companion.handle(event)

    def screens(self) -> dict[str, Image.Image]:
        """What each emulated display shows now: the frame the driver's bytes produced."""
        return {role: display.frame() for role, display in self.table.displays.items()}

    def close(self) -> None:
        self.scanner.close()
        self.table.close()
        self.journal.close()

    def __enter__(self) -> EmulatedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _with_hold(profile: Profile, hold_s: float) -> Profile:
    buttons = tuple(dataclasses.replace(b, hold_s=hold_s) for b in profile.buttons)
    return dataclasses.replace(profile, buttons=buttons)


__all__ = ["EmulatedTable", "ManualClock", "uid_for"]
