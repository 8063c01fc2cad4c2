"""The emulated I2C, SPI and UART buses and GPIO pins as busio, adafruit_bus_device and a host
see them: defaults, wiring refusals, the bytes on a wire nobody or two chips drive, the
faults as Linux reports them, and the modelled wire time. The stock driver over them:
test_driver_on_emulated_buses.py."""

from __future__ import annotations

import errno

import pytest
from adafruit_bus_device.i2c_device import I2CDevice
from digitalio import Direction, Pull

from hardware.nfc.buses import (
    EmulatedI2C,
    EmulatedPin,
    EmulatedSPI,
    EmulatedTCA9548A,
    EmulatedUART,
    reverse_bits,
)
from hardware.nfc.emulator import ACK, ChipTiming, EmulatedPN532, ModelledClock, build_frame

STATUS, WRITE, READ = reverse_bits(0x02), reverse_bits(0x01), reverse_bits(0x03)
GET_FIRMWARE = build_frame(bytes([0xD4, 0x02]))
FIRMWARE = build_frame(bytes([0xD5, 0x03, 0x32, 1, 6, 7]))  # its answer, firmware 1.6


# --- pins --------------------------------------------------------------------------------


def test_a_pin_starts_as_a_high_input_and_records_what_it_is_driven_to():
    pin = EmulatedPin()
    assert (pin.name, pin.value, pin.direction, pin.pull) == ("pin", True, Direction.INPUT, None)
    assert EmulatedPin("cs0").name == "cs0"
    pin.switch_to_output()
    assert (pin.direction, pin.value) == (Direction.OUTPUT, False)  # busio's default: low
    pin.switch_to_output(value=True)
    pin.switch_to_input(pull=Pull.UP)
    assert (pin.direction, pin.pull) == (Direction.INPUT, Pull.UP)
    assert pin.history == [False, True]


# --- I2C ---------------------------------------------------------------------------------


def test_a_fresh_bus_has_counted_nothing():
    for bus in (EmulatedI2C(), EmulatedSPI(), EmulatedUART(EmulatedPN532())):
        assert (bus.transactions, bus.bytes_total, bus.modelled_time_s) == (0, 0, 0.0)


def test_an_address_nobody_acknowledges_costs_its_address_byte():
    i2c = EmulatedI2C(frequency=100_000, clock=ModelledClock())
    with pytest.raises(OSError, match="no device answers at 0x24") as error:
        i2c.writeto(0x24, b"\x00")
    assert error.value.errno == errno.EREMOTEIO
    assert (i2c.transactions, i2c.bytes_total) == (1, 1)
    assert i2c.modelled_time_s == pytest.approx((2 + 9) / 100_000)  # start, 9 clocks, stop
    assert i2c.clock.monotonic() == pytest.approx(i2c.modelled_time_s)


def test_scan_lists_the_addresses_i2cdetect_probes_that_answer():
    i2c = EmulatedI2C()
    for address in (0x07, 0x08, 0x24, 0x77, 0x78):
        i2c.attach(EmulatedPN532(name=f"at {address:02x}"), address)
    EmulatedTCA9548A(i2c)
    assert i2c.scan() == [0x08, 0x24, 0x70, 0x77]  # 0x08..0x77: not the reserved addresses


def test_the_bus_refuses_two_devices_wired_at_one_address():
    i2c = EmulatedI2C()
    i2c.attach(EmulatedPN532())
    with pytest.raises(ValueError, match=r"^the bus already has a device at 0x24$"):
        i2c.attach(EmulatedPN532())
    EmulatedTCA9548A(i2c)
    with pytest.raises(ValueError, match=r"^the bus already has a device at 0x70$"):
        i2c.attach(EmulatedPN532(), 0x70)
    with pytest.raises(ValueError, match=r"^the bus already has a device at 0x70$"):
        EmulatedTCA9548A(i2c)
    other = EmulatedI2C()
    other.attach(EmulatedPN532(), 0x71)
    with pytest.raises(ValueError, match=r"^the bus already has a device at 0x71$"):
        EmulatedTCA9548A(other, 0x71)


