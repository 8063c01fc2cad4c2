"""Layout pieces shared by several screens: a title row, columns of numbers, a result bar."""

from __future__ import annotations

from collections.abc import Sequence

from firmware.language import text as tr
from firmware.screens.canvas import INK, PAPER, Canvas, font
from firmware.screens.shaping import is_rtl
from firmware.screens.short_forms import forms


def title_row(canvas: Canvas, icon: str, number: str, text: str) -> bool:
    """An icon, an optional number in the medium font, then the text. When the text would not
    fit beside the number, the number is left out: returns whether it was drawn. A Persian
    text is drawn lower when its dots would reach above row 0."""
    x = canvas.icon(icon, 0, 0) + 2
    shown = bool(number) and font("medium").width(number) + 4 + font("small").width(text) <= (
        canvas.width - x
    )
    if shown:
        x = canvas.text(x, 1, number, font="medium", width=30) + 4
    # a Persian text's dots may reach 3 rows above its capitals: it is drawn lower then
    canvas.text(x, on_panel(text, 2) if is_rtl(text) else 2, text)
    return shown


def above(text: str, y: int, last: int, face: str = "small") -> int:
    """y, or as many rows higher as keep the text's last ink row (a descender: the g of
    "gewinnt") on row `last` at most: the panel's last row, or its box's."""
    return min(y, last - font(face).ink_rows(text)[1])


def on_panel(text: str, y: int, face: str = "small") -> int:
    """y, or as many rows lower as keep the text's first ink row (a Persian letter's dots, up
    to 3 rows above its capitals) on row 0 at least: `above`'s twin at the top edge."""
    return max(y, -font(face).ink_rows(text)[0])


def heading(canvas: Canvas, y: int, text: str, face: str = "small") -> int:
    """A line of text across the whole width without a box: from the left edge, or (right to
    left, Persian) against the right edge, where its reading starts. A Persian line is drawn
    lower when its dots reach above row 0 (its ink then starts on the first row)."""
    if is_rtl(text):
        y = on_panel(text, y, face)
    return canvas.text(0, y, text, font=face, width=canvas.width)


def by_ink(text: str, first: int, last: int, face: str = "small") -> int:
    """The y that centres the text's ink (dots, tails, descenders) in rows first to last."""
    top, bottom = font(face).ink_rows(text)
    return first + (last - first + 1 - (bottom - top + 1)) // 2 - top


def fits_ink(text: str, first: int, last: int, face: str = "small") -> bool:
    """Whether the text's ink is no taller than rows first to last."""
    top, bottom = font(face).ink_rows(text)
    return bottom - top <= last - first


def big_drop(entries: Sequence[tuple[str, int, bool]]) -> int:
    """How many rows lower than top + 9 the big columns' boxes start: a Persian label's tail
    (the ق of قایق reaches row top + 9) keeps a blank row above the box under it, in its
    colour; 0 for labels that end higher (Latin descenders end at top + 8, touching it)."""
    if not any(is_rtl(label) for label, _, _ in entries):
        return 0
    last = max(font("small").ink_rows(label)[1] for label, _, _ in entries)
    return max(0, last + 2 - 9)


