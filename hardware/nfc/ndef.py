"""NDEF on NFC Forum Type 2 tags (NTAG21x): the capability container, the TLV and a text record.

A card carries its own identity as one NDEF text record in the tag's user memory, which starts at
page 4. The layout, byte by byte:

    page 3   E1 10 SS 00        capability container: magic, version 1.0, data area SS*8 bytes
    page 4.. 03 LL <record> FE  NDEF message TLV (LL < 255, else FF hh ll), then the terminator
    record   D1 01 PL 54 ST <lang> <text>   short well-known record "T", status byte ST = len(lang)

Decoding never raises anything but `NdefError`, whose message says what is wrong.
"""

from __future__ import annotations

from hardware.errors import HardwareError

CC_MAGIC = 0xE1
NDEF_TLV = 0x03
NULL_TLV = 0x00
TERMINATOR_TLV = 0xFE
TEXT_TYPE = b"T"
MAX_CARD_ID_BYTES = 96


class NdefError(HardwareError, ValueError):
    """Tag data that is not a well-formed card id; the message says why."""


def capability_container(data_area_bytes: int) -> bytes:
    """The four bytes of page 3 for a fresh tag whose data area holds `data_area_bytes`."""
    return bytes([CC_MAGIC, 0x10, data_area_bytes // 8, 0x00])


def data_area_size(cc: bytes) -> int:
    """Size in bytes of the data area that a capability container announces."""
    if len(cc) < 4 or cc[0] != CC_MAGIC:
        raise NdefError(
            "the tag is not NDEF formatted (capability container does not start with E1)"
        )
    if cc[1] >> 4 != 1:
        raise NdefError(f"unsupported NDEF mapping version {cc[1] >> 4}.{cc[1] & 0x0F}")
    return cc[2] * 8


def text_record(text: str, language: str = "en") -> bytes:
    """One short NDEF text record (UTF-8) holding `text`."""
    lang = language.encode("ascii")
    body = text.encode("utf-8")
    payload = bytes([len(lang)]) + lang + body
    if len(payload) > 255:
        raise NdefError("the text is too long for a short record")
    # MB | ME | SR, TNF 1 (well-known type)
    return bytes([0xD1, len(TEXT_TYPE), len(payload)]) + TEXT_TYPE + payload


def card_id_tlv(card_id: str) -> bytes:
    """The bytes written from page 4: an NDEF message TLV with one text record, then FE."""
    check_card_id(card_id)
    record = text_record(card_id)
    if len(record) < 0xFF:
        head = bytes([NDEF_TLV, len(record)])
    else:
        head = bytes([NDEF_TLV, 0xFF]) + len(record).to_bytes(2, "big")
    return head + record + bytes([TERMINATOR_TLV])


def check_card_id(card_id: object) -> None:
    """Raise NdefError unless `card_id` is a short, printable, non-empty text."""
    if not isinstance(card_id, str) or not card_id:
        raise NdefError("a card id must be a non-empty text")
    if not card_id.isprintable():
        raise NdefError(f"the card id {card_id!r} contains unprintable characters")
    if len(card_id.encode("utf-8")) > MAX_CARD_ID_BYTES:
        raise NdefError(f"a card id is at most {MAX_CARD_ID_BYTES} bytes of UTF-8")


def ndef_message(area: bytes) -> bytes:
    """The value of the first NDEF message TLV in the data area `area` (which starts at page 4).

    Raises NdefError if the area holds no message or the TLV runs past the area.
    """
    at = 0
    while at < len(area):
        tag = area[at]
        if tag == NULL_TLV:
            at += 1
            continue
        if tag == TERMINATOR_TLV:
            break
        length, at = _tlv_length(area, at + 1)
        if at + length > len(area):
            raise NdefError(
                f"TLV 0x{tag:02X} says {length} bytes but only {len(area) - at} are left on the tag"
            )
        if tag == NDEF_TLV:
            return bytes(area[at : at + length])
        at += length  # lock and memory control TLVs are skipped
    raise NdefError("the tag holds no NDEF message")


def tlv_extent(area: bytes) -> int:
    """How many bytes of `area` must be read to hold the whole first NDEF TLV (0 if unknown yet).

    Lets a reader fetch only the pages it needs: call with what was read so far.
    """
    at = 0
    while at < len(area):
        tag = area[at]
        if tag == NULL_TLV:
            at += 1
            continue
        if tag == TERMINATOR_TLV:
            return at + 1
        if at + 1 >= len(area) or (area[at + 1] == 0xFF and at + 3 >= len(area)):
            return 0
        length, start = _tlv_length(area, at + 1)
        if tag == NDEF_TLV:
            return start + length
        at = start + length
    return 0


def _tlv_length(area: bytes, at: int) -> tuple[int, int]:
    if at >= len(area):
        raise NdefError("a TLV is cut off before its length")
    if area[at] != 0xFF:
        return area[at], at + 1
    if at + 2 >= len(area):
        raise NdefError("a TLV is cut off in its three-byte length")
    return int.from_bytes(area[at + 1 : at + 3], "big"), at + 3


def card_id_from_message(message: bytes) -> str:
    """The text of the first text record of an NDEF message."""
    if not message:
        raise NdefError("the NDEF message is empty (the tag carries no card id)")
    header = message[0]
    tnf = header & 0x07
    short = bool(header & 0x10)
    has_id = bool(header & 0x08)
    if header & 0x20:
        raise NdefError("chunked NDEF records are not supported")
    at = 1
    need = 1 + (1 if short else 4) + (1 if has_id else 0)
    if len(message) < at + need:
        raise NdefError("the NDEF record header is cut off")
    type_length = message[at]
    at += 1
    if short:
        payload_length = message[at]
        at += 1
    else:
        payload_length = int.from_bytes(message[at : at + 4], "big")
        at += 4
    id_length = 0
    if has_id:
        id_length = message[at]
        at += 1
    record_type = bytes(message[at : at + type_length])
    at += type_length + id_length
    payload = bytes(message[at : at + payload_length])
    if len(payload) != payload_length:
        raise NdefError(
            f"the record says {payload_length} payload bytes but only {len(payload)} are there"
        )
    if tnf != 0x01 or record_type != TEXT_TYPE:
        raise NdefError(f"the first record is not a text record (TNF {tnf}, type {record_type!r})")
    return _text_payload(payload)


def _text_payload(payload: bytes) -> str:
    if not payload:
        raise NdefError("the text record is empty")
    status = payload[0]
    if status & 0x80:
        raise NdefError("UTF-16 text records are not supported")
    lang_length = status & 0x3F
    if 1 + lang_length > len(payload):
        raise NdefError("the text record's language code runs past its payload")
    try:
        text = payload[1 + lang_length :].decode("utf-8")
    except UnicodeDecodeError as error:
        raise NdefError(f"the text record is not valid UTF-8 ({error.reason})") from None
    check_card_id(text)
    return text


def card_id_from_area(area: bytes) -> str:
    """The card id in a data area read from page 4 onward."""
    return card_id_from_message(ndef_message(area))
