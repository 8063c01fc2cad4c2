"""What one display is and how it is wired: the part of a table profile a display needs."""

from __future__ import annotations

from dataclasses import dataclass

# Clocks luma's SPI interface accepts (it asserts on anything else).
SPI_CLOCKS_HZ = tuple(
    int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)
)


@dataclass(frozen=True)
class DisplaySpec:
    """One OLED. I2C: `bus` is the kernel's bus number (`/dev/i2c-N`; a multiplexer channel
    has its own), or with `mux_channel` the multiplexer's bus, the channel's own number being
    looked up when the table starts. SPI: `bus` is the SPI port, `device` its hardware
    chip-enable, `cs` an optional GPIO chip-select instead, `dc` and `reset` the data/command
    and reset lines."""

    role: str
    chip: str = "ssd1306"
    width: int = 128
    height: int = 64
    interface: str = "i2c"
    bus: int = 1
    address: int = 0x3C
    device: int = 0
    dc: int = 24
    reset: int | None = None
    cs: int | None = None
    clock_hz: int = 400_000
    rotate: int = 0
    mux_channel: int | None = None

    @property
    def where(self) -> str:
        """Where it is wired, in an installer's words: `i2c-1 0x3C` or `spi0 cs GPIO5`."""
        if self.interface == "i2c":
            channel = f" channel {self.mux_channel}" if self.mux_channel is not None else ""
            return f"i2c-{self.bus}{channel} 0x{self.address:02X}"
        select = f"cs GPIO{self.cs}" if self.cs is not None else f"CE{self.device}"
        return f"spi{self.bus} {select} dc GPIO{self.dc}"

    @property
    def name(self) -> str:
        return f"display {self.role} ({self.chip} {self.width}x{self.height}, {self.where})"
