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
        (b"\xfe" + bytes(15), "holds no NDEF message"),
        (bytes(16), "holds no NDEF message"),
        (bytes([0x03, 0x00, 0xFE]), "message is empty"),
        (bytes([0x03, 0x20, 0xD1, 0x01]), "says 32 bytes but only 2 are left"),
        (bytes([0x03, 0xFF, 0x01]), "cut off in its three-byte length"),
        (bytes([0x03, 0x05, 0xD1, 0x01, 0x09, 0x54, 0x02]), "says 9 payload bytes but only 1"),
        (bytes([0x03, 0x05, 0xD1, 0x01, 0x01, 0x55, 0x00]), "not a text record"),
        (bytes([0x03, 0x07, 0xD1, 0x01, 0x03, 0x54, 0x82, 0x65, 0x6E]), "UTF-16"),
        (bytes([0x03, 0x06, 0xD1, 0x01, 0x02, 0x54, 0x05, 0x65]), "language code runs past"),
        (bytes([0x03, 0x07, 0xD1, 0x01, 0x03, 0x54, 0x00, 0xFF, 0xFE]), "not valid UTF-8"),
        (bytes([0x03, 0x06, 0xD1, 0x01, 0x02, 0x54, 0x00, 0x07]), "unprintable"),
        (bytes([0x03, 0x05, 0xB1, 0x01, 0x01, 0x54, 0x00]), "chunked"),
        (bytes([0x03, 0x05, 0xD1, 0x01, 0x01, 0x54, 0x00]), "non-empty text"),
    ],
)
def test_malformed_data_is_rejected_with_its_reason(area, reason):
    with pytest.raises(ndef.NdefError, match=reason):
        ndef.card_id_from_area(area)


@pytest.mark.parametrize(
    ("cc", "reason"),
    [(bytes(4), "not NDEF formatted"), (bytes([0xE1, 0x20, 0x3E, 0]), "version 2.0")],
)
def test_a_bad_capability_container_is_rejected(cc, reason):
    with pytest.raises(ndef.NdefError, match=reason):
        ndef.data_area_size(cc)


@pytest.mark.parametrize(
    ("card_id", "reason"),
    [("", "non-empty"), (7, "non-empty text"), ("a\nb", "unprintable"), ("é" * 60, "at most 96")],
)
def test_card_ids_that_cannot_be_written(card_id, reason):
    with pytest.raises(ndef.NdefError, match=reason):
        ndef.card_id_tlv(card_id)


@given(st.binary(max_size=64))
def test_any_bytes_give_a_card_id_or_an_ndef_error(area):
    try:
        card_id = ndef.card_id_from_area(area)
    except ndef.NdefError as error:
        assert str(error)
    else:
        assert isinstance(card_id, str) and card_id
