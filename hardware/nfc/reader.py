"""One PN532 pad reader: bounded polls, card ids in NDEF, faults counted into its health.

Built over any bus the adafruit driver accepts (Blinka's busio objects on the Pi, the emulated
buses in tests and the demo):

    >>> from hardware.nfc.buses import EmulatedI2C
    >>> from hardware.nfc.emulator import EmulatedPN532
    >>> from hardware.nfc.tags import Ntag
    >>> i2c = EmulatedI2C()
    >>> chip = i2c.attach(EmulatedPN532())
    >>> _ = chip.place(Ntag("04a1b2c3d4e5f6", card_id="relic-07"))
    >>> with Reader.over_i2c(i2c, name="stake-0") as reader:
    ...     result = reader.poll()
    ...     (result.uids, reader.read_card_id(result.uids[0]))
    (('04a1b2c3d4e5f6',), 'relic-07')

After connecting, the reader sends RFConfiguration MaxRetries with a small passive-activation
count, so an empty poll answers within a few milliseconds instead of never. Polls list up to two
targets, so two tags on one pad are seen as two, not guessed as one. Pass the PN532's IRQ line
as `irq=` wherever it is wired: the driver then waits on the pin instead of sleeping 10 ms
between status reads. `clock=` is what the waits run on (`time` on the Pi; the emulated buses'
`ModelledClock` in tests and the bench).

Every failure of the chip or the bus raises `ReaderFault` (with a `kind`) and is counted in
`health`; tag trouble (malformed NDEF, a tag that left) raises `TagError` and is not a fault of
the reader.
"""

from __future__ import annotations

import contextlib
import copy
import errno
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from adafruit_pn532.adafruit_pn532 import BusyError

from hardware.errors import HardwareError
from hardware.nfc import ndef
from hardware.nfc.driver import (
    HostClock,
    IrqStuckHigh,
    TablePN532_I2C,
    TablePN532_SPI,
    TablePN532_UART,
)
from hardware.nfc.mux import TCA9548A_ADDRESS, MuxChannel

CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
CMD_IN_DATA_EXCHANGE = 0x40
RF_ITEM_FIELD = 0x01
RF_ITEM_MAX_RETRIES = 0x05
TAG_READ = 0x30
TAG_WRITE = 0xA2
# Room for two targets with a short ATS each; longer answers would be cut and fail the checksum.
LIST_RESPONSE_LENGTH = 40
ABSENT_ERRNOS = {errno.EREMOTEIO, errno.ENXIO, errno.ENODEV}
FAULT_KINDS = ("unplugged", "no_answer", "nak", "checksum", "busy", "io", "protocol", "irq")


class ReaderFault(HardwareError):
    """The reader or its bus failed; `kind` is one of FAULT_KINDS."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class TagError(HardwareError):
    """A tag could not give or take a card id; the message says why."""


class TagDataError(TagError):
    """The tag's memory does not hold a well-formed card id (or cannot take one)."""


class TagAccessError(TagError):
    """The tag did not answer (it left the pad, or it is not the kind of tag asked for)."""


@dataclass(frozen=True)
class Target:
    """One tag listed by a poll: UID (hex), ATQA, SAK and what kind of tag that makes it."""

    uid: str
    atqa: int
    sak: int
    number: int  # the PN532's target number, used by InDataExchange

    @property
    def kind(self) -> str:
        if self.sak == 0x00 and len(self.uid) == 14:
            return "ntag"
        if self.sak in (0x08, 0x88):
            return "mifare_classic"
        return "iso14443a"


@dataclass(frozen=True)
class PollResult:
    """What one poll saw on the pad."""

    targets: tuple[Target, ...] = ()

    @property
    def uids(self) -> tuple[str, ...]:
        return tuple(target.uid for target in self.targets)


