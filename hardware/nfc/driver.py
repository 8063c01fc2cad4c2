"""The adafruit PN532 driver classes with the table's waiting policy; framing stays the driver's.

Three things differ from the stock classes, all about time:
- Waiting for the chip: with an IRQ line wired (low = a frame is ready) the wait watches the
  pin in `IRQ_POLL_S` steps and sends nothing over the bus; without one it reads the status
  byte (I2C, SPI) or the UART's input count and sleeps `STATUS_POLL_S` (10 ms, the stock
  driver's pause) between tries. When an IRQ wait times out, the status byte is read once:
  a chip that has its answer ready while the pin still reads high is an IRQ wire on the wrong
  pin (or none), and `IrqStuckHigh` says so instead of "no answer". Either way the wait runs
  on a clock with `monotonic()` and `sleep()`: the `time` module on the Pi, the emulator's
  `ModelledClock` in tests and the bench, so a modelled host pays for its sleeps without
  sleeping.
- The commands the driver sends while it is being built (SAMConfiguration with a 1 s timeout,
  GetFirmwareVersion with 0.5 s) use the reader's own short timeout, so re-initialising a reader
  that does not answer costs a bounded, short time and the other pads keep being scanned.
- On a UART, a response is read frame by frame (start code, length, then exactly the rest):
  the stock driver asks pyserial for the longest answer it expects (49 bytes for a poll),
  and pyserial's `read(n)` waits its whole timeout whenever fewer bytes come, on every poll.
"""

from __future__ import annotations

import time
from typing import Protocol

from adafruit_pn532.adafruit_pn532 import BusyError
from adafruit_pn532.i2c import PN532_I2C
from adafruit_pn532.spi import PN532_SPI, reverse_bit
from adafruit_pn532.uart import PN532_UART

from hardware.errors import HardwareError

CMD_SAM_CONFIGURATION = 0x14
CMD_GET_FIRMWARE_VERSION = 0x02
IRQ_POLL_S = 0.0002  # a look at the IRQ pin costs microseconds and sends nothing
STATUS_POLL_S = 0.01  # the stock driver's pause between status reads
SPI_STATUS_READ = 0x02
ACK_LENGTH = 6  # 00 00 FF 00 FF 00
HEAD_LENGTH = 5  # a response's 00 00 FF LEN LCS
START_CODE = b"\x00\xff"


class IrqStuckHigh(HardwareError, RuntimeError):
    """The PN532 has a frame ready (its status byte says so) but its IRQ line reads high."""


class HostClock(Protocol):
    """What the waits need of a clock; the `time` module is one."""

    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class _TableWaits:
    """Mixin: IRQ-or-status waits on an injectable clock, short timeouts at construction."""

    command_timeout_s = 0.1
    last_bus_error: OSError | None = None
    _irq = None
    _clock: HostClock = time

    def _write_data(self, framebytes: bytes) -> None:
        # The driver turns a failed write into "no answer"; keep the error so it can be told.
        try:
            super()._write_data(framebytes)
        except OSError as error:
            self.last_bus_error = error
            raise

    def _wait_ready(self, timeout: float = 1) -> bool:
        clock = self._clock
        step = STATUS_POLL_S if self._irq is None else IRQ_POLL_S
        deadline = clock.monotonic() + timeout
        while True:
            if self._frame_waiting():
                return True
            if clock.monotonic() >= deadline:
                return self._irq is not None and self._irq_missed()
            clock.sleep(step)

    def _irq_missed(self) -> bool:
        """After an IRQ wait timed out: False if the chip really has nothing (a busy or absent
        chip); raise IrqStuckHigh if its status byte says a frame is ready while the pin still
        reads high. A pin that fell meanwhile was only late: the frame is read (True)."""
        if not self._status_ready():
            return False
        if not self._irq.value:
            return True
        raise IrqStuckHigh(
            "the PN532 has its answer ready (status byte) but its IRQ line never went low: "
            "the IRQ wire is not on the pin the profile's `irq` names"
        )

    def _frame_waiting(self) -> bool:
        if self._irq is not None:
            return not self._irq.value
        return self._status_ready()

    def _status_ready(self) -> bool:
        raise NotImplementedError

    def SAM_configuration(self) -> None:
        """Normal mode, IRQ used, with the reader's timeout instead of the driver's 1 s."""
        self.call_function(
            CMD_SAM_CONFIGURATION, params=[0x01, 0x14, 0x01], timeout=self.command_timeout_s
        )

    @property
    def firmware_version(self) -> tuple[int, int, int, int]:
        """(IC, version, revision, support), with the reader's timeout."""
        response = self.call_function(CMD_GET_FIRMWARE_VERSION, 4, timeout=self.command_timeout_s)
        if response is None:
            raise RuntimeError("Failed to detect the PN532")
        return tuple(response)


