"""OLED displays (SSD1306, SH1106; 128x64 and 128x32) through luma.oled, with partial updates.

- `open_display(spec, wiring=None)` -> `Display` (`show(image)`, `clear()`, `health`,
  `close()`; emulated ones add `frame()` and `counters`).
- `PartialSSD1306`, `PartialSH1106`: luma's drivers sending only the changed window.
- Emulation: `OledChip` decodes the byte stream; `RecordingSerial`, `EmulatedI2CBus`,
  `EmulatedSpiDev` and `GpioLines` stand in for the buses; `EmulatedWiring` holds a table's.
"""

from hardware.display.bus import (
    BusMeter,
    EmulatedI2CBus,
    EmulatedSpiDev,
    GpioLines,
    RecordingSerial,
)
from hardware.display.chip import OledChip
from hardware.display.devices import PartialSH1106, PartialSSD1306
from hardware.display.screen import Display, DisplayHealth
from hardware.display.spec import DisplaySpec
from hardware.display.wiring import DisplayWiringError, EmulatedWiring, open_display

__all__ = [
    "BusMeter",
    "Display",
    "DisplayHealth",
    "DisplaySpec",
    "DisplayWiringError",
    "EmulatedI2CBus",
    "EmulatedSpiDev",
    "EmulatedWiring",
    "GpioLines",
    "OledChip",
    "PartialSH1106",
    "PartialSSD1306",
    "RecordingSerial",
    "open_display",
]
