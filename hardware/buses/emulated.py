"""The emulated buses: an `EmulatedPN532` at the far end of every reader's bus, emulated OLED
controllers behind luma's own interfaces, and gpiozero's `MockFactory` for buttons.

    buses = EmulatedBuses()
    table = build_table(profile, buses)
    buses.pads["stake-0"].place(Ntag("04a1b2c3d4e5f6"))   # the same as table.pads

Each bus is shared as on the wire: SPI readers of one port share an `EmulatedSPI` (each chip
listens while its chip-select is low), I2C readers of one bus number share an `EmulatedI2C`, a
multiplexer that our code switches is an `EmulatedTCA9548A` on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.buses.base import Buses, ReaderWires, i2c_route
from hardware.display import Display, EmulatedWiring, open_display
from hardware.display.spec import DisplaySpec
from hardware.profile.specs import MuxSpec, ReaderSpec

# The numbers a Pi 4 gives the channels of a TCA9548A at 0x70 on i2c-1 (its HDMI ports take
# 20 and 21); an emulated table without `kernel_buses` in its profile uses them.
FIRST_CHANNEL_BUS = 22


class EmulatedBuses(Buses):
    """Emulated buses; `pads` holds the `EmulatedPN532` under each reader, by role."""

    kind = "emulated"

    def __init__(self, pin_factory: Any = None) -> None:
        from hardware.nfc.buses import EmulatedI2C, EmulatedSPI, EmulatedTCA9548A

        if pin_factory is None:
            from gpiozero.pins.mock import MockFactory

            pin_factory = MockFactory()
        self.pin_factory = pin_factory
        self.wiring = EmulatedWiring()
        self.pads: dict[str, Any] = {}
        self.lines: dict[int, Any] = {}  # the EmulatedPin of each reader GPIO, by number
        self.uarts: list[Any] = []
        self.spi_ports: dict[int, EmulatedSPI] = {}
        self.i2c_buses: dict[int, EmulatedI2C] = {}
        self.muxes: dict[int, EmulatedTCA9548A] = {}
        self.closed = False

    @property
    def nfc_buses(self) -> list[Any]:
        """Every reader bus, for traffic counters: UARTs, then SPI ports, then I2C buses."""
        return [*self.uarts, *self.spi_ports.values(), *self.i2c_buses.values()]

    def reader_wires(self, spec: ReaderSpec, mux: MuxSpec | None) -> ReaderWires:
        from hardware.nfc.buses import EmulatedI2C, EmulatedSPI, EmulatedUART
        from hardware.nfc.emulator import EmulatedPN532

        chip = EmulatedPN532(name=spec.role)
        self.pads[spec.role] = chip
        irq = chip.irq if spec.irq is not None else None
        reset = self._line(spec.reset)
        if spec.interface == "spi":
            port = self.spi_ports.setdefault(spec.bus, EmulatedSPI())
            cs = self._line(spec.cs, value=False)  # at its power-on pull-down: selected
            cs.switch_to_output(value=True)
            port.attach(chip, cs)
            return ReaderWires(port, cs=cs, irq=irq, reset=reset)
        if spec.interface == "uart":
            uart = EmulatedUART(chip, baudrate=spec.baudrate)
            self.uarts.append(uart)
            return ReaderWires(uart, reset=reset)
        req = self._line(spec.req)
        number, channel = i2c_route(spec, mux, self)
        bus = self.i2c_buses.setdefault(number, EmulatedI2C(frequency=spec.clock_hz))
        if channel is None:
            bus.attach(chip, spec.address)
            return ReaderWires(bus, irq=irq, reset=reset, req=req)
        assert mux is not None
        if number not in self.muxes:
            from hardware.nfc.buses import EmulatedTCA9548A

            self.muxes[number] = EmulatedTCA9548A(bus, address=mux.address)
        self.muxes[number].attach(channel, chip, spec.address)
        return ReaderWires(
            bus, irq=irq, reset=reset, req=req, channel=channel, mux_address=mux.address
        )

    def _line(self, number: int | None, value: bool = True) -> Any:
        from hardware.nfc.buses import EmulatedPin

        if number is None:
            return None
        self.lines[number] = EmulatedPin(f"GPIO{number}", value=value)
        return self.lines[number]

    def display(self, spec: DisplaySpec, clock: Callable[[], float]) -> Display:
        return open_display(spec, self.wiring, clock=clock)

    def mux_channel_bus(self, mux: MuxSpec, channel: int) -> int:
        if mux.kernel_buses:
            return mux.kernel_buses[channel]
        return FIRST_CHANNEL_BUS + channel

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.pin_factory.close()
