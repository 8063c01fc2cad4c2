"""The Reader's promises one by one, over the real driver and the emulated buses: how faults
are classified and told, what each constructor passes on (timeouts, pins, clock, retries),
the target lists of other ISO 14443-A tags, and card ids at the edges of a tag's memory."""

from __future__ import annotations

import errno

import pytest
from adafruit_pn532.adafruit_pn532 import BusyError

from hardware.nfc import ndef
from hardware.nfc.buses import EmulatedI2C, EmulatedPin, EmulatedSPI, EmulatedTCA9548A, EmulatedUART
from hardware.nfc.driver import IrqStuckHigh
from hardware.nfc.emulator import EmulatedPN532, ModelledClock
from hardware.nfc.reader import Reader, ReaderFault, TagAccessError, TagDataError, classify
from hardware.nfc.tags import Ntag, Tag

NTAG_UID = "04a1b2c3d4e5f6"


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (IrqStuckHigh("the IRQ wire is not on its pin"), "irq"),
        (BusyError("No data read from PN532"), "busy"),
        (OSError(errno.EREMOTEIO, "Remote I/O error"), "unplugged"),
        (OSError(errno.ENXIO, "No such device or address"), "unplugged"),
        (OSError(errno.ENODEV, "No such device"), "unplugged"),
        (OSError(errno.EIO, "Input/output error"), "io"),
        (ValueError("No I2C device at address: 0x24"), "unplugged"),
        (ValueError("bytes must be in range(0, 256)"), "protocol"),
        (RuntimeError("Response checksum did not match expected value: ", 7), "checksum"),
        (RuntimeError("Did not receive expected ACK from PN532!"), "nak"),
        (RuntimeError("Failed to detect the PN532"), "no_answer"),
        (RuntimeError("Received unexpected command response!"), "protocol"),
    ],
)
def test_each_driver_and_bus_error_has_its_fault_kind(error, kind):
    assert classify(error) == kind


def mute_i2c(**options):
    """A reader built over a chip that never acknowledges, on a modelled clock."""
    clock = ModelledClock()
    i2c = EmulatedI2C(clock=clock)
    chip = i2c.attach(EmulatedPN532(name="stake-0"))
    chip.fail("no_answer")
    return chip, clock, Reader.over_i2c(i2c, name="stake-0", clock=clock, **options)


def mute_spi(**options):
    clock = ModelledClock()
    spi, cs = EmulatedSPI(clock=clock), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(name="stake-0"), cs)
    chip.fail("no_answer")
    return chip, clock, Reader.over_spi(spi, cs, name="stake-0", clock=clock, **options)


def mute_uart(**options):
    clock = ModelledClock()
    chip = EmulatedPN532(name="stake-0")
    chip.fail("no_answer")
    return (
        chip,
        clock,
        Reader.over_uart(EmulatedUART(chip, clock=clock), name="stake-0", clock=clock, **options),
    )


MUTE = {"i2c": mute_i2c, "spi": mute_spi, "uart": mute_uart}


@pytest.mark.parametrize("bus", MUTE)
@pytest.mark.parametrize("timeout_s", [None, 0.02])
def test_a_mute_chip_costs_the_reader_s_timeout_per_command_at_start_and_later(bus, timeout_s):
    """Starting waits for SAMConfiguration and GetFirmwareVersion; a later command for its
    ACK, or, from a chip that acknowledges but stays busy, for the response: each wait is the
    reader's `timeout_s` (0.1 s by default), on the modelled clock."""
    wait = 0.1 if timeout_s is None else timeout_s
    options = {} if timeout_s is None else {"timeout_s": timeout_s}
    chip, clock, reader = MUTE[bus](**options)
    assert 2 * wait <= clock.monotonic() < 2 * wait + 0.02  # and the wire, the 10 ms steps
    assert reader.health.state == "unplugged" and reader.health.errors == {"no_answer": 1}
    assert reader.health.last_error.startswith("no_answer: cannot start the PN532")
    chip.recover()
    reader.reinit()
    chip.fail("no_answer")
    start = clock.monotonic()
    with pytest.raises(ReaderFault, match=r"no acknowledgement of command 0x4A$") as fault:
        reader.poll()
    assert fault.value.kind == "no_answer"
    assert wait <= clock.monotonic() - start < wait + 0.02
    chip.recover()
    reader.reinit()
    chip.fail("busy")
    start = clock.monotonic()
    with pytest.raises(ReaderFault, match=r"command 0x4A acknowledged but never answered$"):
        reader.poll()
    assert wait <= clock.monotonic() - start < wait + 0.02  # the ACK at once, then nothing


