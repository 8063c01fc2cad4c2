"""Bitmap fonts read from the glyph files in `fonts/`, and text that always fits its box.

A glyph file is plain text: a few header lines (`font NAME`, `height H`, `baseline B`), then
per character `glyph HEX WIDTH` followed by H rows of '#' (ink) and '.' (paper). Drawing pastes
these bitmaps, so a screen comes out byte-identical on every machine and Pillow version.
A glyph may reach left of its pen (Persian joining strokes and dots): `glyph HEX WIDTH LEFT`,
whose rows start LEFT columns before the pen; rows may also run past WIDTH.

`small` and `medium` hold Persian too: their Arabic-script glyphs (`small-fa.txt`,
`medium-fa.txt`, from Vazirmatn) are merged in on the same baseline. Text is measured, cut
and drawn in logical order; `shaping.shape` turns it into the joined forms in visual order
just before it is measured or pasted, so a cut right-to-left text loses its logical end,
which is its left side, and shows the ellipsis there.

    >>> small = load_font("small")
    >>> small.fit("Gilde der Klingen", 40)
    'Gilde…'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from PIL import Image

from firmware.screens.shaping import RLM, as_written, is_rtl, shape

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
    # (advance, columns left of the pen) of the glyphs whose bitmap is not just their advance
    spacing: dict[str, tuple[int, int]] = field(default_factory=dict)
    _overhangs: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def glyph(self, char: str) -> Image.Image:
        """The bitmap of a character; characters the font lacks show as '?'."""
        return self.glyphs.get(char) or self.glyphs[REPLACEMENT]

    def advance(self, char: str) -> int:
        """How far the pen moves after the character."""
        if char in self.spacing:
            return self.spacing[char][0]
        return self.glyph(char).width

    def width(self, text: str) -> int:
        """Width in pixels of the text drawn in this font (shaped, when it is Persian; its
        digits as written now, `shaping.as_written`): where the pen ends, or where ink ends
        if a glyph reaches past its advance (the madda of an آ opening a Persian text is a
        pixel right of it, so a text drawn against the right edge would lose it)."""
        pen = end = 0
        for char in self.pasted(text):
            pen += self.advance(char)
            end = max(end, pen + self.overhang(char))
        return max(pen, end)

    def overhang(self, char: str) -> int:
        """How many columns of the character's ink lie right of its advance (mostly 0)."""
        if char not in self._overhangs:
            ink = self.glyph(char).getbbox()
            left = self.spacing[char][1] if char in self.spacing else 0
            self._overhangs[char] = max(0, ink[2] - left - self.advance(char)) if ink else 0
        return self._overhangs[char]

    def pasted(self, text: str) -> str:
        """The glyphs drawing the text pastes, left to right: the shaped, visual string,
        its digits as the screens write them now."""
        return shape(as_written(text))

    def draw(self, image: Image.Image, x: int, y: int, text: str, fill: int = 1) -> int:
        """Draw text with its capitals' top at row y; returns the x after the last glyph.
        Persian (and any right-to-left) text is shaped and ordered first (`shaping.shape`).
        """
        top = y - self.cap_top
        for char in self.pasted(text):
            glyph = self.glyph(char)
            left = x - (self.spacing[char][1] if char in self.spacing else 0)
            if glyph.width:
                image.paste(fill, (left, top, left + glyph.width, top + glyph.height), glyph)
            x += self.advance(char)
        return x

    def ink_rows(self, text: str) -> tuple[int, int]:
        """The first and last row with ink of the drawn text, counted from its capitals' top
        (a Persian word's dots and tails reach above and below: e.g. (-4, 10)); (0, -1) for
        text without ink."""
        width = sum(self.glyph(char).width + 8 for char in self.pasted(text)) + 16
        image = Image.new("1", (width, self.height + 2), 0)
        self.draw(image, 8, self.cap_top + 1, text)
        box = image.getbbox()
        y = self.cap_top + 1
        return (box[1] - y, box[3] - 1 - y) if box else (0, -1)

    def fit(self, text: str, width: int) -> str:
        """The text, shortened with a visible ellipsis when it is wider than width pixels.
        The cut is at the logical end: the right of a left-to-right text, the left of a
        right-to-left one (a cut that leaves no Persian letter starts with RLM to stay so).
        """
        if self.width(text) <= width:
            return text
        lead = RLM if is_rtl(text) else ""
        for end in range(len(text) - 1, -1, -1):
            shortened = text[:end].rstrip() + ELLIPSIS
            if lead and not is_rtl(shortened):
                shortened = lead + shortened
            if self.width(shortened) <= width:
                return shortened
        return ELLIPSIS if self.width(ELLIPSIS) <= width else ""

    def wrap(self, text: str, width: int, max_lines: int) -> list[str]:
        """Word-wrapped lines of at most width pixels; the last kept line shows an ellipsis
        when the text needs more than max_lines lines. Words wider than a line are cut.
        Each line of a right-to-left paragraph stays right to left (RLM leads it if needed).
        """
        lines: list[str] = []
        for paragraph in text.split("\n"):
            wrapped = self._wrap_paragraph(paragraph, width)
            if is_rtl(paragraph):  # a line of a Persian paragraph reads right to left too,
                # even when it starts with a Latin name or a number
                wrapped = [line if is_rtl(line) or not line else RLM + line for line in wrapped]
            lines.extend(wrapped)
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
        for count in range(1, len(text) + 1):
            if self.width(text[:count]) > width:  # shaped: a cut letter changes its form
                return count - 1
        return len(text)


