"""The Reader adapter over the real driver and emulated buses: polls, card ids, faults, health."""

from __future__ import annotations

import pytest

from hardware.nfc import ndef
from hardware.nfc.buses import EmulatedI2C, EmulatedUART
from hardware.nfc.emulator import EmulatedPN532
from hardware.nfc.reader import Reader, ReaderFault, TagAccessError, TagDataError
from hardware.nfc.tags import MifareClassic1K, Ntag

NTAG_UID = "04a1b2c3d4e5f6"
NTAG_UID_2 = "04112233445566"


def test_starting_sends_rf_configuration_with_few_retries(i2c_pad):
    chip, reader = i2c_pad
    assert chip.max_retries == (0xFF, 0x01, 0x01)
    assert (0x32, bytes([0x05, 0xFF, 0x01, 0x01])) in chip.commands
    assert reader.health.state == "ok"
    assert reader.health.firmware == "PN532 v1.6"
    assert reader.firmware_version() == (0x32, 0x01, 0x06, 0x07)


def test_an_empty_poll_answers_with_no_targets(i2c_pad):
    _chip, reader = i2c_pad
    assert reader.poll().uids == ()
    assert reader.health.polls == 1


def test_poll_lists_tag_kinds_and_two_tags_on_one_pad(i2c_pad):
    chip, reader = i2c_pad
    chip.place(Ntag(NTAG_UID))
    chip.place(MifareClassic1K("deadbeef"))
    result = reader.poll()
    assert result.uids == (NTAG_UID, "deadbeef")
    assert [(t.kind, t.atqa, t.sak) for t in result.targets] == [
        ("ntag", 0x0044, 0x00),
        ("mifare_classic", 0x0004, 0x08),
    ]


def test_field_off_reaches_the_chip(i2c_pad):
    chip, reader = i2c_pad
    reader.poll()
    assert chip.rf_field
    reader.field_off()
    assert not chip.rf_field


@pytest.mark.parametrize("model", ["ntag213", "ntag215", "ntag216"])
def test_write_then_read_a_card_id(i2c_pad, model):
    chip, reader = i2c_pad
    tag = chip.place(Ntag(NTAG_UID, model=model))
    reader.poll()
    with pytest.raises(TagDataError, match="message is empty"):
        reader.read_card_id(NTAG_UID)  # a fresh tag carries an empty NDEF message
    reader.write_card_id(NTAG_UID, "arcana/relic-07")
    assert reader.read_card_id(NTAG_UID) == "arcana/relic-07"
    assert ndef.card_id_from_area(bytes(tag.memory[16:])) == "arcana/relic-07"


def test_a_long_card_id_spans_several_reads(i2c_pad):
    chip, reader = i2c_pad
    chip.place(Ntag(NTAG_UID, card_id="x" * 90))
    reader.poll()
    chip.commands.clear()
    assert reader.read_card_id(NTAG_UID) == "x" * 90
    reads = [params for command, params in chip.commands if command == 0x40]
    # page 3 (CC + 12 bytes), then 16 bytes a read until the TLV's 101 bytes are in
    assert [p[2] for p in reads] == [3, 7, 11, 15, 19, 23, 27]


def test_card_ids_also_work_over_spi_and_uart(make_spi_table):
    _, chips, readers = make_spi_table(1)
    chips[0].place(Ntag(NTAG_UID, card_id="seer"))
    readers[0].poll()
    assert readers[0].read_card_id(NTAG_UID) == "seer"
    chip = EmulatedPN532()
    reader = Reader.over_uart(EmulatedUART(chip), name="main")
    chip.place(Ntag(NTAG_UID))
    reader.poll()
    reader.write_card_id(NTAG_UID, "oracle")
    assert reader.read_card_id(NTAG_UID) == "oracle"


@pytest.mark.parametrize(
    ("plant", "reason"),
    [
        (lambda tag: tag.memory.__setitem__(slice(12, 16), bytes(4)), "not NDEF formatted"),
        (lambda tag: tag.write_user_bytes(bytes([0x03, 0xFF, 0x02, 0x00])), "only 492 are left"),
        (lambda tag: tag.write_user_bytes(bytes(16)), "holds no NDEF message"),
        (lambda tag: tag.write_user_bytes(bytes([3, 7, 0xD1, 1, 3, 0x54, 0, 0xC3, 0x28])), "UTF-8"),
    ],
)
def test_malformed_tag_data_is_rejected_with_a_reason(i2c_pad, plant, reason):
    chip, reader = i2c_pad
    plant(chip.place(Ntag(NTAG_UID, card_id="relic-7")))
    reader.poll()
    with pytest.raises(TagDataError, match=reason):
        reader.read_card_id(NTAG_UID)
    assert reader.health.state == "ok" and reader.health.error_count == 0


