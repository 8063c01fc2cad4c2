"""Bake the screens' bitmap fonts once from DejaVu TrueType files into plain-text glyph files.

The screens never read a TrueType file: FreeType's hinting and Pillow's text drawing differ
between versions and machines, and a screen must be byte-identical everywhere (its reference
PNGs are compared pixel by pixel). So the glyphs are rendered once, without anti-aliasing, and
committed as ASCII art (`small.txt`, `medium.txt`, `digits.txt`), which anyone can read and
touch up by hand. Run again only to change a font:

    python -m firmware.screens.fonts.bake /usr/share/fonts/truetype/dejavu

DejaVu fonts are derived from Bitstream Vera (Bitstream Vera license, changes public domain);
the baked bitmaps are renamed (`arcana-small`, ...) as that license asks of derived fonts.

The Persian glyphs (`small-fa.txt`, `medium-fa.txt`: Arabic letters in every joining form the
shaper `arabic_reshaper` produces, lam-alef ligatures, Persian and Arabic-Indic digits, Arabic
punctuation; `digits-fa.txt`: big ۰-۹) are baked from Vazirmatn (SIL Open Font License 1.1,
`OFL-Vazirmatn.txt` beside them), npm package `vazirmatn` 33.0.3, one glyph at a time with
plain FreeType (no raqm: the shaping happens at run time, `firmware/screens/shaping.py`, and
picks these presentation forms). Vazirmatn's joining strokes and dots may reach one or two
pixels left of a glyph's origin, so these files give `glyph HEX ADVANCE LEFT`: the bitmap
starts LEFT columns before the pen and may reach past ADVANCE. `font.load_font` merges them
into `small`, `medium` and `digits` on the same baseline. Baking them again:

    npm pack vazirmatn@33.0.3 && tar xzf vazirmatn-33.0.3.tgz
    python -m firmware.screens.fonts.bake --persian package/fonts/ttf

The Reserved Font Name "Vazirmatn" is not used for the baked bitmaps (`arcana-small-fa`, ...).
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

# Zero-width format characters that shaped Persian text keeps: ZWNJ, ZWJ, LRM, RLM.
ZERO_WIDTH = "\u200c\u200d\u200e\u200f"
# Arabic punctuation and digits beside the letters: ، ؛ ؟ ٪ ٫ ٬ ـ, ۰-۹ and ٠-٩.
PERSIAN_SIGNS = (
    "\u060c\u061b\u061f\u066a\u066b\u066c\u0640"
    + "".join(chr(c) for c in range(0x06F0, 0x06FA))
    + "".join(chr(c) for c in range(0x0660, 0x066A))
)


def _isolated_forms() -> dict[str, str]:
    """Each letter's isolated presentation form -> the letter (drawn alone, it is that form)."""
    from arabic_reshaper.letters import ISOLATED, LETTERS_ARABIC

    return {forms[ISOLATED]: letter for letter, forms in LETTERS_ARABIC.items() if forms[ISOLATED]}


def persian_chars() -> str:
    """Every letter arabic_reshaper knows, in each of its joining forms, the lam-alef
    ligatures, and the signs above (those Vazirmatn lacks are left out when baking)."""
    from arabic_reshaper.letters import LETTERS_ARABIC
    from arabic_reshaper.ligatures import LETTERS_LIGATURES

    chars = set(PERSIAN_SIGNS)
    for letter, forms in LETTERS_ARABIC.items():
        chars.add(letter)
        chars.update(form for form in forms if form)
    for name, (_, forms) in LETTERS_LIGATURES:
        if name.startswith("ARABIC LIGATURE LAM WITH ALEF"):
            chars.update(form for form in forms if form)
    return "".join(sorted(chars))


ISOLATED_FORMS = _isolated_forms()

PERSIAN_DIGITS = "".join(chr(c) for c in range(0x06F0, 0x06FA))

