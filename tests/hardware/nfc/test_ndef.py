"""Card ids as NDEF text records: the bytes written, and malformed data rejected with a reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.nfc import ndef


def test_a_card_id_is_one_short_text_record_in_an_ndef_tlv():
    assert ndef.card_id_tlv("relic-7") == bytes(
        [0x03, 0x0E, 0xD1, 0x01, 0x0A, 0x54, 0x02]
    ) + b"en" + b"relic-7" + bytes([0xFE])


def test_a_long_tlv_uses_the_three_byte_length():
    record = ndef.text_record("x" * 250)
    area = bytes([0x03, 0xFF]) + len(record).to_bytes(2, "big") + record + b"\xfe"
    assert ndef.ndef_message(area) == record
    assert ndef.tlv_extent(area) == 4 + len(record)


def test_null_and_other_tlvs_before_the_message_are_skipped():
    area = b"\x00\x00" + bytes([0x01, 0x03, 0xA0, 0x10, 0x44]) + ndef.card_id_tlv("agent-3")
    assert ndef.card_id_from_area(area) == "agent-3"


@given(st.text(min_size=1, max_size=40).filter(str.isprintable))
def test_every_printable_card_id_round_trips(card_id):
    area = ndef.card_id_tlv(card_id) + bytes(8)
    assert ndef.card_id_from_area(area) == card_id
    assert ndef.tlv_extent(area) == len(ndef.card_id_tlv(card_id)) - 1


@pytest.mark.parametrize(
    ("area", "reason"),
    [
        (b"\xfe" + bytes(15), "the tag holds no NDEF message"),
        (bytes(16), "the tag holds no NDEF message"),
        (bytes([0x03, 0x00, 0xFE]), "the NDEF message is empty (the tag carries no card id)"),
        (bytes([0x03, 0x20, 0xD1, 0x01]), "TLV 0x03 says 32 bytes but only 2 are left on the tag"),
        (bytes([0x03, 0xFF, 0x01]), "a TLV is cut off in its three-byte length"),
        (
            bytes([0x03, 0x05, 0xD1, 0x01, 0x09, 0x54, 0x02]),
            "the record says 9 payload bytes but only 1 are there",
        ),
        (
            bytes([0x03, 0x05, 0xD1, 0x01, 0x01, 0x55, 0x00]),
            "the first record is not a text record (TNF 1, type b'U')",
        ),
        (
            bytes([0x03, 0x07, 0xD1, 0x01, 0x03, 0x54, 0x82, 0x65, 0x6E]),
            "UTF-16 text records are not supported",
        ),
        (
            bytes([0x03, 0x06, 0xD1, 0x01, 0x02, 0x54, 0x05, 0x65]),
            "the text record's language code runs past its payload",
        ),
        (
            bytes([0x03, 0x07, 0xD1, 0x01, 0x03, 0x54, 0x00, 0xFF, 0xFE]),
            "the text record is not valid UTF-8 (invalid start byte)",
        ),
        (
            bytes([0x03, 0x06, 0xD1, 0x01, 0x02, 0x54, 0x00, 0x07]),
            "the card id '\\x07' contains unprintable characters",
        ),
        (
            bytes([0x03, 0x05, 0xB1, 0x01, 0x01, 0x54, 0x00]),
            "chunked NDEF records are not supported",
        ),
        (bytes([0x03, 0x05, 0xD1, 0x01, 0x01, 0x54, 0x00]), "a card id must be a non-empty text"),
        (bytes([0x03, 0x04, 0xD1, 0x01, 0x00, 0x54]), "the text record is empty"),
        (bytes([0x03, 0x02, 0xD1, 0x01]), "the NDEF record header is cut off"),
        (bytes([0x03, 0x03, 0xD9, 0x01, 0x02]), "the NDEF record header is cut off"),  # + an id
        (bytes([0x03, 0x05, 0xC1, 0x01, 0x00, 0x00, 0x00]), "the NDEF record header is cut off"),
        (bytes([0x03]), "a TLV is cut off before its length"),
        # headers complete to their last byte (no type, no payload): read, then found no text
        (
            bytes([0x03, 0x03, 0xD1, 0x00, 0x00]),
            "the first record is not a text record (TNF 1, type b'')",
        ),
        (
            bytes([0x03, 0x06, 0xC1, 0x00, 0, 0, 0, 0]),
            "the first record is not a text record (TNF 1, type b'')",
        ),
        (
            bytes([0x03, 0x04, 0xD9, 0x00, 0x00, 0x00]),
            "the first record is not a text record (TNF 1, type b'')",
        ),
    ],
)
def test_malformed_data_is_rejected_with_its_reason(area, reason):
    with pytest.raises(ndef.NdefError) as error:
        ndef.card_id_from_area(area)
    assert str(error.value) == reason


@pytest.mark.parametrize(
    ("cc", "reason"),
    [
        (bytes(4), "the tag is not NDEF formatted (capability container does not start with E1)"),
        (bytes([0xE1, 0x20, 0x3E, 0]), "unsupported NDEF mapping version 2.0"),
        (bytes([0xE1, 0x2F, 0x3E, 0]), "unsupported NDEF mapping version 2.15"),
    ],
)
def test_a_bad_capability_container_is_rejected(cc, reason):
    with pytest.raises(ndef.NdefError) as error:
        ndef.data_area_size(cc)
    assert str(error.value) == reason


@pytest.mark.parametrize(
    ("card_id", "reason"),
    [
        ("", "a card id must be a non-empty text"),
        (7, "a card id must be a non-empty text"),
        ("a\nb", "the card id 'a\\nb' contains unprintable characters"),
        ("é" * 60, "a card id is at most 96 bytes of UTF-8"),
    ],
)
def test_card_ids_that_cannot_be_written(card_id, reason):
    with pytest.raises(ndef.NdefError) as error:
        ndef.card_id_tlv(card_id)
    assert str(error.value) == reason


@given(st.binary(max_size=64))
def test_any_bytes_give_a_card_id_or_an_ndef_error(area):
    try:
        card_id = ndef.card_id_from_area(area)
    except ndef.NdefError as error:
        assert str(error)
    else:
        assert isinstance(card_id, str) and card_id


def test_a_fresh_tag_s_capability_container_announces_its_data_area():
    cc = ndef.capability_container(144)  # NTAG213
    assert cc == bytes([0xE1, 0x10, 0x12, 0x00])
    assert ndef.data_area_size(cc) == 144
    assert ndef.data_area_size(bytes([0xE1, 0x11, 0x3E, 0x00])) == 496  # version 1.1 reads too


def test_a_long_record_and_a_record_with_an_id_field_are_read():
    payload = b"\x02en" + b"stake-9"
    long_record = bytes([0xC1, 0x01]) + len(payload).to_bytes(4, "big") + b"T" + payload
    assert ndef.card_id_from_message(long_record) == "stake-9"
    with_id = bytes([0xD9, 0x01, len(payload), 0x02]) + b"T" + b"#7" + payload
    assert ndef.card_id_from_message(with_id) == "stake-9"


def test_one_null_tlv_before_the_message_is_skipped():
    assert ndef.card_id_from_area(b"\x00" + ndef.card_id_tlv("relic-2")) == "relic-2"


def test_an_empty_message_in_a_three_byte_length_tlv_is_the_message_not_a_cut_off_one():
    assert ndef.ndef_message(bytes([0x03, 0xFF, 0x00, 0x00])) == b""


def test_the_longest_card_id_and_the_longest_short_record_are_written():
    card_id = "x" * 96
    assert ndef.card_id_from_area(ndef.card_id_tlv(card_id)) == card_id
    assert len(ndef.text_record("x" * 252)) == 4 + 255  # a payload of 255 bytes still fits
    with pytest.raises(ndef.NdefError) as error:
        ndef.text_record("x" * 253)
    assert str(error.value) == "the text is too long for a short record"


@pytest.mark.parametrize(
    ("read", "needed"),
    [
        (b"", 0),  # nothing read yet
        (b"\x00\x00\xfe", 3),  # a terminator: nothing after it
        (b"\x03", 0),  # the length is not read yet
        (b"\x03\xff\x00", 0),  # nor the whole three-byte length
        (b"\x03\xff\x00\x10", 20),
        (b"\x00\x03\x02", 5),
        (bytes([0x01, 0x03, 0xA0, 0x10, 0x44, 0x03, 0x05]), 12),  # after a lock control TLV
        (bytes([0x01, 0x05, 0xA0]), 0),  # the lock control TLV is not read to its end
    ],
)
def test_the_extent_of_the_ndef_tlv_from_what_was_read_so_far(read, needed):
    assert ndef.tlv_extent(read) == needed
