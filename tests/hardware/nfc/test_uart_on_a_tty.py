"""A PN532 on a UART, through pyserial on a real tty: a pseudo-terminal whose other end is an
`EmulatedPN532`, so pyserial's own blocking `read(n)` runs as on the Pi's /dev/serial0.

pyserial's `read(n)` returns only when n bytes came or its timeout ran out. The stock driver
asks for the longest answer it expects (49 bytes for a poll), so every poll would wait out the
timeout; with `timeout=None` (wait for ever) such a read never returns. The table's driver
reads each frame by its length, so polls finish with the port set to wait for ever.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

import pytest
import serial

from hardware.nfc.emulator import ACK, EmulatedPN532, parse_frame
from hardware.nfc.reader import LIST_RESPONSE_LENGTH, Reader, ReaderFault
from hardware.nfc.tags import Ntag

PATIENCE_S = 20.0  # a bound on a hung read, not a timing assert


class PN532OnAPty:
    """The chip end of a pseudo-terminal: whole frames from the host go to the chip, and
    what the chip answers goes back. `next_response` changes the next response frame on the
    line: a longer preamble (more leading zeros), or only its first bytes (a frame cut off)."""

    def __init__(self, chip: EmulatedPN532) -> None:
        self.chip = chip
        self._next: tuple[int, int | None] | None = None
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)  # pyserial opens it again by name; ours stays open
        # so that the chip's end never reads EIO while no host has the port open
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        pending = bytearray()
        while not self.stopping:
            try:
                data = os.read(self.master, 1024)
            except OSError:  # the host side closed
                return
            pending += data
            if parse_frame(bytes(pending)) is None:
                continue
            self.chip.host_write(bytes(pending))
            pending.clear()
            answer = bytearray()
            while (frame := self.chip.take_frame()) is not None:
                if frame != ACK and self._next is not None:
                    (zeros, length), self._next = self._next, None
                    frame = (bytes(zeros) + frame)[:length]
                answer += frame
            if answer:
                os.write(self.master, answer)

    def next_response(self, zeros: int = 0, length: int | None = None) -> None:
        self._next = (zeros, length)

    def close(self) -> None:
        self.stopping = True
        os.close(self.slave)
        os.close(self.master)


@pytest.fixture
def pn532_tty() -> Iterator[PN532OnAPty]:
    chip = PN532OnAPty(EmulatedPN532(name="main"))
    yield chip
    chip.close()


def in_time(work, *args):
    """Run `work` in a thread; its result, or a failure if it is still blocked after a while."""
    result: dict[str, object] = {}

    def run() -> None:
        try:
            result["value"] = work(*args)
        except BaseException as error:  # handed to the test's thread
            result["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(PATIENCE_S)
    assert not thread.is_alive(), f"{work.__name__} is still blocked in pyserial's read()"
    if "error" in result:
        raise result["error"]  # type: ignore[misc]
    return result["value"]


def test_polls_over_a_port_that_waits_for_ever_come_back_with_the_tag(pn532_tty):
    port = serial.Serial(pn532_tty.path, baudrate=115_200, timeout=None)
    with contextlib.closing(port):
        reader = in_time(lambda: Reader.over_uart(port, name="main", timeout_s=5.0))
        assert reader.health.state == "ok", reader.health.last_error
        assert in_time(reader.poll).uids == ()
        pn532_tty.chip.place(Ntag("04a1b2c3d4e5f6", card_id="arcana:fire-dragon"))
        seen = in_time(reader.poll)
        assert seen.uids == ("04a1b2c3d4e5f6",)
        assert in_time(reader.read_card_id, seen.uids[0]) == "arcana:fire-dragon"


@pytest.mark.parametrize("zeros", [1, 2, 4, 8])  # the start code in the first 5 bytes, or after
def test_a_response_after_a_longer_preamble_is_read_to_its_end(zeros):
    """A poll's answer (one tag: 20 bytes) is shorter than the 49 the driver allows it, so a
    longer preamble still fits; the read must not ask for a byte that never comes."""
    pty = PN532OnAPty(EmulatedPN532(name="main"))
    port = serial.Serial(pty.path, baudrate=115_200, timeout=None)
    try:
        reader = in_time(lambda: Reader.over_uart(port, name="main", timeout_s=5.0))
        assert reader.health.state == "ok", reader.health.last_error
        pty.chip.place(Ntag("04a1b2c3d4e5f6", card_id="arcana:fire-dragon"))
        pty.next_response(zeros)
        assert in_time(reader.poll).uids == ("04a1b2c3d4e5f6",)
        assert in_time(reader.read_card_id, "04a1b2c3d4e5f6") == "arcana:fire-dragon"
    finally:
        port.close()
        pty.close()


@pytest.mark.parametrize(
    ("zeros", "length", "why"),
    [
        (0, 1, "preamble does not contain 0x00FF"),  # one byte of the frame, then nothing
        (0, 2, "preamble does not contain 0x00FF"),  # the preamble and half the start code
        (4, 5, "preamble does not contain 0x00FF"),  # zeros only
        (2, 5, "contains no data"),  # up to the start code, no length
        (0, 5, "index out of range"),  # the head alone: an empty frame, no response code
        (0, 8, "checksum did not match"),  # all but the checksum and the postamble
    ],
)
def test_a_response_cut_short_on_the_line_is_a_protocol_fault_then_the_next_poll_works(
    zeros, length, why
):
    pty = PN532OnAPty(EmulatedPN532(name="main"))
    port = serial.Serial(pty.path, baudrate=115_200, timeout=0.05)
    try:
        reader = in_time(lambda: Reader.over_uart(port, name="main", timeout_s=0.5))
        assert reader.health.state == "ok", reader.health.last_error
        pty.next_response(zeros, length)
        with pytest.raises(ReaderFault, match=why) as fault:
            in_time(reader.poll)
        assert fault.value.kind == ("checksum" if "checksum" in why else "protocol")
        assert in_time(reader.poll).uids == ()
    finally:
        port.close()
        pty.close()


@pytest.mark.parametrize(
    ("command", "longest"),
    [("poll", LIST_RESPONSE_LENGTH + 9), ("page read", 17 + 9)],  # answer + D5 code, 7 framing
)
def test_a_line_of_zeros_is_read_no_further_than_the_longest_frame_asked_for(command, longest):
    """An RX line held low reads as 0x00 bytes: the read of a response stops at the longest
    frame the command can have, even on a port that waits for ever, and reports the fault."""
    pty = PN532OnAPty(EmulatedPN532(name="main"))
    port = serial.Serial(pty.path, baudrate=115_200, timeout=None)
    try:
        reader = in_time(lambda: Reader.over_uart(port, name="main", timeout_s=5.0))
        pty.chip.place(Ntag("04a1b2c3d4e5f6", card_id="arcana:fire-dragon"))
        if command == "page read":
            assert in_time(reader.poll).uids == ("04a1b2c3d4e5f6",)
        pty.next_response(zeros=longest, length=longest)  # zeros only, exactly that many
        work = reader.poll if command == "poll" else reader.read_card_id
        args = () if command == "poll" else ("04a1b2c3d4e5f6",)
        with pytest.raises(ReaderFault, match="preamble does not contain") as fault:
            in_time(work, *args)
        assert fault.value.kind == "protocol"
    finally:
        port.close()
        pty.close()
