"""The emulated display buses: their time model and meters, luma's serial interface recorded
call by call, the I2C bus's refusals and the GPIO lines, which pass every call on to the
RPi.GPIO module they stand in front of. luma's own interfaces over them: test_wiring.py."""

from __future__ import annotations

import errno

import pytest
from luma.core.interface.serial import i2c

from hardware.display.bus import (
    BusMeter,
    EmulatedI2CBus,
    EmulatedSpiDev,
    GpioLines,
    RecordingSerial,
    i2c_write_seconds,
    spi_write_seconds,
)
from hardware.display.chip import OledChip


def test_an_i2c_write_is_a_start_the_address_nine_clocks_a_byte_and_a_stop():
    assert i2c_write_seconds(0, 100_000) == pytest.approx(11 / 100_000)
    assert i2c_write_seconds(3, 400_000) == pytest.approx((2 + 9 * 4) / 400_000)
    assert spi_write_seconds(0, 8_000_000) == 0
    assert spi_write_seconds(5, 1_000_000) == pytest.approx(40 / 1_000_000)


def test_a_meter_adds_up_its_transfers_and_tells_what_came_since():
    meter = BusMeter(100_000)
    meter.i2c_write(10)  # address + control byte + 10 bytes: 110 clocks
    meter.i2c_write(3, control=0)  # 38 clocks
    assert (meter.transactions, meter.wire_bytes, meter.payload_bytes) == (2, 12 + 4, 13)
    assert meter.bus_seconds == pytest.approx(148 / 100_000)
    before = meter.snapshot()
    assert before == {"transactions": 2, "wire_bytes": 16, "payload_bytes": 13, "bus_ms": 1.48}
    meter.i2c_write(1)  # 29 clocks
    assert meter.since(before) == {
        "transactions": 1,
        "wire_bytes": 3,
        "payload_bytes": 1,
        "bus_ms": 0.29,
    }
    fast = BusMeter(400_000)
    fast.i2c_write(1)  # 72.5 us: the snapshot is in ms to the microsecond
    assert fast.snapshot()["bus_ms"] == 0.072
    assert fast.since({key: 0 for key in fast.snapshot()})["bus_ms"] == 0.072
    spi = BusMeter(8_000_000)
    spi.spi_write(1024)
    spi.spi_write(2)
    assert (spi.transactions, spi.wire_bytes, spi.payload_bytes) == (2, 1026, 1026)
    assert spi.bus_seconds == pytest.approx(1026 * 8 / 8_000_000)


def test_a_recording_serial_records_each_call_and_meters_it_as_luma_s_i2c_would():
    chip = OledChip("ssd1306", 128, 64)
    serial = RecordingSerial(chip, block_size=16)
    assert (serial.interface, serial.meter.clock_hz, serial.closed) == ("i2c", 400_000, False)
    serial.command(0xAE, 0x20, 0x00)
    serial.data(list(range(40)))  # three blocks of at most 16 bytes
    assert serial.calls == [["command", [0xAE, 0x20, 0x00]], ["data", list(range(40))]]
    assert serial.meter.transactions == 1 + 3
    assert serial.meter.wire_bytes == (2 + 3) + (2 + 16) * 2 + (2 + 8)
    assert chip.pages()[0][:40] == bytes(range(40))
    serial.cleanup()
    assert serial.closed


def test_a_recording_serial_meters_spi_and_sends_big_frames_in_4_kib_blocks():
    serial = RecordingSerial(interface="spi", clock_hz=8_000_000)
    serial.command(0xAF)
    serial.data(bytes(4097))
    assert serial.meter.transactions == 1 + 2  # 4096 + 1
    assert serial.meter.wire_bytes == 4098
    assert serial.meter.bus_seconds == pytest.approx(4098 * 8 / 8_000_000)
    assert RecordingSerial().meter.clock_hz == 400_000
    with pytest.raises(ValueError, match=r"^interface must be 'i2c' or 'spi', not 'uart'$"):
        RecordingSerial(interface="uart")