def test_a_multiplexer_has_eight_channels_one_device_per_address_on_each():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    mux.attach(7, EmulatedPN532())
    for channel in (-1, 8):
        with pytest.raises(ValueError, match=rf"^a TCA9548A has channels 0..7, not {channel}$"):
            mux.attach(channel, EmulatedPN532())
    with pytest.raises(ValueError, match=r"^channel 7 already has a device at 0x24$"):
        mux.attach(7, EmulatedPN532())


def test_a_chip_behind_a_multiplexer_runs_on_its_bus_clock():
    clock = ModelledClock()
    chip = EmulatedTCA9548A(EmulatedI2C(clock=clock)).attach(0, EmulatedPN532())
    assert chip.clock is clock
    with pytest.raises(ValueError, match="already runs on another bus's clock"):
        EmulatedTCA9548A(EmulatedI2C(clock=ModelledClock())).attach(0, chip)


def test_the_multiplexer_reads_back_its_open_channels_through_bus_device():
    i2c = EmulatedI2C()
    EmulatedTCA9548A(i2c)
    device = I2CDevice(i2c, 0x70)
    mask = bytearray(2)
    with device:
        device.write_then_readinto(b"\x05", mask)
    assert mask == b"\x05\x05"


def test_write_then_read_honours_both_slices():
    i2c = EmulatedI2C()
    EmulatedTCA9548A(i2c)
    mask = bytearray(b"\xee" * 2)
    i2c.writeto_then_readfrom(0x70, b"\x03", mask)
    assert mask == b"\x03\x03"
    mask = bytearray(b"\xee" * 4)
    i2c.reset_counters()
    i2c.writeto_then_readfrom(
        0x70, b"\x01\x06\x02", mask, out_start=1, out_end=2, in_start=1, in_end=3
    )
    assert mask == b"\xee\x06\x06\xee"
    assert i2c.bytes_total == (1 + 1) + (1 + 2)  # only the slices go on the wire


def test_a_chip_on_the_bus_and_one_behind_an_open_channel_at_one_address_collide():
    i2c = EmulatedI2C()
    i2c.attach(EmulatedPN532(name="direct"))
    mux = EmulatedTCA9548A(i2c)
    mux.attach(3, EmulatedPN532(name="behind"))
    i2c.writeto(0x24, b"\x00")  # channel 3 is closed: only the direct chip answers
    i2c.writeto(0x70, bytes([1 << 3]))
    with pytest.raises(OSError, match="two devices answer at 0x24 at once") as error:
        i2c.writeto(0x24, b"\x00")
    assert error.value.errno == errno.EIO


def test_an_io_error_fails_reads_and_writes_with_eio():
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532(name="stake-0"))
    chip.fail("io_error")
    for transfer in (
        lambda: i2c.writeto(0x24, GET_FIRMWARE),
        lambda: i2c.readfrom_into(0x24, bytearray(1)),
    ):
        with pytest.raises(OSError, match=r"I/O error talking to stake-0$") as error:
            transfer()
        assert error.value.errno == errno.EIO


def test_a_read_longer_than_the_status_byte_takes_the_whole_frame():
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532())
    i2c.writeto(0x24, GET_FIRMWARE)
    status = bytearray(3)
    i2c.readfrom_into(0x24, status, start=1, end=2)  # the status byte alone, into status[1]
    assert status == b"\x00\x01\x00"
    two = bytearray(2)
    i2c.readfrom_into(0x24, two)  # status and the ACK's first byte: the ACK is gone
    assert two == b"\x01\x00"
    rest = bytearray(1 + len(FIRMWARE) + 2)
    i2c.readfrom_into(0x24, rest)
    assert rest == b"\x01" + FIRMWARE + b"\x00\x00"  # the frame, then zeros
    assert not chip.ready


# --- SPI ---------------------------------------------------------------------------------


