"""The emulated PN532 from the host's side of the wire: command frames in, ACK and response
frames out, as the PN532 user manual describes them, including the answers a driver never
provokes (syntax errors, wrong context, released targets) and the test API's own checks."""

from __future__ import annotations

import pytest

from hardware.nfc.emulator import (
    ACK,
    FAULT_MODES,
    NACK,
    SYNTAX_ERROR,
    ChipTiming,
    EmulatedPN532,
    build_frame,
    parse_frame,
)
from hardware.nfc.tags import Ntag

A, B = "04a1b2c3d4e5f6", "04112233445566"
GET_FIRMWARE, GET_STATUS, SAM, RF = 0x02, 0x04, 0x14, 0x32
EXCHANGE, DESELECT, LIST, RELEASE = 0x40, 0x44, 0x4A, 0x52
NTAG_READ_PAGE_0 = bytes([0x30, 0x00])


def send(chip: EmulatedPN532, command: int, params: bytes = b"") -> list[bytes]:
    """Write one command frame and take every frame the chip then has for the host."""
    chip.host_write(build_frame(bytes([0xD4, command]) + params))
    frames = []
    while (frame := chip.take_frame()) is not None:
        frames.append(frame)
    return frames


def answer(chip: EmulatedPN532, command: int, params: bytes = b"") -> bytes:
    """The response's data (after D5 and the response code), checking the ACK before it."""
    ack, response = send(chip, command, params)
    assert ack == ACK
    payload = parse_frame(response)
    assert payload[:2] == bytes([0xD5, command + 1])
    return payload[2:]


def listed(chip: EmulatedPN532, count: int = 1) -> bytes:
    answer(chip, RF, bytes([0x05, 0xFF, 0x01, 0x00]))  # finite retries: an empty field answers
    return answer(chip, LIST, bytes([count, 0x00]))


@pytest.fixture
def chip() -> EmulatedPN532:
    return EmulatedPN532(name="stake-0")


@pytest.mark.parametrize(
    ("command", "params"),
    [
        (0x60, b""),  # InAutoPoll: not emulated
        (SAM, b""),
        (SAM, b"\x05"),  # modes are 1 to 4
        (RF, b""),
        (RF, bytes([0x05, 0xFF, 0x01])),  # MaxRetries takes three bytes
        (RF, bytes([0x07, 0x00])),  # no such item
        (LIST, b"\x01"),
        (LIST, bytes([0x03, 0x00])),  # at most two targets
        (EXCHANGE, b"\x01"),
        (RELEASE, b""),
    ],
)
def test_a_malformed_or_unknown_command_gets_the_syntax_error_frame(chip, command, params):
    assert send(chip, command, params) == [ACK, SYNTAX_ERROR]


@pytest.mark.parametrize("mode", [1, 2, 3, 4])  # normal, virtual card, wired card, dual card
def test_sam_configuration_sets_the_mode(chip, mode):
    assert answer(chip, SAM, bytes([mode])) == b""
    assert chip.sam_mode == mode


def test_the_general_status_tells_the_field_and_the_targets(chip):
    assert answer(chip, GET_STATUS) == bytes([0x00, 0x00, 0x00, 0x00])
    chip.place(Ntag(A))
    listed(chip)
    assert answer(chip, GET_STATUS) == bytes([0x00, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00])


def test_an_empty_field_answers_no_target_only_with_finite_retries(chip):
    assert send(chip, LIST, bytes([0x01, 0x00])) == [ACK]  # 0xFF retries: searching forever
    assert listed(chip) == b"\x00"
    assert chip.rf_field  # listing switched the field on
    assert chip.max_retries == (0xFF, 0x01, 0x00)


def test_two_tags_are_both_listed_with_their_uids(chip):
    chip.place(Ntag(A))
    chip.place(Ntag(B))
    found = listed(chip, 2)
    assert found[0] == 2
    assert found[1] == 1 and found[6 : 6 + 7] == bytes.fromhex(A)
    assert found[13] == 2 and found[18 : 18 + 7] == bytes.fromhex(B)
    assert listed(chip, 1)[0] == 1  # asked for one, one is given


