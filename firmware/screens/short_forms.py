"""Hand-chosen short forms of the names the table shows, for boxes too narrow for them.

A text wider than its box is drawn in the longest of its short forms that fits; only a text
without one (a name from an owner's own catalog, say) is shortened with an ellipsis.

    >>> short_form("Ferrymen", "small", 30)
    'Ferr'
"""

from __future__ import annotations

from firmware.language import current
from firmware.screens.font import load_font
from firmware.screens.shaping import as_written

# Longest first. The guilds of the sample and template catalogs, the Res Arcana seat names,
# the free-trade stake; each set stays distinct at every length.
SHORT_FORMS: dict[str, tuple[str, ...]] = {
    "Blades": ("Blade", "Blad", "Bla", "Bl", "B"),
    "Ferrymen": ("Ferry", "Ferr", "Fer", "Fe", "F"),
    "Thieves": ("Thief", "Thie", "Thi", "Th", "T"),
    "Usurers": ("Usurer", "Usur", "Usu", "Us", "U"),
    "Guild of Blades": ("Blades", "Blade", "Blad", "Bla", "Bl", "B"),
    "Healer": ("Heal", "Hea", "He"),
    "Priest": ("Prst", "Pri", "Pr"),
    "Master": ("Mstr", "Mas", "Ma"),
    "Mage": ("Mag", "Mg"),
    "Fire Mage": ("Mage", "Mag", "Mg"),
    "Forest Healer": ("Healer", "Heal", "Hea", "He"),
    "Shadow Priest": ("Priest", "Prst", "Pri", "Pr"),
    "Master of Calm": ("Master", "Mstr", "Mas", "Ma"),
    "Free trade": ("Trade", "FT"),
    "Under base": ("Base",),
    **{f"Stake {n}": (f"St {n}", f"S{n}") for n in range(1, 6)},
}


def short_form(text: str, font: str, width: int) -> str:
    """The text if it fits in width pixels, else its longest short form that does, else the
    text itself (the canvas then shortens it with an ellipsis)."""
    face = load_font(font)
    if face.width(text) <= width:
        return text
    for short in forms(text):
        if face.width(short) <= width:
            return short
    return text


def is_short_form(text: str, shown: str) -> bool:
    """True when `shown` (as a mark keeps it: digits as written) is `text` or one of its
    hand-chosen short forms."""
    return shown in {as_written(form) for form in (text, *forms(text))}


def forms(text: str) -> tuple[str, ...]:
    """The hand-chosen short forms of a text, longest first: the current language's
    (its catalog's `[short]` table), else the English ones here."""
    return current().short.get(text) or SHORT_FORMS.get(text, ())
