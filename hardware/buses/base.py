"""The abstract side of the bus factories: `Buses`, what a reader is wired to
(`ReaderWires`), the I2C route through a multiplexer and `BusUnavailable`. The
implementations (hardware/buses/emulated.py, pi.py) import this module, never the package
`hardware.buses`, whose factory imports them: so no import circle."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hardware.errors import HardwareError

if TYPE_CHECKING:
    from hardware.display.screen import Display
    from hardware.display.spec import DisplaySpec
    from hardware.profile.specs import MuxSpec, ReaderSpec

KINDS = ("real", "emulated")


class BusUnavailable(HardwareError, OSError):
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
