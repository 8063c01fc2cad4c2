"""A one-colour drawing surface with the few moves the screens need.

Only bitmap pastes and axis-aligned rectangles: both come out the same on every Pillow
version, unlike anti-aliased shapes or TrueType text. Text never overflows its box: it is
shortened with an ellipsis first.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from firmware.screens.font import Font, load_font
from firmware.screens.icons import icon
from firmware.screens.shaping import as_written, is_rtl
from firmware.screens.short_forms import short_form

INK = 1
PAPER = 0


@dataclass(frozen=True)
class Mark:
    """Where a text or an icon was drawn: its box (x0, y0 inclusive; x1, y1 exclusive).

    A text's box spans its capitals (accents and descenders may reach past it); `text` is
    what was asked for, `shown` what fitted (a short form, or cut with an ellipsis). Tests
    use the marks to check layouts.
    """

    text: str
    shown: str
    x0: int
    y0: int
    x1: int
    y1: int


class Canvas:
    """A width x height mode "1" image being drawn on; `image` is the result, `marks` what
    went where.
    """

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("1", size, PAPER)
        self._draw = ImageDraw.Draw(self.image)
        self.width, self.height = size
        self.marks: list[Mark] = []

    @property
    def tall(self) -> bool:
        """True on a 128x64 display, False on a 128x32 one."""
        return self.height >= 64

    def text(
        self,
        x: int,
        y: int,
        text: str,
        font: str = "small",
        width: int | None = None,
        align: str = "left",
        fill: int = INK,
    ) -> int:
        """Draw text with its capitals' top at row y inside [x, x + width); returns the right
        edge of the drawn text. Text wider than the box is drawn in its hand-chosen short
        form (`short_forms`) when it has one that fits, else shortened with an ellipsis.

        Right-to-left text (Persian) is mirrored in a box given by `width`: "left" (where
        reading starts) puts it against the box's right edge. Without a width it starts at x
        as any text does (a caller may have sized a box to it). It is shaped, and cut at its
        logical end, the left. Its digits are measured and drawn Persian (۰-۹) when the table
        asks for them (`shaping.as_written`); its mark keeps the text asked for and the text
        shown, digits as drawn.
        """
        face = load_font(font)
        boxed = width is not None
        width = self.width - x if width is None else width
        shown = face.fit(short_form(text, font, max(width, 0)), max(width, 0))
        used = face.width(shown)
        if align == "left" and boxed and is_rtl(shown):
            align = "right"
        if align == "right":
            x += width - used
        elif align == "center":
            x += (width - used) // 2
        if shown:
            written = as_written(shown)
            self.marks.append(Mark(text, written, x, y, x + used, y + face.cap_height))
        return face.draw(self.image, x, y, shown, fill)

    def icon(self, name: str, x: int, y: int, scale: int = 1, fill: int = INK) -> int:
        """Draw an icon with its top-left corner at (x, y); returns its right edge."""
        bitmap = icon(name, scale)
        left, top, right, bottom = bitmap.getbbox() or (0, 0, 0, 0)
        self.marks.append(Mark(f"icon:{name}", "", x + left, y + top, x + right, y + bottom))
        self.image.paste(fill, (x, y, x + bitmap.width, y + bitmap.height), bitmap)
        return x + bitmap.width

    def box(self, x0: int, y0: int, x1: int, y1: int, fill: int = INK) -> None:
        """Fill the rectangle whose corners (inclusive) are (x0, y0) and (x1, y1)."""
        self._draw.rectangle((x0, y0, x1, y1), fill=fill)

    def frame(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Outline the rectangle whose corners (inclusive) are (x0, y0) and (x1, y1)."""
        self._draw.rectangle((x0, y0, x1, y1), outline=INK)

    def hline(self, y: int, x0: int = 0, x1: int | None = None) -> None:
        """A one-pixel horizontal rule."""
        self.box(x0, y, self.width - 1 if x1 is None else x1, y)

    def vline(self, x: int, y0: int, y1: int) -> None:
        """A one-pixel vertical rule."""
        self.box(x, y0, x, y1)


def font(name: str) -> Font:
    """The bitmap font `small`, `medium` or `digits`."""
    return load_font(name)
