"""Buttons (press, hold), an optional rotary encoder and an optional buzzer, via gpiozero.

Every device takes gpiozero's `pin_factory` (None: gpiozero's default, chosen by the
`GPIOZERO_PIN_FACTORY` environment variable, lgpio on a Pi); tests and the emulated table
pass a `MockFactory`, whose pins the emulated finger drives (`press`, `turn`).

A callback that raises is logged and forgotten: one bad handler never silences a button.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

import gpiozero

log = logging.getLogger(__name__)

# Buzzer patterns: (seconds on, seconds off) steps. Distinct by ear: one chirp for a card
# taken, two for a card the table does not know, one long buzz for a move refused.
PATTERNS: dict[str, tuple[tuple[float, float], ...]] = {
    "ok": ((0.06, 0.0),),
    "unknown": ((0.06, 0.08), (0.06, 0.0)),
    "refused": ((0.45, 0.0),),
}


def _call(name: str, callback: Callable[..., Any] | None, *args: Any) -> None:
    if callback is None:
        return
    try:
        callback(*args)
    except Exception:
        log.exception("%s: a callback failed", name)


class Button:
    """One push button wired between a GPIO pin and ground (or 3V3 with `pull_up=False`).

    Set `when_pressed`, `when_held` (after `hold_s` still down) and `when_released`; each
    is called with the button. `presses` and `holds` count what happened.
    """

    def __init__(
        self,
        pin: int,
        role: str,
        *,
        pull_up: bool = True,
        hold_s: float = 1.0,
        bounce_s: float | None = None,
        pin_factory=None,
    ) -> None:
        self.role = role
        self.pin_number = pin
        self.pull_up = pull_up
        self.when_pressed: Callable[[Button], Any] | None = None
        self.when_held: Callable[[Button], Any] | None = None
        self.when_released: Callable[[Button], Any] | None = None
        self.presses = 0
        self.holds = 0
        self.device = gpiozero.Button(
            pin, pull_up=pull_up, bounce_time=bounce_s, hold_time=hold_s, pin_factory=pin_factory
        )
        self.device.when_pressed = self._pressed
        self.device.when_held = self._held
        self.device.when_released = self._released

    @property
    def name(self) -> str:
        return f"button {self.role} (GPIO{self.pin_number})"

    @property
    def is_pressed(self) -> bool:
        return bool(self.device.is_pressed)

    def close(self) -> None:
        """Release the pin; safe to call twice."""
        self.device.close()

    def __enter__(self) -> Button:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _pressed(self) -> None:
        self.presses += 1
        _call(self.name, self.when_pressed, self)

    def _held(self) -> None:
        self.holds += 1
        _call(self.name, self.when_held, self)

    def _released(self) -> None:
        _call(self.name, self.when_released, self)


class Encoder:
    """A two-pin rotary encoder; `when_turned(step)` gets +1 clockwise, -1 anticlockwise."""

    def __init__(self, a: int, b: int, *, pin_factory=None) -> None:
        self.pins = (a, b)
        self.when_turned: Callable[[int], Any] | None = None
        self.steps = 0
        self.device = gpiozero.RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        self.device.when_rotated_clockwise = lambda: self._turned(1)
        self.device.when_rotated_counter_clockwise = lambda: self._turned(-1)

    @property
    def name(self) -> str:
        return f"encoder (GPIO{self.pins[0]}, GPIO{self.pins[1]})"

    def close(self) -> None:
        self.device.close()

    def _turned(self, step: int) -> None:
        self.steps += step
        _call(self.name, self.when_turned, step)


class Buzzer:
    """An active buzzer: `play("ok" | "unknown" | "refused")` in the background.

    A new pattern cuts the one playing without waiting for it (the game thread never blocks on
    the buzzer): each pattern has its own stop event, and only the current pattern touches
    the pin. `sleep` is injectable so tests can see the durations without waiting for them;
    it returns True when the pattern was cut short.
    """

    def __init__(
        self,
        pin: int,
        *,
        active_high: bool = True,
        pin_factory=None,
        sleep: Callable[[float], bool] | None = None,
    ) -> None:
        self.pin_number = pin
        self.device = gpiozero.DigitalOutputDevice(
            pin, active_high=active_high, pin_factory=pin_factory
        )
        self.played: list[str] = []
        self._stop = threading.Event()
        self._sleep = sleep
        self._player: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return f"buzzer (GPIO{self.pin_number})"

    def play(self, pattern: str, *, wait: bool = False) -> None:
        """Sound a named pattern; `wait=True` returns only when it has finished."""
        if pattern not in PATTERNS:
            raise ValueError(
                f"unknown buzzer pattern {pattern!r}; expected one of {', '.join(PATTERNS)}"
            )
        with self._lock:
            self._stop.set()  # the pattern playing stops at its next step
            self._stop = stop = threading.Event()
            self.played.append(pattern)
            self._player = player = threading.Thread(
                target=self._sound, args=(PATTERNS[pattern], stop), name=self.name, daemon=True
            )
            player.start()
        if wait:
            player.join()

    def close(self) -> None:
        """Stop any pattern and release the pin; safe to call twice."""
        with self._lock:
            self._stop.set()
            player = self._player
        if player is not None:
            player.join()
        self.device.close()

    def _sound(self, steps: Sequence[tuple[float, float]], stop: threading.Event) -> None:
        sleep = self._sleep or stop.wait
        try:
            for on_s, off_s in steps:
                if not self._switch(stop, on=True):
                    return
                cut = sleep(on_s)
                self._switch(stop, on=False)
                if cut or stop.is_set() or (off_s and sleep(off_s)):
                    return
        except gpiozero.GPIOZeroError as err:
            log.warning("%s: %s", self.name, err)

    def _switch(self, stop: threading.Event, on: bool) -> bool:
        """Set the pin if this pattern is still the current one (else leave it alone)."""
        with self._lock:
            if stop is not self._stop or (on and stop.is_set()):
                return False
            if on:
                self.device.on()
            else:
                self.device.off()
            return True


def press(button: Button) -> None:
    """Emulated finger: press and release a button on a mock pin."""
    _drive(button, down=True)
    _drive(button, down=False)


def hold_down(button: Button) -> None:
    """Emulated finger: push a button and keep it down (release with `let_go`)."""
    _drive(button, down=True)


def let_go(button: Button) -> None:
    """Emulated finger: release a button pushed with `hold_down`."""
    _drive(button, down=False)


def _drive(button: Button, *, down: bool) -> None:
    # A pulled-up button reads low while pushed.
    if down == button.pull_up:
        button.device.pin.drive_low()
    else:
        button.device.pin.drive_high()


def turn(encoder: Encoder, steps: int) -> None:
    """Emulated finger: turn the encoder `steps` detents (negative: anticlockwise)."""
    a, b = encoder.device.a.pin, encoder.device.b.pin
    first, second = (a, b) if steps > 0 else (b, a)
    for _ in range(abs(steps)):
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()
