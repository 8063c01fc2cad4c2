"""Build a whole table from its profile: readers and scanner, displays, buttons, buzzer.

    table = build_table(load_profile("full-table"), emulated=True)
    table.displays["stake-0"].show(image)
    table.buttons["ok"].when_pressed = on_ok
    for event in table.scanner.cycle(): ...
    table.pads["stake-0"].place(Ntag("04a1b2c3d4e5f6", card_id="arcana:fire-dragon"))
    table.press("ok")

Real and emulated tables run the same drivers and adapters; only the buses differ (Blinka
`busio`/`digitalio` and luma's serial interfaces on the Pi; `hardware.nfc.buses`,
`hardware.display` emulated buses and gpiozero's `MockFactory` otherwise).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.controls import Button, Buzzer, Encoder, hold_down, let_go, press, turn
from hardware.display import Display, EmulatedWiring, open_display
from hardware.nfc.reader import Reader
from hardware.nfc.scanner import Scanner
from hardware.profile import Profile, ReaderSpec

log = logging.getLogger(__name__)


@dataclass
class Table:
    """Everything a table has, by role. Emulated tables add `pads` (the `EmulatedPN532`
    under each pad), `wiring` (the display buses), `pin_factory` and the finger methods."""

    profile: Profile
    emulated: bool
    readers: dict[str, Reader] = field(default_factory=dict)
    scanner: Scanner | None = None
    displays: dict[str, Display] = field(default_factory=dict)
    buttons: dict[str, Button] = field(default_factory=dict)
    buzzer: Buzzer | None = None
    encoder: Encoder | None = None
    pads: dict[str, Any] = field(default_factory=dict)
    nfc_buses: list[Any] = field(default_factory=list)
    wiring: EmulatedWiring | None = None
    pin_factory: Any = None
    closed: bool = False

    # -- the emulated finger ----------------------------------------------------------------

    def press(self, role: str) -> None:
        """Press and release an emulated button."""
        press(self._emulated_button(role))

    def hold_down(self, role: str) -> None:
        """Push an emulated button and keep it down until `let_go(role)`."""
        hold_down(self._emulated_button(role))

    def let_go(self, role: str) -> None:
        let_go(self._emulated_button(role))

    def turn(self, steps: int) -> None:
        """Turn the emulated encoder by `steps` detents (negative: anticlockwise)."""
        if not self.emulated or self.encoder is None:
            raise ValueError("only an emulated table with an encoder can be turned by hand")
        turn(self.encoder, steps)

    def _emulated_button(self, role: str) -> Button:
        if not self.emulated:
            raise ValueError("only an emulated table's buttons can be pressed from code")
        if role not in self.buttons:
            known = ", ".join(self.buttons) or "none"
            raise ValueError(f"this table has no {role!r} button; it has: {known}")
        return self.buttons[role]

    # -- life cycle -------------------------------------------------------------------------

    def close(self) -> None:
        """Close every device; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        parts: list[Any] = [
            *self.readers.values(),
            *self.displays.values(),
            *self.buttons.values(),
            self.buzzer,
            self.encoder,
        ]
        for part in parts:
            if part is None:
                continue
            try:
                part.close()
            except Exception:  # one stuck device must not keep the others open
                log.exception("closing %r failed", part)
        if self.pin_factory is not None and self.emulated:
            self.pin_factory.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def build_table(
    profile: Profile,
    emulated: bool = True,
    *,
    pin_factory=None,
    reader_timeout_s: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
) -> Table:
    """The table a profile describes, on emulated buses or (emulated=False) the Pi's own.

    `pin_factory` overrides gpiozero's (emulated default: a fresh `MockFactory`); `clock`
    is the scanner's (absence time) and the displays' (retry back-off).
    """
    if emulated and pin_factory is None:
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    table = Table(profile, emulated, pin_factory=pin_factory)
    try:
        if emulated:
            table.wiring = EmulatedWiring()
            _emulated_readers(table, reader_timeout_s)
        else:
            _real_readers(table, reader_timeout_s)
        for spec in profile.displays:
            table.displays[spec.role] = open_display(spec, table.wiring, clock=clock)
        for spec in profile.buttons:
            table.buttons[spec.role] = Button(
                spec.pin,
                spec.role,
                pull_up=spec.pull_up,
                hold_s=spec.hold_s,
                pin_factory=pin_factory,
            )
        if profile.buzzer is not None:
            table.buzzer = Buzzer(
                profile.buzzer.pin, active_high=profile.buzzer.active_high, pin_factory=pin_factory
            )
        if profile.encoder is not None:
            table.encoder = Encoder(profile.encoder.a, profile.encoder.b, pin_factory=pin_factory)
        table.scanner = Scanner(
            list(table.readers.values()),
            absence_s=profile.absence_s,
            one_field_at_a_time=profile.one_field_at_a_time,
            clock=clock,
        )
    except BaseException:
        table.close()
        raise
    return table


# -- readers on emulated buses ------------------------------------------------------------


