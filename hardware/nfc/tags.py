"""Emulated tags for the emulated PN532: NTAG213/215/216 and MIFARE Classic 1K, memory and all.

A tag answers the ISO 14443-3A commands a PN532 relays through InDataExchange: NTAG READ (0x30,
16 bytes from a page), WRITE (0xA2, one 4-byte page); MIFARE Classic AUTH with key A or B
(0x60/0x61), READ (0x30) and WRITE (0xA0) of 16-byte blocks inside the authenticated sector.
`exchange` returns (PN532 status byte, answer bytes): 0x00 is success.

    >>> tag = Ntag("04a1b2c3d4e5f6", card_id="arcana/relic-07")
    >>> tag.uid_hex
    '04a1b2c3d4e5f6'
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.nfc import ndef

STATUS_OK = 0x00
STATUS_TIMEOUT = 0x01  # the target did not answer (a NAK looks the same to the host)
STATUS_AUTH_ERROR = 0x14  # MIFARE authentication failed

NTAG_CMD_READ = 0x30
NTAG_CMD_WRITE = 0xA2
MIFARE_CMD_AUTH_A = 0x60
MIFARE_CMD_AUTH_B = 0x61
MIFARE_CMD_READ = 0x30
MIFARE_CMD_WRITE = 0xA0

DEFAULT_KEY = bytes(6 * [0xFF])
# Transport configuration of the access bits: keys A/B, everything readable/writable with key A.
ACCESS_BITS = bytes([0xFF, 0x07, 0x80, 0x69])


@dataclass(frozen=True)
class NtagModel:
    """Memory geometry of one NTAG21x model (data sheet NTAG213/215/216)."""

    name: str
    pages: int  # total pages, 4 bytes each
    user_pages: int  # user memory pages, from page 4
    cc_size: int  # byte 2 of the capability container: data area / 8


NTAG_MODELS = {
    "ntag213": NtagModel("ntag213", 45, 36, 0x12),
    "ntag215": NtagModel("ntag215", 135, 126, 0x3E),
    "ntag216": NtagModel("ntag216", 231, 222, 0x6D),
}


def parse_uid(uid: str | bytes, lengths: tuple[int, ...]) -> bytes:
    """A UID from hex text or bytes, checked against the allowed lengths in bytes."""
    if isinstance(uid, str):
        try:
            raw = bytes.fromhex(uid.replace(":", "").replace(" ", ""))
        except ValueError:
            raise ValueError(f"UID {uid!r} is not hexadecimal") from None
    else:
        raw = bytes(uid)
    if len(raw) not in lengths:
        raise ValueError(f"UID {raw.hex()} has {len(raw)} bytes; this tag needs {lengths}")
    return raw


class Tag:
    """What every emulated ISO 14443-3A tag has: a UID, ATQA, SAK and a command handler."""

    kind = "tag"
    atqa = 0x0000
    sak = 0x00
    ats = b""  # ISO 14443-4 tags (SAK bit 0x20): the answer to select, its length byte first

    def __init__(self, uid: bytes) -> None:
        self.uid = uid

    @property
    def uid_hex(self) -> str:
        """The UID as lower-case hex, the form events carry."""
        return self.uid.hex()

    def activate(self) -> None:
        """The tag was selected again (after a field reset): forget any session state."""

    def exchange(self, data: bytes) -> tuple[int, bytes]:
        """Answer one command relayed by the reader."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.uid_hex!r})"