def test_only_106_kbps_type_a_finds_the_tags(chip):
    chip.place(Ntag(A))
    answer(chip, RF, bytes([0x05, 0xFF, 0x01, 0x00]))
    assert answer(chip, LIST, bytes([0x01, 0x01])) == b"\x00"  # 212 kbps FeliCa: nothing


def test_a_listed_tag_answers_until_it_leaves_the_field(chip):
    chip.place(Ntag(A))
    listed(chip)
    page = answer(chip, EXCHANGE, b"\x01" + NTAG_READ_PAGE_0)
    uid = bytes.fromhex(A)  # NTAG pages 0 and 1: UID0-2, check byte, UID3-6
    assert page[0] == 0x00 and page[1:4] == uid[:3] and page[5:9] == uid[3:]
    chip.remove(A)
    assert answer(chip, EXCHANGE, b"\x01" + NTAG_READ_PAGE_0) == b"\x01"  # timeout
    assert answer(chip, EXCHANGE, b"\x02" + NTAG_READ_PAGE_0) == b"\x27"  # never listed


@pytest.mark.parametrize("command", [RELEASE, DESELECT])
def test_releasing_a_target_ends_its_exchanges(chip, command):
    chip.place(Ntag(A))
    chip.place(Ntag(B))
    listed(chip, 2)
    assert answer(chip, command, b"\x01") == b"\x00"
    assert answer(chip, EXCHANGE, b"\x01" + NTAG_READ_PAGE_0) == b"\x27"
    assert answer(chip, EXCHANGE, b"\x02" + NTAG_READ_PAGE_0)[0] == 0x00  # the other stays
    assert answer(chip, command, b"\x00") == b"\x00"  # 0: every target
    assert answer(chip, EXCHANGE, b"\x02" + NTAG_READ_PAGE_0) == b"\x27"


def test_switching_the_field_off_unpowers_the_targets(chip):
    chip.place(Ntag(A))
    listed(chip)
    assert answer(chip, RF, bytes([0x01, 0x00])) == b""
    assert not chip.rf_field
    assert answer(chip, EXCHANGE, b"\x01" + NTAG_READ_PAGE_0) == b"\x27"


def test_a_frame_for_another_tfi_or_without_a_command_is_not_executed(chip):
    chip.host_write(build_frame(bytes([0xD5, GET_FIRMWARE])))  # a chip's frame, not a host's
    chip.host_write(build_frame(bytes([0xD4])))
    assert not chip.ready and not chip.commands


def test_an_ack_from_the_host_aborts_the_waiting_answer(chip):
    assert send(chip, LIST, bytes([0x01, 0x00])) == [ACK]
    chip.host_write(build_frame(bytes([0xD4, GET_FIRMWARE])))
    chip.host_write(ACK)
    assert not chip.ready


def test_a_chip_fault_for_a_number_of_commands_then_normal_answers(chip):
    chip.fail("nak", times=2)
    assert send(chip, GET_FIRMWARE) == [NACK]
    assert send(chip, GET_FIRMWARE) == [NACK]
    assert answer(chip, GET_FIRMWARE) == bytes(chip.firmware)
    assert chip.fault is None


def test_the_chip_faults_answer_as_their_names_say(chip):
    chip.fail("no_answer")
    assert send(chip, GET_FIRMWARE) == []
    chip.fail("busy")
    assert send(chip, GET_FIRMWARE) == [ACK]
    chip.fail("bad_checksum")
    ack, response = send(chip, GET_FIRMWARE)
    assert ack == ACK and parse_frame(response) is None
    chip.recover()
    assert answer(chip, GET_FIRMWARE) == bytes(chip.firmware)


