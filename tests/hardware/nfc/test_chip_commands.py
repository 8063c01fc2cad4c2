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


def test_sam_configuration_sets_the_mode(chip):
    assert answer(chip, SAM, b"\x01") == b""
    assert chip.sam_mode == 1


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
