"""A PN532 on the fake Pi's UART: umockdev's pseudo-terminal, the chip at the master side.

pyserial opens the slave (`/dev/ttyAMA0`, `/dev/serial0` links to it) and sets it up with
termios, which umockdev passes to the real pty; a thread here reads the master, cuts the
bytes into frames as the PN532's HSU does (wake-up bytes 0x55 and noise before a preamble
are dropped), hands each frame to the `EmulatedPN532` and writes back what the chip answers
(ACK, then the response), so select() on the slave wakes pyserial as a real UART does.
"""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Callable

from hardware.nfc.emulator import EmulatedPN532


def next_frame(buffer: bytearray) -> bytes | None:
    """Cut the first whole frame (an ACK or an information frame) out of `buffer`."""
    while True:
        at = buffer.find(b"\x00\xff")
        if at < 0:
            del buffer[: max(0, len(buffer) - 1)]  # keep a last 0x00: a preamble may follow
            return None
        if len(buffer) < at + 4:
            return None
        length, check = buffer[at + 2], buffer[at + 3]
        if length == 0 and check == 0xFF:
            end = at + 5  # 00 FF 00 FF 00
        elif (length + check) & 0xFF == 0:
            end = at + 6 + length  # 00 FF LEN LCS TFI.. DCS 00
        else:
            del buffer[: at + 2]  # not a frame start after all
            continue
        if len(buffer) < end:
            return None
        frame = bytes(b"\x00" + buffer[at:end])
        del buffer[:end]
        return frame


class UartPn532:
    """Serves `chip` on the pty master `fd` until `stop()`; `lock` guards the chip."""

    def __init__(self, chip: EmulatedPN532, fd: int, lock: threading.RLock) -> None:
        self.chip = chip
        self.fd = fd
        self.lock = lock
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, name=f"uart {chip.name}", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        buffer = bytearray()
        while not self.stopped.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            try:
                buffer += os.read(self.fd, 4096)
            except OSError:  # EIO while no process has the slave open
                self.stopped.wait(0.05)
                continue
            while (frame := next_frame(buffer)) is not None:
                self._write(lambda f=frame: self._answer(f))

    def _answer(self, frame: bytes) -> bytes:
        if not self.chip.plugged or self.chip.fault == "io_error":
            return b""
        self.chip.host_write(frame)
        return self.chip.read_stream(1 << 16)

    def _write(self, answer: Callable[[], bytes]) -> None:
        with self.lock:
            out = answer()
        if out:
            os.write(self.fd, out)

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=2)