def test_the_test_api_refuses_what_cannot_happen(chip):
    chip.place(Ntag(A))
    with pytest.raises(ValueError, match=f"a tag with UID {A} already lies on stake-0"):
        chip.place(Ntag(A))
    with pytest.raises(KeyError, match=f"no tag {B} lies on stake-0"):
        chip.remove(B)
    with pytest.raises(ValueError, match="unknown fault 'melt'; choose one of no_answer, "):
        chip.fail("melt")
    assert chip.remove(bytes.fromhex(A)).uid_hex == A  # bytes work as well as hex
    assert FAULT_MODES == ("no_answer", "bad_checksum", "nak", "busy", "unplugged", "io_error")


def test_an_unplugged_chip_comes_back_powered_up_afresh(chip):
    listed(chip)
    chip.fail("unplugged")
    assert not chip.plugged
    chip.recover()
    assert chip.plugged and not chip.rf_field and chip.max_retries == (0xFF, 0x01, 0xFF)


def test_the_uart_side_streams_the_waiting_frames_in_pieces(chip):
    chip.host_write(build_frame(bytes([0xD4, GET_FIRMWARE])))
    response = build_frame(bytes([0xD5, GET_FIRMWARE + 1, *chip.firmware]))
    assert chip.waiting_bytes() == len(ACK) + len(response)
    assert chip.read_stream(4) == ACK[:4]
    assert chip.waiting_bytes() == 2 + len(response)
    assert chip.read_stream(100) == ACK[4:] + response
    assert chip.waiting_bytes() == 0 and not chip.ready
    chip.host_write(build_frame(bytes([0xD4, GET_FIRMWARE])))
    chip.discard_waiting()
    assert chip.waiting_bytes() == 0


def test_the_irq_line_is_low_while_a_frame_waits(chip):
    assert chip.irq.value is True
    chip.host_write(build_frame(bytes([0xD4, GET_FIRMWARE])))
    assert chip.irq.value is False
    while chip.take_frame() is not None:
        pass
    assert chip.irq.value is True


def test_counters_add_up_and_reset(chip):
    chip.count(10, 20, 0.5)
    chip.count(1, 2, 0.25)
    assert (chip.transactions, chip.bytes_in, chip.bytes_out) == (2, 11, 22)
    assert chip.modelled_time_s == 0.75
    chip.reset_counters()
    assert (chip.transactions, chip.bytes_in, chip.bytes_out, chip.modelled_time_s) == (0,) * 4
    assert chip.busy_time_s == 0.0


def test_a_frame_is_built_byte_for_byte_as_the_manual_draws_it():
    assert build_frame(bytes([0xD4, 0x02])) == bytes(
        [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00]
    )


def test_frames_are_found_and_checked_wherever_they_start_and_end():
    frame = build_frame(bytes([0xD4, 0x02]))
    assert parse_frame(frame[1:]) == bytes([0xD4, 0x02])  # no leading zero byte
    assert parse_frame(frame[:-1]) == bytes([0xD4, 0x02])  # no postamble
    assert parse_frame(frame[:-2]) is None  # no checksum: incomplete
    assert parse_frame(frame[:4]) is None  # only the length
    assert parse_frame(b"\x00\xff\x02") is None
    assert parse_frame(ACK) == b"" and parse_frame(ACK[1:5]) == b""
    assert parse_frame(build_frame(b"\xd4")) == b"\xd4"  # LEN 1, LCS 0xFF: not an ACK
    assert parse_frame(b"\x01\x02\x03") is None


TIMING = ChipTiming(  # whole numbers, so that times add up exactly
    ack_s=1, command_s=10, exchange_s=100, write_s=1000, field_guard_s=0, activation_s=0,
    empty_attempt_s=0,
)


@pytest.mark.parametrize(
    ("command", "params"),
    [
        (0x60, b""),
        (SAM, b"\x01"),
        (SAM, b"\x09"),
        (GET_STATUS, b""),
        (0x16, b"\x20"),  # PowerDown
        (RF, bytes([0x05, 0xFF, 0x01, 0x00])),
        (RF, b""),
        (LIST, b"\x05"),
        (EXCHANGE, b"\x01"),
        (EXCHANGE, b"\x01\x30\x00"),  # no target listed: wrong context
        (RELEASE, b"\x00"),
        (RELEASE, b""),
    ],
)
def test_commands_without_rf_work_cost_only_the_ack_and_the_turnaround(command, params):
    chip = EmulatedPN532(timing=TIMING)
    send(chip, command, params)
    assert chip.busy_time_s == 11
    send(chip, command, params)
    assert chip.busy_time_s == 22  # it adds up


