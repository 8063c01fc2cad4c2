"""Bitmap fonts read from the glyph files in `fonts/`, and text that always fits its box.

A glyph file is plain text: a few header lines (`font NAME`, `height H`, `baseline B`), then
per character `glyph HEX WIDTH` followed by H rows of '#' (ink) and '.' (paper). Drawing pastes
these bitmaps, so a screen comes out byte-identical on every machine and Pillow version.

    >>> small = load_font("small")
    >>> small.fit("Gilde der Klingen", 40)
    'Gilde…'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image

ELLIPSIS = "…"
REPLACEMENT = "?"


@dataclass(frozen=True)
class Font:
    """One bitmap font: glyph images by character, all `height` pixels tall."""

    name: str
    height: int
    baseline: int
    cap_top: int  # first ink row of a capital: where a line of text "starts" to the eye
    cap_height: int
    glyphs: dict[str, Image.Image]

    def glyph(self, char: str) -> Image.Image:
        """The bitmap of a character; characters the font lacks show as '?'."""
        return self.glyphs.get(char) or self.glyphs[REPLACEMENT]

    def width(self, text: str) -> int:
        """Width in pixels of the text drawn in this font."""
        return sum(self.glyph(char).width for char in text)

    def draw(self, image: Image.Image, x: int, y: int, text: str, fill: int = 1) -> int:
        """Draw text with its capitals' top at row y; returns the x after the last glyph."""
        top = y - self.cap_top
        for char in text:
            glyph = self.glyph(char)
            image.paste(fill, (x, top, x + glyph.width, top + glyph.height), glyph)
            x += glyph.width
        return x

    def fit(self, text: str, width: int) -> str:
        """The text, shortened with a visible ellipsis when it is wider than width pixels."""
        if self.width(text) <= width:
            return text
        for end in range(len(text) - 1, -1, -1):
            shortened = text[:end].rstrip() + ELLIPSIS
            if self.width(shortened) <= width:
                return shortened
        return ELLIPSIS if self.width(ELLIPSIS) <= width else ""

    def wrap(self, text: str, width: int, max_lines: int) -> list[str]:
        """Word-wrapped lines of at most width pixels; the last kept line shows an ellipsis
        when the text needs more than max_lines lines. Words wider than a line are cut.
        """
        lines: list[str] = []
        for paragraph in text.split("\n"):
            lines.extend(self._wrap_paragraph(paragraph, width))
        if len(lines) > max_lines:
            rest = " ".join(lines[max_lines - 1 :])
            lines = [*lines[: max_lines - 1], self.fit(rest + ELLIPSIS, width)]
            if not lines[-1].endswith(ELLIPSIS):
                lines[-1] = self.fit(lines[-1], width)
        return lines

    def _wrap_paragraph(self, paragraph: str, width: int) -> list[str]:
        lines: list[str] = []
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if self.width(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = word
            while self.width(line) > width and len(line) > 1:
                cut = max(1, self._chars_fitting(line, width))
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
        return lines

    def _chars_fitting(self, text: str, width: int) -> int:
        used = 0
        for count, char in enumerate(text):
            used += self.glyph(char).width
            if used > width:
                return count
        return len(text)


def _parse(name: str, text: str) -> Font:
    header: dict[str, str] = {}
    glyphs: dict[str, Image.Image] = {}
    rows = text.splitlines()
    index = 0
    while index < len(rows) and not rows[index].startswith("glyph "):
        if rows[index] and not rows[index].startswith("#"):  # comments only in the header
            key, _, value = rows[index].partition(" ")
            header[key] = value
        index += 1
    height = int(header["height"])
    while index < len(rows):
        _, code, width = rows[index].split()
        bitmap = rows[index + 1 : index + 1 + height]
        glyphs[chr(int(code, 16))] = _bitmap(bitmap, int(width))
        index += 1 + height
    capital = glyphs.get("H") or glyphs["0"]  # the digits font has no letters
    _, cap_top, _, cap_bottom = capital.getbbox()
    return Font(name, height, int(header["baseline"]), cap_top, cap_bottom - cap_top, glyphs)


def _bitmap(rows: list[str], width: int) -> Image.Image:
    image = Image.new("1", (width, len(rows)), 0)
    image.putdata([255 if char == "#" else 0 for row in rows for char in row.ljust(width, ".")])
    return image


@cache
def load_font(name: str) -> Font:
    """The font `small`, `medium` or `digits`, parsed once per process."""
    source = resources.files("firmware.screens.fonts").joinpath(f"{name}.txt")
    return _parse(name, source.read_text(encoding="utf-8"))
