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
from firmware.screens.icons import icon
from firmware.screens.layout import (
    above,
    alert_block,
    big_drop,
    by_ink,
    columns,
    fits_ink,
    heading,
    on_panel,
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
    rtl = current().direction == "rtl"
    if canvas.tall:
        (_stake_tall_rtl if rtl else _stake_tall)(canvas, screen)
    else:
        (_stake_short_rtl if rtl else _stake_short)(canvas, screen)
    return canvas.image


RTL_BOX = (4, 11)  # a Persian label's box: rows y - 4 to y + 11, its dots and tails inside


def _stake_tall_rtl(canvas: Canvas, screen: StakeScreen) -> None:
    """128x64 Persian: the title drawn by its ink from row 0, the rule under it; up to
    three guilds in rows of 16 (their boxes hold a Persian label's ink) right of the arcanum
    and threshold, four as `_four_guilds_tall_rtl` draws them."""
    small = font("small")
    label = ""
    if screen.stake:
        room = canvas.width - min(small.width(screen.card), canvas.width - 20) - 6
        label = short_form(screen.stake, "small", room)
    # by the ink of the label drawn: the short form's م ends lower than منطقه's
    inks = [small.ink_rows(t) for t in (screen.card, label) if t]
    y = max(2, *(-top for top, _ in inks))
    rule = max(12, y + max(bottom for _, bottom in inks) + 1)
    name_width = canvas.width
    if screen.stake:
        label_width = min(small.width(label), room)
        name_width = canvas.width - label_width - 6
        canvas.text(name_width + 6, y, label, width=label_width)
    canvas.text(0, y, screen.card, width=name_width)
    canvas.hline(rule)
    if len(screen.guilds) > 3:
        _four_guilds_tall_rtl(canvas, screen, rule)
        return
    canvas.icon(screen.arcanum.value, 9, rule + 2, scale=2)
    threshold = str(screen.threshold)
    digits_y = min(rule + 29, canvas.height - 1 - font("digits").ink_rows(threshold)[1])
    canvas.text(0, digits_y, threshold, font="digits", width=44, align="center")
    canvas.vline(45, rule + 2, canvas.height - 1)
    if not screen.guilds:
        canvas.text(
            48,
            by_ink(tr("stake.no_agents"), rule + 2, 63),
            tr("stake.no_agents"),
            width=80,
            align="center",
        )
        return
    first = rule + 2 + (canvas.height - rule - 2 - 16 * len(screen.guilds)) // 2
    for index, guild in enumerate(screen.guilds):
        y = first + index * 16 + RTL_BOX[0]
        _guild_entry_mirrored(canvas, 48, y, 78, guild, RTL_BOX)


def _four_guilds_tall_rtl(canvas: Canvas, screen: StakeScreen, rule: int) -> None:
    """128x64 Persian, four guilds: the arcanum and the threshold (medium) on a line under
    the rule, the guilds below in two rows of two cells as wide as half the panel. A guild
    with face-down agents spends about 43 px on its figures ("+1", card back, "11"): beside
    a left panel a 38 px cell would leave its label no room at all."""
    first = min(rule + 16, canvas.height - 32)  # the guilds' rows of 16, a blank row above
    number = str(screen.threshold)
    canvas.icon(screen.arcanum.value, 0, (rule + first - 12) // 2)
    canvas.text(15, by_ink(number, rule + 1, first - 2, "medium"), number, font="medium")
    for index, guild in enumerate(screen.guilds[:4]):  # the first guild on the right
        x = (1 - index % 2) * 65
        y = first + (index // 2) * 16 + RTL_BOX[0]
        _guild_entry_mirrored(canvas, x, y, 63, guild, RTL_BOX)


def _stake_short_rtl(canvas: Canvas, screen: StakeScreen) -> None:
    """128x32 Persian: bands of 16 rows (a Persian label's ink is up to 14). Up to two
    guilds: the threshold and card in the first band, the guilds in the second; three or
    four: the arcanum and threshold in a left column, the guilds in two bands of two (the
    card's name was on the screen when it was tapped), in cells of 56 px unless one needs
    more (`_cells_rtl`)."""
    guilds = screen.guilds[:4]
    number = str(screen.threshold)
    bands = [16]
    if len(guilds) <= 2:
        face = "medium"
        if font("medium").width(number) + 4 + font("small").width(screen.card) > canvas.width:
            face = "small"
        right = canvas.text(0, by_ink(number, 0, 15, face), number, font=face, width=24)
        canvas.text(right + 4, by_ink(screen.card, 0, 15), screen.card)
        canvas.icon(screen.arcanum.value, 0, 18)
    else:
        canvas.icon(screen.arcanum.value, 0, 1)
        canvas.text(0, by_ink(number, 16, 31), number, width=12, align="center")
        bands = [0, 16]
    for band, pair in enumerate((guilds[:2], guilds[2:4])[: len(bands)]):
        y = bands[band] + RTL_BOX[0]
        right = canvas.width
        widths, counted = _cells_rtl(pair)
        for guild, width in zip(pair, widths, strict=True):  # the first on the right
            _guild_entry_mirrored(canvas, right - width, y, width, guild, RTL_BOX, counted)
            right -= width + 2
    if not guilds:
        text = tr("stake.no_agents")
        canvas.text(14, by_ink(text, 16, 31), text, width=canvas.width - 14, align="center")


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
    right the strength, then "+N" and a card back if hidden (Persian: `_guild_entry_mirrored`).
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


CELLS_RTL = 112  # two guilds' cells at 128x32, right of the arcanum, a 2 px gap between


def _cells_rtl(pair: tuple[GuildAtStake, ...]) -> tuple[list[int], bool]:
    """The widths of a band's cells at 128x32 (Persian), the first guild's first, and
    whether they show the face-down agents' count. 56 px each, but a guild whose figures and
    shortest label need more (in control, with face-down agents and a two-digit strength:
    "+1", card back, "11" and a boxed label take 57) takes it from the other's spare room; a
    guild alone in its band may take the band. Where the two need more than the band (two
    strengths such as ۳۸ in Persian digits), the band's card backs stand without "+N": they
    say a guild has face-down agents, and the cards lie on the table to be counted."""
    if len(pair) == 1:
        return [max(CELLS_RTL // 2, min(_entry_needs_mirrored(pair[0]), CELLS_RTL))], True
    for counted in (True, False):
        needs = [_entry_needs_mirrored(guild, counted) for guild in pair]
        if sum(needs) <= CELLS_RTL:
            break
    widths = [CELLS_RTL // 2] * len(needs)
    for index, need in enumerate(needs):
        other = len(needs) - 1 - index
        lack = need - widths[index]
        spare = widths[other] - needs[other]
        if lack > 0 and spare > 0:
            widths[index] += min(lack, spare)
            widths[other] -= min(lack, spare)
    return widths, counted


def _entry_needs_mirrored(guild: GuildAtStake, counted: bool = True) -> int:
    """The width `_guild_entry_mirrored` needs to draw a guild's figures and the shortest
    form of its label (boxed when in control) whole."""
    small = font("small")
    shortest = min(small.width(text) for text in (guild.label, *forms(guild.label)))
    box = 2 if guild.controls else 0
    figures = _figures_mirrored(guild, counted)
    return sum(width + gap for _, _, width, gap in figures) + shortest + box


def _figures_mirrored(guild: GuildAtStake, counted: bool = True) -> list[tuple[str, str, int, int]]:
    """A guild's figures read from the right, left to right: "+N" (unless not `counted`)
    and the card back when it has face-down agents, then its strength; each as (kind, what,
    width, gap after it)."""
    small = font("small")
    strength = str(guild.strength)
    figures = [("text", strength, small.width(strength), 3)]
    if guild.hidden:
        figures.insert(0, ("icon", "hidden", icon("hidden").width, 3))
    if guild.hidden and counted:
        hidden = f"+{guild.hidden}"
        figures.insert(0, ("text", hidden, small.width(hidden), 1))
    return figures


def _guild_entry_mirrored(
    canvas: Canvas,
    x: int,
    y: int,
    width: int,
    guild: GuildAtStake,
    box: tuple[int, int],
    counted: bool = True,
) -> None:
    """`_guild_entry` read from the right, in the small font: the label against the right
    edge (inverted when the guild controls the stake), the strength left of it, then on the
    left "+N" and the card back (in that order, as numbers are read: the card back keeps
    "+1" apart from a strength of 5, which would read "+15"); the card back alone when not
    `counted`."""
    small = font("small")
    left = x
    for kind, what, figure_width, gap in _figures_mirrored(guild, counted):
        if kind == "icon":
            canvas.icon(what, left, y - 1)
        else:
            canvas.text(left, y, what)
        left += figure_width + gap
    right = x + width
    room = right - left
    if not guild.controls:
        canvas.text(left, y, guild.label, width=room)  # against the right edge
        return
    label = short_form(guild.label, "small", room - 2)
    used = min(small.width(label), room - 2)
    canvas.box(right - used - 2, y - box[0], right - 1, y + box[1])
    canvas.text(right - used - 1, y, label, width=used, fill=PAPER)


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
    outcome = tr("struggle.wins", name=screen.winner) if screen.winner else tr("struggle.no_winner")
    # Persian at 128x32: two bands of 16 rows, the strengths over the outcome (the card and
    # its threshold were on the stake's screen): a title row would leave their dots no room
    two_bands = not canvas.tall and is_rtl(outcome)
    titled = two_bands or title_row(
        canvas, screen.arcanum.value, str(screen.threshold), screen.card
    )
    entries = [(s.label, s.value, s.value >= screen.threshold) for s in screen.strengths]
    if canvas.tall:
        top = 14
        if is_rtl(outcome) and entries:
            # a Persian card name's tail (the ج of برج) reaches row 12, where the labels'
            # dots start: the columns go as much lower, a blank row under the title's ink
            title_last = canvas.image.getbbox()[3] - 1  # type: ignore[index]
            labels_top = min(font("small").ink_rows(label)[0] for label, _, _ in entries)
            top = max(top, title_last + 2 - labels_top)
        bottom = columns(canvas, entries, top=top, big=True)
        needs = "" if titled else tr("struggle.needs", threshold=screen.threshold)
        line = screen.tie_break or needs
        if line and bottom > 36:  # no rows left under the columns: the tie-break joins the bar
            tied = tr("struggle.tie_break_suffix", outcome=outcome)
            if screen.tie_break and font("small").width(tied) <= canvas.width - 2:
                outcome = tied
            line = ""
        if line:
            canvas.text(0, 39, line, align="center")
        result_bar(canvas, outcome)
    else:
        columns(canvas, entries, top=4 if two_bands else 13, big=False, rtl_band=True)
        tied = tr("struggle.tie_break_suffix", outcome=outcome)
        if screen.tie_break and font("small").width(tied) <= canvas.width - 2:
            outcome = tied
        result_bar(canvas, outcome)
    return canvas.image


def render_bribe(screen: BribeScreen, size: Size = FULL) -> Image.Image:
    """The bribe value against the market agent's financial value, and what happened."""
    canvas = Canvas(size)
    sign = "≥" if screen.succeeded else "<"
    outcome = tr("bribe.bribes", name=screen.briber) if screen.succeeded else tr("bribe.fails")
    if not canvas.tall and is_rtl(outcome):
        # Persian at 128x32: the values and the briber in rows 0-15, the outcome's bar
        # below (see render_struggle); the briber's name stands right, where reading starts
        line = f"{screen.value} {sign} {screen.needed}"
        canvas.text(1, by_ink(line, 0, 15, "medium"), line, font="medium", width=60)
        canvas.text(62, by_ink(screen.briber, 0, 15), screen.briber, align="right", width=66)
        result_bar(canvas, outcome)
        return canvas.image
    title_row(canvas, "financial", "", screen.card)
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
    if current().direction == "rtl" and not screen.alert:
        _arcana_status_rtl(canvas, screen, hands)
        return canvas.image
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


def _arcana_status_rtl(canvas: Canvas, screen: ArcanaStatusScreen, hands: list) -> None:
    """Persian, each text placed by its ink. 128x64: the round (right) and "in hand" (left)
    on the first rows, whose turn in the small font, the hands' columns, the prompt in rows
    52-63 (54-63 when a label's tail, the ق of قایق, moves the hands' boxes two rows down:
    `layout.big_drop`). A prompt whose ink is taller than those rows (the hamza of مأمور:
    15 rows) takes the turn line's rows instead: the hands move up under the round, the
    prompt has the rows under their boxes (whose turn it is stays marked by its inverted
    hand). 128x32: two bands of
    16 rows: the hands (whose turn it is inverted) over the prompt, or over whose turn it is
    when there is no prompt (the round is left out)."""
    last = canvas.height - 1
    if canvas.tall:
        heading(canvas, 1, tr("status.round", round=screen.round))
        in_hand = tr("status.in_hand")
        canvas.text(0, on_panel(in_hand, 1), in_hand)
        drop = big_drop(hands)  # the boxes lower under a label's tail
        tall_prompt = bool(screen.prompt) and not fits_ink(screen.prompt, 52 + drop, last)
        if screen.turn and not tall_prompt:
            turn = to_play(screen.turn, "small", canvas.width - 11) or ""
            canvas.icon("turn", 0, 13)
            canvas.text(11, by_ink(turn, 12, 24), turn, width=canvas.width - 11)
        top = 17 if tall_prompt else 28  # a label's dots up to 5 rows above its top
        bottom = columns(canvas, hands, top=top, big=True)
        if screen.prompt:
            first = bottom + 3 if tall_prompt else 52 + drop  # blank rows under the boxes
            canvas.text(0, by_ink(screen.prompt, first, last), screen.prompt, align="center")
        return
    columns(canvas, hands, top=4, big=False, rtl_band=True)
    line = screen.prompt or (to_play(screen.turn, "small", canvas.width) if screen.turn else "")
    if line:
        canvas.text(0, by_ink(line, 16, last), line, align="center")


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
    elif is_rtl(title):  # Persian 128x32: the wins in rows 0-15, then round and unwon
        columns(canvas, entries, top=4, big=False, rtl_band=True)
        line = f"{title} · {unwon}"
        if font("small").width(line) > canvas.width:
            line = unwon
        canvas.text(0, by_ink(line, 16, canvas.height - 1), line, align="center")
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
    if current().direction == "rtl":
        (_breakdown_tall_rtl if canvas.tall else _breakdown_short_rtl)(canvas, screen)
        return canvas.image
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


def _breakdown_tall_rtl(canvas: Canvas, screen: BreakdownScreen) -> None:
    """128x64 Persian: the total in big digits on the right (where it stands in every
    language), the name beside it and the lines under the name, each stacked by its ink
    with a blank row between (a Persian line's ink is up to 15 rows); each line mirrored,
    its label on the right, its points on the left. The name takes the small font when the
    medium one's ink would leave the lines no room."""
    total = str(screen.total)
    total_x = canvas.width - font("digits").width(total)
    canvas.text(total_x, 1, total, font="digits")
    canvas.text(total_x, 27, tr("score.vp"), width=canvas.width - total_x, align="center")
    page = f"{screen.page}/{screen.pages}"
    canvas.text(0, 56, page, width=canvas.width, align="right")
    room = total_x - 4  # the name and the lines: columns 0 to room - 1
    points_width = 21
    label_width = room - points_width - 3
    lines = [
        (short_form(line.label, "small", label_width), str(line.points))
        for line in _score_lines(screen)
    ]
    inks = [_ink_of(label, points) for label, points in lines]
    stacked = sum(bottom - top + 2 for top, bottom in inks)  # each line and a blank row
    for face in ("medium", "small"):
        top, bottom = font(face).ink_rows(screen.name)
        if bottom - top + 2 + stacked <= canvas.height:
            break
    canvas.text(0, -top, screen.name, font=face, width=room)  # its ink from row 0
    first = bottom - top + 2  # the first row of the next line's ink
    for (label, points), (top, bottom) in zip(lines, inks, strict=True):
        y = first - top
        canvas.text(0, y, points, width=points_width, align="right")
        canvas.text(points_width + 3, y, label, width=label_width)
        first = y + bottom + 2


def _breakdown_short_rtl(canvas: Canvas, screen: BreakdownScreen) -> None:
    """128x32 Persian: two bands of 16 rows. The name on the right (where reading starts)
    and the total on the left in rows 0-15; the parts in rows 16-31, read from the right,
    the page on the left. Three parts with their labels need more than the panel's width
    (a Persian label is twice as wide as a short English one): then their points are shown
    alone, in the same order as the lines at 128x64 (cards, under the base, tasks)."""
    small = font("small")
    last = canvas.height - 1
    points = tr("score.points", points=screen.total)
    face = "medium" if fits_ink(points, 0, 15, "medium") else "small"
    # a Persian word's last letter (its tail) reaches a column left of its pen: from x = 1
    points_right = canvas.text(1, by_ink(points, 0, 15, face), points, font=face)
    name_x = points_right + 4
    name_face = "medium"
    if not (
        fits_ink(screen.name, 0, 15, "medium")
        and font("medium").width(screen.name) <= canvas.width - name_x
    ):
        name_face = "small"
    y = by_ink(screen.name, 0, 15, name_face)
    canvas.text(name_x, y, screen.name, font=name_face, width=canvas.width - name_x)
    page = f"{screen.page}/{screen.pages}"
    page_right = canvas.text(0, by_ink(page, 16, last), page)
    room = canvas.width - page_right - 4
    lines = screen.lines
    candidates = [
        " · ".join(f"{label} {line.points}" for label, line in zip(labels, lines, strict=True))
        for labels in (
            [line.label for line in lines],
            [(*forms(line.label), line.label)[0] for line in lines],
        )
    ]
    candidates.append(RLM + " · ".join(str(line.points) for line in lines))
    parts = next(
        (text for text in candidates if small.width(text) <= room and fits_ink(text, 16, last)),
        candidates[-1],
    )
    canvas.text(page_right + 4, by_ink(parts, 16, last), parts, width=room)


def _ink_of(*texts: str) -> tuple[int, int]:
    """The first and last ink rows of texts drawn on one line in the small font."""
    rows = [font("small").ink_rows(text) for text in texts if text]
    return min(top for top, _ in rows), max(bottom for _, bottom in rows)


def _score_lines(screen: BreakdownScreen) -> list:
    """At most three lines: a fourth part and beyond are summed into "Other"."""
    lines = list(screen.lines)
    if len(lines) <= 3:
        return lines
    rest = sum(line.points for line in lines[2:])
    return [*lines[:2], type(lines[0])(tr("score.other"), rest)]