def columns(
    canvas: Canvas,
    entries: Sequence[tuple[str, int, bool]],
    top: int,
    big: bool,
    rtl_band: bool = False,
) -> int:
    """One column per (label, number, highlighted) entry, side by side over the full width;
    returns the last row the columns take (big: a highlighted number's box).

    big: label above a medium-size number (on 128x64); else "label number" in one small line
    ("number label" for a right-to-left label). Highlighted numbers are drawn inverted, big
    ones in a box from top + 9 (lower under a Persian label's tail: `big_drop`).
    rtl_band: a mirrored small line's box takes rows top - 4 to top + 11, a Persian label's
    dots and tails inside (the 128x32 two-band layouts pass top=4: rows 0-15).
    """
    if not entries:
        return top
    count = len(entries)
    mirrored = any(is_rtl(label) for label, _, _ in entries)  # the first column on the right
    drop = big_drop(entries) if big else 0
    for index, (label, number, highlighted) in enumerate(entries):
        at = count - 1 - index if mirrored else index
        # the whole width shared out: three columns of 128 px are 42, 43 and 43 wide
        x = at * canvas.width // count
        width = (at + 1) * canvas.width // count - x
        if big:
            canvas.text(x + 1, top, label, width=width - 2, align="center")
            if highlighted:
                canvas.box(x + 2, top + 9 + drop, x + width - 3, top + 22 + drop)
            canvas.text(
                x + 1,
                top + 11 + drop,
                str(number),
                font="medium",
                width=width - 2,
                align="center",
                fill=PAPER if highlighted else INK,
            )
        else:
            fill = PAPER if highlighted else INK
            if highlighted and mirrored and rtl_band:
                canvas.box(x, top - 4, x + width - 2, top + 11)
            elif highlighted:
                canvas.box(x, top - 2, x + width - 2, top + 8)
            number_width = font("small").width(str(number))
            if is_rtl(label):  # mirrored: the number on the left, the name on the right
                # the digits' ink starts a column after their pen: at x it stands one column
                # inside the box, as a left-to-right number ends one column inside its right
                canvas.text(x, top, str(number), fill=fill, width=number_width)
                canvas.text(
                    x + number_width + 1, top, label, width=width - number_width - 3, fill=fill
                )
            else:
                canvas.text(x + width - 2 - number_width, top, str(number), fill=fill)
                canvas.text(x + 1, top, label, width=width - number_width - 4, fill=fill)
    return top + 22 + drop if big else top + (11 if mirrored and rtl_band else 8)


RTL_SHORT_BAR = 16  # 128x32: a Persian result bar's first row (its ink up to 15 rows)


def result_bar(canvas: Canvas, text: str) -> None:
    """An inverted bar across the bottom with the outcome centred in it. A Persian outcome
    is placed by its ink (dots and tails inside the bar); at 128x32 its bar is rows 16-31."""
    if is_rtl(text):
        last = canvas.height - 1
        first = 48 if canvas.tall else RTL_SHORT_BAR
        canvas.box(0, first, canvas.width - 1, last)
        face = "medium" if canvas.tall else "small"
        if canvas.tall and not (
            font(face).width(text) <= canvas.width - 2 and fits_ink(text, first, last, face)
        ):
            face = "small"
        y = by_ink(text, first, last, face)
        canvas.text(1, y, text, font=face, width=canvas.width - 2, align="center", fill=PAPER)
        return
    if canvas.tall:
        canvas.box(0, 48, canvas.width - 1, canvas.height - 1)
        if font("medium").width(text) <= canvas.width - 2:
            canvas.text(
                1, 50, text, font="medium", width=canvas.width - 2, align="center", fill=PAPER
            )
        else:  # a long outcome in the small font, still whole
            canvas.text(1, 52, text, width=canvas.width - 2, align="center", fill=PAPER)
    else:
        # a Latin descender stays on the panel, the bar a row taller for an ascender then
        # (the d of "Round 3: play on")
        y = above(text, 24, canvas.height - 1)
        top = min(23, y + font("small").ink_rows(text)[0])
        canvas.box(0, top, canvas.width - 1, canvas.height - 1)
        canvas.text(1, y, text, width=canvas.width - 2, align="center", fill=PAPER)


def alert_block(canvas: Canvas, text: str, top: int, bottom: int | None = None) -> None:
    """An inverted block from row top to row bottom (default: the last row) with the text
    wrapped inside it, in as many small lines as fit.
    """
    small = font("small")
    bottom = canvas.height - 1 if bottom is None else bottom
    canvas.box(0, top, canvas.width - 1, bottom)
    room = max(1, (bottom - top - 1) // 10)
    lines = small.wrap(text, canvas.width - 4, room)
    y = top + (bottom + 1 - top - (10 * (len(lines) - 1) + 7)) // 2
    for index, line in enumerate(lines):
        canvas.text(2, y + index * 10, line, width=canvas.width - 4, align="center", fill=PAPER)


def to_play(name: str, face: str, width: int) -> str | None:
    """ "Ferrymen to play" in the font when it fits, else with a short form of the name."""
    for shown in (name, *forms(name)):
        line = tr("status.to_play", name=shown)
        if font(face).width(line) <= width:
            return line
    return None
