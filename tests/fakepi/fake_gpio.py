"""The fake Pi's GPIO lines: requests, levels (drive, pulls, a chip's output), edge events.

A line's level is what the wire carries: an output's driven level, else what pulls it from
outside (a button to ground), else a chip output wired to it (a PN532's IRQ), else its bias,
else the SoC's power-on pull. Edge events of a request go, as `gpio_v2_line_event` records,
into the FIFO that the shim (gpio_shim.c) hands to the client as the request's descriptor.
"""

from __future__ import annotations

import errno
import os
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path

# GPIO v2 uAPI flags and ids (linux/gpio.h)
F_USED, F_ACTIVE_LOW, F_INPUT, F_OUTPUT = 1, 2, 4, 8
F_EDGE_RISING, F_EDGE_FALLING = 16, 32
F_OPEN_DRAIN, F_OPEN_SOURCE = 64, 128
F_PULL_UP, F_PULL_DOWN, F_BIAS_DISABLED = 256, 512, 1024
ATTR_FLAGS, ATTR_OUTPUT_VALUES, ATTR_DEBOUNCE = 1, 2, 3
EVENT_RISING, EVENT_FALLING = 1, 2


class Line:
    """One GPIO line: how it is requested, what drives it from outside, its history."""

    def __init__(self, chip: int, offset: int, name: str, power_on_pull: int | None) -> None:
        self.chip = chip
        self.offset = offset
        self.name = name
        self.power_on_pull = power_on_pull  # 1 up, 0 down, None floating (reads 0)
        self.request: LineRequest | None = None
        self.kernel_user = ""  # a kernel driver holding the line ("spi0 CS0")
        self.ever_requested = False
        self.flags = F_INPUT
        self.driven = 0  # the physical level an output drives
        self.external: int | None = None  # a button pulling it, None when nothing does
        self.source: Callable[[], int] | None = None  # a chip's output wired to it (IRQ)
        self.watcher: Callable[[int], None] | None = None  # a chip input on it (RSTPDN)
        self.changes: list[tuple[float, int]] = []  # (time, physical level) after each change
        self.looks = [0, 0]  # values read by the host while the wire was low, high
        # A chip's output that rose (a frame read, nothing to send until the next is ready)
        # and has not been looked at since: the host's first look reads it high (below).
        self.rise_unseen = False

    def level(self) -> int:
        """The physical level on the wire."""
        if self.flags & F_OUTPUT:
            return self.driven
        if self.external is not None:
            return self.external
        if self.source is not None:
            return self.source()
        if self.flags & F_PULL_UP:
            return 1
        if self.flags & (F_PULL_DOWN | F_BIAS_DISABLED):
            return 0
        return self.power_on_pull or 0

    def logical(self) -> int:
        return self.level() ^ bool(self.flags & F_ACTIVE_LOW)


class LineRequest:
    """A GPIO v2 line request: its lines, the FIFO its edge events go to."""

    def __init__(self, number: int, lines: list[Line], consumer: str, fifo: Path) -> None:
        self.number = number
        self.lines = lines
        self.consumer = consumer
        self.fifo_path = fifo
        os.mkfifo(fifo)
        self.fifo = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.seqno = 0
        self.line_seqno = [0] * len(lines)

    def event(self, index: int, rising: bool) -> None:
        self.seqno += 1
        self.line_seqno[index] += 1
        record = struct.pack(
            "<QIIII24x",
            time.monotonic_ns(),
            EVENT_RISING if rising else EVENT_FALLING,
            self.lines[index].offset,
            self.seqno,
            self.line_seqno[index],
        )
        try:
            os.write(self.fifo, record)
        except BlockingIOError:
            print(f"testbed: event FIFO of request {self.number} is full", file=sys.stderr)

    def close(self) -> None:
        os.close(self.fifo)
        self.fifo_path.unlink(missing_ok=True)


