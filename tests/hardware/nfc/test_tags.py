"""The emulated tags as the stock adafruit PN532 driver finds them through the emulated chip:
NTAG21x memory as the data sheet lays it out (UID and check bytes, the one-time-programmable
lock and capability pages, page bounds), MIFARE Classic 1K sectors behind key A and key B,
and the answers to malformed or refused commands (the status byte alone, as a PN532 relays
a NAK or a timeout)."""

from __future__ import annotations

import pytest
from adafruit_pn532.adafruit_pn532 import MIFARE_CMD_AUTH_A, MIFARE_CMD_AUTH_B
from adafruit_pn532.i2c import PN532_I2C

from hardware.nfc.buses import EmulatedI2C
from hardware.nfc.emulator import EmulatedPN532
from hardware.nfc.tags import MifareClassic1K, Ntag

IN_DATA_EXCHANGE = 0x40
NTAG_UID = bytes.fromhex("04a1b2c3d4e5f6")
CLASSIC_UID = bytes.fromhex("deadbeef")
KEY_A = bytes.fromhex("a0a1a2a3a4a5")
KEY_B = bytes.fromhex("b0b1b2b3b4b5")
ACCESS = bytes.fromhex("ff078069")  # the transport configuration's access bits and GPB
TIMEOUT, AUTH_ERROR = 0x01, 0x14


def on_pad(tag):
    """The stock driver over I2C with `tag` listed as target 1, as a poll leaves it."""
    i2c = EmulatedI2C()
    chip = i2c.attach(EmulatedPN532())
    chip.place(tag)
    pn532 = PN532_I2C(i2c)
    assert bytes(pn532.read_passive_target(timeout=0.5)) == tag.uid
    return pn532


def relay(pn532, *command: int) -> bytes:
    """What the chip answers to InDataExchange of `command` to target 1: status, then data."""
    return bytes(pn532.call_function(IN_DATA_EXCHANGE, 17, params=[0x01, *command]))


# --- making a tag ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["04:a1:b2:c3:d4:e5:f6", "04 A1 B2 C3 D4 E5 F6", "04a1b2c3d4e5f6"])
def test_a_uid_is_read_from_hex_with_colons_or_spaces(text):
    assert Ntag(text).uid == NTAG_UID
    assert Ntag(text).uid_hex == "04a1b2c3d4e5f6"


def test_a_uid_that_is_not_hex_or_has_the_wrong_length_is_refused_with_a_reason():
    with pytest.raises(ValueError, match=r"UID '04a1b2c3d4e5fg' is not hexadecimal"):
        Ntag("04a1b2c3d4e5fg")
    with pytest.raises(ValueError, match=r"UID deadbeef has 4 bytes; this tag needs \(7,\)"):
        Ntag(CLASSIC_UID)
    with pytest.raises(ValueError, match=r"UID 04a1b2c3d4e5f6 has 7 bytes; this tag needs \(4,\)"):
        MifareClassic1K(NTAG_UID)


def test_an_unknown_ntag_model_is_refused_naming_the_models():
    with pytest.raises(
        ValueError,
        match=r"unknown NTAG model 'ntag214'; choose one of \['ntag213', 'ntag215', 'ntag216'\]",
    ):
        Ntag(NTAG_UID, model="ntag214")


def test_a_tag_shows_its_kind_and_uid():
    assert repr(Ntag(NTAG_UID)) == "Ntag('04a1b2c3d4e5f6')"
    assert repr(MifareClassic1K(CLASSIC_UID)) == "MifareClassic1K('deadbeef')"


@pytest.mark.parametrize(("model", "pages"), [("ntag213", 45), ("ntag215", 135), ("ntag216", 231)])
def test_an_ntag_memory_is_its_pages_of_four_bytes(model, pages):
    assert len(Ntag(NTAG_UID, model=model).memory) == pages * 4


def test_a_mifare_classic_1k_memory_is_64_blocks_of_16_bytes():
    assert len(MifareClassic1K(CLASSIC_UID, keys={15: (KEY_A, KEY_B)}).memory) == 1024


# --- NTAG --------------------------------------------------------------------------------