class Ntag(Tag):
    """An NTAG213/215/216 with its full page memory, NDEF formatted like a fresh tag.

    `card_id` writes an NDEF text record with that id into user memory (pages 4 onward).
    `memory` is a bytearray tests may corrupt directly.
    """

    kind = "ntag"
    atqa = 0x0044
    sak = 0x00

    def __init__(
        self, uid: str | bytes, model: str = "ntag215", card_id: str | None = None
    ) -> None:
        super().__init__(parse_uid(uid, (7,)))
        if model not in NTAG_MODELS:
            raise ValueError(f"unknown NTAG model {model!r}; choose one of {sorted(NTAG_MODELS)}")
        self.model = NTAG_MODELS[model]
        self.memory = bytearray(self.model.pages * 4)
        u = self.uid
        self.memory[0:4] = bytes([u[0], u[1], u[2], 0x88 ^ u[0] ^ u[1] ^ u[2]])
        self.memory[4:8] = u[3:7]
        self.memory[8] = u[3] ^ u[4] ^ u[5] ^ u[6]
        self.memory[9] = 0x48  # internal byte, as shipped
        self.memory[12:16] = ndef.capability_container(self.model.cc_size * 8)
        self.memory[16:19] = bytes([ndef.NDEF_TLV, 0x00, ndef.TERMINATOR_TLV])
        if card_id is not None:
            self.write_user_bytes(ndef.card_id_tlv(card_id))

    @property
    def last_user_page(self) -> int:
        return 3 + self.model.user_pages

    def write_user_bytes(self, data: bytes, offset: int = 0) -> None:
        """Write raw bytes into user memory from page 4 (tests use this to plant bad data)."""
        start = 16 + offset
        if start + len(data) > (self.last_user_page + 1) * 4:
            raise ValueError("the data does not fit the tag's user memory")
        self.memory[start : start + len(data)] = data

    def exchange(self, data: bytes) -> tuple[int, bytes]:
        if len(data) == 2 and data[0] == NTAG_CMD_READ:
            return self._read(data[1])
        if len(data) == 6 and data[0] == NTAG_CMD_WRITE:
            return self._write(data[1], data[2:6])
        return STATUS_TIMEOUT, b""  # NAK: unknown or malformed command

    def _read(self, page: int) -> tuple[int, bytes]:
        if page >= self.model.pages:
            return STATUS_TIMEOUT, b""
        # READ returns four pages and rolls over to page 0 past the end.
        out = bytearray()
        for i in range(4):
            at = ((page + i) % self.model.pages) * 4
            out += self.memory[at : at + 4]
        return STATUS_OK, bytes(out)

    def _write(self, page: int, value: bytes) -> tuple[int, bytes]:
        if page < 2 or page >= self.model.pages:
            return STATUS_TIMEOUT, b""
        at = page * 4
        if page in (2, 3):
            # Lock bytes and the capability container are one-time programmable: bits only set.
            for i in range(4):
                if page == 3 or i >= 2:
                    self.memory[at + i] |= value[i]
        else:
            self.memory[at : at + 4] = value
        return STATUS_OK, b""


class MifareClassic1K(Tag):
    """A MIFARE Classic 1K: 16 sectors of 4 blocks, key A/B authentication per sector.

    `keys` maps a sector to its (key A, key B); every other sector uses FF..FF for both.
    """

    kind = "mifare_classic"
    atqa = 0x0004
    sak = 0x08

    def __init__(
        self,
        uid: str | bytes,
        keys: dict[int, tuple[bytes, bytes]] | None = None,
        blocks: dict[int, bytes] | None = None,
    ) -> None:
        super().__init__(parse_uid(uid, (4,)))
        self.memory = bytearray(64 * 16)
        u = self.uid
        bcc = u[0] ^ u[1] ^ u[2] ^ u[3]
        self.memory[0:16] = u + bytes([bcc, self.sak, 0x04, 0x00]) + bytes(8)
        for sector in range(16):
            key_a, key_b = (keys or {}).get(sector, (DEFAULT_KEY, DEFAULT_KEY))
            at = (sector * 4 + 3) * 16
            self.memory[at : at + 16] = bytes(key_a) + ACCESS_BITS + bytes(key_b)
        for block, value in (blocks or {}).items():
            self.memory[block * 16 : block * 16 + 16] = bytes(value).ljust(16, b"\0")[:16]
        self._sector: int | None = None

    def activate(self) -> None:
        self._sector = None

    def exchange(self, data: bytes) -> tuple[int, bytes]:
        if data and data[0] in (MIFARE_CMD_AUTH_A, MIFARE_CMD_AUTH_B) and len(data) == 12:
            return self._auth(data[0], data[1], data[2:8], data[8:12])
        if len(data) == 2 and data[0] == MIFARE_CMD_READ:
            return self._read(data[1])
        if len(data) == 18 and data[0] == MIFARE_CMD_WRITE:
            return self._write(data[1], data[2:18])
        return STATUS_TIMEOUT, b""

    def _auth(self, command: int, block: int, key: bytes, uid: bytes) -> tuple[int, bytes]:
        self._sector = None
        if block >= 64 or uid != self.uid:
            return STATUS_AUTH_ERROR, b""
        trailer = (block // 4 * 4 + 3) * 16
        expected = self.memory[trailer : trailer + 6]
        if command == MIFARE_CMD_AUTH_B:
            expected = self.memory[trailer + 10 : trailer + 16]
        if bytes(key) != bytes(expected):
            return STATUS_AUTH_ERROR, b""
        self._sector = block // 4
        return STATUS_OK, b""

    def _allowed(self, block: int) -> bool:
        return block < 64 and self._sector is not None and block // 4 == self._sector

    def _read(self, block: int) -> tuple[int, bytes]:
        if not self._allowed(block):
            self._sector = None  # a refused command halts the tag's session
            return STATUS_TIMEOUT, b""
        value = bytearray(self.memory[block * 16 : block * 16 + 16])
        if block % 4 == 3:
            value[0:6] = bytes(6)  # key A never reads back
        return STATUS_OK, bytes(value)

    def _write(self, block: int, value: bytes) -> tuple[int, bytes]:
        if block == 0 or not self._allowed(block):
            self._sector = None
            return STATUS_TIMEOUT, b""
        self.memory[block * 16 : block * 16 + 16] = value
        return STATUS_OK, b""
