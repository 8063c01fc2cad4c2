"""Screens of either game: prompts, refusals, device trouble, unknown cards, choices, saved,
undo. Most are an icon beside a short message of at most three lines
(four of the small font when a sentence needs them).
"""

from __future__ import annotations

from PIL import Image

from firmware.language import text as tr
from firmware.screens.canvas import PAPER, Canvas, font
from firmware.screens.models import (
    ChoiceScreen,
    DeviceTroubleScreen,
    PromptIcon,
    PromptScreen,
    RefusalScreen,
    SavedScreen,
    UndoScreen,
    UnknownCardScreen,
)
from firmware.screens.shaping import is_rtl

Size = tuple[int, int]
FULL: Size = (128, 64)
MAX_LINES = 3
PITCH = {"medium": 15, "small": 11}
# Persian lines need more room: dots above and below, tall kaf and lam (fonts/small-fa.txt)
PITCH_RTL = {"medium": 17, "small": 13}


def _pitch(text: str) -> dict[str, int]:
    return PITCH_RTL if is_rtl(text) else PITCH


def message(size: Size, icon: str, title: str, text: str) -> Image.Image:
    """An optional inverted title bar, an icon on the left and the text wrapped beside it:
    in the medium font when it fits in the lines available, else in the small one; when it
    still does not fit, the icon shrinks, then goes; what then does not fit ends in "…".
    """
    canvas = Canvas(size)
    top = 0
    if title and canvas.tall:
        canvas.box(0, 0, canvas.width - 1, 11)
        canvas.text(1, 2, title, width=canvas.width - 2, align="center", fill=PAPER)
        top = 13
    elif title:  # no room for a title bar: the title leads the text
        text = f"{title} {text}" if title.endswith("?") else f"{title}: {text}"
    body = canvas.height - top
    # the icon as large as the text leaves room for: big, small, or none at all
    scales = ((2, 1) if body >= 34 else (1,)) if icon else ()
    lines: list[str] = []
    face, x = "small", 0
    for scale in (*scales, 0):
        x = 16 * scale + 4 if scale else 0
        lines, face, whole = _fit_lines(text, canvas.width - x, body)
        if whole:
            break
    if scale:
        side = 16 * scale
        canvas.icon(icon, 0, top + (body - side) // 2, scale=scale)
    pitch = _pitch(text)[face] if canvas.tall else _pitch(text)[face] - 1
    caps = 10 if face == "medium" else 7
    block = pitch * (len(lines) - 1) + caps
    y = top + (body - block) // 2
    for index, line in enumerate(lines):
        canvas.text(x, y + index * pitch, line, font=face, width=canvas.width - x)
    return canvas.image


def _fit_lines(text: str, width: int, height: int) -> tuple[list[str], str, bool]:
    """The lines and font for the text in the box, and whether it fits whole (in the medium
    font, else the small one: at most three lines of medium, four of small)."""
    for face in ("medium", "small"):
        most = MAX_LINES if face == "medium" else MAX_LINES + 1
        room = min(most, max(1, (height - 2) // (_pitch(text)[face] - 1)))
        lines = font(face).wrap(text, width, 99)
        if len(lines) <= room:
            return lines, face, True
    return font("small").wrap(text, width, room), "small", False


def render_prompt(screen: PromptScreen, size: Size = FULL) -> Image.Image:
    """A request to the table, e.g. "Tap the stake to swap" or, in setup, "Seat 1" over
    "Tap your guild base"."""
    icon = "" if screen.icon is PromptIcon.NONE else screen.icon.value
    if screen.short and size[1] < 64:
        return message(size, icon, "", screen.short)
    return message(size, icon, screen.title, screen.text)


def render_refusal(screen: RefusalScreen, size: Size = FULL) -> Image.Image:
    """A refused tap: a cross and the engine's sentence, wrapped to fit (see `message`)."""
    return message(size, "refused", "", screen.reason)


def render_device_trouble(screen: DeviceTroubleScreen, size: Size = FULL) -> Image.Image:
    """A warning sign and which device is in trouble."""
    return message(size, "warning", tr("notice.device_trouble"), screen.message)


def render_unknown_card(screen: UnknownCardScreen, size: Size = FULL) -> Image.Image:
    """A tag that is not enrolled yet, with its UID when known."""
    # on a 128x32 display the UID would crowd out the message
    title = tr("notice.tag", uid=screen.uid) if screen.uid and size[1] >= 64 else ""
    return message(size, "unknown", title, tr("notice.unknown_card"))


def render_saved(screen: SavedScreen, size: Size = FULL) -> Image.Image:
    """The game is stored; shown on shutdown."""
    said = screen.message or tr("notice.saved")
    detail = tr("notice.safe_off") if screen.detail is None else screen.detail
    return message(size, "saved", "", f"{said}\n{detail}" if detail else said)


def render_undo(screen: UndoScreen, size: Size = FULL) -> Image.Image:
    """What the Undo button just took back."""
    title = {"Undone": tr("notice.undone"), "Redone": tr("notice.redone")}.get(screen.title)
    return message(size, "undo", title or screen.title, screen.action)


def render_choice(screen: ChoiceScreen, size: Size = FULL) -> Image.Image:
    """A list chosen with the buttons: the selected option inverted, a hint at the bottom.

    Two options show at once on 128x64 (one on 128x32), scrolled so the selected one is
    visible. Each text is placed by its ink (`Font.ink_rows`), so descenders (the g of
    "Language") and Persian dots and tails stay inside their box and on the panel.
    """
    canvas = Canvas(size)
    count = len(screen.options)
    selected = min(max(screen.selected, 0), count - 1) if count else 0
    position = f"{selected + 1}/{count}" if count else ""
    if canvas.tall:
        _choice_tall(canvas, screen, selected, position, screen.hint or tr("choice.hint"))
    else:
        _choice_short(canvas, screen, selected, position)
    return canvas.image


def _inked_y(face: str, text: str, top: int, rows: int) -> int:
    """The y to draw the text at so its ink is centred in `rows` rows from row `top`."""
    first, last = font(face).ink_rows(text)
    return top + (rows - (last - first + 1)) // 2 - first


def _choice_short(canvas: Canvas, screen: ChoiceScreen, selected: int, position: str) -> None:
    """128x32: the title and count on the first rows, the selected option in an inverted box
    below. A title whose ink reaches above its capitals (Persian's madda, a capital umlaut)
    is drawn lower, so it starts on the first row; a Persian title's box starts lower too,
    and its option takes the small font when the medium one's ink is taller than the box."""
    small = font("small")
    mirror = is_rtl(screen.title)
    top, _ = small.ink_rows(screen.title)
    y = max(1, -top)
    position_width = small.width(position)
    canvas.text(0 if mirror else canvas.width - position_width, y, position)
    title_x = position_width + 4 if mirror else 0
    # a Persian title ends two columns short of the edge: an alef's madda reaches past it
    room = canvas.width - position_width - (6 if mirror else 4)
    canvas.text(title_x, y, screen.title, width=room)
    box_top = RTL_SHORT_BOX if mirror else 12
    canvas.box(0, box_top, canvas.width - 1, canvas.height - 1)
    if not screen.options:
        return
    option = screen.options[selected]
    rows = canvas.height - box_top
    canvas.icon("turn", 2, box_top + (rows - 12) // 2 if mirror else 16, fill=PAPER)
    if not mirror:
        canvas.text(12, 16, option, font="medium", width=canvas.width - 14, fill=PAPER)
        return
    # the same font for every option of the choice, so it does not change while scrolling
    tallest = max(
        font("medium").ink_rows(o)[1] - font("medium").ink_rows(o)[0] + 1 for o in screen.options
    )
    face = "medium" if tallest <= rows - 2 else "small"
    y = _inked_y(face, option, box_top, rows)
    canvas.text(12, y, option, font=face, width=canvas.width - 14, fill=PAPER)


RTL_BAR = 15  # rows of the title bar of a right-to-left choice: the tallest title's ink
RTL_ROW = 16  # rows of each option's box (the small font)
BAR = 11  # the title bar of a left-to-right choice: small capitals with umlauts and tails
ROW = 18  # rows of each option's box: the medium font's Ä above, its g below (17 rows)
RTL_SHORT_BOX = 16  # 128x32: where a right-to-left choice's box starts, below the title's ink


def _choice_tall(
    canvas: Canvas, screen: ChoiceScreen, selected: int, position: str, hint: str
) -> None:
    """The 128x64 choice: each text placed by its ink, so a title's ink stays in its bar,
    clear of the selected option's box, and an option's ink (descenders, Persian dots and
    tails) inside its box. Two options show at once (the selected one and the next), in the
    medium font (Persian: the small one, its rows taller than Latin ones); the hint's last
    ink row is the panel's last row. The count stands right of a title, left of a Persian one.
    """
    small = font("small")
    rtl = is_rtl(screen.title)
    bar, row, face = (RTL_BAR, RTL_ROW, "small") if rtl else (BAR, ROW, "medium")
    canvas.box(0, 0, canvas.width - 1, bar - 1)
    position_width = small.width(position)
    if rtl:
        y = _inked_y("small", screen.title, 0, bar)
        canvas.text(2, y, position, fill=PAPER)
        title_x = position_width + 6
    else:
        y = 2
        canvas.text(canvas.width - position_width - 2, y, position, fill=PAPER)
        title_x = 2
    canvas.text(title_x, y, screen.title, width=canvas.width - position_width - 8, fill=PAPER)
    count = len(screen.options)
    first = min(selected, max(count - 2, 0))  # the selected one and the next
    for line, index in enumerate(range(first, min(first + 2, count))):
        box_top = bar + 1 + line * row
        chosen = index == selected
        if chosen:
            canvas.box(0, box_top, canvas.width - 1, box_top + row - 1)
            canvas.icon("turn", 2, box_top + (row - 12) // 2, fill=PAPER)
        option = screen.options[index]
        y = _inked_y(face, option, box_top, row)
        canvas.text(12, y, option, font=face, width=canvas.width - 14, fill=PAPER if chosen else 1)
    _, bottom = small.ink_rows(hint)
    canvas.text(0, canvas.height - 1 - bottom, hint, align="center")