class TablePN532_I2C(_TableWaits, PN532_I2C):
    """PN532_I2C with the table's waits."""

    def __init__(
        self, i2c, address: int = 0x24, *, timeout_s: float = 0.1, clock: HostClock = time, **pins
    ) -> None:
        self.command_timeout_s = timeout_s
        self._clock = clock
        super().__init__(i2c, address, **pins)

    def _status_ready(self) -> bool:
        status = bytearray(1)
        try:
            with self._i2c:
                self._i2c.readinto(status)
        except OSError:
            return False  # the stock driver retries too: a PN532 waking up may not answer
        return status[0] == 0x01


class TablePN532_SPI(_TableWaits, PN532_SPI):
    """PN532_SPI with the table's waits and SPI clock (the driver's device runs at 100 kHz)."""

    def __init__(
        self,
        spi,
        cs,
        *,
        baudrate: int = 1_000_000,
        timeout_s: float = 0.1,
        clock: HostClock = time,
        **pins,
    ):
        self.command_timeout_s = timeout_s
        self._clock = clock
        super().__init__(spi, cs, **pins)
        self._spi.baudrate = baudrate

    def _status_ready(self) -> bool:
        command = bytearray([reverse_bit(SPI_STATUS_READ), 0x00])
        answer = bytearray(2)
        with self._spi as spi:
            spi.write_readinto(command, answer)
        return reverse_bit(answer[1]) == 0x01


class TablePN532_UART(_TableWaits, PN532_UART):
    """PN532_UART with the table's waits and short construction timeouts (no IRQ on HSU),
    reading each frame as long as it is."""

    def __init__(self, uart, *, timeout_s: float = 0.1, clock: HostClock = time, **pins) -> None:
        self.command_timeout_s = timeout_s
        self._clock = clock
        super().__init__(uart, **pins)

    def _status_ready(self) -> bool:
        return self._uart.in_waiting > 0

    def _read_data(self, count: int) -> bytes:
        """One frame of at most `count` bytes, asking the port only for bytes that will come.

        An ACK is 6 bytes, as asked. A response: the preamble and start code (00 00 FF) with
        LEN and LCS, asked for as 5 bytes, then exactly LEN bytes, the checksum and the
        postamble. More leading zeros than one are read byte by byte until the start code.
        """
        if count <= ACK_LENGTH:
            return super()._read_data(count)
        frame = bytearray(self._uart.read(min(HEAD_LENGTH, count)) or b"")
        while frame and START_CODE not in frame and len(frame) < count:
            byte = self._uart.read(1)
            if not byte:
                break
            frame += byte
        at = frame.find(START_CODE)
        if at >= 0:
            head_end = min(at + 4, count)  # 00 FF LEN LCS
            if len(frame) < head_end:
                frame += self._uart.read(head_end - len(frame)) or b""
            if len(frame) == at + 4:
                rest = min(at + 4 + frame[at + 2] + 2, count) - len(frame)
                frame += self._uart.read(rest) or b""
        if not frame:
            raise BusyError("No data read from PN532")
        return bytes(frame)