def test_a_tag_that_left_or_is_not_an_ntag_is_refused_clearly(i2c_pad):
    chip, reader = i2c_pad
    chip.place(MifareClassic1K("deadbeef"))
    chip.place(Ntag(NTAG_UID, card_id="relic-7"))
    reader.poll()
    with pytest.raises(TagAccessError, match="mifare classic; card ids live on NTAG"):
        reader.read_card_id("deadbeef")
    with pytest.raises(TagAccessError, match="was not on stake-0"):
        reader.read_card_id(NTAG_UID_2)
    chip.remove(NTAG_UID)
    with pytest.raises(TagAccessError, match="did not answer"):
        reader.read_card_id(NTAG_UID)


def test_a_card_id_that_does_not_fit_changes_nothing(i2c_pad):
    chip, reader = i2c_pad
    tag = chip.place(Ntag(NTAG_UID, card_id="relic-7"))
    before = bytes(tag.memory)
    reader.poll()
    with pytest.raises(TagDataError, match="unprintable"):
        reader.write_card_id(NTAG_UID, "bad\x00id")
    assert bytes(tag.memory) == before


@pytest.mark.parametrize(
    ("mode", "kind", "state"),
    [
        ("no_answer", "no_answer", "unplugged"),
        ("bad_checksum", "checksum", "failing"),
        ("nak", "nak", "failing"),
        ("busy", "busy", "failing"),
        ("unplugged", "unplugged", "unplugged"),
        ("io_error", "io", "failing"),
    ],
)
def test_each_fault_is_raised_counted_and_recovered_from(i2c_pad, mode, kind, state):
    chip, reader = i2c_pad
    chip.fail(mode)
    with pytest.raises(ReaderFault) as caught:
        reader.poll()
    assert caught.value.kind == kind
    assert "stake-0" in str(caught.value)
    assert reader.health.errors == {kind: 1}
    assert reader.health.state == state
    chip.recover()
    reader.reinit()
    assert reader.poll().uids == ()
    assert reader.health.state == "ok" and reader.health.reinits == 1
    assert chip.max_retries == (0xFF, 0x01, 0x01)  # configured again after the re-init


@pytest.mark.parametrize(
    ("mode", "state"), [("no_answer", "unplugged"), ("busy", "failing"), ("unplugged", "unplugged")]
)
def test_faults_over_spi(make_spi_table, mode, state):
    """On SPI an unplugged reader cannot be told from a mute one: both never become ready."""
    _, chips, readers = make_spi_table(1)
    chips[0].fail(mode)
    with pytest.raises(ReaderFault):
        readers[0].poll()
    assert readers[0].health.state == state
    with pytest.raises(ReaderFault):
        readers[0].reinit()
    chips[0].recover()
    readers[0].reinit()
    assert readers[0].health.state == "ok"


def test_a_reader_absent_at_start_belongs_to_the_table_and_can_come_back():
    i2c = EmulatedI2C()
    reader = Reader.over_i2c(i2c, name="stake-4")
    assert reader.health.state == "unplugged"
    assert "No I2C device at address: 0x24" in reader.health.last_error
    with pytest.raises(ReaderFault, match="not started"):
        reader.poll()
    i2c.attach(EmulatedPN532())
    reader.reinit()
    assert reader.poll().uids == ()


def test_close_is_idempotent_and_switches_the_field_off(i2c_pad):
    chip, reader = i2c_pad
    reader.poll()
    with reader:
        pass
    reader.close()
    assert not chip.rf_field
    assert reader.health.state == "closed"
    with pytest.raises(ReaderFault, match="closed"):
        reader.poll()


def test_activation_retries_are_bounded():
    with pytest.raises(ValueError, match="0xFF would poll forever"):
        Reader.over_i2c(EmulatedI2C(), name="x", activation_retries=0xFF)


def test_irq_line_replaces_status_polling():
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532())
    reader = Reader.over_i2c(i2c, name="a", irq=chip.irq)
    chip.reset_counters()
    reader.poll()
    # write, ACK (status + full), response (status + full): no status polls in between
    assert chip.transactions == 5
