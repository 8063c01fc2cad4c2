"""One downstream channel of a TCA9548A I2C multiplexer, usable wherever a busio.I2C is.

Locking the channel writes its bit to the multiplexer first, as adafruit_tca9548a's channel
objects do, so every transaction of a driver goes to the right channel even when several
channels host PN532s at the same address. Works over a real busio.I2C or an emulated one.
(Raspberry Pi OS can instead expose the channels as /dev/i2c-N buses with the i2c-mux kernel
driver; then pass that bus to the reader and no channel.)
"""

from __future__ import annotations

TCA9548A_ADDRESS = 0x70


class MuxChannel:
    """Channel `channel` (0..7) of the multiplexer at `mux_address` on `i2c`."""

    def __init__(self, i2c, channel: int, mux_address: int = TCA9548A_ADDRESS) -> None:
        if not 0 <= channel < 8:
            raise ValueError(f"a TCA9548A has channels 0..7, not {channel}")
        self.i2c = i2c
        self.channel = channel
        self.mux_address = mux_address

    def try_lock(self) -> bool:
        if not self.i2c.try_lock():
            return False
        try:
            self.i2c.writeto(self.mux_address, bytes([1 << self.channel]))
        except BaseException:
            self.i2c.unlock()
            raise
        return True

    def unlock(self) -> None:
        self.i2c.unlock()

    def writeto(self, address: int, buffer, **kwargs) -> None:
        self.i2c.writeto(address, buffer, **kwargs)

    def readfrom_into(self, address: int, buffer, **kwargs) -> None:
        self.i2c.readfrom_into(address, buffer, **kwargs)

    def writeto_then_readfrom(self, address: int, buffer_out, buffer_in, **kwargs) -> None:
        self.i2c.writeto_then_readfrom(address, buffer_out, buffer_in, **kwargs)

    def scan(self) -> list[int]:
        """Addresses answering on this channel (the multiplexer's own address excluded)."""
        while not self.try_lock():
            pass
        try:
            return [a for a in self.i2c.scan() if a != self.mux_address]
        finally:
            self.unlock()

    def deinit(self) -> None:
        """The channel owns nothing; the bus stays open for the other channels."""
