"""One example of every screen, as a table would see it: the reference images of the tests
and the pictures in docs/screens.md are drawn from these.

    python -m firmware.screens.gallery docs/screens      # write the docs' PNG pictures
    python -m firmware.screens.gallery --print stake     # show a screen in the terminal
    python -m firmware.screens.gallery --time            # render time per screen, as JSON
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from PIL import Image

from firmware.screens import models as m
from firmware.screens.icons import LEGEND, icon
from firmware.screens.render import SIZE_128X32, SIZE_128X64, render
from firmware.screens.text_art import text_art

A = m.Arcanum
E = m.Essence

EXAMPLES: dict[str, m.Screen] = {
    "stake": m.StakeScreen(
        card="Clockwork Spy",
        arcanum=A.POLITICAL,
        threshold=7,
        guilds=(
            m.GuildAtStake("Ann", 5, hidden=1, controls=True),
            m.GuildAtStake("Ben", 3),
            m.GuildAtStake("Cleo", 0, hidden=2, controls=True),
        ),
        stake="Stake 2",
    ),
    "stake_four_guilds": m.StakeScreen(
        card="Temple of the Drowned Moon",
        arcanum=A.SPIRITUAL,
        threshold=12,
        guilds=(
            m.GuildAtStake("Blades", 4),
            m.GuildAtStake("Ferrymen", 11, hidden=1),
            m.GuildAtStake("Thieves", 0, hidden=3),
            m.GuildAtStake("Usurers", 99),
        ),
        stake="Free trade",
    ),
    "stake_long_name": m.StakeScreen(
        card="Sample location 10",
        arcanum=A.FINANCIAL,
        threshold=12,
        guilds=(
            m.GuildAtStake("Blades", 4, controls=True),
            m.GuildAtStake("Ferrymen", 11, hidden=1, controls=True),
            m.GuildAtStake("Thieves", 0, hidden=3),
            m.GuildAtStake("Usurers", 9),
        ),
        stake="Stake 4",
    ),
    "stake_empty": m.EmptyStakeScreen(stake="Stake 3"),
    "stake_empty_later": m.EmptyStakeScreen(stake="Stake 4", after="Stake 3"),
    "stake_used_up": m.EmptyStakeScreen(stake="Stake 1", waiting=False),
    "stake_game_ends": m.EmptyStakeScreen(stake="Free trade", waiting=False, ending=True),
    "struggle": m.StruggleScreen(
        card="Clockwork Spy",
        arcanum=A.POLITICAL,
        threshold=7,
        strengths=(m.Strength("Ann", 8), m.Strength("Ben", 8), m.Strength("Cleo", 4)),
        winner="Ben",
        tie_break="Ferrymen win the tie",
    ),
    "struggle_no_winner": m.StruggleScreen(
        card="Harbour Tower",
        arcanum=A.MILITARY,
        threshold=9,
        strengths=(m.Strength("Ann", 3), m.Strength("Ben", 6)),
        winner=None,
    ),
    "struggle_long_name": m.StruggleScreen(
        card="Sample location 10",
        arcanum=A.MILITARY,
        threshold=12,
        strengths=(
            m.Strength("Blades", 12),
            m.Strength("Ferrymen", 3),
            m.Strength("Thieves", 12),
            m.Strength("Usurers", 0),
        ),
        winner="Blades",
        tie_break="Tie-break: military",
    ),
    "round_results": m.RoundResultsScreen(
        round=2,
        wins=(
            m.Strength("Blades", 2),
            m.Strength("Ferrymen", 0),
            m.Strength("Thieves", 1),
            m.Strength("Usurers", 1),
        ),
        unwon=1,
    ),
    "bribe": m.BribeScreen(card="Clockwork Spy", briber="Ann", value=6, needed=5),
    "bribe_fails": m.BribeScreen(card="Old Smuggler", briber="Ben", value=2, needed=4),
    "arcana_status": m.ArcanaStatusScreen(
        round=3,
        turn="Ann",
        hands=(m.HandCount("Ann", 3), m.HandCount("Ben", 2), m.HandCount("Cleo", 4)),
        prompt="Tap a card on a pad",
    ),
    "arcana_status_alert": m.ArcanaStatusScreen(
        round=5,
        turn="Dora",
        hands=(
            m.HandCount("Ann", 0),
            m.HandCount("Ben", 1),
            m.HandCount("Cleo", 1),
            m.HandCount("Dora", 2),
        ),
        alert="Reader stake-2 not answering",
    ),
    "ranking": m.RankingScreen(
        players=(
            m.RankedPlayer(1, "Ben", 21),
            m.RankedPlayer(1, "Dora", 21),
            m.RankedPlayer(3, "Ann", 17),
            m.RankedPlayer(4, "Maximilian-Theodor", 9),
        )
    ),
    "breakdown": m.BreakdownScreen(
        name="Ann",
        total=17,
        lines=(
            m.ScoreLine("Cards", 8),
            m.ScoreLine("Under base", 3),
            m.ScoreLine("Tasks", 6),
        ),
        page=3,
        pages=4,
    ),
    "seat": m.SeatScreen(
        name="Jürgen",
        essences=m.Essences(fire=3, life=0, calm=12, death=1, gold=99),
        vp=7,
        your_turn=True,
    ),
    "seat_passed": m.SeatScreen(
        name="Ann", essences=m.Essences(1, 1, 1, 1, 1), vp=12, passed=True, turn="Ben"
    ),
    "res_status": m.ResStatusScreen(
        round=4,
        turn="Ben",
        places=(E.FIRE, E.CALM, E.GOLD),
        monuments_up=2,
        monuments_hidden=3,
    ),
    "production": m.ProductionScreen(name="Ann", round=4, gained=m.Essences(fire=2, gold=1)),
    "victory_check": m.VictoryCheckScreen(
        round=6, scores=(m.Strength("Ann", 11), m.Strength("Ben", 9)), winners=("Ann",)
    ),
    "victory_check_play_on": m.VictoryCheckScreen(
        round=3, scores=(m.Strength("Ann", 4), m.Strength("Ben", 7), m.Strength("Cleo", 6))
    ),
    "prompt": m.PromptScreen("Tap the stake to swap"),
    "setup_seat": m.PromptScreen("Tap your guild base", title="Seat 1"),
    "setup_seated": m.PromptScreen("Ferrymen", title="Seat 2", icon=m.PromptIcon.NONE),
    "under_base": m.PromptScreen(
        "Ferrymen: Sample location 10\nOK: yes  Select: no",
        title="Under the base?",
        icon=m.PromptIcon.NONE,
        short="Sample location 10 under base?\nOK: yes  Select: no",
    ),
    "choice_game": m.ChoiceScreen("Choose the game", ("Arcana", "Res Arcana"), selected=0),
    "choice_variant": m.ChoiceScreen("Arcana: variant", ("Basic", "Advanced"), selected=1),
    "refusal": m.RefusalScreen("Thieves to play"),
    "refusal_long": m.RefusalScreen("Bribe needs one of your agents here"),
    "device_trouble": m.DeviceTroubleScreen("Reader stake-2 not answering"),
    "unknown_card": m.UnknownCardScreen(uid="04A224B2C35E80"),
    "saved": m.SavedScreen(),
    "undo": m.UndoScreen("Ann placed an agent on stake 2"),
}


def like(example: str, /, **changes: object) -> m.Screen:
    """An example of another language: the English `example` with its words changed (the
    same screen, the same shape)."""
    return replace(EXAMPLES[example], **changes)  # type: ignore[type-var]


# Persian (right to left, shaped; firmware/screens/shaping.py): names and sentences in the words
# of the Res Arcana rules, name and value columns mirrored, icons and big digits in place.
PERSIAN_EXAMPLES: dict[str, m.Screen] = {
    "seat_fa": like(
        "seat", name="مریم", essences=replace(EXAMPLES["seat"].essences, gold=9), your_turn=False
    ),
    "victory_check_fa": like(
        "victory_check",
        scores=(m.Strength("مریم", 11), m.Strength("علی", 9), m.Strength("سارا", 10)),
        winners=("مریم",),
    ),
    "prompt_fa": like("setup_seat", text="کارت را روی جایگاه بگذارید", title="جایگاه ۱"),
    "choice_fa": like(
        "choice_game", title="بازی را انتخاب کنید", options=("آرکانا", "رس آرکانا"), selected=1
    ),
    # the ranking mirrored: rank on the right, then the name, the points on the left
    "ranking_fa": m.RankingScreen(
        players=(
            m.RankedPlayer(1, "مریم", 21),
            m.RankedPlayer(2, "Ann", 17),
            m.RankedPlayer(3, "سارا", 12),
            m.RankedPlayer(4, "رضا", 9),
        )
    ),
    # the places and monuments read from their labels on the right (from the right at 128x32)
    "res_status_fa": like("res_status", turn="جادوگر آتش"),
    "refusal_fa": like("refusal", reason="این کنش ۲ طلا و ۱ جوهر دیگر لازم دارد"),
    # the widest of fa.toml's undo sentences ("used {card}"), with the Persian Bone Dragon
    "undo_fa": like("undo", action="قدرت اژدهای استخوانی را فعال کرد"),
    # Arcana in Persian: the guilds by fa.toml's [names], a card named in an owner's catalog;
    # each guild's label on the right, its strength, "+N" and card back leftwards
    "stake_fa": m.StakeScreen(
        card="جاسوس کوکی",
        arcanum=A.POLITICAL,
        threshold=7,
        guilds=(
            m.GuildAtStake("تیغه\u200cها", 5, hidden=1, controls=True),
            m.GuildAtStake("قایقرانان", 3),
            m.GuildAtStake("دزدان", 0, hidden=2),
        ),
        stake="منطقه 2",
    ),
    # four guilds with face-down agents: at 128x64 the arcanum and threshold on a line under
    # the rule, the guilds in two rows of two half-width cells (each label in a short form)
    "stake_four_guilds_fa": m.StakeScreen(
        card="جاسوس کوکی",
        arcanum=A.MILITARY,
        threshold=9,
        guilds=(
            m.GuildAtStake("تیغه\u200cها", 9, hidden=1, controls=True),
            m.GuildAtStake("قایقرانان", 8, hidden=2),
            m.GuildAtStake("دزدان", 6),
            m.GuildAtStake("رباخواران", 10, hidden=1),
        ),
        stake="منطقه 2",
    ),
    "struggle_fa": m.StruggleScreen(
        card="برج بندر",
        arcanum=A.MILITARY,
        threshold=9,
        strengths=(
            m.Strength("تیغه\u200cها", 9),
            m.Strength("قایقرانان", 9),
            m.Strength("دزدان", 4),
        ),
        winner="قایقرانان",
        tie_break="تساوی\u200cشکن: نظامی",
    ),
    "bribe_fa": m.BribeScreen(card="قاچاقچی پیر", briber="دزدان", value=6, needed=5),
    # the swap prompt's hamza (مأمور) makes its ink 15 rows: the hands move up at 128x64
    "arcana_status_fa": m.ArcanaStatusScreen(
        round=3,
        turn="قایقرانان",
        hands=(
            m.HandCount("تیغه\u200cها", 3),
            m.HandCount("قایقرانان", 2),
            m.HandCount("دزدان", 4),
            m.HandCount("رباخواران", 3),
        ),
        prompt="جابه\u200cجایی مأمور",
    ),
    # three parts: at 128x32 their points alone (their labels need more than 128 px)
    "breakdown_fa": m.BreakdownScreen(
        name="قایقرانان",
        total=17,
        lines=(
            m.ScoreLine("کارت\u200cها", 8),
            m.ScoreLine("زیر پایگاه", 3),
            m.ScoreLine("مأموریت 1/2", 6),
        ),
        page=2,
        pages=4,
    ),
    "breakdown_basic_fa": m.BreakdownScreen(
        name="رباخواران",
        total=21,
        lines=(m.ScoreLine("کارت\u200cها", 14), m.ScoreLine("زیر پایگاه", 7)),
        page=1,
        pages=3,
    ),
}
EXAMPLES.update(PERSIAN_EXAMPLES)
# Persian digits (the profile's `[table] digits = "persian"`): hand-drawn ۰-۹ on the Latin
# digits' rows; a guild in control whose "+1", card back and "۱۳" need more than its 56 px
# cell at 128x32 takes room from its neighbour's
PERSIAN_DIGITS_EXAMPLES: dict[str, m.Screen] = {
    "seat_fa_digits": like("seat_fa", vp=13, essences=m.Essences(3, 0, 12, 1, 9)),
    "stake_four_guilds_fa_digits": like(
        "stake_four_guilds_fa",
        guilds=(
            m.GuildAtStake("تیغه\u200cها", 13, hidden=1, controls=True),
            m.GuildAtStake("قایقرانان", 8, hidden=2),
            m.GuildAtStake("دزدان", 6),
            m.GuildAtStake("رباخواران", 10, hidden=1),
        ),
    ),
}
PERSIAN_EXAMPLES.update(PERSIAN_DIGITS_EXAMPLES)
EXAMPLES.update(PERSIAN_DIGITS_EXAMPLES)

# German (firmware/language/de.toml): the texts the controllers make in German, the screens'
# own words drawn in German (LANGUAGE_OF), the rulebook's names for guilds and zones.
GERMAN_EXAMPLES: dict[str, m.Screen] = {
    "stake_de": m.StakeScreen(
        card="Uhrwerkspion",
        arcanum=A.POLITICAL,
        threshold=7,
        guilds=(
            m.GuildAtStake("Klingen", 5, hidden=1, controls=True),
            m.GuildAtStake("Fährleute", 3),
            m.GuildAtStake("Diebe", 0, hidden=2, controls=True),
            m.GuildAtStake("Wucherer", 11),
        ),
        stake="Freihandelszone",
    ),
    "stake_empty_de": m.EmptyStakeScreen(stake="Zone 4", after="Zone 3"),
    "struggle_de": m.StruggleScreen(
        card="Hafenturm",
        arcanum=A.MILITARY,
        threshold=9,
        strengths=(m.Strength("Klingen", 9), m.Strength("Fährleute", 9), m.Strength("Diebe", 4)),
        winner="Fährleute",
        tie_break="Gildenfähigkeit entscheidet",
    ),
    "bribe_de": m.BribeScreen(card="Alter Schmuggler", briber="Diebe", value=6, needed=5),
    "arcana_status_de": m.ArcanaStatusScreen(
        round=3,
        turn="Fährleute",
        hands=(
            m.HandCount("Klingen", 3),
            m.HandCount("Fährleute", 2),
            m.HandCount("Diebe", 4),
            m.HandCount("Wucherer", 3),
        ),
        prompt="Karte ausspielen",
    ),
    "round_results_de": m.RoundResultsScreen(
        round=2,
        wins=(
            m.Strength("Klingen", 2),
            m.Strength("Fährleute", 0),
            m.Strength("Diebe", 1),
            m.Strength("Wucherer", 1),
        ),
        unwon=1,
    ),
    "ranking_de": m.RankingScreen(
        players=(
            m.RankedPlayer(1, "Wucherer", 21),
            m.RankedPlayer(2, "Fährleute", 19),
            m.RankedPlayer(3, "Klingen", 17),
            m.RankedPlayer(4, "Diebe", 9),
        )
    ),
    "breakdown_de": m.BreakdownScreen(
        name="Fährleute",
        total=17,
        lines=(
            m.ScoreLine("Karten", 8),
            m.ScoreLine("Unter Basis", 3),
            m.ScoreLine("Aufg. 1/2", 6),
        ),
        page=2,
        pages=4,
    ),
    "under_base_de": m.PromptScreen(
        "Fährleute: Sample location 10\nOK: ja  Select: nein",
        title="Unter die Basis?",
        icon=m.PromptIcon.NONE,
        short="Sample location 10 unter die Basis?\nOK: ja  Select: nein",
    ),
    "setup_seat_de": m.PromptScreen("Basiskarte deiner Gilde auflegen", title="Platz 1"),
    "choice_game_de": m.ChoiceScreen(
        "Welches Spiel?",
        ("Arcana", "Res Arcana", "Karten anlernen", "Sprache: Deutsch"),
        selected=3,
    ),
    "choice_variant_de": m.ChoiceScreen(
        "Arcana: Variante?", ("Standardspiel", "Fortgeschrittenspiel"), selected=1
    ),
    "refusal_de": m.RefusalScreen("Bestechung braucht hier einen deiner Agenten"),
    "unknown_card_de": m.UnknownCardScreen(uid="04A224B2C35E80"),
    "device_trouble_de": m.DeviceTroubleScreen("Leser stake-2 antwortet nicht"),
    "saved_de": m.SavedScreen(),
    "undo_de": m.UndoScreen("Klingen-Agent 3 gelegt (Zone 2)"),
    "seat_de": m.SeatScreen(
        name="Jürgen", essences=m.Essences(3, 0, 12, 1, 9), vp=7, passed=False, turn="Ann"
    ),
    "res_status_de": m.ResStatusScreen(
        round=4, turn="Ben", places=(), monuments_up=2, monuments_hidden=3
    ),
}
EXAMPLES.update(GERMAN_EXAMPLES)
# The language each example's own words are drawn in (English when not named here).
LANGUAGE_OF: dict[str, str] = {
    **dict.fromkeys(GERMAN_EXAMPLES, "de"),
    **dict.fromkeys(PERSIAN_EXAMPLES, "fa"),
}
# The examples whose numbers are drawn in Persian digits (Latin 0-9 when not named here).
DIGITS_OF: dict[str, str] = dict.fromkeys(PERSIAN_DIGITS_EXAMPLES, "persian")


def picture(image: Image.Image, scale: int = 3) -> Image.Image:
    """A screen as the docs show it: pixels enlarged, light blue on black like the OLEDs."""
    width, height = image.size
    big = Image.new("RGB", (width * scale + 8, height * scale + 8), (18, 18, 24))
    lit = Image.new("RGB", (scale, scale), (120, 200, 255))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            if pixels[x, y]:
                big.paste(lit, (4 + x * scale, 4 + y * scale))
    return big


def write_pictures(folder: Path) -> list[Path]:
    """Write every example at both sizes as docs pictures; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, screen in EXAMPLES.items():
        for size, suffix in ((SIZE_128X64, ""), (SIZE_128X32, "_32")):
            path = folder / f"{name}{suffix}.png"
            image = render(screen, size, LANGUAGE_OF.get(name), DIGITS_OF.get(name))
            picture(image).save(path, optimize=True)
            written.append(path)
    for name in LEGEND:
        path = folder / f"icon_{name}.png"
        picture(icon(name)).save(path, optimize=True)
        written.append(path)
    return written


