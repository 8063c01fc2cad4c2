"""`Display`: one OLED as the firmware sees it; takes images, never crashes its caller.

A display that fails (unplugged, bus error, absent at start-up) is marked failing and
retried with back-off; the caller's `show()` just returns False meanwhile.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import luma.core.error
from PIL import Image

from hardware.display.bus import BusMeter
from hardware.display.chip import OledChip

log = logging.getLogger(__name__)

# Errors a display raises while closing that are only logged. Opening and showing mark the
# display failing on any exception: below luma are smbus2, spidev and a GPIO library
# (RPi.GPIO raises RuntimeError on a Pi 5, lgpio its own `lgpio.error`), and one display
# must never stop the table.
DISPLAY_ERRORS = (OSError, RuntimeError, luma.core.error.Error)
FIRST_RETRY_S = 0.5
LONGEST_RETRY_S = 8.0


@dataclass
class DisplayHealth:
    """How a display is doing: `ok`, how often it failed, and the last error as a sentence."""

    ok: bool = True
    failures: int = 0
    recoveries: int = 0
    last_error: str = ""


class Display:
    """One OLED: `show(image)`, `clear()`, `health`, `close()`.

    `open_device` builds the luma device (and sends its init sequence); it is called again
    after a failure, once the back-off has passed. Emulated displays also have `chip`
    (the decoded controller, see `frame()`) and `meter` (their bus traffic).
    """

    def __init__(
        self,
        open_device: Callable[[], Any],
        *,
        role: str,
        name: str,
        size: tuple[int, int],
        chip: OledChip | None = None,
        meter: BusMeter | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.role = role
        self.name = name
        self.size = size
        self.chip = chip
        self.meter = meter
        self.health = DisplayHealth()
        self.closed = False
        self._open_device = open_device
        self._clock = clock
        self._device: Any = None
        self._retry_at = 0.0
        self._retry_s = FIRST_RETRY_S
        self._reach_device()

    def show(self, image: Image.Image) -> bool:
        """Put a 1-bit image of the display's size on the screen; False if it failed.

        Only what changed since the last image goes over the bus.
        """
        if image.size != self.size:
            raise ValueError(
                f"{self.name} takes {self.size[0]}x{self.size[1]} images, "
                f"not {image.size[0]}x{image.size[1]}"
            )
        if self.closed:
            raise ValueError(f"{self.name} is closed")
        image = image if image.mode == "1" else image.convert("1")
        if self._device is None and not self._reach_device():
            return False
        try:
            self._device.display(image)
        except Exception as err:  # a bus or GPIO library error: the display fails, not the table
            self._failed(err)
            return False
        return True

    def invalidate(self) -> None:
        """Forget what the screen shows: the next `show()` sends the whole frame."""
        if self._device is not None:
            self._device.invalidate()

    def clear(self) -> bool:
        """Blank the screen."""
        return self.show(Image.new("1", self.size))

    def frame(self) -> Image.Image:
        """The emulated controller's pixels, decoded from the bytes the driver sent."""
        if self.chip is None:
            raise ValueError(f"{self.name} is a real display: its pixels cannot be read back")
        return self.chip.frame()

    @property
    def counters(self) -> dict[str, Any]:
        """Bus traffic of this display (emulated only; empty on real hardware)."""
        return self.meter.snapshot() if self.meter is not None else {}

    def close(self, keep_image: bool = False) -> None:
        """Switch the screen off (or, with `keep_image`, leave the last image showing) and
        release its bus; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        device, self._device = self._device, None
        if device is not None:
            device.persist = keep_image  # luma's cleanup() clears the screen unless persist
            try:
                device.cleanup()
            except DISPLAY_ERRORS as err:
                log.info("%s: %s while closing", self.name, err)

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Display {self.name} {'ok' if self.health.ok else 'failing'}>"

    def _reach_device(self) -> bool:
        if self._clock() < self._retry_at:
            return False
        try:
            self._device = self._open_device()
        except Exception as err:  # opening runs luma's and the bus libraries' set-up code:
            self._failed(err)  # whatever it raises, one display must not stop the table
            return False
        if not self.health.ok:
            self.health.ok = True
            self.health.recoveries += 1
            self._retry_s = FIRST_RETRY_S
            log.warning("%s answers again", self.name)
        return True

    def _failed(self, err: Exception) -> None:
        self.health.failures += 1
        self.health.last_error = f"{type(err).__name__}: {err}"
        if self.health.ok:
            log.warning("%s failed: %s", self.name, self.health.last_error)
        self.health.ok = False
        # Reopening sends the init sequence again: the module may have lost power.
        self._device = None
        self._retry_at = self._clock() + self._retry_s
        self._retry_s = min(self._retry_s * 2, LONGEST_RETRY_S)