def test_the_reader_passes_its_activation_retries_on_every_bus():
    for make in (
        lambda **o: i2c_reader(**o),
        lambda **o: spi_reader(**o),
        lambda **o: uart_reader(**o),
    ):
        chip, reader = make()
        assert chip.max_retries == (0xFF, 0x01, 0x01)  # the default: one more try
        chip, reader = make(activation_retries=3)
        assert chip.max_retries == (0xFF, 0x01, 0x03)
        assert reader.name == reader.health.name == "stake-0"
    chip, _ = i2c_reader(activation_retries=0)  # one attempt only
    assert chip.max_retries == (0xFF, 0x01, 0x00)
    chip, _ = i2c_reader(activation_retries=254)
    assert chip.max_retries == (0xFF, 0x01, 0xFE)
    for retries in (-1, 0xFF):
        with pytest.raises(
            ValueError, match=r"^activation_retries must be 0\.\.254 \(0xFF would poll forever\)$"
        ):
            i2c_reader(activation_retries=retries)


def i2c_reader(**options):
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532())
    return chip, Reader.over_i2c(i2c, name="stake-0", **options)


def spi_reader(**options):
    spi, cs = EmulatedSPI(), EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    return chip, Reader.over_spi(spi, cs, name="stake-0", **options)


def uart_reader(**options):
    chip = EmulatedPN532()
    return chip, Reader.over_uart(EmulatedUART(chip), name="stake-0", **options)


@pytest.mark.parametrize("bus", ["i2c", "spi", "uart"])
def test_a_reset_line_is_pulsed_at_start_on_every_bus(bus):
    reset = EmulatedPin("reset")
    make = {"i2c": i2c_reader, "spi": spi_reader, "uart": uart_reader}[bus]
    _, reader = make(reset=reset)
    assert reader.health.state == "ok"
    assert reset.history[:2] == [False, True]


def test_the_request_line_wakes_an_i2c_chip_at_start():
    req = EmulatedPin("req")
    _, reader = i2c_reader(req=req)
    assert reader.health.state == "ok"
    assert req.history[:2] == [False, True]  # P32 (H_REQ) pulsed low


def test_the_spi_reader_clocks_the_bus_as_asked():
    for baudrate, expected in ((None, 1_000_000), (2_000_000, 2_000_000)):
        spi, cs = EmulatedSPI(baudrate=5_000_000), EmulatedPin("cs")
        spi.attach(EmulatedPN532(), cs)
        options = {} if baudrate is None else {"baudrate": baudrate}
        Reader.over_spi(spi, cs, name="seat-0", **options).poll()
        assert spi.baudrate == expected


def test_a_reader_behind_a_multiplexer_at_another_address():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c, address=0x71)
    chip = mux.attach(2, EmulatedPN532())
    chip.place(Ntag(NTAG_UID))
    reader = Reader.over_i2c(i2c, name="stake-2", channel=2, mux_address=0x71)
    assert reader.poll().uids == (NTAG_UID,)


def test_a_reader_that_never_started_says_so_and_counts_it_as_unplugged():
    reader = Reader.over_i2c(EmulatedI2C(), name="stake-4")
    with pytest.raises(
        ReaderFault, match=r"^reader stake-4: the PN532 is not started; waiting for a re-init$"
    ) as fault:
        reader.poll()
    assert fault.value.kind == "unplugged"
    assert reader.health.errors == {"unplugged": 2}  # at start, and now
    assert reader.health.last_error.startswith("unplugged: the PN532 is not started")


