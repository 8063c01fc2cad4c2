"""The stock adafruit PN532 driver, unmodified, against the emulated chip on I2C, SPI and UART."""

from __future__ import annotations

import pytest
from adafruit_pn532.adafruit_pn532 import MIFARE_CMD_AUTH_A, MIFARE_CMD_AUTH_B
from adafruit_pn532.i2c import PN532_I2C
from adafruit_pn532.spi import PN532_SPI
from adafruit_pn532.uart import PN532_UART

from hardware.nfc.buses import (
    EmulatedI2C,
    EmulatedPin,
    EmulatedSPI,
    EmulatedTCA9548A,
    EmulatedUART,
    reverse_bits,
)
from hardware.nfc.emulator import ChipTiming, EmulatedPN532, build_frame
from hardware.nfc.mux import MuxChannel
from hardware.nfc.tags import MifareClassic1K, Ntag

NTAG_UID = bytes.fromhex("04a1b2c3d4e5f6")
CLASSIC_UID = bytes.fromhex("deadbeef")
SECRET = bytes.fromhex("a0a1a2a3a4a5")


def on_i2c(firmware=(0x32, 0x01, 0x06, 0x07)):
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532(firmware=firmware))
    return chip, PN532_I2C(i2c)


def on_spi():
    spi, cs = EmulatedSPI(), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    return chip, PN532_SPI(spi, cs)


def on_uart():
    chip = EmulatedPN532()
    return chip, PN532_UART(EmulatedUART(chip))


BUSES = {"i2c": on_i2c, "spi": on_spi, "uart": on_uart}


@pytest.mark.parametrize("bus", BUSES)
def test_firmware_version_and_sam_configuration(bus):
    chip, pn532 = BUSES[bus]()
    assert pn532.firmware_version == (0x32, 0x01, 0x06, 0x07)
    assert chip.sam_mode == 0x01  # the driver's wake-up configured normal mode


def test_the_firmware_version_is_the_chips():
    _, pn532 = on_i2c(firmware=(0x32, 0x01, 0x04, 0x07))
    assert pn532.firmware_version == (0x32, 0x01, 0x04, 0x07)


@pytest.mark.parametrize("bus", BUSES)
def test_read_passive_target_finds_an_ntag_and_a_mifare_classic(bus):
    chip, pn532 = BUSES[bus]()
    chip.place(Ntag(NTAG_UID))
    assert bytes(pn532.read_passive_target(timeout=0.5)) == NTAG_UID
    chip.remove(NTAG_UID)
    chip.place(MifareClassic1K(CLASSIC_UID))
    assert bytes(pn532.read_passive_target(timeout=0.5)) == CLASSIC_UID


@pytest.mark.parametrize("bus", BUSES)
def test_ntag_pages_write_then_read(bus):
    chip, pn532 = BUSES[bus]()
    tag = chip.place(Ntag(NTAG_UID, model="ntag213"))
    pn532.read_passive_target(timeout=0.5)
    assert bytes(pn532.ntag2xx_read_block(0)) == bytes(
        [0x04, 0xA1, 0xB2, 0x04 ^ 0xA1 ^ 0xB2 ^ 0x88]
    )
    assert bytes(pn532.ntag2xx_read_block(3)) == bytes([0xE1, 0x10, 0x12, 0x00])
    assert pn532.ntag2xx_write_block(7, b"card") is True
    assert bytes(pn532.ntag2xx_read_block(7)) == b"card"
    assert tag.memory[28:32] == b"card"
    assert pn532.ntag2xx_write_block(0, b"\0\0\0\0") is False  # the UID page is read-only
    assert pn532.ntag2xx_read_block(45) is None  # past the last page of an NTAG213