def test_a_fresh_ntag_pages_hold_the_uid_check_bytes_and_an_empty_ndef_message():
    """NTAG213/215/216 data sheet, 8.5: UID0-2 and BCC0 = CT ^ UID0-2 (CT = 0x88), UID3-6,
    BCC1 = UID3 ^ .. ^ UID6, the internal byte 0x48, lock bytes 0; then the capability
    container and an empty NDEF TLV followed by the terminator."""
    u = NTAG_UID
    pn532 = on_pad(Ntag(u, model="ntag213"))
    bcc0 = 0x88 ^ u[0] ^ u[1] ^ u[2]
    assert bytes(pn532.ntag2xx_read_block(0)) == bytes([u[0], u[1], u[2], bcc0])
    assert bytes(pn532.ntag2xx_read_block(1)) == u[3:7]
    assert bytes(pn532.ntag2xx_read_block(2)) == bytes([u[3] ^ u[4] ^ u[5] ^ u[6], 0x48, 0, 0])
    assert bytes(pn532.ntag2xx_read_block(3)) == bytes([0xE1, 0x10, 0x12, 0x00])
    assert bytes(pn532.ntag2xx_read_block(4)) == bytes([0x03, 0x00, 0xFE, 0x00])


def test_a_read_answers_four_pages_and_rolls_over_to_page_0_past_the_last():
    pn532 = on_pad(Ntag(NTAG_UID, model="ntag213"))
    answer = relay(pn532, 0x30, 43)  # pages 43, 44, then 0 and 1
    assert answer[0] == 0x00
    page0 = bytes([0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2])
    assert answer[1:] == bytes(8) + page0 + NTAG_UID[3:]


def test_a_write_changes_its_page_alone():
    tag = Ntag(NTAG_UID, model="ntag213", card_id="arcana/relic-07")
    before = bytes(tag.memory)
    pn532 = on_pad(tag)
    assert pn532.ntag2xx_write_block(5, b"\x11\x22\x33\x44") is True
    assert bytes(tag.memory) == before[:20] + b"\x11\x22\x33\x44" + before[24:]
    assert bytes(pn532.ntag2xx_read_block(5)) == b"\x11\x22\x33\x44"


def test_the_lock_and_capability_pages_only_ever_gain_bits():
    """Pages 2 and 3 are one-time programmable: a write ORs its bits in; on page 2 only the two
    lock bytes take them (BCC1 and the internal byte stay)."""
    tag = Ntag(NTAG_UID, model="ntag213")
    pn532 = on_pad(tag)
    page2 = bytes(pn532.ntag2xx_read_block(2))
    assert pn532.ntag2xx_write_block(2, b"\x0f\x0f\x0f\x0f") is True
    assert bytes(pn532.ntag2xx_read_block(2)) == page2[:2] + b"\x0f\x0f"
    assert pn532.ntag2xx_write_block(2, b"\xf0\xf0\xf0\x00") is True
    assert bytes(pn532.ntag2xx_read_block(2)) == page2[:2] + b"\xff\x0f"
    assert pn532.ntag2xx_write_block(3, b"\x00\x01\x00\x0f") is True
    assert bytes(pn532.ntag2xx_read_block(3)) == bytes([0xE1, 0x11, 0x12, 0x0F])
    assert pn532.ntag2xx_write_block(3, b"\x00\x00\x00\x00") is True  # clears nothing
    assert bytes(pn532.ntag2xx_read_block(3)) == bytes([0xE1, 0x11, 0x12, 0x0F])


def test_pages_past_the_end_and_the_uid_pages_refuse_a_write():
    tag = Ntag(NTAG_UID, model="ntag213")
    before = bytes(tag.memory)
    pn532 = on_pad(tag)
    assert pn532.ntag2xx_write_block(45, b"late") is False  # an NTAG213 has pages 0..44
    assert pn532.ntag2xx_write_block(1, b"\0\0\0\0") is False
    assert pn532.ntag2xx_write_block(44, b"last") is True
    assert bytes(tag.memory) == before[:176] + b"last"