def test_power_down_answers_its_status_byte():
    assert answer(EmulatedPN532(), 0x16, b"\x20") == b"\x00"


def test_a_tag_write_costs_the_eeprom_time_and_a_read_the_exchange_time():
    chip = EmulatedPN532(timing=TIMING)
    chip.place(Ntag(A))
    listed(chip)
    before = chip.busy_time_s
    answer(chip, EXCHANGE, b"\x01" + NTAG_READ_PAGE_0)
    assert chip.busy_time_s - before == 111
    before = chip.busy_time_s
    answer(chip, EXCHANGE, b"\x01" + bytes([0xA2, 0x10, 1, 2, 3, 4]))  # NTAG WRITE page 16
    assert chip.busy_time_s - before == 1011
    before = chip.busy_time_s
    answer(chip, EXCHANGE, b"\x01" + bytes([0xA0, 0x10]))  # COMPATIBILITY WRITE, first part
    assert chip.busy_time_s - before == 1011


def test_a_one_byte_tag_command_is_relayed(chip):
    chip.place(Ntag(A))
    listed(chip)
    assert send(chip, EXCHANGE, b"\x01\x60")[1] != SYNTAX_ERROR  # NTAG GET_VERSION


def test_releasing_a_target_never_listed_is_harmless(chip):
    chip.place(Ntag(A))
    listed(chip)
    assert answer(chip, RELEASE, b"\x02") == b"\x00"
    assert answer(chip, EXCHANGE, b"\x01" + NTAG_READ_PAGE_0)[0] == 0x00


def test_a_bad_checksum_fault_spoils_only_the_checksum_byte(chip):
    good = send(chip, GET_FIRMWARE)[1]
    chip.fail("bad_checksum")
    bad = send(chip, GET_FIRMWARE)[1]
    assert bad[:-2] == good[:-2] and bad[-1] == good[-1] and bad[-2] != good[-2]


def test_a_fresh_chip_its_names_and_its_recovery(chip):
    fresh = EmulatedPN532()
    assert fresh.name == "pn532" and fresh.irq.name == "IRQ pn532"
    assert fresh.fault is None and fresh.sam_mode is None
    assert fresh.irq.direction is None and fresh.irq.pull is None
    fresh.irq.switch_to_input(pull="up")
    assert fresh.irq.pull == "up"
    chip.fail("io_error")
    chip.recover()
    assert chip.fault is None
    chip.fail("nak", times=1)
    chip.recover()
    assert send(chip, GET_FIRMWARE)[0] == ACK  # the count is gone with the fault


def test_the_chip_remembers_its_last_512_commands(chip):
    for n in range(513):
        send(chip, SAM, bytes([1 + n % 4]))
    assert len(chip.commands) == 512
    assert chip.commands[0] == (SAM, bytes([1 + 1 % 4]))  # the first one fell out


def test_listing_looks_once_more_only_when_it_found_fewer_tags_than_asked():
    timing = ChipTiming(ack_s=0, command_s=0, field_guard_s=0, activation_s=100, empty_attempt_s=1)
    chip = EmulatedPN532(timing=timing)
    chip.place(Ntag(A))
    answer(chip, RF, bytes([0x05, 0xFF, 0x01, 0x00]))
    before = chip.busy_time_s
    answer(chip, LIST, bytes([0x01, 0x00]))
    assert chip.busy_time_s - before == 100  # one asked, one found
    before = chip.busy_time_s
    answer(chip, LIST, bytes([0x02, 0x00]))
    assert chip.busy_time_s - before == 101  # two asked: one more look finds nothing
