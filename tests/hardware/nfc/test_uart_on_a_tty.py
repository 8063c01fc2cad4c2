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

from hardware.nfc.emulator import EmulatedPN532, parse_frame
from hardware.nfc.reader import Reader
from hardware.nfc.tags import Ntag

PATIENCE_S = 20.0  # a bound on a hung read, not a timing assert


class PN532OnAPty:
    """The chip end of a pseudo-terminal: whole frames from the host go to the chip, and
    what the chip answers goes back."""

    def __init__(self, chip: EmulatedPN532) -> None:
        self.chip = chip
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
            answer = self.chip.read_stream(1 << 16)
            if answer:
                os.write(self.master, answer)

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
