"""A PN532 emulated at frame level, for the real adafruit driver to talk to over emulated buses.

The chip parses host frames (preamble 00 00 FF, LEN, LCS, TFI D4, data, DCS, postamble), answers
with an ACK and then a response frame (TFI D5), and executes the commands the driver and our
reader send: GetFirmwareVersion, GetGeneralStatus, SAMConfiguration, PowerDown, RFConfiguration
(RF field, timings, MaxRetries, analog settings), InListPassiveTarget (106 kbps type A, up to two
targets), InDataExchange (relayed to the tag), InDeselect and InRelease. Anything else gets the
PN532's syntax-error frame.

Like gpiozero's mock pins it has a test API: `place(tag)`, `remove(uid)`, `fail(mode)`,
`recover()`, and counters (`transactions`, `bytes_in`, `bytes_out`, `modelled_time_s`).

Time is modelled, never slept: a frame's bus time is added by the bus that carried it, and the
chip's own time (the ACK, the RF field's guard time, passive activation attempts, tag exchanges;
see `ChipTiming`) is added when a command is executed. On a bus built with a `ModelledClock`
(shared with the host's driver) the chip is busy until that time has passed on the clock: its
status byte reads "not ready" and its IRQ line stays high until then, so a host that sleeps
between status polls pays for its sleeps. Without a clock the chip answers at once and the time
is only counted. With the chip's default MxRtyPassiveActivation of 0xFF and an empty field,
InListPassiveTarget never completes, as on the real chip. Two or more stacked tags answer a
request for two targets with 2, 1, 0 targets in turn (`stacked_answers`), as a real PN532 does.

    >>> chip = EmulatedPN532(name="stake-0")
    >>> _ = chip.place(Ntag("04a1b2c3d4e5f6"))
    >>> [tag.uid_hex for tag in chip.tags]
    ['04a1b2c3d4e5f6']
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from dataclasses import dataclass

from hardware.nfc.tags import NTAG_CMD_WRITE, Ntag, Tag

ACK = bytes([0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
NACK = bytes([0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
SYNTAX_ERROR = bytes([0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00])
HOST_TFI = 0xD4
CHIP_TFI = 0xD5

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_GET_GENERAL_STATUS = 0x04
CMD_SAM_CONFIGURATION = 0x14
CMD_POWER_DOWN = 0x16
CMD_RF_CONFIGURATION = 0x32
CMD_IN_DATA_EXCHANGE = 0x40
CMD_IN_DESELECT = 0x44
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
CMD_IN_RELEASE = 0x52

RF_ITEM_FIELD = 0x01
RF_ITEM_MAX_RETRIES = 0x05
# RFConfiguration items and the number of data bytes each takes (PN532 user manual, 7.3.1).
RF_ITEM_LENGTHS = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 3, 0x0C: 1, 0x0D: 9}

STATUS_WRONG_CONTEXT = 0x27
# The faults `fail` can inject. Chip faults act on commands, bus faults on every transaction.
CHIP_FAULTS = ("no_answer", "bad_checksum", "nak", "busy")
BUS_FAULTS = ("unplugged", "io_error")
FAULT_MODES = CHIP_FAULTS + BUS_FAULTS
DEFAULT_FIRMWARE = (0x32, 0x01, 0x06, 0x07)  # PN532, firmware 1.6, ISO 14443A/B and 18092


class ModelledClock:
    """Time that passes only when someone waits on it: the host's sleeps and the bus transfers.

    The emulated buses, their chips and the reader's driver share one; it has the two calls of
    the `time` module they use (`monotonic`, `sleep`), so a host on it never sleeps for real.

        >>> clock = ModelledClock()
        >>> clock.sleep(0.01)
        >>> clock.monotonic()
        0.01
    """

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.now += seconds


@dataclass(frozen=True)
class ChipTiming:
    """The chip's own time per operation, in seconds (estimates unless said; see docs/nfc.md)."""

    ack_s: float = 0.0005  # from the end of a host frame to its ACK being ready
    command_s: float = 0.0001  # firmware turnaround for any command
    field_guard_s: float = 0.0051  # unmodulated field before the first REQA (ISO/IEC 14443-3)
    empty_attempt_s: float = 0.0015  # one passive activation attempt that finds no tag
    activation_s: float = 0.003  # REQA, anticollision and SELECT of one tag
    exchange_s: float = 0.0016  # one tag command with a 16-byte answer at 106 kbps
    write_s: float = 0.0045  # an NTAG page or MIFARE block write (EEPROM programming)
    i2c_stretch_s: float = 0.00001  # SCL held low by the PN532 after each I2C byte


