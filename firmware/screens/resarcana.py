"""Res Arcana's screens: a seat, the status display, production, the 10-VP check."""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image

from firmware.language import current
from firmware.language import text as tr
from firmware.screens.canvas import PAPER, Canvas, font
from firmware.screens.icons import icon
from firmware.screens.layout import (
    above,
    alert_block,
    by_ink,
    columns,
    fits_ink,
    heading,
    on_panel,
    result_bar,
    to_play,
)
from firmware.screens.models import (
    Essence,
    Essences,
    ProductionScreen,
    ResStatusScreen,
    SeatScreen,
    VictoryCheckScreen,
)
from firmware.screens.shaping import is_rtl
from firmware.screens.short_forms import forms, short_form

Size = tuple[int, int]
FULL: Size = (128, 64)
CELL = 25  # five essence cells of 25 px fill 125 of the 128 columns
MONUMENT_WIDTH = icon("monument").width


def essence_row(
    canvas: Canvas,
    essences: Essences,
    top: int,
    show: Callable[[int], str] = str,
    below: int | None = None,
) -> None:
    """The five essences side by side: icon above its count (count below in the small font
    on 128x32 displays). `show` turns a count into its text (e.g. "+2" for production);
    `below`: the count's rows under the icon's top (15 on 128x64, 13 on 128x32).
    """
    number_font = "medium" if canvas.tall else "small"
    for index, essence in enumerate(Essence):
        x = 1 + index * CELL
        canvas.icon(essence.value, x + (CELL - 12) // 2, top)
        text = show(essences.count(essence))
        # "+99" is wider than a cell in the medium font: such a count drops to the small one
        face = number_font if font(number_font).width(text) <= CELL else "small"
        lift = 0 if face == number_font or not canvas.tall else -2
        under = below if below is not None else 15 if canvas.tall else 13
        canvas.text(x, top + under - lift, text, font=face, width=CELL, align="center")


def render_seat(screen: SeatScreen, size: Size = FULL) -> Image.Image:
    """A player's seat: name, VP in big digits, turn or passed, and the five essences."""
    canvas = Canvas(size)
    status = _seat_status(screen)
    if canvas.tall:
        vp = str(screen.vp)
        vp_x = canvas.width - font("digits").width(vp)
        canvas.text(vp_x, 0, vp, font="digits")
        label_x = vp_x - 17
        boxed = canvas.tall and not (is_rtl(screen.name) or is_rtl(status))
        if boxed and screen.your_turn and not screen.passed:
            # a long status's box ("Du bist dran") ends a blank column left of "SP"
            label_x = max(label_x, font("small").width(status) + 4)
        canvas.text(label_x, 15, tr("score.vp"), width=vp_x - label_x)
        if is_rtl(screen.name) or is_rtl(status):  # Persian: names and status by their ink
            _seat_tall_rtl(canvas, screen, status, vp_x)
            essence_row(canvas, screen.essences, top=33)
            return canvas.image
        canvas.text(0, 2, screen.name, font="medium", width=vp_x - 20)
        if screen.your_turn and not screen.passed:
            width = min(font("small").width(status) + 4, label_x - 1)
            canvas.box(0, 17, width - 1, 27)
            canvas.text(2, 19, status, fill=PAPER)
        else:
            canvas.text(0, 19, status, width=vp_x - 20)
        essence_row(canvas, screen.essences, top=33)
    elif is_rtl(status or screen.name):
        _seat_short_rtl(canvas, screen, status or screen.name)
    else:
        essence_row(canvas, screen.essences, top=0)
        vp = tr("score.points", points=screen.vp)
        vp_width = font("medium").width(vp)
        line = status or screen.name  # the seat's own player knows their name
        if is_rtl(line):  # name and value mirrored: the VP on the left (its last letter
            # reaches a pixel left), the line a row higher to keep the Persian letters' tails
            vp_x, left, right, y = 1, vp_width + 5, canvas.width - 1, 23
        else:
            vp_x, left, right, y = canvas.width - vp_width, 0, canvas.width - vp_width - 4, 24
        canvas.text(vp_x, 22, vp, font="medium")
        fill = 1
        if screen.your_turn and not screen.passed:
            canvas.box(left, 22, right, canvas.height - 1)
            fill = PAPER
        y = min(y, above(line, y, canvas.height - 1))  # a descender stays on the panel
        canvas.text(left + 1, y, line, width=right - left - 2, fill=fill)
    return canvas.image


def _seat_tall_rtl(canvas: Canvas, screen: SeatScreen, status: str, vp_x: int) -> None:
    """128x64 Persian: the name's ink from row 0, the status (boxed on the seat's turn) in
    rows 19-31, over the essences at row 33."""
    name_y = max(2, -font("medium").ink_rows(screen.name)[0])
    canvas.text(0, name_y, screen.name, font="medium", width=vp_x - 20)
    y = by_ink(status, 19, 31)
    if screen.your_turn and not screen.passed:
        width = font("small").width(status) + 4
        canvas.box(vp_x - 20 - width, 19, vp_x - 21, 31)  # against the name's right edge
        canvas.text(vp_x - 20 - width + 2, y, status, fill=PAPER)
    else:
        canvas.text(0, y, status, width=vp_x - 20)


SEAT_BAND = 19  # 128x32 Persian: the line's first row, under the essences' counts


def _seat_short_rtl(canvas: Canvas, screen: SeatScreen, line: str) -> None:
    """128x32 Persian: the essences' counts a row closer to their icons (rows 12-18), then
    the VP (small, left) and the status or name (right, boxed on the seat's turn) in rows
    19-31, each placed by its ink; a name too tall there takes its short form."""
    essence_row(canvas, screen.essences, top=0, below=12)
    last = canvas.height - 1
    vp = tr("score.points", points=screen.vp)
    vp_width = font("small").width(vp)
    canvas.text(1, by_ink(vp, SEAT_BAND, last), vp)
    left, right = vp_width + 5, canvas.width - 1
    shown = next((t for t in (line, *forms(line)) if fits_ink(t, SEAT_BAND + 1, last - 1)), line)
    fill = 1
    if screen.your_turn and not screen.passed:
        canvas.box(left, SEAT_BAND, right, last)
        fill = PAPER
    y = by_ink(shown, SEAT_BAND, last)
    canvas.text(left + 1, y, shown, width=right - left - 2, fill=fill)


def _seat_status(screen: SeatScreen) -> str:
    if screen.passed:
        return tr("res.passed")
    if screen.your_turn:
        return tr("res.your_turn")
    return tr("status.to_play", name=screen.turn) if screen.turn else ""


def render_res_status(screen: ResStatusScreen, size: Size = FULL) -> Image.Image:
    """Round, whose turn, the places of power still to buy (by their essence) and the
    monuments: one figure per face-up monument, "+N" hidden. An alert replaces the turn
    line (the whole screen on 128x32).
    """
    canvas = Canvas(size)
    turn = tr("status.to_play", name=screen.turn) if screen.turn else ""
    if canvas.tall:
        heading(canvas, 1, tr("status.round", round=screen.round))
        if screen.alert:
            alert_block(canvas, screen.alert, top=11, bottom=29)
        elif turn:
            canvas.icon("turn", 0, 16)
            shown = to_play(screen.turn, "medium", canvas.width - 11)
            if shown:
                canvas.text(11, 14, shown, font="medium")
            else:
                canvas.text(11, 16, to_play(screen.turn, "small", canvas.width - 11) or turn)
        rtl = is_rtl(tr("res.places"))
        x = _label(canvas, 35, tr("res.places"), rtl)
        _places(canvas, screen.places, x=x if rtl else 44, y=33, rtl=rtl)
        x = _label(canvas, 52, tr("res.monuments"), rtl)
        _monuments(canvas, screen.monuments_up, screen.monuments_hidden, x if rtl else 72, 49, rtl)
        return canvas.image
    if screen.alert:
        alert_block(canvas, screen.alert, top=0)
        return canvas.image
    round_text = tr("status.round_short", round=screen.round)
    round_width = font("small").width(round_text)
    canvas.text(canvas.width - round_width, 3, round_text)
    room = canvas.width - round_width - 4
    if turn and (shown := to_play(screen.turn, "medium", room)):
        # a Persian line's dots reach above its capitals: drawn lower, on the panel
        canvas.text(0, max(1, -font("medium").ink_rows(shown)[0]), shown, font="medium", width=room)
    elif turn:
        canvas.text(0, 3, to_play(screen.turn, "small", room) or turn, width=room)
    # no labels here: the places first (on the left; from the right in Persian), then the
    # monuments, in the same rows
    rtl = current().direction == "rtl"
    _places(canvas, screen.places, x=canvas.width if rtl else 0, y=18, rtl=rtl)
    _monuments(
        canvas,
        screen.monuments_up,
        screen.monuments_hidden,
        canvas.width - 76 if rtl else 76,
        18,
        rtl,
    )
    return canvas.image


def _label(canvas: Canvas, y: int, label: str, rtl: bool) -> int:
    """A row's label on the left, or (right to left) against the right edge; returns where
    the row's figures start: for a right-to-left label, the x they end at, left of it."""
    canvas.text(0, y, label, width=canvas.width)
    return canvas.marks[-1].x0 - 5 if rtl else 0


def _places(canvas: Canvas, places: tuple[Essence, ...], x: int, y: int, rtl: bool) -> None:
    """The places of power still to buy, one essence icon each, from x: to the right, or
    (right to left) leftwards from x, the first place nearest the label."""
    if not places:
        if rtl:
            canvas.text(0, y + 2, tr("res.none_left"), width=x)
        else:
            canvas.text(x, y + 2, tr("res.none_left"))
    for index, essence in enumerate(places[:5]):
        canvas.icon(essence.value, x - 12 - index * 14 if rtl else x + index * 14, y)


def _monuments(canvas: Canvas, up: int, hidden: int, x: int, y: int, rtl: bool) -> None:
    """A monument for each face-up one (a count beyond three), then "+N" for the hidden:
    from x to the right, or (right to left) leftwards from x, in the same reading order."""
    if rtl:
        _monuments_leftwards(canvas, up, hidden, x, y)
        return
    if up > 3:
        x = canvas.text(x, y + 3, str(up)) + 2
        up = 1
    for _ in range(up):
        x = canvas.icon("monument", x, y) + 2
    if hidden:
        canvas.text(x + 2, y + 3, f"+{hidden}", width=canvas.width - x - 2)
    elif not up:
        canvas.text(x, y + 3, tr("res.none_left"))


def _monuments_leftwards(canvas: Canvas, up: int, hidden: int, right: int, y: int) -> None:
    """`_monuments` read from the right: the count, the monuments, then "+N" on the left."""
    if up > 3:
        canvas.text(0, y + 3, str(up), width=right, align="right")
        right = canvas.marks[-1].x0 - 2
        up = 1
    for _ in range(up):
        right -= MONUMENT_WIDTH
        canvas.icon("monument", right, y)
        right -= 2
    if hidden:
        canvas.text(0, y + 3, f"+{hidden}", width=right - 2, align="right")
    elif not up:
        canvas.text(0, y + 3, tr("res.none_left"), width=right)


def render_production(screen: ProductionScreen, size: Size = FULL) -> Image.Image:
    """What a seat produced at the start of a round: "+N" under each essence."""
    canvas = Canvas(size)

    def gained(count: int) -> str:
        return f"+{count}" if count else "-"

    title = tr("res.production", round=screen.round)
    if canvas.tall and is_rtl(title):  # Persian: the name's ink a row under the title's
        heading(canvas, 1, title)
        title_bottom = on_panel(title, 1) + font("small").ink_rows(title)[1]
        name_top = font("medium").ink_rows(screen.name)[0]
        heading(canvas, max(14, title_bottom + 2 - name_top), screen.name, "medium")
        essence_row(canvas, screen.gained, top=33, show=gained)
    elif canvas.tall:
        heading(canvas, 1, title)
        heading(canvas, 14, screen.name, "medium")
        essence_row(canvas, screen.gained, top=33, show=gained)
    elif is_rtl(title):  # Persian 128x32: the line by its ink under the counts (as the seat)
        essence_row(canvas, screen.gained, top=0, show=gained, below=12)
        tail = tr("res.production_short", round=screen.round)
        room = canvas.width - font("small").width(tail)
        names = [n for n in (screen.name, *forms(screen.name)) if font("small").width(n) <= room]
        line = next(
            (f"{n}{tail}" for n in names if fits_ink(f"{n}{tail}", SEAT_BAND + 1, 30)),
            f"{short_form(screen.name, 'small', room)}{tail}",
        )
        canvas.text(0, by_ink(line, SEAT_BAND, canvas.height - 1), line, width=canvas.width)
    else:
        essence_row(canvas, screen.gained, top=0, show=gained)
        tail = tr("res.production_short", round=screen.round)
        name = short_form(screen.name, "small", canvas.width - font("small").width(tail))
        canvas.text(0, above(f"{name}{tail}", 24, canvas.height - 1), f"{name}{tail}")
    return canvas.image


def render_victory_check(screen: VictoryCheckScreen, size: Size = FULL) -> Image.Image:
    """The end-of-round check: everyone's VP (goal reached inverted) and who wins, if anyone."""
    canvas = Canvas(size)
    entries = [(s.label, s.value, s.value >= screen.goal) for s in screen.scores]
    if not screen.winners:
        outcome = tr("res.play_on")
    elif len(screen.winners) == 1:
        outcome = tr("res.one_wins", name=screen.winners[0])
    else:
        outcome = tr("res.many_win", names=" & ".join(screen.winners))
    if canvas.tall:
        heading(canvas, 1, tr("res.goal", round=screen.round, goal=screen.goal))
        columns(canvas, entries, top=14, big=True)
    else:
        # a Persian name's box takes rows 0-15 (its dots and tails), the bar the rest
        columns(canvas, entries, top=4 if is_rtl(outcome) else 3, big=False, rtl_band=True)
        if not screen.winners:
            outcome = tr("res.play_on_round", round=screen.round)
    result_bar(canvas, outcome)
    return canvas.image
