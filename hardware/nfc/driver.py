"""The adafruit PN532 driver classes with the table's waiting policy; framing stays the driver's.

Three things differ from the stock classes, all about time:
- Waiting for the chip uses the IRQ line when one is wired (low = a frame is ready), so no
  status-byte polling goes over the bus. (The stock I2C and SPI waits poll the status byte and
  sleep 10 ms between tries.)
- The commands the driver sends while it is being built (SAMConfiguration with a 1 s timeout,
  GetFirmwareVersion with 0.5 s) use the reader's own short timeout, so re-initialising a reader
  that does not answer costs a bounded, short time and the other pads keep being scanned.
- On a UART, a response is read frame by frame (start code, length, then exactly the rest):
  the stock driver asks pyserial for the longest answer it expects (49 bytes for a poll),
  and pyserial's `read(n)` waits its whole timeout whenever fewer bytes come, on every poll.
"""

from __future__ import annotations

import time

from adafruit_pn532.adafruit_pn532 import BusyError
from adafruit_pn532.i2c import PN532_I2C
from adafruit_pn532.spi import PN532_SPI
from adafruit_pn532.uart import PN532_UART

CMD_SAM_CONFIGURATION = 0x14
CMD_GET_FIRMWARE_VERSION = 0x02
IRQ_POLL_S = 0.0005
ACK_LENGTH = 6  # 00 00 FF 00 FF 00


class _TableWaits:
    """Mixin: IRQ-driven waits and short timeouts for the commands run at construction."""

    command_timeout_s = 0.1
    last_bus_error: OSError | None = None
    _irq = None

    def _write_data(self, framebytes: bytes) -> None:
        # The driver turns a failed write into "no answer"; keep the error so it can be told.
        try:
            super()._write_data(framebytes)
        except OSError as error:
            self.last_bus_error = error
            raise

    def _wait_ready(self, timeout: float = 1) -> bool:
        if self._irq is None:
            return super()._wait_ready(timeout)
        deadline = time.monotonic() + timeout
        while True:
            if not self._irq.value:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(IRQ_POLL_S)

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

    def __init__(self, i2c, address: int = 0x24, *, timeout_s: float = 0.1, **pins) -> None:
        self.command_timeout_s = timeout_s
        super().__init__(i2c, address, **pins)


class TablePN532_SPI(_TableWaits, PN532_SPI):
    """PN532_SPI with the table's waits and SPI clock (the driver's device runs at 100 kHz)."""

    def __init__(self, spi, cs, *, baudrate: int = 1_000_000, timeout_s: float = 0.1, **pins):
        self.command_timeout_s = timeout_s
        super().__init__(spi, cs, **pins)
        self._spi.baudrate = baudrate


class TablePN532_UART(_TableWaits, PN532_UART):
    """PN532_UART with the table's short construction timeouts (no IRQ on HSU), reading each
    frame as long as it is."""

    def __init__(self, uart, *, timeout_s: float = 0.1, **pins) -> None:
        self.command_timeout_s = timeout_s
        super().__init__(uart, **pins)

    def _read_data(self, count: int) -> bytes:
        """One frame of at most `count` bytes, asking the port only for bytes that will come.

        An ACK is 6 bytes, as asked. A response: zeros then 0xFF (the start code), LEN and
        LCS, then LEN bytes, the checksum and the postamble.
        """
        if count <= ACK_LENGTH:
            return super()._read_data(count)
        frame = bytearray()
        while len(frame) < count and not frame.endswith(b"\x00\xff"):
            byte = self._uart.read(1)
            if not byte:
                break
            frame += byte
        if frame.endswith(b"\x00\xff"):
            head = self._uart.read(min(2, count - len(frame))) or b""
            frame += head
            if len(head) == 2:  # LEN and LCS: LEN bytes, checksum and postamble follow
                frame += self._uart.read(min(head[0] + 2, count - len(frame))) or b""
        if not frame:
            raise BusyError("No data read from PN532")
        return bytes(frame)
