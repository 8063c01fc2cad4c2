"""Bake the screens' bitmap fonts once from DejaVu TrueType files into plain-text glyph files.

The screens never read a TrueType file: FreeType's hinting and Pillow's text drawing differ
between versions and machines, and a screen must be byte-identical everywhere (its reference
PNGs are compared pixel by pixel). So the glyphs are rendered once, without anti-aliasing, and
committed as ASCII art (`small.txt`, `medium.txt`, `digits.txt`), which anyone can read and
touch up by hand. Run again only to change a font:

    python -m firmware.screens.fonts.bake /usr/share/fonts/truetype/dejavu

DejaVu fonts are derived from Bitstream Vera (Bitstream Vera license, changes public domain);
the baked bitmaps are renamed (`arcana-small`, ...) as that license asks of derived fonts.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent

# Printable ASCII, Latin-1 letters and signs (German umlauts and most European names), and the
# few extras the screens use: ellipsis, en dash, middle dot, >=, arrows.
TEXT_CHARS = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(chr(c) for c in range(0xA0, 0x100))
    + "…–—·≥≤→←‘’“”€"
)
DIGIT_CHARS = "0123456789+-/:?"

# Drawn narrower by hand than DejaVu's: the ellipsis ends every shortened name.
NARROW_ELLIPSIS = {"small": ".##.##.##", "medium": ".###.###.###"}

# name -> (TrueType file, pixel size, characters, description)
FONTS = {
    "small": ("DejaVuSans-Bold.ttf", 10, TEXT_CHARS, "text, 7 px capitals"),
    "medium": ("DejaVuSansCondensed-Bold.ttf", 14, TEXT_CHARS, "names and headlines"),
    "digits": ("DejaVuSans-Bold.ttf", 30, DIGIT_CHARS, "big digits, 22 px"),
}


def _render(font: ImageFont.FreeTypeFont, char: str) -> tuple[Image.Image, int]:
    """The glyph drawn without anti-aliasing on a tall canvas, and its advance width."""
    ascent, descent = font.getmetrics()
    advance = round(font.getlength(char))
    canvas = Image.new("1", (advance + 8, ascent + descent + 8), 0)
    draw = ImageDraw.Draw(canvas)
    draw.fontmode = "1"
    draw.text((0, 4), char, font=font, fill=1)
    return canvas, advance


def bake(name: str, ttf_dir: Path) -> str:
    """The text of one glyph file (see `firmware/screens/font.py` for the format)."""
    file_name, size, chars, description = FONTS[name]
    font = ImageFont.truetype(str(ttf_dir / file_name), size)
    rendered = {char: _render(font, char) for char in chars}
    boxes = [image.getbbox() for image, _ in rendered.values() if image.getbbox()]
    top = min(box[1] for box in boxes)
    bottom = max(box[3] for box in boxes)
    baseline = 4 + font.getmetrics()[0] - top
    lines = [
        f"# arcana-{name}: {description}. Baked by firmware/screens/fonts/bake.py from",
        f"# {file_name} at {size} px (DejaVu / Bitstream Vera license). '#' is ink.",
        *(
            ["# The ellipsis (2026) is drawn narrower by hand: it is on every shortened name."]
            if name in NARROW_ELLIPSIS
            else []
        ),
        f"font arcana-{name}",
        f"height {bottom - top}",
        f"baseline {baseline}",
    ]
    for char, (image, advance) in rendered.items():
        box = image.getbbox()
        width = max(advance, box[2] if box else 0)
        rows = [
            "".join("#" if image.getpixel((x, y)) else "." for x in range(width))
            for y in range(top, bottom)
        ]
        if char == "…" and name in NARROW_ELLIPSIS:
            dots = NARROW_ELLIPSIS[name]
            width = len(dots)
            rows = [dots if "#" in row else "." * width for row in rows]
        lines.append(f"glyph {ord(char):04X} {width}")
        lines.extend(rows)
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write every glyph file next to this script from the TrueType files in argv[0]."""
    ttf_dir = Path(argv[0]) if argv else Path("/usr/share/fonts/truetype/dejavu")
    for name in FONTS:
        (HERE / f"{name}.txt").write_text(bake(name, ttf_dir), encoding="utf-8")
        print(f"wrote {HERE / f'{name}.txt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