def test_a_refused_or_malformed_ntag_command_answers_the_status_byte_alone():
    tag = Ntag(NTAG_UID, model="ntag213", card_id="relic-07")
    before = bytes(tag.memory)
    pn532 = on_pad(tag)
    assert relay(pn532, 0x30, 45) == bytes([TIMEOUT])  # past the last page
    assert relay(pn532, 0x30, 4, 0x00) == bytes([TIMEOUT])  # a READ with a stray byte
    assert relay(pn532, 0xA2, 4) == bytes([TIMEOUT])  # a WRITE without its page data
    assert relay(pn532, 0xA2, 5, 0x11, 0x22) == bytes([TIMEOUT])  # ... or with half of it
    assert relay(pn532, 0x60, 4) == bytes([TIMEOUT])  # no such command on an NTAG
    assert bytes(tag.memory) == before


def test_user_bytes_planted_by_a_test_land_at_their_offset_and_must_fit():
    tag = Ntag(NTAG_UID, model="ntag213")
    tag.write_user_bytes(b"\x11\x22\x33\x44", offset=4)
    assert tag.memory[16:24] == bytes([0x03, 0x00, 0xFE, 0x00, 0x11, 0x22, 0x33, 0x44])
    full = bytes(range(144))  # an NTAG213 has 36 user pages, 144 bytes
    tag.write_user_bytes(full)
    assert tag.memory[16:160] == full
    tag.write_user_bytes(b"\x99", offset=143)
    assert tag.memory[159] == 0x99
    with pytest.raises(ValueError, match=r"^the data does not fit the tag's user memory$"):
        tag.write_user_bytes(full + b"\x00")
    with pytest.raises(ValueError, match="does not fit"):
        tag.write_user_bytes(b"\x00", offset=144)
    assert tag.memory[16:160] == full[:143] + b"\x99"


# --- MIFARE Classic 1K -------------------------------------------------------------------


def test_block_0_holds_the_uid_its_check_byte_the_sak_and_the_atqa():
    u = CLASSIC_UID
    pn532 = on_pad(MifareClassic1K(u))
    assert pn532.mifare_classic_authenticate_block(u, 0, MIFARE_CMD_AUTH_A, b"\xff" * 6)
    block0 = bytes([*u, u[0] ^ u[1] ^ u[2] ^ u[3], 0x08, 0x04, 0x00]) + bytes(8)
    assert bytes(pn532.mifare_classic_read_block(0)) == block0


def test_key_a_and_key_b_each_open_their_sector_and_only_as_their_own_key():
    tag = MifareClassic1K(CLASSIC_UID, keys={1: (KEY_A, KEY_B)}, blocks={4: b"relic"})
    pn532 = on_pad(tag)
    uid = CLASSIC_UID
    assert pn532.mifare_classic_authenticate_block(uid, 4, MIFARE_CMD_AUTH_A, KEY_B) is False
    assert pn532.mifare_classic_authenticate_block(uid, 4, MIFARE_CMD_AUTH_B, KEY_A) is False
    assert pn532.mifare_classic_authenticate_block(uid, 4, MIFARE_CMD_AUTH_B, KEY_B) is True
    assert bytes(pn532.mifare_classic_read_block(4)) == b"relic".ljust(16, b"\0")
    assert pn532.mifare_classic_authenticate_block(uid, 5, MIFARE_CMD_AUTH_A, KEY_A) is True
    assert bytes(pn532.mifare_classic_read_block(4)) == b"relic".ljust(16, b"\0")


def test_authenticating_any_block_of_a_sector_opens_the_whole_sector():
    tag = MifareClassic1K(CLASSIC_UID, blocks={4: b"four", 5: b"five", 6: b"six"})
    pn532 = on_pad(tag)
    assert pn532.mifare_classic_authenticate_block(CLASSIC_UID, 6, MIFARE_CMD_AUTH_A, b"\xff" * 6)
    assert bytes(pn532.mifare_classic_read_block(4)) == b"four".ljust(16, b"\0")
    assert bytes(pn532.mifare_classic_read_block(5)) == b"five".ljust(16, b"\0")
    assert pn532.mifare_classic_write_block(5, b"0123456789abcdef") is True
    assert bytes(pn532.mifare_classic_read_block(5)) == b"0123456789abcdef"


