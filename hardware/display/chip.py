"""An emulated SSD1306 or SH1106: decodes the command and data bytes a driver sends.

The chip keeps its display RAM as pages (see `hardware.display.pages`), follows the
addressing commands (SSD1306: horizontal/vertical/page modes with the 0x21/0x22 windows;
SH1106: page address 0xB0+n and column nibbles, 132 columns of RAM behind a 128-column
panel) and renders what the panel would show with `frame()`. Commands it does not know are
counted in `unknown`, so a test can tell a driver that sends garbage from one that does not.
"""

from __future__ import annotations

from PIL import Image

from hardware.display.pages import pages_to_image

CHIPS = ("ssd1306", "sh1106")
SIZES = ((128, 64), (128, 32))

# Argument bytes that follow a command byte, per chip. Single-byte commands are decoded
# by range in `_single`.
_SSD1306_ARGUMENTS = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column window
    0x22: 2,  # page window
    0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2,  # scrolling
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0xA8: 1,  # multiplex ratio
    0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
}  # fmt: skip
_SH1106_ARGUMENTS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2


class OledChip:
    """One emulated controller with its RAM; feed it with `command()` and `data()`.

    >>> chip = OledChip("ssd1306", 128, 64)
    >>> chip.command([0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7])
    >>> chip.data(b"\\xff" * 1024)
    >>> chip.frame().getpixel((5, 5))
    255
    """

    def __init__(self, chip: str = "ssd1306", width: int = 128, height: int = 64, *,
                 column_offset: int | None = None) -> None:  # fmt: skip
        if chip not in CHIPS:
            raise ValueError(f"unknown display chip {chip!r}; expected one of {', '.join(CHIPS)}")
        if (width, height) not in SIZES:
            raise ValueError(
                f"unsupported display size {width}x{height}; expected 128x64 or 128x32"
            )
        self.chip = chip
        self.width = width
        self.height = height
        self.ram_columns = 132 if chip == "sh1106" else 128
        # SH1106 modules wire the 128-column glass to RAM columns 2..129.
        self.column_offset = (
            (2 if chip == "sh1106" else 0) if column_offset is None else column_offset
        )
        self.ram = [bytearray(self.ram_columns) for _ in range(8)]
        self.is_on = False
        self.inverted = False
        self.contrast = 0x7F
        self.unknown: list[int] = []
        self.commands_seen = 0
        self.data_seen = 0
        self._arguments = _SH1106_ARGUMENTS if chip == "sh1106" else _SSD1306_ARGUMENTS
        self._pending: list[int] = []  # a command still waiting for its argument bytes
        self._mode = PAGE  # the SSD1306's mode after reset
        self._columns = (0, self.ram_columns - 1)
        self._page_range = (0, 7)
        self._page = 0
        self._column = 0

    # -- the two kinds of transfer ------------------------------------------------------

    def command(self, payload) -> None:
        """Decode command bytes; a command's arguments may arrive in a later transfer."""
        for byte in payload:
            self.commands_seen += 1
            if self._pending:
                self._pending.append(byte)
            elif byte in self._arguments:
                self._pending = [byte]
            else:
                self._single(byte)
                continue
            if len(self._pending) == 1 + self._arguments[self._pending[0]]:
                command, self._pending = self._pending, []
                self._with_arguments(command[0], command[1:])

    def data(self, payload) -> None:
        """Write display RAM at the address pointer, moving it as the chip would."""
        payload = bytes(payload)
        self.data_seen += len(payload)
        if self._mode == VERTICAL and self.chip != "sh1106":
            for byte in payload:
                self.ram[self._page][self._column] = byte
                self._advance()
            return
        # Page and horizontal addressing fill a page row left to right: copy whole runs up
        # to the row's end (the emulator decodes every frame of the demo and the simulator).
        while payload:
            end = self._row_end()
            run = payload[: max(1, end - self._column + 1)]  # past the end: one byte, then wrap
            self.ram[self._page][self._column : self._column + len(run)] = run
            self._column += len(run) - 1
            payload = payload[len(run) :]
            self._advance()

    def _row_end(self) -> int:
        """The last column the pointer reaches before it wraps."""
        if self.chip == "sh1106":
            return self.ram_columns - 1
        return self._columns[1]

    # -- what the panel shows -----------------------------------------------------------

    def pages(self) -> list[bytes]:
        """The visible part of RAM, one `bytes` of `width` columns per page."""
        start = self.column_offset
        return [
            bytes(self.ram[page][start : start + self.width]) for page in range(self.height // 8)
        ]

    def frame(self) -> Image.Image:
        """The panel's pixels as a 1-bit PIL image (RAM content; see `is_on`, `inverted`)."""
        return pages_to_image(self.pages(), self.width)

    # -- decoding -----------------------------------------------------------------------

    def _single(self, byte: int) -> None:
        if byte <= 0x0F:
            self._column = (self._column & 0xF0) | byte
        elif byte <= 0x1F:
            self._column = ((byte & 0x0F) << 4 | (self._column & 0x0F)) % self.ram_columns
        elif 0x40 <= byte <= 0x7F or byte in (0xA0, 0xA1, 0xA4, 0xA5, 0xE3, 0x2E, 0x2F):
            pass  # start line, segment remap, entire-display-on, nop, scroll on/off
        elif byte in (0xA6, 0xA7):
            self.inverted = byte == 0xA7
        elif byte in (0xAE, 0xAF):
            self.is_on = byte == 0xAF
        elif 0xB0 <= byte <= 0xB7:
            self._page = byte & 0x07
        elif byte in (0xC0, 0xC8):
            pass  # COM scan direction
        elif self.chip == "sh1106" and (0x30 <= byte <= 0x33 or byte in (0xE0, 0xEE)):
            pass  # pump voltage, read-modify-write
        else:
            self.unknown.append(byte)

    def _with_arguments(self, command: int, arguments: list[int]) -> None:
        if command == 0x20:
            self._mode = arguments[0] & 0x03
        elif command == 0x21:
            self._columns = (arguments[0] & 0x7F, arguments[1] & 0x7F)
            self._column = self._columns[0]
        elif command == 0x22:
            self._page_range = (arguments[0] & 0x07, arguments[1] & 0x07)
            self._page = self._page_range[0]
        elif command == 0x81:
            self.contrast = arguments[0]

    def _advance(self) -> None:
        if self.chip == "sh1106" or self._mode == PAGE:
            # Page addressing: the column moves on and wraps; the page never changes.
            end = self.ram_columns - 1 if self.chip == "sh1106" else self._columns[1]
            self._column = self._column + 1 if self._column < end else 0
            return
        first_column, last_column = self._columns
        first_page, last_page = self._page_range
        if self._mode == HORIZONTAL:
            if self._column < last_column:
                self._column += 1
                return
            self._column = first_column
            self._page = self._page + 1 if self._page < last_page else first_page
        else:
            if self._page < last_page:
                self._page += 1
                return
            self._page = first_page
            self._column = self._column + 1 if self._column < last_column else first_column