def exchange(spi: EmulatedSPI, out: bytes) -> bytes:
    answer = bytearray(len(out))
    spi.write_readinto(out, answer)
    return bytes(answer)


def test_spi_defaults_are_busio_s():
    spi = EmulatedSPI()
    assert (spi.baudrate, spi.polarity, spi.phase, spi.bits) == (1_000_000, 0, 0, 8)
    spi.configure(baudrate=4_000_000, polarity=1, phase=1, bits=16)
    assert (spi.frequency, spi.polarity, spi.phase, spi.bits) == (4_000_000, 1, 1, 16)
    spi.configure()
    assert (spi.baudrate, spi.polarity, spi.phase, spi.bits) == (100_000, 0, 0, 8)


def test_a_chip_select_serves_one_chip():
    spi, cs = EmulatedSPI(), EmulatedPin("cs0")
    spi.attach(EmulatedPN532(), cs)
    with pytest.raises(ValueError, match=r"^chip-select cs0 already serves another chip$"):
        spi.attach(EmulatedPN532(), cs)


def test_miso_reads_zeros_with_no_chip_selected_and_ones_with_two():
    spi, cs = EmulatedSPI(), [EmulatedPin("cs0"), EmulatedPin("cs1")]
    for pin in cs:
        spi.attach(EmulatedPN532(), pin)
    assert exchange(spi, bytes([STATUS, 0])) == b"\x00\x00"  # nobody drives MISO: pulled low
    cs[0].value = cs[1].value = False
    assert exchange(spi, bytes([STATUS, 0])) == b"\xff\xff"  # two drivers: noise, read as ones


def test_the_spi_status_read_and_data_transfers_byte_for_byte():
    spi, cs = EmulatedSPI(), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    cs.value = False
    assert exchange(spi, bytes([STATUS, 0])) == b"\x00\x00"  # nothing ready
    assert exchange(spi, bytes([READ, 0, 0])) == b"\x00\x00\x00"  # so nothing to read
    assert exchange(spi, b"\x00") == b"\x00"  # a wake-up byte
    frame = bytes([WRITE]) + GET_FIRMWARE.translate(bytes(reverse_bits(b) for b in range(256)))
    assert exchange(spi, frame) == bytes(len(frame))  # MISO idles while the host writes
    assert chip.commands[-1] == (0x02, b"")
    assert exchange(spi, bytes([STATUS, 0, 0])) == bytes([0, 0x80, 0x80])  # 0x01, LSB first
    answer = exchange(spi, bytes([READ]) + bytes(9))  # the 6-byte ACK, then zeros
    assert answer == b"\x00" + bytes(reverse_bits(b) for b in ACK) + bytes(3)
    answer = exchange(spi, bytes([READ]) + bytes(len(FIRMWARE)))
    assert answer[1:] == bytes(reverse_bits(b) for b in FIRMWARE)
    assert not chip.ready
    spi.write(b"")  # an empty transfer clocks nothing and changes nothing
    assert spi.bytes_total == 2 + 3 + 1 + len(frame) + 3 + 10 + 1 + len(FIRMWARE)


def test_a_read_that_starts_before_the_frame_is_ready_gets_zeros_and_leaves_the_frame():
    spi, cs = EmulatedSPI(clock=ModelledClock()), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    cs.value = False
    spi.write(bytes([WRITE]) + GET_FIRMWARE.translate(bytes(reverse_bits(b) for b in range(256))))
    long_read = bytes([READ]) + bytes(int(ChipTiming().ack_s * 1_000_000 / 8) + 8)
    assert exchange(spi, long_read) == bytes(len(long_read))  # the ACK came ready meanwhile
    assert chip.ready
    assert exchange(spi, bytes([READ]) + bytes(6))[1:] == bytes(reverse_bits(b) for b in ACK)


def test_spi_wire_time_is_eight_clocks_a_byte():
    spi = EmulatedSPI(baudrate=2_000_000, clock=ModelledClock())
    spi.write(bytes(5))
    assert spi.modelled_time_s == pytest.approx(5 * 8 / 2_000_000)
    assert spi.clock.monotonic() == pytest.approx(spi.modelled_time_s)


