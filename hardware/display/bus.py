"""Emulated display buses: they meter every transfer and hand the bytes to an `OledChip`.

- `RecordingSerial` stands where luma's serial interface stands (`command`, `data`,
  `cleanup`) and records each call, for byte-exact baselines and the bench.
- `EmulatedI2CBus` is an smbus2-compatible bus (`i2c_rdwr`, `write_i2c_block_data`) with
  chips at addresses: luma's own `i2c` interface runs on it. Unplugging an address makes
  the next transfer fail as Linux reports a missing device (OSError EREMOTEIO).
- `EmulatedSpiDev` is a spidev-compatible port; `GpioLines` is an RPi.GPIO-compatible set
  of lines that records every change, so the DC line tells command from data as on the wire.

Bus time is modelled from the bytes: an I2C write is a start bit, the address byte, the
payload bytes (9 clocks each with the ACK) and a stop bit; SPI clocks 8 bits per byte.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from typing import Any

from hardware.display.chip import OledChip

I2C_COMMAND = 0x00  # the SSD1306/SH1106 control byte before a stream of commands
I2C_DATA = 0x40  # ... and before a stream of display data


def i2c_write_seconds(payload_bytes: int, clock_hz: int) -> float:
    """Modelled time of one I2C write of `payload_bytes` (after the address byte)."""
    return (2 + 9 * (1 + payload_bytes)) / clock_hz


def spi_write_seconds(payload_bytes: int, clock_hz: int) -> float:
    """Modelled time of one SPI write of `payload_bytes`."""
    return 8 * payload_bytes / clock_hz


@dataclass
class BusMeter:
    """What went over a bus: transfers, bytes on the wire, payload bytes and modelled time."""

    clock_hz: int
    transactions: int = 0
    wire_bytes: int = 0  # everything clocked: I2C address and control bytes included
    payload_bytes: int = 0  # command and data bytes as the driver handed them over
    bus_seconds: float = 0.0

    def i2c_write(self, payload: int, control: int = 1) -> None:
        """Count one I2C write transaction: address byte, `control` bytes, `payload` bytes."""
        self.transactions += 1
        self.wire_bytes += 1 + control + payload
        self.payload_bytes += payload
        self.bus_seconds += i2c_write_seconds(control + payload, self.clock_hz)

    def spi_write(self, payload: int) -> None:
        """Count one SPI transfer of `payload` bytes."""
        self.transactions += 1
        self.wire_bytes += payload
        self.payload_bytes += payload
        self.bus_seconds += spi_write_seconds(payload, self.clock_hz)

    def snapshot(self) -> dict[str, Any]:
        return {
            "transactions": self.transactions,
            "wire_bytes": self.wire_bytes,
            "payload_bytes": self.payload_bytes,
            "bus_ms": round(self.bus_seconds * 1000, 3),
        }

    def since(self, before: dict[str, Any]) -> dict[str, Any]:
        """The counts added since an earlier `snapshot()`."""
        now = self.snapshot()
        return {key: round(now[key] - before[key], 3) for key in now}


class RecordingSerial:
    """A luma serial interface that records every call and feeds an emulated chip.

    `calls` holds `["command", [bytes...]]` and `["data", [bytes...]]` entries in order.
    The meter models the transfers of luma's I2C interface on a Pi (one transaction per
    command call, data in blocks of `block_size`) or of its SPI interface.
    """

    def __init__(
        self,
        chip: OledChip | None = None,
        *,
        interface: str = "i2c",
        clock_hz: int = 400_000,
        block_size: int = 4096,
    ) -> None:
        if interface not in ("i2c", "spi"):
            raise ValueError(f"interface must be 'i2c' or 'spi', not {interface!r}")
        self.chip = chip
        self.interface = interface
        self.block_size = block_size
        self.meter = BusMeter(clock_hz)
        self.calls: list[list[Any]] = []
        self.closed = False

    def command(self, *cmd: int) -> None:
        self.calls.append(["command", list(cmd)])
        self._count(len(cmd))
        if self.chip is not None:
            self.chip.command(cmd)

    def data(self, data) -> None:
        data = list(data)
        self.calls.append(["data", data])
        for start in range(0, len(data), self.block_size):
            self._count(len(data[start : start + self.block_size]))
        if self.chip is not None:
            self.chip.data(data)

    def cleanup(self) -> None:
        self.closed = True

    def _count(self, payload: int) -> None:
        if self.interface == "i2c":
            self.meter.i2c_write(payload)
        else:
            self.meter.spi_write(payload)


@dataclass
class _Attached:
    chip: OledChip
    meter: BusMeter


class EmulatedI2CBus:
    """An smbus2-compatible I2C bus (one `/dev/i2c-N`) with emulated display chips on it."""

    def __init__(self, number: int = 1, clock_hz: int = 400_000) -> None:
        self.number = number
        self.meter = BusMeter(clock_hz)
        self.devices: dict[int, _Attached] = {}
        self.unplugged: set[int] = set()  # may name an address before its chip is attached
        self.closed = False

    def attach(self, address: int, chip: OledChip) -> BusMeter:
        """Put a chip at `address`; returns the meter of that device's own traffic."""
        if address in self.devices:
            raise ValueError(f"i2c-{self.number} already has a device at 0x{address:02X}")
        self.devices[address] = _Attached(chip, BusMeter(self.meter.clock_hz))
        return self.devices[address].meter

    def unplug(self, address: int) -> None:
        """The device stops answering: its next transfer fails with EREMOTEIO (a NACK)."""
        self.unplugged.add(address)

    def plug(self, address: int) -> None:
        self.unplugged.discard(address)

    # smbus2 calls used by luma.core.interface.serial.i2c
    def write_i2c_block_data(self, i2c_addr: int, register: int, data, force=None) -> None:
        self._write(i2c_addr, [register, *data])

    def i2c_rdwr(self, *messages) -> None:
        for message in messages:
            self._write(message.addr, list(bytes(message)))

    def close(self) -> None:
        self.closed = True

    def _write(self, address: int, payload: list[int]) -> None:
        # The address byte goes out (and costs time) whether or not anyone answers.
        self.meter.i2c_write(len(payload) - 1)
        device = self.devices.get(address)
        if device is None or address in self.unplugged:
            raise OSError(errno.EREMOTEIO, f"no answer from 0x{address:02X} on i2c-{self.number}")
        device.meter.i2c_write(len(payload) - 1)
        control, body = payload[0], payload[1:]
        if control & I2C_DATA:
            device.chip.data(body)
        else:
            device.chip.command(body)