# name -> (TrueType file, pixel size, characters (None: persian_chars()), description), for the
# Persian glyph files
PERSIAN_FONTS = {
    "small-fa": ("Vazirmatn-Bold.ttf", 13, None, "Persian text beside `small`, alef 9 px"),
    "medium-fa": ("Vazirmatn-Bold.ttf", 16, None, "Persian names and headlines beside `medium`"),
    "digits-fa": ("Vazirmatn-Bold.ttf", 32, PERSIAN_DIGITS, "big Persian digits, 22 px"),
}

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


def _ink(image: Image.Image) -> bytes:
    box = image.getbbox()
    return image.crop(box).tobytes() + bytes(box[2:]) if box else b""


def bake_persian(name: str, ttf_dir: Path) -> str:
    """The text of one Persian glyph file: `glyph HEX ADVANCE LEFT` (see the docstring)."""
    file_name, size, chars, description = PERSIAN_FONTS[name]
    font = ImageFont.truetype(str(ttf_dir / file_name), size, layout_engine=ImageFont.Layout.BASIC)
    pad = 4
    notdef = _ink(_render_shifted(font, "\ue000", pad)[0])  # a private-use point: the box
    rendered: dict[str, tuple[Image.Image, int]] = {}
    for char in chars or persian_chars():
        image, advance = _render_shifted(font, char, pad)
        if _ink(image) == notdef and char in ISOLATED_FORMS:
            # Vazirmatn lacks a few isolated forms (ۀ's U+FBA4): the letter alone is that form
            image, advance = _render_shifted(font, ISOLATED_FORMS[char], pad)
        if _ink(image) != notdef:
            rendered[char] = (image, advance)
    boxes = [image.getbbox() for image, _ in rendered.values() if image.getbbox()]
    top = min(box[1] for box in boxes)
    bottom = max(box[3] for box in boxes)
    lines = [
        f"# arcana-{name}: {description}. Baked by firmware/screens/fonts/bake.py from",
        f"# {file_name} 33.0.3 at {size} px (SIL Open Font License 1.1: OFL-Vazirmatn.txt).",
        "# 'glyph HEX ADVANCE LEFT': the rows start LEFT columns left of the pen. '#' is ink.",
        f"font arcana-{name}",
        f"height {bottom - top}",
        f"baseline {4 + font.getmetrics()[0] - top}",
    ]
    for char in ZERO_WIDTH if chars is None else "":
        lines.append(f"glyph {ord(char):04X} 0 0")
        lines.extend([""] * (bottom - top))
    for char, (image, advance) in sorted(rendered.items()):
        box = image.getbbox()
        left = max(0, pad - box[0]) if box else 0
        right = max(pad + advance, box[2] if box else 0)
        rows = [
            "".join("#" if image.getpixel((x, y)) else "." for x in range(pad - left, right))
            for y in range(top, bottom)
        ]
        lines.append(f"glyph {ord(char):04X} {advance} {left}")
        lines.extend(rows)
    return "\n".join(lines) + "\n"


def _render_shifted(font: ImageFont.FreeTypeFont, char: str, pad: int) -> tuple[Image.Image, int]:
    """The glyph drawn without anti-aliasing with its pen at x = pad, and its advance."""
    ascent, descent = font.getmetrics()
    advance = round(font.getlength(char))
    canvas = Image.new("1", (advance + 2 * pad + 8, ascent + descent + 8), 0)
    draw = ImageDraw.Draw(canvas)
    draw.fontmode = "1"
    draw.text((pad, 4), char, font=font, fill=1)
    return canvas, advance


def main(argv: list[str]) -> int:
    """Write every glyph file next to this script from the TrueType files in argv[0];
    `--persian DIR` writes the Persian glyph files from Vazirmatn's TrueType files in DIR.
    """
    if argv[:1] == ["--persian"]:
        for name in PERSIAN_FONTS:
            (HERE / f"{name}.txt").write_text(bake_persian(name, Path(argv[1])), encoding="utf-8")
            print(f"wrote {HERE / f'{name}.txt'}")
        return 0
    ttf_dir = Path(argv[0]) if argv else Path("/usr/share/fonts/truetype/dejavu")
    for name in FONTS:
        (HERE / f"{name}.txt").write_text(bake(name, ttf_dir), encoding="utf-8")
        print(f"wrote {HERE / f'{name}.txt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
