"""Build a whole table from its profile: readers and scanner, displays, buttons, buzzer.

    table = build_table(load_profile("full-table"), "emulated")
    table.displays["stake-0"].show(image)
    table.buttons["ok"].when_pressed = on_ok
    for event in table.scanner.cycle(): ...
    table.pads["stake-0"].place(Ntag("04a1b2c3d4e5f6", card_id="arcana:fire-dragon"))
    table.press("ok")

Real and emulated tables run the same build loop, drivers and adapters; only the bus factory
differs (`hardware.buses`: the Pi's Blinka, luma and lgpio, or the emulators and gpiozero's
`MockFactory`), as gpiozero's devices differ only by their pin factory.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hardware.buses import Buses, ReaderWires, open_buses
from hardware.buses.emulated import EmulatedBuses
from hardware.controls import Button, Buzzer, Encoder, hold_down, let_go, press, turn
from hardware.display import Display, DisplaySpec, EmulatedWiring
from hardware.nfc.reader import Reader
from hardware.nfc.scanner import Scanner
from hardware.profile import Profile, ReaderSpec

log = logging.getLogger(__name__)


@dataclass
class TableDevices:
    """Everything a table has, by role, and the bus factory (`buses`) it was built on.
    Emulated tables add `pads` (the `EmulatedPN532` under each pad), `wiring` (the display
    buses), `nfc_buses` (the readers'), `pin_factory` and the finger methods."""

    profile: Profile
    emulated: bool
    readers: dict[str, Reader] = field(default_factory=dict)
    scanner: Scanner | None = None
    displays: dict[str, Display] = field(default_factory=dict)
    display_specs: dict[str, DisplaySpec] = field(default_factory=dict)  # as opened
    buttons: dict[str, Button] = field(default_factory=dict)
    buzzer: Buzzer | None = None
    encoder: Encoder | None = None
    pads: dict[str, Any] = field(default_factory=dict)
    nfc_buses: list[Any] = field(default_factory=list)
    wiring: EmulatedWiring | None = None
    pin_factory: Any = None
    buses: Buses | None = None
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

    def unplug_display(self, role: str) -> None:
        """Pull an emulated I2C display off its bus: its next transfer fails (a NACK)."""
        spec = self._emulated_i2c_display(role)
        self.wiring.i2c_bus(spec.bus).unplug(spec.address)

    def plug_display(self, role: str) -> None:
        """Put an emulated I2C display pulled by `unplug_display` back."""
        spec = self._emulated_i2c_display(role)
        self.wiring.i2c_bus(spec.bus).plug(spec.address)

    def _emulated_i2c_display(self, role: str) -> DisplaySpec:
        if self.wiring is None:
            raise ValueError("only an emulated table's displays can be unplugged from code")
        spec = self.display_specs.get(role)
        if spec is None or spec.interface != "i2c":
            raise ValueError(f"this table has no I2C display {role!r}")
        return spec

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
        if self.buses is not None:
            self.buses.close()

    def __enter__(self) -> TableDevices:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def build_table(
    profile: Profile,
    buses: Buses | str | None = None,
    *,
    emulated: bool | None = None,
    pin_factory=None,
    reader_timeout_s: float = 0.1,
    clock: Callable[[], float] = time.monotonic,
) -> TableDevices:
    """The table a profile describes, on the buses of a factory (see `hardware.buses`).

    `buses` is a `Buses` or its kind ("real", "emulated"); None chooses from
    $ARCANA_TABLE_BUSES, then the profile's `[table] buses`, then real. `emulated=True` (the
    commands' `--emulated`) is short for "emulated". `pin_factory` overrides an emulated
    factory's `MockFactory`; `clock` is the scanner's (absence time) and the displays' (retry
    back-off).
    """
    if not isinstance(buses, Buses):
        kind = "emulated" if emulated else buses
        options = {"pin_factory": pin_factory} if pin_factory is not None else {}
        buses = open_buses(kind, profile.buses, **options)
    table = TableDevices(profile, buses.emulated, buses=buses, pin_factory=buses.pin_factory)
    try:
        _build(table, buses, reader_timeout_s, clock)
    except BaseException:
        table.close()
        raise
    if isinstance(buses, EmulatedBuses):
        table.pads, table.wiring, table.nfc_buses = buses.pads, buses.wiring, buses.nfc_buses
    return table


def _build(table: TableDevices, buses: Buses, timeout_s: float, clock: Callable[[], float]) -> None:
    profile = table.profile
    # Every reader's wires first: claiming a chip-select drives it high, so no PN532 is
    # selected (its line at the power-on pull-down) while another one is being started.
    wires = {spec.role: buses.reader_wires(spec, profile.mux) for spec in profile.readers}
    for spec in profile.readers:
        table.readers[spec.role] = _reader(spec, wires[spec.role], timeout_s)
    for spec in profile.displays:
        if spec.mux_channel is not None and profile.mux is not None:
            number = buses.mux_channel_bus(profile.mux, spec.mux_channel)
            spec = replace(spec, bus=number, mux_channel=None)
        table.display_specs[spec.role] = spec
        table.displays[spec.role] = buses.display(spec, clock)
    factory = buses.pin_factory
    for spec in profile.buttons:
        table.buttons[spec.role] = Button(
            spec.pin, spec.role, pull_up=spec.pull_up, hold_s=spec.hold_s, pin_factory=factory
        )
    if profile.buzzer is not None:
        table.buzzer = Buzzer(
            profile.buzzer.pin, active_high=profile.buzzer.active_high, pin_factory=factory
        )
    if profile.encoder is not None:
        table.encoder = Encoder(profile.encoder.a, profile.encoder.b, pin_factory=factory)
    table.scanner = Scanner(
        list(table.readers.values()),
        absence_s=profile.absence_s,
        one_field_at_a_time=profile.one_field_at_a_time,
        clock=clock,
    )


def _reader(spec: ReaderSpec, wires: ReaderWires, timeout_s: float) -> Reader:
    options: dict[str, Any] = dict(name=spec.role, timeout_s=timeout_s, reset=wires.reset)
    if spec.interface == "spi":
        return Reader.over_spi(
            wires.bus, wires.cs, irq=wires.irq, baudrate=spec.clock_hz, **options
        )
    if spec.interface == "uart":
        return Reader.over_uart(wires.bus, **options)
    return Reader.over_i2c(
        wires.bus,
        spec.address,
        channel=wires.channel,
        mux_address=wires.mux_address,
        irq=wires.irq,
        req=wires.req,
        **options,
    )