class Gpio:
    """Every line of every GPIO chip of the board, and the line requests on them."""

    def __init__(self, board: dict, fifo_dir: Path) -> None:
        self.chips: dict[int, tuple[str, list[Line]]] = {}
        for number, label, count, _ in board["chips"]:
            header = number == board["header_chip"]
            lines = []
            for offset in range(count):
                name = f"GPIO{offset}" if header and offset < 28 else ""
                pull = (1 if offset <= 8 else 0) if header else None
                lines.append(Line(number, offset, name, pull))
            self.chips[number] = (label, lines)
        self.header = board["header_chip"]
        self.fifo_dir = fifo_dir
        self.requests: dict[int, LineRequest] = {}
        self.next_request = 1
        self.start = time.monotonic()

    def used_lines(self) -> list[tuple[str, int]]:
        """(chip label, offset) of every line that was ever requested."""
        return [
            (label, line.offset)
            for label, lines in self.chips.values()
            for line in lines
            if line.ever_requested
        ]

    def claim_for_kernel(self, gpio: int, user: str) -> None:
        """A kernel driver holds a header line (SPI's cs-gpios): requests of it get EBUSY."""
        line = self.header_line(gpio)
        line.kernel_user = user
        line.flags = F_OUTPUT | F_ACTIVE_LOW
        line.driven = 1  # chip-enable lines idle high

    def header_line(self, gpio: int) -> Line:
        return self.chips[self.header][1][gpio]

    def request(self, chip: int, offsets: list[int], consumer: str) -> LineRequest:
        label, lines = self.chips[chip]
        chosen = []
        for offset in offsets:
            if offset >= len(lines):
                raise OSError(errno.EINVAL, f"{label} has no line {offset}")
            if lines[offset].request is not None or lines[offset].kernel_user:
                raise OSError(errno.EBUSY, f"{label} line {offset} is in use")
            chosen.append(lines[offset])
        number = self.next_request
        self.next_request += 1
        request = LineRequest(number, chosen, consumer, self.fifo_dir / f"line-{number}")
        for line in chosen:
            line.request = request
            line.ever_requested = True
        self.requests[number] = request
        return request

    def release(self, request: LineRequest) -> None:
        # As on the Pi's pin controllers, a released output keeps its level and direction.
        for line in request.lines:
            line.request = None
        request.close()
        self.requests.pop(request.number, None)

    def release_all(self) -> None:
        for request in list(self.requests.values()):
            self.release(request)

    def configure(self, request: LineRequest, config: bytes) -> None:
        """Apply a gpio_v2_line_config (272 bytes) to the request's lines."""
        flags, num_attrs = struct.unpack_from("<QI", config, 0)
        per_line = [flags] * len(request.lines)
        outputs: dict[int, int] = {}
        for n in range(min(num_attrs, 10)):
            at = 32 + 24 * n
            attr_id, _, value, mask = struct.unpack_from("<IIQQ", config, at)
            for index in range(len(request.lines)):
                if not mask >> index & 1:
                    continue
                if attr_id == ATTR_FLAGS:
                    per_line[index] = value
                elif attr_id == ATTR_OUTPUT_VALUES:
                    outputs[index] = value >> index & 1
        for index, line in enumerate(request.lines):
            before = line.level()
            line.flags = per_line[index] | F_USED
            if line.flags & F_OUTPUT:
                logical = outputs.get(index, 0)
                line.driven = logical ^ bool(line.flags & F_ACTIVE_LOW)
            self._changed(line, before)

    def set_values(self, request: LineRequest, bits: int, mask: int) -> None:
        for index, line in enumerate(request.lines):
            if mask >> index & 1 and line.flags & F_OUTPUT:
                before = line.level()
                line.driven = (bits >> index & 1) ^ bool(line.flags & F_ACTIVE_LOW)
                self._changed(line, before)

    def get_values(self, request: LineRequest, mask: int) -> int:
        bits = 0
        for index, line in enumerate(request.lines):
            if mask >> index & 1:
                level = line.level()  # once: a chip's output may change between two reads
                if line.rise_unseen:
                    # On a Pi the host's first look after a frame read comes microseconds
                    # later, well inside the chip's busy time (a field guard alone is 5.1 ms);
                    # a loaded test machine can pass that whole time between two IPC round
                    # trips. The first look after a rise sees the chip busy, as on the Pi:
                    # the frame is only ever read later, never earlier.
                    level = 1
                    line.rise_unseen = False
                line.looks[level] += 1
                bits |= (level ^ bool(line.flags & F_ACTIVE_LOW)) << index
        return bits

    def drive(self, gpio: int, level: int | None) -> None:
        """Something outside the Pi pulls a header line (a button), or lets it go."""
        line = self.header_line(gpio)
        before = line.level()
        line.external = level
        self._changed(line, before)

    def follow(self, gpio: int, irq) -> None:
        """Wire a chip's output (an emulated PN532's `IrqLine`) to a header line: the line
        carries its level, and each change of it is a change of the line (edge events)."""
        line = self.header_line(gpio)
        line.source = lambda: int(irq.value)
        line.rise_unseen = bool(irq.value)  # high from the start: as if it had just risen
        # The level is the one the chip just took: reading the line again here could see the
        # next change already (a pulse between two ready frames) and lose this one.
        irq.on_change = lambda level: self._changed(line, int(not level), int(level))

    def _changed(self, line: Line, before: int, now: int | None = None) -> None:
        if now is None:
            now = line.level()
        if now == before:
            return
        line.changes.append((time.monotonic() - self.start, now))
        if now and line.source is not None:
            line.rise_unseen = True  # even if it falls again before the host looks
        if line.watcher is not None:
            line.watcher(now)
        request = line.request
        if request is None or line.flags & F_OUTPUT:
            return
        logical_now = now ^ bool(line.flags & F_ACTIVE_LOW)
        rising = bool(logical_now)
        if (rising and line.flags & F_EDGE_RISING) or (not rising and line.flags & F_EDGE_FALLING):
            request.event(request.lines.index(line), rising)
