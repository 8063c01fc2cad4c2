"""Bus factories: where a table's readers, displays and buttons get their buses and pins.

    buses = open_buses("emulated")        # or "real"; None: $ARCANA_TABLE_BUSES, the
                                          # profile's [table] buses, then real
    table = build_table(profile, buses)   # one build loop, whatever the buses are

Like gpiozero's pin factories (`GPIOZERO_PIN_FACTORY`): the table's code is the same on every
machine, and only the factory knows whether a bus is the Pi's or emulated.

- `PiBuses` ("real"): Blinka's `busio`/`digitalio` for the PN532s, pyserial for UART readers,
  luma's I2C (smbus2) and SPI (spidev + rpi-lgpio's RPi.GPIO API) interfaces for the OLEDs,
  gpiozero's default pin factory (lgpio) for buttons. The libraries are imported when a
  device is opened, never at import time: commands that need no hardware start anywhere.
- `EmulatedBuses` ("emulated"): the project's PN532 and OLED emulators on emulated buses and
  gpiozero's `MockFactory`; it also keeps the emulated chips (`pads`) for tests and the demo.

A bus that the Pi does not have (SPI or I2C switched off, no UART) raises `BusUnavailable`,
whose message is the fix (`sudo raspi-config nonint do_spi 0`).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hardware.display.screen import Display
    from hardware.display.spec import DisplaySpec
    from hardware.profile.specs import MuxSpec, ReaderSpec

BUSES_ENV = "ARCANA_TABLE_BUSES"
KINDS = ("real", "emulated")


class BusUnavailable(OSError):
    """A bus or device node the profile needs does not exist; the message says how to fix it."""


@dataclass
class ReaderWires:
    """What one PN532 is wired to: a busio-like I2C or SPI bus (or a serial port), and the
    DigitalInOut-like lines. `channel` is a TCA9548A channel that our code switches."""

    bus: Any
    cs: Any = None
    irq: Any = None
    reset: Any = None
    req: Any = None
    channel: int | None = None
    mux_address: int = 0x70


class Buses(ABC):
    """The buses and pins of one table; `close()` releases what the factory opened."""

    kind: str = ""
    pin_factory: Any = None  # gpiozero's pin factory; None: gpiozero's default

    @abstractmethod
    def reader_wires(self, spec: ReaderSpec, mux: MuxSpec | None) -> ReaderWires:
        """The bus and lines of one reader; a chip-select comes back claimed and high."""

    @abstractmethod
    def display(self, spec: DisplaySpec, clock: Callable[[], float]) -> Display:
        """A `Display` for `spec` (an absent display is a failing one, not an error)."""

    @abstractmethod
    def mux_channel_bus(self, mux: MuxSpec, channel: int) -> int:
        """The `/dev/i2c-N` number of a kernel-driven multiplexer channel."""

    @abstractmethod
    def close(self) -> None:
        """Release the buses; safe to call twice."""

    @property
    def emulated(self) -> bool:
        return self.kind == "emulated"


def i2c_route(spec: ReaderSpec, mux: MuxSpec | None, buses: Buses) -> tuple[int, int | None]:
    """(bus number to open, channel our code selects) of an I2C reader: a channel of a
    kernel-driven multiplexer is its own bus, whose number the factory finds."""
    if spec.mux_channel is None or mux is None:
        return spec.bus, None
    if mux.kernel:
        return buses.mux_channel_bus(mux, spec.mux_channel), None
    return spec.bus, spec.mux_channel


def buses_kind(kind: str | None = None, profile_choice: str | None = None) -> str:
    """`kind`, else $ARCANA_TABLE_BUSES, else the profile's `[table] buses`, else "real".

    ValueError with a sentence if the name is unknown.
    """
    env = os.environ.get(BUSES_ENV) or None
    chosen = kind or env or profile_choice or "real"
    if chosen not in KINDS:
        source = "" if kind else f" (from ${BUSES_ENV})" if env else " (from the profile)"
        raise ValueError(f"unknown buses {chosen!r}{source}; expected one of {', '.join(KINDS)}")
    return chosen


def open_buses(
    kind: str | None = None, profile_choice: str | None = None, **options: Any
) -> Buses:
    """The bus factory named `kind` ("real" or "emulated"; None: see `buses_kind`)."""
    if buses_kind(kind, profile_choice) == "emulated":
        from hardware.buses.emulated import EmulatedBuses

        return EmulatedBuses(**options)
    from hardware.buses.pi import PiBuses

    return PiBuses(**options)