@dataclass(frozen=True)
class _Frame:
    data: bytes
    ready_at: float  # on the chip's clock; 0.0 without one


class IrqLine:
    """The PN532's IRQ output as a DigitalInOut-like input (like the buses' `EmulatedPin`).

    The chip drives it low when a frame is ready for the host and high again once the host has
    read it (a short pulse when the next frame is ready already). `history` lists the levels it
    took, `changes` the instants (on the chip's clock) at which it took them: a fall is dated
    when the frame became ready, even if nobody looked. `on_change`, when set, is called with
    each new level (the fake Pi drives a GPIO line from it).
    """

    def __init__(self, chip: EmulatedPN532) -> None:
        self._chip = chip
        self.name = f"IRQ {chip.name}"
        self.direction = None
        self.pull = None
        self._level = True
        self.history: list[bool] = []
        self.changes: list[tuple[float, bool]] = []
        self.on_change: Callable[[bool], None] | None = None

    @property
    def value(self) -> bool:
        self.drive()
        return self._level

    def drive(self, released: bool = False) -> None:
        """Set the level the chip shows now (called by the chip whenever its queue changes);
        `released`: the host has just read a frame, so the line goes high first."""
        if released and not self._level:
            self._change(True, self._chip.now())
        level, since = self._chip.irq_level()
        if level != self._level:
            self._change(level, since)

    def _change(self, level: bool, since: float) -> None:
        self._level = level
        if len(self.history) < 10_000:
            since = max(since, self.changes[-1][0]) if self.changes else since
            self.history.append(level)
            self.changes.append((since, level))
        if self.on_change is not None:
            self.on_change(level)

    def switch_to_input(self, pull=None) -> None:
        self.pull = pull

    def deinit(self) -> None:
        """Nothing to release."""


def build_frame(payload: bytes) -> bytes:
    """A normal information frame around `payload` (TFI included)."""
    length = len(payload)
    checksum = (-sum(payload)) & 0xFF
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF, *payload, checksum, 0x00])


def parse_frame(data: bytes) -> bytes | None:
    """The payload (TFI onward) of the first frame in `data`; b"" for an ACK; None if none."""
    at = bytes(data).find(b"\x00\xff")
    if at < 0 or at + 4 > len(data):
        return None
    length, lcs = data[at + 2], data[at + 3]
    if length == 0 and lcs == 0xFF:
        return b""
    if (length + lcs) & 0xFF or at + 5 + length > len(data):
        return None
    payload = bytes(data[at + 4 : at + 4 + length])
    if (sum(payload) + data[at + 4 + length]) & 0xFF:
        return None  # a frame with a bad checksum is ignored, as the chip does
    return payload