def test_a_closed_reader_refuses_everything_with_its_own_kind(i2c_pad):
    chip, reader = i2c_pad
    chip.fail("unplugged")
    reader.close()  # the field cannot be switched off: closing still succeeds
    assert reader.health.state == "closed"
    with pytest.raises(ReaderFault, match=r"^reader stake-0 is closed$") as fault:
        reader.poll()
    assert fault.value.kind == "closed"


def test_the_health_snapshot_does_not_follow_later_faults(i2c_pad):
    chip, reader = i2c_pad
    reader.poll()
    reader.poll()
    assert reader.health.polls == 2
    before = reader.health.snapshot()
    chip.fail("io_error")
    with pytest.raises(ReaderFault):
        reader.poll()
    assert before.errors == {} and before.error_count == 0 and before.polls == 2
    assert reader.health.errors == {"io": 1}


def test_each_command_asks_the_chip_for_its_longest_answer_and_no_more():
    """On I2C every byte asked for is clocked: what a command moves besides its answer is
    the same for all (status polls, the ACK, framing); the answer part is its longest."""
    chip, reader = i2c_reader()  # no clock: one status poll per wait
    chip.place(Ntag(NTAG_UID, card_id="relic-07"))

    def bytes_out(work):
        chip.reset_counters()
        work()
        return chip.bytes_out

    per_command = bytes_out(reader.field_off)  # RFConfiguration: an empty answer
    assert bytes_out(reader.firmware_version) == per_command + 4
    assert bytes_out(reader.poll) == per_command + 40  # room for two targets
    assert bytes_out(lambda: reader.read_card_id(NTAG_UID)) == 2 * (per_command + 17)
    # SAMConfiguration, GetFirmwareVersion twice (the driver's and the reader's), RFConfiguration
    assert bytes_out(reader.reinit) == 4 * per_command + 2 * 4


def test_after_a_restart_or_field_off_a_tag_must_be_polled_again(i2c_pad):
    chip, reader = i2c_pad
    chip.place(Ntag(NTAG_UID, card_id="relic-07"))
    reader.poll()
    reader.field_off()
    with pytest.raises(TagAccessError, match="was not on stake-0 at its last poll"):
        reader.read_card_id(NTAG_UID)
    reader.poll()
    reader.reinit()
    with pytest.raises(TagAccessError, match="was not on stake-0 at its last poll"):
        reader.read_card_id(NTAG_UID)
    reader.poll()
    assert reader.read_card_id(NTAG_UID) == "relic-07"


class Desfire(Tag):
    """A MIFARE DESFire EV1 as a PN532 lists it: ISO 14443-4, so its ATS follows its UID."""

    atqa, sak = 0x0344, 0x20
    ats = bytes([0x06, 0x75, 0x77, 0x81, 0x02, 0x80])


class Mini(Tag):
    """A MIFARE Mini: SAK 0x09 (bit 0 set, no ATS)."""

    atqa, sak = 0x0004, 0x09


class TripleSize(Tag):
    """A tag with a 10-byte (triple size) UID."""

    atqa, sak = 0x0048, 0x00


@pytest.mark.parametrize(
    ("first", "kind"),
    [
        (Desfire(bytes.fromhex("04112233445566")), "iso14443a"),
        (Mini(bytes.fromhex("a1b2c3d4")), "iso14443a"),
        (TripleSize(bytes.fromhex("04112233445566778899")), "iso14443a"),
    ],
)
def test_other_iso14443a_tags_are_listed_with_what_follows_them(i2c_pad, first, kind):
    chip, reader = i2c_pad
    chip.place(first)
    chip.place(Ntag(NTAG_UID))
    result = reader.poll()
    assert result.uids == (first.uid_hex, NTAG_UID)
    listed = result.targets[0]
    assert (listed.kind, listed.atqa, listed.sak, listed.number) == (kind, first.atqa, first.sak, 1)
    assert result.targets[1].kind == "ntag" and result.targets[1].number == 2


def test_a_target_list_with_an_impossible_uid_length_is_a_protocol_fault(i2c_pad):
    chip, reader = i2c_pad
    chip.place(TripleSize(bytes.fromhex("0411223344")))  # 5 bytes: no such UID size
    with pytest.raises(
        ReaderFault, match=r"target list 0101004800050411223344 is malformed \(UID length 5\)$"
    ) as fault:
        reader.poll()
    assert fault.value.kind == "protocol"
    assert reader.health.errors == {"protocol": 1}