def _emulated_readers(table: Table, timeout_s: float) -> None:
    from hardware.nfc.buses import (
        EmulatedI2C,
        EmulatedPin,
        EmulatedSPI,
        EmulatedTCA9548A,
        EmulatedUART,
    )
    from hardware.nfc.emulator import EmulatedPN532

    spi_ports: dict[int, EmulatedSPI] = {}
    i2c_buses: dict[int, EmulatedI2C] = {}
    muxes: dict[int, EmulatedTCA9548A] = {}
    mux = table.profile.mux
    for spec in table.profile.readers:
        chip = EmulatedPN532(name=spec.role)
        table.pads[spec.role] = chip
        irq = chip.irq if spec.irq is not None else None
        options = dict(name=spec.role, irq=irq, timeout_s=timeout_s)
        if spec.interface == "spi":
            port = spi_ports.setdefault(spec.bus, EmulatedSPI())
            cs = EmulatedPin(f"GPIO{spec.cs}")
            port.attach(chip, cs)
            reader = Reader.over_spi(port, cs, baudrate=spec.clock_hz, **options)
        elif spec.interface == "i2c":
            bus_number, channel = _i2c_route(spec, table.profile)
            bus = i2c_buses.setdefault(bus_number, EmulatedI2C(frequency=spec.clock_hz))
            if channel is None:
                bus.attach(chip, spec.address)
            else:
                if bus_number not in muxes:
                    muxes[bus_number] = EmulatedTCA9548A(bus, address=mux.address)
                muxes[bus_number].attach(channel, chip, spec.address)
            reader = Reader.over_i2c(
                bus,
                spec.address,
                channel=channel,
                mux_address=mux.address if mux else 0x70,
                **options,
            )
        else:
            uart = EmulatedUART(chip, baudrate=spec.baudrate)
            table.nfc_buses.append(uart)
            del options["irq"]
            reader = Reader.over_uart(uart, **options)
        table.readers[spec.role] = reader
    table.nfc_buses += [*spi_ports.values(), *i2c_buses.values()]


def _i2c_route(spec: ReaderSpec, profile: Profile) -> tuple[int, int | None]:
    """(bus to open, channel to select): a kernel-driven multiplexer channel is its own bus."""
    if spec.mux_channel is None:
        return spec.bus, None
    if profile.mux is not None and profile.mux.kernel_buses:
        return profile.mux.kernel_buses[spec.mux_channel], None
    return spec.bus, spec.mux_channel


# -- readers on the Pi's buses (Blinka) ----------------------------------------------------


def _real_readers(table: Table, timeout_s: float) -> None:
    """Readers through Blinka; runs only on a Pi (board/busio need the real GPIO chip)."""
    import board
    import busio
    import digitalio

    def pin(number: int | None):
        if number is None:
            return None
        line = digitalio.DigitalInOut(getattr(board, f"D{number}"))
        return line

    spi_ports: dict[int, Any] = {}
    i2c_buses: dict[int, Any] = {}
    mux = table.profile.mux
    for spec in table.profile.readers:
        options = dict(name=spec.role, timeout_s=timeout_s)
        if spec.interface == "spi":
            if spec.bus not in spi_ports:
                suffix = "" if spec.bus == 0 else "_1"
                spi_ports[spec.bus] = busio.SPI(
                    getattr(board, f"SCK{suffix}"),
                    getattr(board, f"MOSI{suffix}"),
                    getattr(board, f"MISO{suffix}"),
                )
            reader = Reader.over_spi(
                spi_ports[spec.bus],
                pin(spec.cs),
                irq=pin(spec.irq),
                reset=pin(spec.reset),
                baudrate=spec.clock_hz,
                **options,
            )
        elif spec.interface == "i2c":
            bus_number, channel = _i2c_route(spec, table.profile)
            if bus_number not in i2c_buses:
                i2c_buses[bus_number] = _linux_i2c(bus_number, spec.clock_hz)
            reader = Reader.over_i2c(
                i2c_buses[bus_number],
                spec.address,
                channel=channel,
                mux_address=mux.address if mux else 0x70,
                irq=pin(spec.irq),
                reset=pin(spec.reset),
                **options,
            )
        else:
            import serial

            uart = serial.Serial(spec.port, baudrate=spec.baudrate, timeout=timeout_s)
            reader = Reader.over_uart(uart, reset=pin(spec.reset), **options)
        table.readers[spec.role] = reader


def _linux_i2c(number: int, frequency: int):
    """A busio.I2C-compatible object on /dev/i2c-N (bus 1 is the header's SDA/SCL)."""
    import busio

    if number == 1:
        import board

        return busio.I2C(board.SCL, board.SDA, frequency=frequency)
    with contextlib.suppress(ImportError):
        from adafruit_extended_bus import ExtendedI2C

        return ExtendedI2C(number, frequency=frequency)
    # What adafruit_extended_bus does: Blinka's Linux I2C on a bus number.
    import threading

    from adafruit_blinka.microcontroller.generic_linux.i2c import I2C as LinuxI2C

    class NumberedI2C(busio.I2C):
        def __init__(self) -> None:  # busio.I2C's own __init__ insists on board pins
            self._i2c = LinuxI2C(number, mode=LinuxI2C.MASTER, baudrate=frequency)
            self._lock = threading.RLock()

    return NumberedI2C()