def test_an_unplugged_spi_chip_reads_as_silence_and_an_io_error_raises():
    spi, cs = EmulatedSPI(), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(name="seat-0"), cs)
    cs.value = False
    spi.write(bytes([WRITE]) + GET_FIRMWARE.translate(bytes(reverse_bits(b) for b in range(256))))
    chip.fail("unplugged")
    assert exchange(spi, bytes([STATUS, 0])) == b"\x00\x00"
    chip.recover()
    chip.fail("io_error")
    with pytest.raises(OSError, match="I/O error talking to seat-0") as error:
        exchange(spi, bytes([STATUS, 0]))
    assert error.value.errno == errno.EIO


def test_spi_reads_and_exchanges_honour_their_slices():
    spi, cs = EmulatedSPI(), EmulatedPin("cs")
    spi.attach(EmulatedPN532(), cs)
    cs.value = False
    spi.write(bytes([WRITE]) + GET_FIRMWARE.translate(bytes(reverse_bits(b) for b in range(256))))
    status = bytearray(4)
    spi.readinto(status, start=1, end=3, write_value=STATUS)  # a status read by readinto
    assert status == bytes([0, 0, 0x80, 0])
    whole = bytearray(2)
    spi.readinto(whole, write_value=STATUS)
    assert whole == bytes([0, 0x80])
    answer = bytearray(5)
    spi.write_readinto(
        bytes([9, STATUS, 0, 9]), answer, out_start=1, out_end=3, in_start=2, in_end=4
    )
    assert answer == bytes([0, 0, 0, 0x80, 0])
    with pytest.raises(RuntimeError, match=r"^Buffer slices must be of equal length\.$"):
        spi.write_readinto(bytes([STATUS, 0]), bytearray(3))  # as Blinka's SPI refuses it
    with pytest.raises(RuntimeError, match=r"^Buffer slices must be of equal length\.$"):
        spi.write_readinto(bytes([STATUS, 0, 0]), bytearray(3), out_start=1)


# --- UART --------------------------------------------------------------------------------


def test_uart_traffic_costs_ten_bits_a_byte_on_the_shared_clock():
    clock = ModelledClock()
    chip = EmulatedPN532()
    uart = EmulatedUART(chip, baudrate=9_600, clock=clock)
    assert uart.write(GET_FIRMWARE) == len(GET_FIRMWARE)
    clock.sleep(0.01)  # the ACK and the answer come ready
    assert uart.read(6) == ACK
    assert uart.read() == FIRMWARE  # all that waits
    assert uart.read() is None
    wire = len(GET_FIRMWARE) + 6 + len(FIRMWARE)
    assert (uart.transactions, uart.bytes_total) == (3, wire)
    assert uart.modelled_time_s == pytest.approx(10 * wire / 9_600)
    assert clock.monotonic() == pytest.approx(0.01 + uart.modelled_time_s)
    uart.reset_counters()
    assert (uart.transactions, uart.bytes_total, uart.modelled_time_s) == (0, 0, 0.0)


def test_uart_readinto_fills_what_came_and_says_how_much():
    uart = EmulatedUART(EmulatedPN532())
    buffer = bytearray(b"\xee" * 8)
    assert uart.readinto(buffer) is None  # nothing came
    assert buffer == b"\xee" * 8
    uart.write(GET_FIRMWARE)
    assert uart.readinto(buffer) == 8
    assert buffer == ACK + FIRMWARE[:2]


def test_a_uart_write_under_an_io_error_raises_eio_and_reaches_nothing():
    chip = EmulatedPN532(name="main")
    uart = EmulatedUART(chip)
    chip.fail("io_error")
    with pytest.raises(OSError, match="I/O error talking to main") as error:
        uart.write(GET_FIRMWARE)
    assert error.value.errno == errno.EIO
    assert (uart.transactions, len(chip.commands)) == (0, 0)