def test_an_i2c_bus_refuses_a_second_device_and_tells_a_missing_one_as_linux_does():
    bus = EmulatedI2CBus()
    assert (bus.number, bus.meter.clock_hz, bus.closed) == (1, 400_000, False)
    bus.attach(0x3C, OledChip("ssd1306", 128, 64))
    with pytest.raises(ValueError, match=r"^i2c-1 already has a device at 0x3C$"):
        bus.attach(0x3C, OledChip("sh1106", 128, 64))
    with pytest.raises(OSError, match=r"no answer from 0x3D on i2c-1") as error:
        bus.write_i2c_block_data(0x3D, 0x00, [0xAE])
    assert error.value.errno == errno.EREMOTEIO
    assert bus.meter.wire_bytes == 1 + 1 + 1  # the address, control and command bytes went out
    bus.close()
    assert bus.closed


def test_luma_s_i2c_interface_meters_its_transfers_on_the_bus_and_the_device():
    bus = EmulatedI2CBus(3, clock_hz=100_000)
    device = bus.attach(0x3C, OledChip("ssd1306", 128, 64))
    serial = i2c(bus=bus, address=0x3C)
    serial.command(0xAE, 0xA8, 0x3F)
    assert (bus.meter.transactions, bus.meter.payload_bytes, bus.meter.wire_bytes) == (1, 3, 5)
    assert device.payload_bytes == 3 and device.clock_hz == 100_000
    assert bus.meter.bus_seconds == pytest.approx(i2c_write_seconds(4, 100_000))


class Recorder:
    """Stands for the RPi.GPIO module luma would import: it notes every call."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def __getattr__(self, name):
        return lambda *args, **kwargs: self.calls.append((name, args, kwargs))


def test_gpio_lines_pass_every_call_on_and_remember_the_levels():
    inner = Recorder()
    lines = GpioLines(inner)
    assert lines.inner is inner
    lines.setmode(GpioLines.BCM)
    lines.setwarnings(False)
    lines.setup(24, GpioLines.OUT)
    lines.setup(25, GpioLines.OUT, initial=GpioLines.HIGH, pull_up_down=GpioLines.PUD_OFF)
    lines.setup(17, GpioLines.IN, pull_up_down=GpioLines.PUD_UP)
    lines.output(24, GpioLines.HIGH)
    lines.output(24, 1)  # the same level again: no change
    lines.cleanup(24)
    lines.cleanup()
    assert inner.calls == [
        ("setmode", (11,), {}),
        ("setwarnings", (False,), {}),
        ("setup", (24, 0), {}),
        ("setup", (25, 0), {"initial": 1, "pull_up_down": 20}),
        ("setup", (17, 1), {"pull_up_down": 22}),
        ("output", (24, 1), {}),
        ("output", (24, 1), {}),
        ("cleanup", (24,), {}),
        ("cleanup", (None,), {}),
    ]
    assert lines.changes == [(24, 0), (25, 1), (24, 1)]  # an input line is not driven
    assert (lines.level(24), lines.level(25), lines.level(17)) == (1, 1, 0)
    assert (lines.input(25), lines.input(4)) == (1, 0)
    assert GpioLines().level(5) == 0  # never driven: low


def test_an_spi_port_records_what_it_was_opened_as_and_closes():
    chip = OledChip("ssd1306", 128, 64)
    port = EmulatedSpiDev(chip, GpioLines(), dc=24)
    assert port.meter.clock_hz == 8_000_000 and port.opened is None
    port.open(0, 1)
    assert port.opened == (0, 1)
    port.writebytes([0xAE])
    assert port.meter.bus_seconds == pytest.approx(8 / 8_000_000)  # max_speed_hz not set yet
    port.close()
    assert port.opened is None
    assert EmulatedSpiDev(chip, GpioLines(), dc=24, clock_hz=4_000_000).meter.clock_hz == 4_000_000
