"""Persian (and any Arabic-script) text for the bitmap fonts: joined letter forms in visual order.

The fonts hold one bitmap per presentation form (`fonts/small-fa.txt`), so shaping is two
steps by well-kept libraries, nothing of our own: `arabic_reshaper` picks each letter's joining
form (isolated, initial, medial, final; lam-alef ligatures), then `python-bidi` (the Unicode
Bidirectional Algorithm, a Rust crate with wheels for the Pi's aarch64 and armv7l) puts the
text in the order it is seen, left to right, numbers and Latin names kept left to right
inside it:

    >>> shape("آتش ۳") == "۳ " + "\\ufeb6\\ufe97\\ufe81"
    True
    >>> shape("Thieves 3")
    'Thieves 3'
    >>> persian_digits("Round 2: 10 VP")
    'Round ۲: ۱۰ VP'

Text is kept in logical order everywhere else (models, fitting, wrapping); only the font's
measuring and pasting see the shaped string. Harakat are dropped (a 1-bit glyph has no room
for them); ZWNJ is kept and is zero-width.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from arabic_reshaper import ArabicReshaper
from arabic_reshaper.reshaper_config import default_config
from bidi import get_display

from firmware.language import digits

# Only the lam-alef ligatures (which Persian and Arabic writing require): the word ligatures
# (Allah, ...) and the hundreds of optional letter ligatures have no glyphs in our fonts.
_CONFIG = {
    **{
        key: key.startswith("ARABIC LIGATURE LAM WITH ALEF")
        for key in default_config
        if key.startswith("ARABIC LIGATURE")
    },
    "delete_harakat": True,
    "support_ligatures": True,
}
_RESHAPER = ArabicReshaper(configuration=_CONFIG)

RLM = "\u200f"  # RIGHT-TO-LEFT MARK: zero width, keeps a cut line right to left
PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def is_rtl(text: str) -> bool:
    """True when the text reads right to left: its first strong character is right-to-left,
    as the bidi algorithm decides a paragraph's direction (rule P2; digits and signs are
    neutral, so "۱۲ مریم" is right to left and "Ann ۱۲" left to right)."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


@lru_cache(maxsize=4096)
def shape(text: str) -> str:
    """The text as the glyphs are pasted, left to right: joined forms in visual order. Text
    without Arabic script comes back unchanged."""
    if not any(unicodedata.bidirectional(char) in ("R", "AL", "AN") for char in text):
        return text  # nothing right to left (RLM, U+200F, is "R": it makes a line RTL)
    return get_display(_RESHAPER.reshape(text))


def as_written(text: str) -> str:
    """The text with its digits as the screens write them now: Persian (۰-۹) when the
    table asks for them (`firmware.language.digits`), else as given. The fonts measure and
    draw text as written, so a layout measured in Latin digits cannot overflow in Persian
    ones (۳ is 9 px in the small font, 3 is 7)."""
    return persian_digits(text) if digits() == "persian" else text


def persian_digits(text: str) -> str:
    """The text with its ASCII digits written as Persian digits (۰-۹)."""
    return text.translate(PERSIAN_DIGITS)