def test_authentication_for_another_uid_or_past_the_last_block_fails():
    tag = MifareClassic1K(CLASSIC_UID, keys={15: (KEY_A, KEY_B)})
    pn532 = on_pad(tag)
    other, key = bytes.fromhex("deadbeee"), b"\xff" * 6
    assert pn532.mifare_classic_authenticate_block(other, 4, MIFARE_CMD_AUTH_A, key) is False
    assert pn532.mifare_classic_read_block(4) is None
    assert pn532.mifare_classic_authenticate_block(CLASSIC_UID, 63, MIFARE_CMD_AUTH_B, KEY_B)
    assert not pn532.mifare_classic_authenticate_block(CLASSIC_UID, 64, MIFARE_CMD_AUTH_B, KEY_B)
    assert pn532.mifare_classic_read_block(63) is None  # the failed attempt ended the session


def test_a_sector_trailer_reads_back_without_key_a():
    tag = MifareClassic1K(CLASSIC_UID, keys={1: (KEY_A, KEY_B)})
    pn532 = on_pad(tag)
    assert pn532.mifare_classic_authenticate_block(CLASSIC_UID, 7, MIFARE_CMD_AUTH_A, KEY_A)
    assert bytes(pn532.mifare_classic_read_block(7)) == bytes(6) + ACCESS + KEY_B
    assert bytes(pn532.mifare_classic_read_block(6)) == bytes(16)  # a data block as it is
    assert tag.memory[7 * 16 : 8 * 16] == KEY_A + ACCESS + KEY_B


def test_a_planted_block_is_cut_or_padded_to_16_bytes():
    tag = MifareClassic1K(CLASSIC_UID, blocks={4: b"x" * 20, 8: b"y"})
    pn532 = on_pad(tag)
    assert pn532.mifare_classic_authenticate_block(CLASSIC_UID, 4, MIFARE_CMD_AUTH_A, b"\xff" * 6)
    assert bytes(pn532.mifare_classic_read_block(4)) == b"x" * 16
    assert bytes(pn532.mifare_classic_read_block(5)) == bytes(16)
    assert len(tag.memory) == 1024
    assert tag.memory[128:144] == b"y".ljust(16, b"\0")


def test_writes_need_the_sector_and_never_reach_the_manufacturer_block():
    tag = MifareClassic1K(CLASSIC_UID)
    before = bytes(tag.memory)
    pn532 = on_pad(tag)
    assert pn532.mifare_classic_write_block(5, b"0123456789abcdef") is False  # no session
    assert pn532.mifare_classic_authenticate_block(CLASSIC_UID, 0, MIFARE_CMD_AUTH_A, b"\xff" * 6)
    assert pn532.mifare_classic_write_block(0, bytes(16)) is False  # block 0 is read-only
    assert pn532.mifare_classic_read_block(1) is None  # ... and the refusal halted the tag
    assert bytes(tag.memory) == before
    assert pn532.mifare_classic_authenticate_block(CLASSIC_UID, 0, MIFARE_CMD_AUTH_A, b"\xff" * 6)
    assert pn532.mifare_classic_write_block(1, b"0123456789abcdef") is True
    assert tag.memory[16:32] == b"0123456789abcdef"


def test_a_refused_or_malformed_classic_command_answers_the_status_byte_alone():
    tag = MifareClassic1K(CLASSIC_UID, blocks={4: b"relic"})
    pn532 = on_pad(tag)
    uid, key = list(CLASSIC_UID), [0xFF] * 6
    assert relay(pn532, 0x60, 4, *key, *uid[:3], 0x00) == bytes([AUTH_ERROR])  # another UID
    assert relay(pn532, 0x30, 4) == bytes([TIMEOUT])  # not authenticated
    assert relay(pn532, 0xA0, 4, *range(16)) == bytes([TIMEOUT])
    assert relay(pn532, 0x60, 4, *key, *uid) == bytes([0x00])
    # In the session, malformed commands are not executed (and do not end it):
    assert relay(pn532, 0x30, 4, 0x00) == bytes([TIMEOUT])  # a READ with a stray byte
    assert relay(pn532, 0x50, 0x00) == bytes([TIMEOUT])  # HALT: not emulated
    assert relay(pn532, 0xA0, 5, 1, 2, 3) == bytes([TIMEOUT])  # a WRITE of 3 bytes
    assert relay(pn532, 0xA0, 5, *range(10)) == bytes([TIMEOUT])  # 12 bytes, not an AUTH
    assert relay(pn532, 0x30, 4) == bytes([0x00]) + b"relic".ljust(16, b"\0")
    assert tag.memory[80:96] == bytes(16)