class GpioLines:
    """RPi.GPIO-compatible output lines that remember every level they were driven to.

    Give it the module luma would otherwise import (`fake_rpi.RPi.GPIO`, or the real one) as
    `inner` and every call is passed on too.
    """

    BCM, BOARD = 11, 10
    OUT, IN = 0, 1
    LOW, HIGH = 0, 1
    PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner
        self.levels: dict[int, int] = {}
        self.changes: list[tuple[int, int]] = []  # (pin, level) in order

    def setmode(self, mode: int) -> None:
        self._pass("setmode", mode)

    def setwarnings(self, flag: bool) -> None:
        self._pass("setwarnings", flag)

    def setup(self, channel: int, direction: int, initial: int | None = None, **kwargs) -> None:
        if initial is None:
            self._pass("setup", channel, direction, **kwargs)
        else:
            self._pass("setup", channel, direction, initial=initial, **kwargs)
        if direction == self.OUT:
            self._record(channel, self.LOW if initial is None else int(bool(initial)))

    def output(self, channel: int, state: int) -> None:
        self._pass("output", channel, state)
        self._record(channel, int(bool(state)))

    def input(self, channel: int) -> int:
        return self.levels.get(channel, self.LOW)

    def cleanup(self, channel=None) -> None:
        self._pass("cleanup", channel)

    def level(self, pin: int) -> int:
        """The pin's present level (LOW if it was never driven)."""
        return self.levels.get(pin, self.LOW)

    def _record(self, pin: int, level: int) -> None:
        if self.levels.get(pin) != level:
            self.changes.append((pin, level))
        self.levels[pin] = level

    def _pass(self, name: str, *args, **kwargs) -> None:
        if self.inner is not None:
            getattr(self.inner, name)(*args, **kwargs)


@dataclass
class EmulatedSpiDev:
    """A spidev-compatible SPI port with one display chip: DC low = commands, high = data.

    With a chip-select pin the chip listens only while that line is low, as on the wire.
    """

    chip: OledChip
    lines: GpioLines
    dc: int
    cs: int | None = None
    clock_hz: int = 8_000_000
    meter: BusMeter = field(init=False)
    max_speed_hz: int = 0
    mode: int = 0
    no_cs: bool = False
    opened: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        self.meter = BusMeter(self.clock_hz)

    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def writebytes(self, data) -> None:
        data = list(data)
        self.meter.clock_hz = self.max_speed_hz or self.clock_hz
        self.meter.spi_write(len(data))
        if self.cs is not None and self.lines.level(self.cs) != GpioLines.LOW:
            return
        if self.lines.level(self.dc):
            self.chip.data(data)
        else:
            self.chip.command(data)

    def close(self) -> None:
        self.opened = None