@pytest.mark.parametrize("bus", BUSES)
def test_mifare_classic_authenticate_then_read_and_write(bus):
    chip, pn532 = BUSES[bus]()
    chip.place(MifareClassic1K(CLASSIC_UID, keys={1: (SECRET, SECRET)}, blocks={4: b"relic"}))
    uid = pn532.read_passive_target(timeout=0.5)
    assert pn532.mifare_classic_authenticate_block(uid, 4, MIFARE_CMD_AUTH_A, b"\xff" * 6) is False
    assert pn532.mifare_classic_read_block(4) is None  # not authenticated
    assert pn532.mifare_classic_authenticate_block(uid, 4, MIFARE_CMD_AUTH_A, SECRET) is True
    assert bytes(pn532.mifare_classic_read_block(4)) == b"relic".ljust(16, b"\0")
    assert pn532.mifare_classic_write_block(5, b"0123456789abcdef") is True
    assert bytes(pn532.mifare_classic_read_block(5)) == b"0123456789abcdef"
    assert pn532.mifare_classic_read_block(8) is None  # another sector needs its own auth
    assert pn532.mifare_classic_authenticate_block(uid, 8, MIFARE_CMD_AUTH_B, b"\xff" * 6)
    assert bytes(pn532.mifare_classic_read_block(8)) == bytes(16)
    assert pn532.mifare_classic_read_block(0) is None  # the session covers sector 2 only


def test_rf_configuration_makes_an_empty_poll_answer_in_modelled_milliseconds():
    chip, pn532 = on_i2c()
    assert chip.max_retries == (0xFF, 0x01, 0xFF)  # the chip's default: retry forever
    # With the default, an empty field never answers: the driver waits out its timeout.
    assert pn532.call_function(0x4A, 20, params=[0x01, 0x00], timeout=0.03) is None
    assert pn532.call_function(0x32, params=[0x05, 0xFF, 0x01, 0x02]) is not None
    assert chip.max_retries == (0xFF, 0x01, 0x02)
    chip.reset_counters()
    assert bytes(pn532.call_function(0x4A, 20, params=[0x01, 0x00], timeout=0.03)) == b"\x00"
    timing = ChipTiming()
    # the field is on since the first call: ACK, command, three attempts, no guard time again
    busy = timing.ack_s + timing.command_s + 3 * timing.empty_attempt_s
    assert chip.busy_time_s == pytest.approx(busy)
    assert chip.modelled_time_s > chip.busy_time_s  # plus the wire time
    assert chip.modelled_time_s < 0.01


def test_read_passive_target_cannot_report_an_empty_field_with_finite_retries():
    """A driver quirk the reader works around: NbTg = 0 is taken for 'more than one card'."""
    _chip, pn532 = on_i2c()
    pn532.call_function(0x32, params=[0x05, 0xFF, 0x01, 0x00])
    with pytest.raises(RuntimeError, match="More than one card"):
        pn532.read_passive_target(timeout=0.05)


def test_i2c_counts_every_byte_on_the_wire():
    chip, pn532 = on_i2c()
    chip.reset_counters()
    assert pn532.firmware_version == (0x32, 0x01, 0x06, 0x07)
    frame = build_frame(bytes([0xD4, 0x02]))
    # write the frame; poll status; read the ACK (status byte, then status + 6 bytes); the
    # same for the response, which the driver reads as 4 + 2 + 7 bytes after the status byte
    assert chip.transactions == 7
    assert chip.bytes_in == (1 + len(frame)) + 6  # the address bytes of the six reads
    assert chip.bytes_out == 1 + (1 + 7) + 1 + (1 + 1 + 4 + 2 + 7)
    wire_bits = 7 * 2 + 9 * (chip.bytes_in + chip.bytes_out)
    # and the PN532 holds SCL low for a moment after every byte (clock stretching)
    stretch = (chip.bytes_in + chip.bytes_out) * ChipTiming().i2c_stretch_s
    assert chip.modelled_time_s == pytest.approx(
        wire_bits / 400_000 + stretch + chip.busy_time_s
    )


def test_spi_bytes_travel_bit_reversed():
    spi, cs = EmulatedSPI(), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    PN532_SPI(spi, cs)
    frame = build_frame(bytes([0xD4, 0x02]))
    got = bytearray(2)
    cs.value = False
    spi.write(bytes(reverse_bits(b) for b in bytes([0x01]) + frame))
    spi.write_readinto(bytes([reverse_bits(0x02), 0]), got)
    assert reverse_bits(got[1]) == 0x01  # ready
    ack = bytearray(7)
    spi.write_readinto(bytes([reverse_bits(0x03)]) + bytes(6), ack)
    cs.value = True
    assert bytes(reverse_bits(b) for b in ack[1:]) == bytes([0, 0, 0xFF, 0, 0xFF, 0])
    assert chip.commands[-1] == (0x02, b"")