def render_times(repeats: int = 200) -> dict[str, float]:
    """Mean wall-clock milliseconds to render each example, per display size."""
    times: dict[str, float] = {}
    for name, screen in EXAMPLES.items():
        for size in (SIZE_128X64, SIZE_128X32):
            render(screen, size, LANGUAGE_OF.get(name))  # fonts and icons parsed: not timed
            start = time.perf_counter()
            for _ in range(repeats):
                render(screen, size, LANGUAGE_OF.get(name))
            elapsed = (time.perf_counter() - start) / repeats
            times[f"{name} {size[0]}x{size[1]}"] = round(elapsed * 1000, 3)
    return times


def main(argv: list[str] | None = None) -> int:
    """Write the docs pictures, or print examples as text art."""
    parser = argparse.ArgumentParser(prog="python -m firmware.screens.gallery")
    parser.add_argument("folder", nargs="?", type=Path, help="write PNG pictures here")
    parser.add_argument("--print", nargs="*", metavar="NAME", help="print examples as text art")
    parser.add_argument("--time", action="store_true", help="print render times (ms) as JSON")
    args = parser.parse_args(argv)
    if args.time:
        times = render_times()
        summary = {
            "mean_ms": round(sum(times.values()) / len(times), 3),
            "max_ms": max(times.values()),
        }
        print(json.dumps({**summary, "screens": times}, indent=2))
        return 0
    if args.print is not None:
        for name in args.print or list(EXAMPLES):
            for size in (SIZE_128X64, SIZE_128X32):
                print(f"{name} {size[0]}x{size[1]}")
                image = render(EXAMPLES[name], size, LANGUAGE_OF.get(name))
                print(text_art(image, frame=True))
        return 0
    if args.folder is None:
        parser.error("give a folder to write pictures to, or --print")
    for path in write_pictures(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