class EmulatedPN532:
    """One PN532 with its RF field, the tags lying on its antenna and injectable faults."""

    def __init__(
        self,
        name: str = "pn532",
        firmware: tuple[int, int, int, int] = DEFAULT_FIRMWARE,
        timing: ChipTiming | None = None,
    ) -> None:
        self.name = name
        self.firmware = tuple(firmware)
        self.timing = timing or ChipTiming()
        self.clock: ModelledClock | None = None  # given by the bus it is attached to
        self.tags: list[Tag] = []
        # What successive requests for two targets list while two or more tags lie stacked.
        self.stacked_answers: tuple[int, ...] = (2, 1, 0)
        self._stack_turn = 0
        self._out: collections.deque[_Frame] = collections.deque()
        self.irq = IrqLine(self)
        self.commands: collections.deque[tuple[int, bytes]] = collections.deque(maxlen=512)
        self.fault: str | None = None
        self._fault_left: int | None = None
        self.reset_counters()
        self.power_on()

    # --- test API -------------------------------------------------------------------------

    def place(self, tag: Tag) -> Tag:
        """Put `tag` on the antenna (it answers the next activation)."""
        if any(t.uid == tag.uid for t in self.tags):
            raise ValueError(f"a tag with UID {tag.uid_hex} already lies on {self.name}")
        self.tags.append(tag)
        return tag

    def remove(self, uid: str | bytes) -> Tag:
        """Take the tag with this UID (hex text or bytes) off the antenna."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        for tag in self.tags:
            if tag.uid == raw:
                self.tags.remove(tag)
                return tag
        raise KeyError(f"no tag {raw.hex()} lies on {self.name}")

    def fail(self, mode: str, times: int | None = None) -> None:
        """Inject a fault until `recover()` (or, for chip faults, for `times` commands).

        Modes: no_answer (no ACK), bad_checksum (response DCS wrong), nak (NACK instead of
        ACK), busy (ACK, then never ready), unplugged (gone from the bus), io_error (every bus
        transfer fails with EIO).
        """
        if mode not in FAULT_MODES:
            raise ValueError(f"unknown fault {mode!r}; choose one of {', '.join(FAULT_MODES)}")
        self.fault = mode
        self._fault_left = times
        self._out.clear()
        self._uart_stream.clear()
        self.irq.drive()

    def recover(self) -> None:
        """End any injected fault; an unplugged chip comes back powered up afresh."""
        if self.fault == "unplugged":
            self.power_on()
        self.fault = None
        self._fault_left = None

    def reset_counters(self) -> None:
        """Zero the traffic counters."""
        self.transactions = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self.modelled_time_s = 0.0  # wire time of its transactions plus busy_time_s
        self.busy_time_s = 0.0  # the chip's own processing time

    def power_on(self) -> None:
        """State after power-up or reset: field off, default retries, nothing pending."""
        self.rf_field = False
        self.max_retries = (0xFF, 0x01, 0xFF)  # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
        self.sam_mode: int | None = None
        self._field_on_at = 0.0
        self._started_at = 0.0
        self._targets: dict[int, Tag] = {}
        self._out.clear()
        self._uart_stream = bytearray()
        self.irq.drive()

    @property
    def plugged(self) -> bool:
        """False while the `unplugged` fault is injected."""
        return self.fault != "unplugged"

    @property
    def ready(self) -> bool:
        """True when a frame waits for the host (the I2C/SPI status byte is 0x01)."""
        return bool(self._uart_stream) or self._head_ready()

    def irq_level(self) -> tuple[bool, float]:
        """(level of the IRQ line, since when): low while a frame is ready for the host."""
        if self._uart_stream:
            return False, self.now()
        if self._head_ready():
            return False, self._out[0].ready_at
        return True, self.now()

    def now(self) -> float:
        """The chip's clock; 0.0 without one."""
        return self.clock.monotonic() if self.clock is not None else 0.0

    def pending_at(self) -> float | None:
        """When the next frame will be ready, if one is queued and not ready yet."""
        if self._out and not self._head_ready():
            return self._out[0].ready_at
        return None

    def _head_ready(self) -> bool:
        return bool(self._out) and self._out[0].ready_at <= self.now()

    def _queue(self, data: bytes, ready_at: float) -> None:
        self._out.append(_Frame(data, ready_at))
        self.irq.drive()

    # --- bus side -------------------------------------------------------------------------

    def count(self, bytes_in: int, bytes_out: int, seconds: float) -> None:
        """Record one bus transaction to this chip (called by the emulated buses)."""
        self.transactions += 1
        self.bytes_in += bytes_in
        self.bytes_out += bytes_out
        self.modelled_time_s += seconds

    def take_frame(self) -> bytes | None:
        """Hand the next frame to the host if it is ready (I2C and SPI read it whole)."""
        if not self._head_ready():
            return None
        self.irq.drive()  # date the fall before the rise
        frame = self._out.popleft().data
        self.irq.drive(released=True)
        return frame

    def read_stream(self, count: int) -> bytes:
        """Up to `count` ready bytes, as a UART delivers them."""
        while len(self._uart_stream) < count and self._head_ready():
            self._uart_stream += self._out.popleft().data
        out = bytes(self._uart_stream[:count])
        del self._uart_stream[:count]
        return out

    def waiting_bytes(self) -> int:
        """Bytes a UART host could read now."""
        now = self.now()
        ready = 0
        for frame in self._out:
            if frame.ready_at > now:
                break
            ready += len(frame.data)
        return len(self._uart_stream) + ready

    def discard_waiting(self) -> None:
        """The host flushed its UART input buffer."""
        self._uart_stream.clear()
        self._out.clear()
        self.irq.drive()

    def host_write(self, data: bytes) -> None:
        """Receive bytes from the host: a command frame, an ACK (abort) or wake-up noise."""
        payload = parse_frame(data)
        if payload is None:
            return
        self._out.clear()
        self._uart_stream.clear()
        self.irq.drive()
        if not payload or payload[0] != HOST_TFI or len(payload) < 2:
            return  # an ACK from the host aborts the current command
        command, params = payload[1], payload[2:]
        self.commands.append((command, params))
        fault = self._use_chip_fault()
        if fault == "no_answer":
            return
        acked_at = self.now() + self.timing.ack_s if self.clock is not None else 0.0
        self._started_at = acked_at  # the command runs once its ACK is out
        self.busy_time_s += self.timing.ack_s
        self.modelled_time_s += self.timing.ack_s
        if fault == "nak":
            self._queue(NACK, acked_at)
            return
        self._queue(ACK, acked_at)
        if fault == "busy":
            return
        answer, seconds = self._execute(command, params)
        seconds += self.timing.command_s
        self.busy_time_s += seconds
        self.modelled_time_s += seconds
        if answer is None:
            return  # still searching: the response never comes
        answered_at = acked_at + seconds if self.clock is not None else 0.0
        if answer is SYNTAX_ERROR:
            self._queue(SYNTAX_ERROR, answered_at)
            return
        frame = bytearray(build_frame(bytes([CHIP_TFI, command + 1]) + answer))
        if fault == "bad_checksum":
            frame[-2] ^= 0x5A
        self._queue(bytes(frame), answered_at)

    def _use_chip_fault(self) -> str | None:
        if self.fault not in CHIP_FAULTS:
            return None
        fault = self.fault
        if self._fault_left is not None:
            self._fault_left -= 1
            if self._fault_left <= 0:
                self.fault, self._fault_left = None, None
        return fault

    # --- commands -------------------------------------------------------------------------

    def _execute(self, command: int, params: bytes) -> tuple[bytes | None, float]:
        handler = {
            CMD_GET_FIRMWARE_VERSION: lambda p: (bytes(self.firmware), 0.0),
            CMD_GET_GENERAL_STATUS: self._general_status,
            CMD_SAM_CONFIGURATION: self._sam_configuration,
            CMD_POWER_DOWN: lambda p: (b"\x00", 0.0),
            CMD_RF_CONFIGURATION: self._rf_configuration,
            CMD_IN_LIST_PASSIVE_TARGET: self._in_list_passive_target,
            CMD_IN_DATA_EXCHANGE: self._in_data_exchange,
            CMD_IN_DESELECT: self._in_release,
            CMD_IN_RELEASE: self._in_release,
        }.get(command)
        if handler is None:
            return SYNTAX_ERROR, 0.0
        return handler(params)

    def _general_status(self, params: bytes) -> tuple[bytes, float]:
        out = bytearray([0x00, int(self.rf_field), len(self._targets)])
        for number in self._targets:
            out += bytes([number, 0x00, 0x00, 0x00])  # 106 kbps both ways, type A
        out.append(0x00)  # SAM status
        return bytes(out), 0.0

    def _sam_configuration(self, params: bytes) -> tuple[bytes, float]:
        if not params or params[0] not in (1, 2, 3, 4):
            return SYNTAX_ERROR, 0.0
        self.sam_mode = params[0]
        return b"", 0.0

    def _rf_configuration(self, params: bytes) -> tuple[bytes, float]:
        if not params or RF_ITEM_LENGTHS.get(params[0]) != len(params) - 1:
            return SYNTAX_ERROR, 0.0
        item = params[0]
        if item == RF_ITEM_FIELD:
            field_on = bool(params[1] & 0x01)
            if field_on and not self.rf_field:
                self._field_on_at = self._started_at
            self.rf_field = field_on
            if not self.rf_field:
                self._targets.clear()  # tags lose power with the field
        elif item == RF_ITEM_MAX_RETRIES:
            self.max_retries = (params[1], params[2], params[3])
        return b"", 0.0

    def _in_list_passive_target(self, params: bytes) -> tuple[bytes | None, float]:
        if len(params) < 2 or params[0] not in (1, 2):
            return SYNTAX_ERROR, 0.0
        max_targets, baud = params[0], params[1]
        seconds = self._field_guard()
        self._targets.clear()
        in_field = self.tags if baud == 0x00 else []
        found = self._answering(in_field, max_targets)
        if not found:
            retries = self.max_retries[2]
            if retries == 0xFF:
                return None, seconds
            return b"\x00", seconds + (retries + 1) * self.timing.empty_attempt_s
        seconds += len(found) * self.timing.activation_s
        if max_targets > len(found):
            seconds += self.timing.empty_attempt_s  # one look for another tag
        out = bytearray([len(found)])
        for number, tag in enumerate(found, start=1):
            tag.activate()
            self._targets[number] = tag
            out += bytes([number, tag.atqa >> 8, tag.atqa & 0xFF, tag.sak, len(tag.uid)])
            out += tag.uid
            if tag.sak & 0x20:  # an ISO 14443-4 target: the PN532 appends its ATS
                out += tag.ats
        return bytes(out), seconds

    def _field_guard(self) -> float:
        """Time before the first REQA: the guard time, or what is left of it since field-on."""
        guard = self.timing.field_guard_s
        if not self.rf_field:
            self.rf_field = True
            self._field_on_at = self._started_at
            return guard
        if self.clock is None:
            return 0.0  # no clock: the field has been on for as long as anyone knows
        return max(0.0, self._field_on_at + guard - self._started_at)

    def _answering(self, in_field: list[Tag], max_targets: int) -> list[Tag]:
        """The tags one activation lists: stacked tags list 2, 1, 0 in turn (`stacked_answers`).

        With MxRtyPassiveActivation 0xFF the chip keeps trying, so a turn that lists nothing
        passes to the next one (and a pattern of zeros finds nothing, ever).
        """
        if len(in_field) < 2:
            self._stack_turn = 0
            return in_field[:max_targets]
        pattern = self.stacked_answers or (2,)
        tries = len(pattern) if self.max_retries[2] == 0xFF else 1
        for _ in range(tries):
            count = pattern[self._stack_turn % len(pattern)]
            self._stack_turn += 1
            if count:
                return in_field[: min(count, max_targets)]
        return []

    def _in_data_exchange(self, params: bytes) -> tuple[bytes, float]:
        if len(params) < 2:
            return SYNTAX_ERROR, 0.0
        tag = self._targets.get(params[0] & 0x0F)
        if tag is None:
            return bytes([STATUS_WRONG_CONTEXT]), 0.0
        if tag not in self.tags:
            return b"\x01", self.timing.exchange_s  # the tag left the field: timeout
        data = params[1:]
        status, answer = tag.exchange(data)
        writes = (NTAG_CMD_WRITE, 0xA0)
        seconds = self.timing.write_s if data[0] in writes else self.timing.exchange_s
        return bytes([status]) + answer, seconds

    def _in_release(self, params: bytes) -> tuple[bytes, float]:
        if not params:
            return SYNTAX_ERROR, 0.0
        if params[0] == 0:
            self._targets.clear()
        else:
            self._targets.pop(params[0], None)
        return b"\x00", 0.0


__all__ = [
    "ChipTiming",
    "EmulatedPN532",
    "IrqLine",
    "ModelledClock",
    "Ntag",
    "build_frame",
    "parse_frame",
]