def _parse(name: str, text: str) -> Font:
    header: dict[str, str] = {}
    glyphs: dict[str, Image.Image] = {}
    spacing: dict[str, tuple[int, int]] = {}
    rows = text.splitlines()
    index = 0
    while index < len(rows) and not rows[index].startswith("glyph "):
        if rows[index] and not rows[index].startswith("#"):  # comments only in the header
            key, _, value = rows[index].partition(" ")
            header[key] = value
        index += 1
    height = int(header["height"])
    while index < len(rows):
        _, code, width, *left = rows[index].split()
        bitmap = rows[index + 1 : index + 1 + height]
        char = chr(int(code, 16))
        glyphs[char] = _bitmap(bitmap, max([int(width), *map(len, bitmap)]))
        if left:
            spacing[char] = (int(width), int(left[0]))
        index += 1 + height
    # the digits fonts have no letters, a Persian glyph file no Latin
    capital = next(glyphs[char] for char in ("H", "0", "\u0627", "\u06f1") if char in glyphs)
    _, cap_top, _, cap_bottom = capital.getbbox()
    baseline = int(header["baseline"])
    return Font(name, height, baseline, cap_top, cap_bottom - cap_top, glyphs, spacing)


def _merged(base: Font, extra: Font) -> Font:
    """base with extra's glyphs (for characters base lacks) added on the same baseline: every
    glyph is padded to the taller extent above and below it, the capitals stay base's."""
    above = max(base.baseline, extra.baseline)
    below = max(base.height - base.baseline, extra.height - extra.baseline)

    def padded(glyph: Image.Image, font: Font) -> Image.Image:
        image = Image.new("1", (glyph.width, above + below), 0)
        image.paste(glyph, (0, above - font.baseline))
        return image

    glyphs = {char: padded(glyph, base) for char, glyph in base.glyphs.items()}
    spacing = dict(base.spacing)
    for char, glyph in extra.glyphs.items():
        if char not in glyphs:
            glyphs[char] = padded(glyph, extra)
            if char in extra.spacing:
                spacing[char] = extra.spacing[char]
    shift = above - base.baseline
    return Font(
        base.name, above + below, above, base.cap_top + shift, base.cap_height, glyphs, spacing
    )


def _bitmap(rows: list[str], width: int) -> Image.Image:
    image = Image.new("1", (width, len(rows)), 0)
    image.putdata([255 if char == "#" else 0 for row in rows for char in row.ljust(width, ".")])
    return image


# The fonts that hold Persian: their Arabic-script glyph files.
PERSIAN_GLYPHS = {"small": "small-fa", "medium": "medium-fa", "digits": "digits-fa"}
# Persian digits ۰-۹ drawn on the rows of the Latin ones (7 in `small`, 10 in `medium`), so a
# layout made for 0-9 holds them: they take the place of the baked files' taller ones.
PERSIAN_DIGIT_GLYPHS = {"small": "small-digits-fa", "medium": "medium-digits-fa"}


def _read(name: str) -> Font:
    source = resources.files("firmware.screens.fonts").joinpath(f"{name}.txt")
    return _parse(name, source.read_text(encoding="utf-8"))


@cache
def load_font(name: str) -> Font:
    """The font `small`, `medium` or `digits` (all with Persian), parsed once per process."""
    font = _read(name)
    if name in PERSIAN_DIGIT_GLYPHS:
        font = _merged(font, _read(PERSIAN_DIGIT_GLYPHS[name]))
    if name in PERSIAN_GLYPHS:
        font = _merged(font, _read(PERSIAN_GLYPHS[name]))
    return font