def test_spi_chip_select_picks_the_chip():
    spi = EmulatedSPI()
    pins = [EmulatedPin(f"cs{n}") for n in range(2)]
    chips = [spi.attach(EmulatedPN532(firmware=(0x32, 1, n, 7)), pins[n]) for n in range(2)]
    drivers = [PN532_SPI(spi, pin) for pin in pins]
    chips[1].place(Ntag(NTAG_UID))
    assert [d.firmware_version[2] for d in drivers] == [0, 1]
    assert bytes(drivers[1].read_passive_target(timeout=0.2)) == NTAG_UID
    assert pins[0].history[-1] is True and pins[1].history[-1] is True  # released after use


def test_two_pn532s_at_0x24_behind_a_tca9548a():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    chips = [mux.attach(ch, EmulatedPN532(firmware=(0x32, 1, ch, 7))) for ch in (2, 5)]
    drivers = [PN532_I2C(MuxChannel(i2c, ch)) for ch in (2, 5)]
    chips[1].place(Ntag(NTAG_UID))
    assert [d.firmware_version[2] for d in drivers] == [2, 5]
    assert bytes(drivers[1].read_passive_target(timeout=0.2)) == NTAG_UID
    assert mux.mask == 1 << 5


def test_the_i2c_bus_refuses_an_address_nobody_answers():
    i2c = EmulatedI2C()
    with pytest.raises(ValueError, match="No I2C device at address: 0x24"):
        PN532_I2C(i2c)
    i2c.attach(EmulatedPN532())
    assert i2c.scan() == [0x24]


def _status(i2c: EmulatedI2C) -> int:
    """The PN532's I2C status byte: 0x01 when a frame waits for the host."""
    status = bytearray(1)
    i2c.readfrom_into(0x24, status)
    return status[0]


@pytest.mark.parametrize("damage", ["length checksum", "data checksum"])
def test_a_host_frame_with_a_bad_checksum_is_ignored_like_the_chip_does(damage):
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532())
    frame = bytearray(build_frame(bytes([0xD4, 0x02])))  # GetFirmwareVersion
    bad = bytearray(frame)
    bad[4 if damage == "length checksum" else -2] ^= 0x01  # LCS is byte 4, DCS the last but one
    i2c.writeto(0x24, bad)
    assert _status(i2c) == 0x00 and not chip.commands  # no ACK, nothing executed
    i2c.writeto(0x24, frame)  # the same frame, intact, is answered
    assert _status(i2c) == 0x01 and [command for command, _ in chip.commands] == [0x02]
    ack = bytearray(7)
    i2c.readfrom_into(0x24, ack)
    assert bytes(ack[1:]) == bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])


def test_uart_wakeup_preamble_is_ignored_and_frames_still_parse():
    chip = EmulatedPN532()
    uart = EmulatedUART(chip)
    uart.write(b"\x55\x55" + bytes(15))
    assert not chip.ready and uart.in_waiting == 0
    PN532_UART(uart)
    assert [command for command, _ in chip.commands] == [0x14, 0x02]


def test_bus_and_chip_counters_agree_on_every_bus():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    chip = mux.attach(1, EmulatedPN532())
    pn532 = PN532_I2C(MuxChannel(i2c, 1))
    i2c.reset_counters()
    chip.reset_counters()
    assert pn532.firmware_version
    selects = i2c.transactions - chip.transactions
    # one channel select per lock: write, status poll, ACK (two reads), status poll, response
    assert (selects, chip.transactions) == (5, 7)
    assert i2c.bytes_total == chip.bytes_in + chip.bytes_out + 2 * selects

    chip, pn532 = on_spi()
    assert pn532.firmware_version
    assert chip.bytes_in == chip.bytes_out  # full duplex: every byte out is a byte in
    uart_chip = EmulatedPN532()
    uart = EmulatedUART(uart_chip)
    PN532_UART(uart)
    assert uart.bytes_total == uart_chip.bytes_in + uart_chip.bytes_out
    assert uart.modelled_time_s == pytest.approx(10 * uart.bytes_total / 115_200)


def test_two_open_channels_with_the_same_address_collide():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    for channel in (0, 1):
        mux.attach(channel, EmulatedPN532())
    i2c.writeto(0x70, bytes([0b11]))
    with pytest.raises(OSError, match="two devices answer at 0x24"):
        i2c.writeto(0x24, b"\x00")
