"""luma.oled's SSD1306 and SH1106 drivers, sending only the part of the screen that changed.

luma's `display()` writes the whole frame (1,024 bytes at 128x64) every time. These
subclasses keep the pages last sent and write only what differs:

- SSD1306 (horizontal addressing, set up by luma's init): a column window (0x21) and a page
  window (0x22) then the window's bytes; either one rectangle over every change or one
  window per changed page, whichever puts fewer bytes on the bus.
- SH1106 (page addressing only): per changed page, the page (0xB0+n) and column nibbles
  (0x0L, 0x1H, with the module's 2-column offset), then that page's changed columns.

The first frame, and the first after a failed transfer or `invalidate()`, is sent whole
with exactly luma's own bytes, because the chip's memory is unknown then.
"""

from __future__ import annotations

from luma.oled.device import sh1106, ssd1306
from PIL import Image

from hardware.display.pages import Window, bounding_window, changed_spans, image_to_pages

# Bytes an I2C transfer costs besides its payload (address byte and control byte); used only
# to choose between one rectangle and several windows.
TRANSFER_OVERHEAD = 2


class _PartialUpdates:
    """What both chips share: the pages last sent, and the check of the incoming image."""

    _shown: list[bytes] | None = None

    def invalidate(self) -> None:
        """Forget what the chip shows: the next `display()` sends the whole frame."""
        self._shown = None

    def display(self, image: Image.Image) -> None:
        """Send the parts of a 1-bit image (the device's size) that differ from the last one."""
        assert image.mode == self.mode
        assert image.size == self.size
        pages = image_to_pages(self.preprocess(image))
        shown, self._shown = self._shown, None  # a transfer that raises leaves it unknown
        if shown is None:
            self._send_whole(pages)
        else:
            spans = changed_spans(shown, pages)
            if spans:
                self._send_changes(pages, spans)
        self._shown = pages


class PartialSSD1306(_PartialUpdates, ssd1306):
    """luma's `ssd1306` (128x64 or 128x32) with partial updates."""

    def _send_whole(self, pages: list[bytes]) -> None:
        self.command(
            self._const.COLUMNADDR, self._colstart, self._colend - 1,
            self._const.PAGEADDR, 0x00, self._pages - 1,
        )  # fmt: skip
        self.data(list(b"".join(pages)))

    def _send_changes(self, pages: list[bytes], spans: dict[int, tuple[int, int]]) -> None:
        rectangle = bounding_window(spans)
        per_page = [Window(page, page, first, last) for page, (first, last) in spans.items()]
        cost_one = 6 + rectangle.data_bytes + 2 * TRANSFER_OVERHEAD
        cost_each = sum(6 + w.data_bytes + 2 * TRANSFER_OVERHEAD for w in per_page)
        for window in [rectangle] if cost_one <= cost_each else per_page:
            self._send_window(pages, window)

    def _send_window(self, pages: list[bytes], window: Window) -> None:
        first = self._colstart + window.first_column
        self.command(
            self._const.COLUMNADDR, first, first + window.columns - 1,
            self._const.PAGEADDR, window.first_page, window.last_page,
        )  # fmt: skip
        start, stop = window.first_column, window.last_column + 1
        self.data(list(b"".join(pages[page][start:stop] for page in window.pages)))


class PartialSH1106(_PartialUpdates, sh1106):
    """luma's `sh1106` (128x64 or 128x32) with partial updates."""

    def _send_whole(self, pages: list[bytes]) -> None:
        for page, data in enumerate(pages):
            self.command(0xB0 + page, self._page_address_offset, 0x10)
            self.data(list(data))

    def _send_changes(self, pages: list[bytes], spans: dict[int, tuple[int, int]]) -> None:
        for page, (first, last) in spans.items():
            column = self._page_address_offset + first
            self.command(0xB0 + page, column & 0x0F, 0x10 | column >> 4)
            self.data(list(pages[page][first : last + 1]))


DRIVERS = {"ssd1306": PartialSSD1306, "sh1106": PartialSH1106}