@dataclass
class ReaderHealth:
    """How a reader is doing, for the firmware to show: state, error counts, re-inits."""

    name: str
    state: str = "ok"  # ok | failing | unplugged | closed
    errors: dict[str, int] = field(default_factory=dict)
    reinits: int = 0
    polls: int = 0
    consecutive_failures: int = 0
    last_error: str | None = None
    firmware: str | None = None
    retry_in_s: float | None = None  # set by the scanner while it backs off

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def snapshot(self) -> ReaderHealth:
        """A copy that later polls do not change."""
        return copy.deepcopy(self)


def classify(error: BaseException) -> str:
    """The fault kind of an exception raised by the driver or the bus."""
    if isinstance(error, IrqStuckHigh):
        return "irq"
    if isinstance(error, BusyError):
        return "busy"
    if isinstance(error, OSError):
        return "unplugged" if error.errno in ABSENT_ERRNOS else "io"
    if isinstance(error, ValueError) and "No I2C device" in str(error):
        return "unplugged"
    text = str(error)
    if "checksum" in text:
        return "checksum"
    if "ACK" in text:
        return "nak"
    if "Failed to detect" in text:
        return "no_answer"
    return "protocol"


class Reader:
    """A PN532 under one pad. Use `over_i2c`, `over_spi` or `over_uart` to build one."""

    def __init__(
        self,
        name: str,
        connect: Callable[[], object],
        *,
        activation_retries: int = 1,
        timeout_s: float = 0.1,
    ) -> None:
        if not 0 <= activation_retries < 0xFF:
            raise ValueError("activation_retries must be 0..254 (0xFF would poll forever)")
        self.name = name
        self.activation_retries = activation_retries
        self.timeout_s = timeout_s
        self.health = ReaderHealth(name)
        self._connect = connect
        self._pn532 = None
        self._targets: dict[str, Target] = {}
        self._closed = False
        # An absent reader still belongs to the table: health says so and reinit() retries.
        with contextlib.suppress(ReaderFault):
            self._open()

    # --- constructors -----------------------------------------------------------------------

    @classmethod
    def over_i2c(
        cls,
        i2c,
        address: int = 0x24,
        *,
        name: str,
        irq=None,
        reset=None,
        req=None,
        channel: int | None = None,
        mux_address: int = TCA9548A_ADDRESS,
        timeout_s: float = 0.1,
        activation_retries: int = 1,
        clock: HostClock = time,
    ) -> Reader:
        """A reader at `address` on `i2c`, optionally on `channel` of a TCA9548A. `req` is
        the line to the PN532's P32 (H_REQ), which wakes it without I2C clock stretching."""
        bus = i2c if channel is None else MuxChannel(i2c, channel, mux_address)

        def connect():
            return TablePN532_I2C(
                bus, address, timeout_s=timeout_s, clock=clock, irq=irq, reset=reset, req=req
            )

        return cls(name, connect, activation_retries=activation_retries, timeout_s=timeout_s)

    @classmethod
    def over_spi(
        cls,
        spi,
        cs,
        *,
        name: str,
        irq=None,
        reset=None,
        baudrate: int = 1_000_000,
        timeout_s: float = 0.1,
        activation_retries: int = 1,
        clock: HostClock = time,
    ) -> Reader:
        """A reader on `spi` selected by the DigitalInOut `cs`."""

        def connect():
            return TablePN532_SPI(
                spi, cs, baudrate=baudrate, timeout_s=timeout_s, clock=clock, irq=irq, reset=reset
            )

        return cls(name, connect, activation_retries=activation_retries, timeout_s=timeout_s)

    @classmethod
    def over_uart(
        cls,
        uart,
        *,
        name: str,
        reset=None,
        timeout_s: float = 0.1,
        activation_retries: int = 1,
        clock: HostClock = time,
    ) -> Reader:
        """A reader on a UART (PN532 HSU, 115200 baud by default)."""

        def connect():
            return TablePN532_UART(uart, timeout_s=timeout_s, clock=clock, reset=reset)

        return cls(name, connect, activation_retries=activation_retries, timeout_s=timeout_s)

    # --- life cycle -------------------------------------------------------------------------

    def _open(self) -> None:
        self._pn532 = None
        self._targets = {}
        try:
            pn532 = self._connect()
            ic, version, revision, _ = pn532.firmware_version
        except (RuntimeError, OSError, ValueError, BusyError, IndexError, TypeError) as error:
            self._failed(classify(error), f"cannot start the PN532: {error}")
        self._pn532 = pn532
        self.health.firmware = f"PN5{ic:x} v{version}.{revision}"
        retries = [0xFF, 0x01, self.activation_retries]
        self._call(CMD_RF_CONFIGURATION, [RF_ITEM_MAX_RETRIES, *retries], 0)
        self._succeeded()

    def reinit(self) -> None:
        """Start the chip afresh (wake-up, SAM, firmware, RF configuration); ReaderFault if not."""
        self._check_open()
        self.health.reinits += 1
        self._open()

    def close(self) -> None:
        """Switch the RF field off if the reader answers, then stop; closing twice is harmless."""
        if self._closed:
            return
        if self._pn532 is not None:
            with contextlib.suppress(ReaderFault):
                self.field_off()
        self._closed = True
        self._pn532 = None
        self.health.state = "closed"

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Reader({self.name!r}, {self.health.state})"

    # --- the chip ---------------------------------------------------------------------------

    def firmware_version(self) -> tuple[int, int, int, int]:
        """(IC, version, revision, support) as the chip reports it, e.g. (0x32, 1, 6, 7)."""
        answer = self._call(0x02, [], 4)
        if len(answer) != 4:
            self._failed("protocol", f"firmware answer {bytes(answer).hex()} is not 4 bytes")
        return tuple(answer)

    def poll(self) -> PollResult:
        """List the tags on the pad (at most two), taking the chip a few ms when there are none."""
        answer = self._call(CMD_IN_LIST_PASSIVE_TARGET, [0x02, 0x00], LIST_RESPONSE_LENGTH)
        targets = self._parse_targets(bytes(answer))
        self._targets = {target.uid: target for target in targets}
        self.health.polls += 1
        return PollResult(targets)

    def field_off(self) -> None:
        """Switch the RF field off (the next poll switches it on again)."""
        self._call(CMD_RF_CONFIGURATION, [RF_ITEM_FIELD, 0x00], 0)
        self._targets = {}

    def _parse_targets(self, answer: bytes) -> tuple[Target, ...]:
        try:
            count, at, targets = answer[0], 1, []
            for _ in range(count):
                number, atqa = answer[at], int.from_bytes(answer[at + 1 : at + 3], "big")
                sak, length = answer[at + 3], answer[at + 4]
                uid = answer[at + 5 : at + 5 + length]
                if len(uid) != length or length not in (4, 7, 10):
                    raise IndexError(f"UID length {length}")
                at += 5 + length
                if sak & 0x20:  # ISO 14443-4 targets append their ATS
                    at += answer[at]
                targets.append(Target(uid.hex(), atqa, sak, number))
        except IndexError as error:
            self._failed("protocol", f"target list {answer.hex()} is malformed ({error})")
        return tuple(targets)

    def _call(self, command: int, params: list[int], response_length: int) -> bytearray:
        self._check_open()
        pn532 = self._pn532
        if pn532 is None:
            self._failed("unplugged", "the PN532 is not started; waiting for a re-init")
        # send_command and process_response separately: no ACK and no answer after an ACK are
        # different faults, which call_function would both report as None.
        pn532.last_bus_error = None
        try:
            acked = pn532.send_command(command, params=params, timeout=self.timeout_s)
            if not acked:
                error = pn532.last_bus_error
                if error is not None:
                    self._failed(classify(error), f"command 0x{command:02X} failed: {error}")
                self._failed("no_answer", f"no acknowledgement of command 0x{command:02X}")
            answer = pn532.process_response(
                command, response_length=response_length, timeout=self.timeout_s
            )
        except (RuntimeError, OSError, BusyError, IndexError, ValueError) as error:
            self._failed(classify(error), f"command 0x{command:02X} failed: {error}")
        if answer is None:
            self._failed("busy", f"command 0x{command:02X} acknowledged but never answered")
        self._succeeded()
        return answer

    def _check_open(self) -> None:
        if self._closed:
            raise ReaderFault("closed", f"reader {self.name} is closed")

    def _failed(self, kind: str, message: str):
        health = self.health
        health.errors[kind] = health.errors.get(kind, 0) + 1
        health.consecutive_failures += 1
        health.last_error = f"{kind}: {message}"
        health.state = "unplugged" if kind in ("unplugged", "no_answer") else "failing"
        raise ReaderFault(kind, f"reader {self.name}: {message}")

    def _succeeded(self) -> None:
        self.health.consecutive_failures = 0
        self.health.state = "ok"

    # --- tags -------------------------------------------------------------------------------

    def _ntag(self, uid: str) -> Target:
        target = self._targets.get(uid)
        if target is None:
            raise TagAccessError(f"tag {uid} was not on {self.name} at its last poll")
        if target.kind != "ntag":
            raise TagAccessError(
                f"tag {uid} is a {target.kind.replace('_', ' ')}; card ids live on NTAG tags only"
            )
        return target

    def _exchange(self, target: Target, data: list[int], answer_length: int) -> bytes:
        answer = self._call(CMD_IN_DATA_EXCHANGE, [target.number, *data], 1 + answer_length)
        if not answer or answer[0] & 0x3F:
            status = answer[0] if answer else None
            raise TagAccessError(
                f"tag {target.uid} did not answer command 0x{data[0]:02X} (status {status})"
            )
        if len(answer) != 1 + answer_length:
            raise TagAccessError(f"tag {target.uid} answered {len(answer) - 1} bytes")
        return bytes(answer[1:])

    def _read_pages(self, target: Target, page: int) -> bytes:
        return self._exchange(target, [TAG_READ, page], 16)

    def _data_area_size(self, target: Target, first: bytes) -> int:
        try:
            return ndef.data_area_size(first[:4])
        except ndef.NdefError as error:
            raise TagDataError(f"tag {target.uid}: {error}") from None

    def read_card_id(self, uid: str) -> str:
        """The card id in the NDEF text record of NTAG tag `uid` (seen by the last poll).

        Raises TagDataError with the reason if the tag holds no well-formed card id.
        """
        target = self._ntag(uid)
        first = self._read_pages(target, 3)  # capability container and pages 4..6
        size = self._data_area_size(target, first)
        area = first[4:]
        while len(area) < size:
            need = ndef.tlv_extent(area)
            if need and len(area) >= need:
                break
            area += self._read_pages(target, 4 + len(area) // 4)
        try:
            return ndef.card_id_from_area(area[:size])
        except ndef.NdefError as error:
            raise TagDataError(f"tag {uid}: {error}") from None

    def write_card_id(self, uid: str, card_id: str) -> None:
        """Write `card_id` as the tag's only NDEF record (pages from 4), then read it back."""
        try:
            data = ndef.card_id_tlv(card_id)
        except ndef.NdefError as error:
            raise TagDataError(str(error)) from None
        target = self._ntag(uid)
        size = self._data_area_size(target, self._read_pages(target, 3))
        if len(data) > size:
            raise TagDataError(f"card id needs {len(data)} bytes; tag {uid} holds {size}")
        data += bytes(-len(data) % 4)
        for offset in range(0, len(data), 4):
            self._exchange(target, [TAG_WRITE, 4 + offset // 4, *data[offset : offset + 4]], 0)
        written = self.read_card_id(uid)
        if written != card_id:
            raise TagDataError(f"tag {uid} reads back {written!r} instead of {card_id!r}")