class ShortReads(Ntag):
    """A clone that answers READ with one page instead of four."""

    def exchange(self, data):
        status, answer = super().exchange(data)
        return status, answer[:4] if data[0] == 0x30 else answer


class IgnoresWrites(Ntag):
    """A tag that acknowledges writes and keeps its memory as it was."""

    def exchange(self, data):
        if data[0] == 0xA2:
            return 0x00, b""
        return super().exchange(data)


def test_a_tag_that_does_not_answer_as_an_ntag_is_told_by_uid_command_and_status(i2c_pad):
    chip, reader = i2c_pad
    chip.place(ShortReads(NTAG_UID, card_id="relic-07"))
    reader.poll()
    with pytest.raises(TagAccessError, match=f"^tag {NTAG_UID} answered 4 bytes$"):
        reader.read_card_id(NTAG_UID)
    chip.remove(NTAG_UID)
    with pytest.raises(
        TagAccessError, match=f"^tag {NTAG_UID} did not answer command 0x30 \\(status 1\\)$"
    ):
        reader.read_card_id(NTAG_UID)
    assert reader.health.state == "ok"


def test_a_write_the_tag_does_not_keep_is_told(i2c_pad):
    chip, reader = i2c_pad
    chip.place(IgnoresWrites(NTAG_UID, card_id="relic-07"))
    reader.poll()
    with pytest.raises(
        TagDataError, match=f"^tag {NTAG_UID} reads back 'relic-07' instead of 'relic-08'$"
    ):
        reader.write_card_id(NTAG_UID, "relic-08")


def test_writing_to_a_tag_that_is_not_ndef_formatted_names_the_tag(i2c_pad):
    chip, reader = i2c_pad
    tag = chip.place(Ntag(NTAG_UID))
    tag.memory[12:16] = bytes(4)
    reader.poll()
    with pytest.raises(TagDataError, match=f"^tag {NTAG_UID}: the tag is not NDEF formatted"):
        reader.write_card_id(NTAG_UID, "relic-07")


def test_a_card_id_may_fill_the_data_area_to_its_last_byte(i2c_pad):
    chip, reader = i2c_pad
    tag = chip.place(Ntag(NTAG_UID, model="ntag213"))
    tag.memory[14] = 96 // 8  # a data area of 96 bytes
    reader.poll()
    exact = "x" * 86
    assert len(ndef.card_id_tlv(exact)) == 96
    reader.write_card_id(NTAG_UID, exact)
    assert reader.read_card_id(NTAG_UID) == exact
    with pytest.raises(TagDataError, match=f"^card id needs 97 bytes; tag {NTAG_UID} holds 96$"):
        reader.write_card_id(NTAG_UID, exact + "x")


def test_reading_stops_as_soon_as_the_record_is_in(i2c_pad):
    chip, reader = i2c_pad
    chip.place(Ntag(NTAG_UID, card_id="x" * 19))  # its TLV ends at byte 28 of page 4 on
    assert ndef.tlv_extent(ndef.card_id_tlv("x" * 19)) == 28
    reader.poll()
    chip.commands.clear()
    assert reader.read_card_id(NTAG_UID) == "x" * 19
    reads = [params[2] for command, params in chip.commands if command == 0x40]
    assert reads == [3, 7]  # 12 bytes, then 16: 28


def test_a_firmware_answer_that_is_not_four_bytes_is_a_protocol_fault():
    chip, reader = i2c_reader()
    chip.firmware = (0x32, 0x01, 0x06)  # a clone that leaves out the support byte
    with pytest.raises(
        ReaderFault, match=r"^reader stake-0: firmware answer 320106 is not 4 bytes$"
    ) as fault:
        reader.firmware_version()
    assert fault.value.kind == "protocol"
    assert reader.health.errors == {"protocol": 1}
    assert reader.health.last_error == "protocol: firmware answer 320106 is not 4 bytes"
