"""Arcana's screens: a stake, its struggle, a bribe, the status display, ranking, breakdown.

Each renderer takes its model and a display size (128x64 or 128x32) and returns a mode "1"
image; the same model always gives the same pixels.
"""

from __future__ import annotations

from PIL import Image

from firmware.language import current
from firmware.language import text as tr
from firmware.screens.canvas import PAPER, Canvas, font
from firmware.screens.general import message
from firmware.screens.layout import (
    above,
    alert_block,
    columns,
    heading,
    result_bar,
    title_row,
    to_play,
)
from firmware.screens.models import (
    ArcanaStatusScreen,
    BreakdownScreen,
    BribeScreen,
    EmptyStakeScreen,
    GuildAtStake,
    RankingScreen,
    RoundResultsScreen,
    StakeScreen,
    StruggleScreen,
)
from firmware.screens.shaping import RLM, is_rtl
from firmware.screens.short_forms import forms, short_form

Size = tuple[int, int]
FULL: Size = (128, 64)


def render_stake(screen: StakeScreen, size: Size = FULL) -> Image.Image:
    """The stake's market card (name, main arcanum, threshold) and each guild's face-up
    strength there, with "+N" and a card back for face-down agents.
    """
    canvas = Canvas(size)
    if canvas.tall:
        _stake_tall(canvas, screen)
    else:
        _stake_short(canvas, screen)
    return canvas.image


def _stake_tall(canvas: Canvas, screen: StakeScreen) -> None:
    name_width = canvas.width
    if screen.stake:  # the card name first; the stake's label (or its short form) after it
        small = font("small")
        room = canvas.width - min(small.width(screen.card), canvas.width - 20) - 6
        label = short_form(screen.stake, "small", room)
        label_width = min(small.width(label), room)
        name_width = canvas.width - label_width - 6
        canvas.text(name_width + 6, 2, label, width=label_width)
    canvas.text(0, 2, screen.card, width=name_width)
    canvas.hline(12)
    # left panel: the arcanum twice as large as in text, the threshold in big digits
    canvas.icon(screen.arcanum.value, 9, 15, scale=2)
    canvas.text(0, 41, str(screen.threshold), font="digits", width=44, align="center")
    canvas.vline(45, 14, canvas.height - 1)
    if not screen.guilds:
        canvas.text(48, 34, tr("stake.no_agents"), width=80, align="center")
        return
    big = len(screen.guilds) <= 3
    pitch = 16 if big else 12
    top = 15 + (49 - pitch * len(screen.guilds[:4])) // 2
    if big:  # the medium digits stand 3 rows higher: their top off the rule at row 12
        top = max(top, 16)
    for index, guild in enumerate(screen.guilds[:4]):
        _guild_entry(canvas, 48, top + index * pitch, 80, guild, "medium" if big else "small")


