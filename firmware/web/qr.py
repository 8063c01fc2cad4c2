"""The pairing QR code on a 128x64 (or 128x32) OLED, and the status display that shows it.

    image = pairing_image("http://192.168.1.20:8080/pair/K7M2X9QHTA", "Seat 2")
    status = QrOverlay(table.displays["status"], pending)   # pending() -> (url, label) | None

A QR code wants dark modules on a light ground: the OLED lights the ground (a square of the
display's height on the left) and leaves the modules dark; the right side says who pairs.
The URL is encoded in QR's alphanumeric mode (upper case: the scheme and the address are
case-insensitive, the server answers /PAIR/ as /pair/), which keeps an IPv4 address, a port
and a 10-character code in a version 2 symbol (25 modules): two pixels a module, with 3.5
modules of quiet zone at 64 px. Longer addresses get a bigger version at one pixel a module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import segno
from PIL import Image

from firmware.screens.canvas import INK, PAPER, Canvas

QUIET = 1  # modules of quiet zone at the least (the lit ground gives more where it can)


def qr_text(url: str) -> str:
    """The URL as the QR code carries it: upper case, so alphanumeric mode fits it."""
    return url.upper()


def pairing_image(url: str, label: str, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """A mode "1" image: the QR code of `url` on a lit square at the left, `label` and
    "Scan to pair" at the right. Raises ValueError if the URL cannot fit the display."""
    width, height = size
    matrix = segno.make(qr_text(url), error="l", micro=False, boost_error=False).matrix
    modules = len(matrix)
    scale = height // (modules + 2 * QUIET)
    if scale < 1:
        raise ValueError(f"The pairing address {url!r} is too long for a {width}x{height} QR")
    canvas = Canvas(size)
    canvas.box(0, 0, height - 1, height - 1, fill=INK)  # the light ground and quiet zone
    left = top = (height - modules * scale) // 2
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = left + x * scale, top + y * scale
                canvas.box(x0, y0, x0 + scale - 1, y0 + scale - 1, fill=PAPER)
    text_x = height + 4
    tall = height >= 64
    canvas.text(text_x, 4 if tall else 2, "Scan to", "small")
    canvas.text(text_x, 14 if tall else 10, "pair:", "small")
    canvas.text(text_x, 30 if tall else 20, label, "medium" if tall else "small")
    return canvas.image


Pending = Callable[[], tuple[str, str] | None]


class Remembered:
    """A display that keeps the last image the companion sent it (`companion_frame`), so
    the web app can tell a changed screen on real hardware too, whose pixels cannot be read
    back. Everything else (size, health, frame, ...) is the display's own."""

    def __init__(self, display: Any) -> None:
        self._display = display
        self._last: Image.Image | None = None
        self.shows = 0  # how many images the companion sent (a changed count: look again)

    def show(self, image: Image.Image) -> Any:
        self._last = image
        self.shows += 1
        return self._display.show(image)

    def companion_frame(self) -> Image.Image:
        """What the companion last drew here (dark before the first drawing)."""
        if self._last is None:
            return Image.new("1", getattr(self._display, "size", (128, 64)))
        return self._last

    def __getattr__(self, name: str) -> Any:
        return getattr(self._display, name)


class QrOverlay(Remembered):
    """A display that shows the pairing QR code while `pending()` names one, and otherwise
    whatever the companion sends it (the last image is kept, so the screen comes back when
    the pairing ends)."""

    def __init__(self, display: Any, pending: Pending) -> None:
        super().__init__(display)
        self.pending = pending  # may be replaced (the port is known once served)
        self._drawn: tuple[tuple[str, str], Image.Image] | None = None  # the last QR image

    def show(self, image: Image.Image) -> Any:
        self._last = image
        self.shows += 1
        shown = self.pending()
        if shown is not None:
            if self._drawn is None or self._drawn[0] != shown:
                size = getattr(self._display, "size", (128, 64))
                self._drawn = (shown, pairing_image(*shown, size))
            image = self._drawn[1]
        return self._display.show(image)