def _stake_short(canvas: Canvas, screen: StakeScreen) -> None:
    # the threshold and the card name on the top row; the arcanum left of the sides below
    number = str(screen.threshold)
    face = "medium"
    if font("medium").width(number) + 4 + font("small").width(screen.card) > canvas.width:
        face = "small"
    right = canvas.text(0, 1 if face == "medium" else 3, number, font=face, width=24)
    canvas.text(right + 4, 3, screen.card)
    canvas.icon(screen.arcanum.value, 0, 15)
    # two lines of 10 rows from row 12 to the last: a controlling guild's box holds its
    # name's ink (an umlaut above, a descender below), apart from the title's
    for index, guild in enumerate(screen.guilds[:4]):
        x = 14 + (index % 2) * 58
        y = 13 + (index // 2) * 10
        _guild_entry(canvas, x, y, 56, guild, "small", box=(1, 8))
    if not screen.guilds:
        canvas.text(14, 18, tr("stake.no_agents"), width=canvas.width - 14, align="center")


def _guild_entry(
    canvas: Canvas,
    x: int,
    y: int,
    width: int,
    guild: GuildAtStake,
    number_font: str,
    box: tuple[int, int] = (2, 8),
) -> None:
    """Label on the left (inverted when the guild controls the stake: its mark); on the
    right the strength, then "+N" and a card back if hidden.
    """
    small = font("small")
    right = x + width
    # the small font's capitals are 7 px tall, the medium's 10: align their baselines
    lift = 3 if number_font == "medium" else 0
    if guild.hidden:
        right -= 7
        canvas.icon("hidden", right, y - 1)
        hidden_text = f"+{guild.hidden}"
        right -= small.width(hidden_text) + 1
        canvas.text(right, y, hidden_text)
        right -= 2
    number = str(guild.strength)
    number_width = font(number_font).width(number)
    canvas.text(right - number_width, y - lift, number, font=number_font)
    room = right - number_width - x - 3
    if not guild.controls:
        canvas.text(x, y, guild.label, width=room)
        return
    label = short_form(guild.label, "small", room - 2)
    used = min(small.width(label), room - 2)
    canvas.box(x, y - box[0], x + used + 1, y + box[1])  # rows above and below y
    canvas.text(x + 1, y, label, width=used, fill=PAPER)


def render_empty_stake(screen: EmptyStakeScreen, size: Size = FULL) -> Image.Image:
    """An empty stake: "Tap the new card here" when its reveal is due, "Next card after
    Stake 2" while another stake reveals first, else why no card comes."""
    if screen.waiting and not screen.after:
        return message(size, "tap", screen.stake, tr("stake.tap_new_card"))
    if screen.waiting:
        return message(size, "", screen.stake, tr("stake.next_after", stake=screen.after))
    if screen.ending:
        return message(size, "", screen.stake, tr("stake.game_ends"))
    return message(size, "", screen.stake, tr("stake.used_up"))


def render_struggle(screen: StruggleScreen, size: Size = FULL) -> Image.Image:
    """Each side's strength against the threshold (contenders inverted), the tie-break if
    used, and the winner or "No winner". A card name too long to share the title row with
    the threshold moves the threshold to the line under the strengths (on 128x64).
    """
    canvas = Canvas(size)
    titled = title_row(canvas, screen.arcanum.value, str(screen.threshold), screen.card)
    entries = [(s.label, s.value, s.value >= screen.threshold) for s in screen.strengths]
    outcome = tr("struggle.wins", name=screen.winner) if screen.winner else tr("struggle.no_winner")
    if canvas.tall:
        columns(canvas, entries, top=14, big=True)
        needs = "" if titled else tr("struggle.needs", threshold=screen.threshold)
        line = screen.tie_break or needs
        if line:
            canvas.text(0, 39, line, align="center")
        result_bar(canvas, outcome)
    else:
        columns(canvas, entries, top=13, big=False)
        tied = tr("struggle.tie_break_suffix", outcome=outcome)
        if screen.tie_break and font("small").width(tied) <= canvas.width - 2:
            outcome = tied
        result_bar(canvas, outcome)
    return canvas.image


def render_bribe(screen: BribeScreen, size: Size = FULL) -> Image.Image:
    """The bribe value against the market agent's financial value, and what happened."""
    canvas = Canvas(size)
    title_row(canvas, "financial", "", screen.card)
    sign = "≥" if screen.succeeded else "<"
    outcome = tr("bribe.bribes", name=screen.briber) if screen.succeeded else tr("bribe.fails")
    if canvas.tall:
        canvas.text(0, 16, str(screen.value), font="digits", width=50, align="center")
        canvas.text(50, 22, sign, font="medium", width=28, align="center")
        canvas.text(78, 16, str(screen.needed), font="digits", width=50, align="center")
    else:
        line = f"{screen.value} {sign} {screen.needed}"
        canvas.text(0, 12, line, font="medium", width=60)
        canvas.text(62, 13, screen.briber, align="right", width=66)
    result_bar(canvas, outcome)
    return canvas.image


def render_arcana_status(screen: ArcanaStatusScreen, size: Size = FULL) -> Image.Image:
    """Round, whose turn, cards left in each hand, and a prompt (or an alert, inverted)."""
    canvas = Canvas(size)
    hands = [(hand.label, hand.cards, hand.label == screen.turn) for hand in screen.hands]
    if canvas.tall:
        heading(canvas, 1, tr("status.round", round=screen.round))
        if screen.turn:
            canvas.icon("turn", 0, 15)
            turn = to_play(screen.turn, "medium", canvas.width - 11)
            if turn:
                canvas.text(11, 13, turn, font="medium")
            else:
                canvas.text(11, 15, to_play(screen.turn, "small", canvas.width - 11) or "")
        if screen.alert:  # a device in trouble matters more than the hands
            alert_block(canvas, screen.alert, top=29)
            return canvas.image
        canvas.text(64, 1, tr("status.in_hand"), width=64, align="right")
        columns(canvas, hands, top=30, big=True)
        bottom = 54
    else:
        if screen.alert:  # two lines of alert need the whole of a 128x32 display
            alert_block(canvas, screen.alert, top=0)
            return canvas.image
        # three small lines fill 32 rows exactly: turn, hands, prompt
        round_text = tr("status.round_short", round=screen.round)
        round_width = font("small").width(round_text)
        canvas.text(canvas.width - round_width, 1, round_text)
        if screen.turn:
            canvas.icon("turn", 0, 1)
            room = canvas.width - round_width - 14
            turn = to_play(screen.turn, "small", room) or tr("status.to_play", name=screen.turn)
            canvas.text(10, 1, turn, width=room)
        columns(canvas, hands, top=12, big=False)
        bottom = 23
    if screen.prompt:
        canvas.text(0, bottom, screen.prompt, align="center")
    return canvas.image


def render_round_results(screen: RoundResultsScreen, size: Size = FULL) -> Image.Image:
    """Stakes won this round, one column per player, and how many stakes nobody won."""
    canvas = Canvas(size)
    entries = [(w.label, w.value, w.value > 0) for w in screen.wins]
    unwon = tr("results.no_winner_at", n=screen.unwon) if screen.unwon else tr("results.all_won")
    title = tr("results.title", round=screen.round)
    if canvas.tall:
        heading(canvas, 1, title)
        columns(canvas, entries, top=16, big=True)
        canvas.text(0, 45, unwon, align="center")
        canvas.text(0, above(tr("results.go_on"), 56, 63), tr("results.go_on"), align="center")
    else:
        heading(canvas, 1, title)
        columns(canvas, entries, top=13, big=False)
        canvas.text(0, above(unwon, 24, canvas.height - 1), unwon, align="center")
    return canvas.image


def render_ranking(screen: RankingScreen, size: Size = FULL) -> Image.Image:
    """The final ranking: rank, name, points; winners (rank 1) drawn inverted. Each row's ink
    stays in its own rows, one blank row apart from the next row's (and from a box)."""
    canvas = Canvas(size)
    players = screen.players[:4]
    rtl = current().direction == "rtl"
    if canvas.tall:
        title = screen.title or tr("score.ranking")
        top, _ = font("small").ink_rows(title)
        heading(canvas, max(1, -top), title)  # a Persian heading's dots on the first row
        # Persian names need taller rows (their ink up to 12 rows in the small font): the
        # rows share out the room when fewer than four players leave it
        pitch = min(16, 52 // max(len(players), 1)) if rtl else 13
        for index, player in enumerate(players):
            _ranking_row(canvas, 0, 12 + index * pitch, canvas.width, pitch, player, "medium")
    else:
        # from three players on two cells side by side: rows of 16, not 10, keep a name's
        # descender (or a Persian tail) off the next row
        cells = 1 if len(players) <= 2 else 2
        width = canvas.width // cells
        pitch = 32 // ((len(players) + cells - 1) // cells or 1)
        pitch = min(pitch, 16)
        for index, player in enumerate(players):
            column = index % cells
            x = (cells - 1 - column if rtl else column) * width
            y = (index // cells) * pitch
            _ranking_row(canvas, x, y, width - (2 if cells > 1 else 0), pitch, player, "small")
    return canvas.image


def _ranking_row(canvas, x, y, width, height, player, name_font) -> None:
    """One row of the ranking. Its ink keeps to rows y + 1 to y + height - 1, so a name's
    tail never shares a row with the next name (nor meets the box of a winner below): a name
    whose ink does not fit there in the row's font takes the small font, then its short
    forms. A winner's box takes the same rows, a row apart from the next winner's box (and
    from the heading's ink)."""
    winner = player.rank == 1
    fill = PAPER if winner else 1
    rtl = current().direction == "rtl"
    if winner:
        canvas.box(x, y + 1, x + width - 1, y + height - 1)
    caps = 10 if name_font == "medium" else 7
    number_y = y + 1 + (height - 1 - caps) // 2
    points = str(player.points)
    points_width = font(name_font).width(points)
    if rtl:  # mirrored: the rank on the right, the points on the left
        rank = f"{RLM}{player.rank}."  # its dot on the left, where a Persian reader ends
        rank_left = x + width - 1 - font(name_font).width(rank)
        canvas.text(rank_left, number_y, rank, font=name_font, fill=fill)
        canvas.text(x + 1, number_y, points, font=name_font, fill=fill)
        name_x = x + points_width + 4
        name_width = rank_left - 3 - name_x
    else:
        rank_right = canvas.text(x + 1, number_y, f"{player.rank}.", font=name_font, fill=fill)
        canvas.text(x + width - points_width - 1, number_y, points, font=name_font, fill=fill)
        name_x = rank_right + 3
        name_width = x + width - points_width - 4 - name_x
    face, name, name_y = _ranking_name(player.name, name_font, y + 1, y + height - 1, number_y)
    canvas.text(name_x, name_y, name, font=face, fill=fill, width=name_width, align="left")


def _ranking_name(name: str, name_font: str, first: int, last: int, number_y: int):
    """The font, text and y of a ranking name whose ink fits rows first to last: a Latin
    name on the numbers' baseline when it fits there, else (and a Persian name always)
    centred by its ink (descenders, dots and tails)."""
    caps = {"medium": 10, "small": 7}
    candidates = [(name_font, name), ("small", name), *(("small", f) for f in forms(name))]
    for face, text in candidates:
        top, bottom = font(face).ink_rows(text)
        by_ink = first + (last - first + 1 - (bottom - top + 1)) // 2 - top
        on_baseline = number_y + caps[name_font] - caps[face]
        for text_y in (by_ink,) if is_rtl(text) else (on_baseline, by_ink):
            if first <= text_y + top and text_y + bottom <= last:
                return face, text, text_y
    top, _ = font("small").ink_rows(name)
    return "small", name, first - top


def render_breakdown(screen: BreakdownScreen, size: Size = FULL) -> Image.Image:
    """One player's points: the total in big digits and up to three parts of it."""
    canvas = Canvas(size)
    total = str(screen.total)
    page = f"{screen.page}/{screen.pages}"
    if canvas.tall:
        digits = font("digits")
        total_x = canvas.width - digits.width(total)
        canvas.text(total_x, 1, total, font="digits")
        canvas.text(total_x, 27, tr("score.vp"), width=canvas.width - total_x, align="center")
        canvas.text(0, 2, screen.name, font="medium", width=total_x - 4)
        for index, line in enumerate(_score_lines(screen)):
            y = 21 + index * 11
            canvas.text(0, y, line.label, width=64)  # labels: the controller's words
            canvas.text(64, y, str(line.points), width=21, align="right")
        canvas.text(0, 56, page, width=canvas.width, align="right")
    else:
        points = tr("score.points", points=total)
        points_width = font("medium").width(points)
        canvas.text(canvas.width - points_width, 1, points, font="medium")
        canvas.text(0, 1, screen.name, font="medium", width=canvas.width - points_width - 4)
        room = canvas.width - font("small").width(page) - 4
        for shorten in (False, True):  # hand-chosen short labels when the full ones need more
            labels = [
                (*forms(line.label), line.label)[0] if shorten else line.label
                for line in screen.lines
            ]
            parts = " · ".join(
                f"{label} {line.points}" for label, line in zip(labels, screen.lines, strict=True)
            )
            if len(font("small").wrap(parts, room, 99)) <= 2:
                break
        rows = font("small").wrap(parts, room, 2)
        for index, row in enumerate(rows):
            canvas.text(0, 14 + index * 9, row)
        canvas.text(0, 23, page, align="right")
    return canvas.image


def _score_lines(screen: BreakdownScreen) -> list:
    """At most three lines: a fourth part and beyond are summed into "Other"."""
    lines = list(screen.lines)
    if len(lines) <= 3:
        return lines
    rest = sum(line.points for line in lines[2:])
    return [*lines[:2], type(lines[0])(tr("score.other"), rest)]
