"""Every text a screen shows at the table fits, uncut, at its longest.

Whole games are played by the demo bots with four players, every card named with the widest
card name of the sample and template catalogs, and every screen model the controllers show
(and every notice) is drawn at both panel sizes, 128x64 and 128x32: no text may be shortened
with an ellipsis, nor wrapped past its last line. Every game is played in every language that
has a catalog (firmware/language/), and every sentence of a catalog is drawn with its longest
names filled in.
"""

from __future__ import annotations

import itertools
import string
import tomllib
from pathlib import Path

import pytest
from PIL import Image
from quick_table import QuickTable

from engine.arcana.catalogs import __file__ as catalogs_init
from engine.resarcana import CARDS
from firmware.controllers.arcana import Bot as ArcanaBot
from firmware.controllers.arcana import play_demo_game as play_arcana
from firmware.controllers.resarcana.bot import Bot as ResBot
from firmware.controllers.resarcana.bot import play_demo_game as play_res
from firmware.controllers.resarcana.screens import gain_label
from firmware.drawing import Notice, notice_screen
from firmware.games import FULL_TABLE_PADS, GameShelf
from firmware.language import DIGITS, codes, current, load, local_name, res_arcana_name, using
from firmware.screens import RENDERERS, SIZES, Screen
from firmware.screens.canvas import Canvas, Mark
from firmware.screens.font import ELLIPSIS, Font, load_font
from firmware.screens.gallery import DIGITS_OF, EXAMPLES, LANGUAGE_OF
from firmware.screens.short_forms import forms, is_short_form

ROOT = Path(__file__).resolve().parents[3]
CATALOGS = (Path(catalogs_init).with_name("sample.toml"), ROOT / "docs" / "catalog-template.toml")


def widest(names) -> str:
    """The name that takes the most pixels in either font."""
    small, medium = load_font("small"), load_font("medium")
    return max(names, key=lambda n: (small.width(n), medium.width(n), n))


def catalog_objects() -> list[dict]:
    return [tomllib.loads(path.read_text(encoding="utf-8")) for path in CATALOGS]


def names_of(entry: dict, default: str) -> list[str]:
    """A card's or guild's name and its names in the table's languages."""
    return [entry.get("name", default), *entry.get("names", {}).values()]


LONGEST_CARD = widest(
    name
    for catalog in catalog_objects()
    for card in catalog["cards"]
    for name in names_of(card, card["id"])
)
LONGEST_GUILD = widest(
    name
    for catalog in catalog_objects()
    for gid, guild in catalog["guilds"].items()
    for name in names_of(guild, gid)
)


def name_in(card: dict, code: str) -> str:
    """A catalog card's name in a language: its `names` entry there, else its name or id."""
    return card.get("names", {}).get(code, card.get("name", card["id"]))


# The widest card name in each language's own script
LONGEST_IN = {
    code: widest(name_in(card, code) for catalog in catalog_objects() for card in catalog["cards"])
    for code in codes()
}


def longest_names_catalog() -> dict:
    """The sample catalog with every card called by the widest card name there is, and in
    each language by the widest of that language's names."""
    catalog = catalog_objects()[0]
    for card in catalog["cards"]:
        card["name"] = LONGEST_CARD
        card["names"] = {code: LONGEST_IN[code] for code in codes() if code != "en"}
    return catalog


def cuts(screen: Screen, size) -> list[str]:
    """Every text of the screen drawn at this size that did not fit whole."""
    return [f"{mark.text!r} shown as {mark.shown!r}" for mark in cut_marks(screen, size)]


def cut_marks(screen: Screen, size) -> list[Mark]:
    """The marks of the texts of the screen drawn at this size that did not fit whole."""
    made: list[Canvas] = []
    vanished: list[Mark] = []  # texts given a box too narrow for even an ellipsis: no mark
    original, original_text = Canvas.__init__, Canvas.text

    def keep(self, canvas_size):
        original(self, canvas_size)
        made.append(self)

    def text(self, x, y, text, *args, **kwargs):
        marks = len(self.marks)
        right = original_text(self, x, y, text, *args, **kwargs)
        if text.strip() and len(self.marks) == marks:
            vanished.append(Mark(text, "", x, y, x, y))
        return right

    Canvas.__init__ = keep  # type: ignore[method-assign]
    Canvas.text = text  # type: ignore[method-assign]
    try:
        RENDERERS[type(screen)](screen, size)
    finally:
        Canvas.__init__ = original  # type: ignore[method-assign]
        Canvas.text = original_text  # type: ignore[method-assign]
    return [
        mark
        for canvas in made
        for mark in canvas.marks
        if not mark.text.startswith("icon:")
        and (not is_short_form(mark.text, mark.shown) or mark.shown.endswith(ELLIPSIS))
    ] + vanished


MARGIN = 32  # rows and columns around the panel where a glyph's ink may have been pasted


def drawn(screen: Screen, size) -> tuple[Image.Image, list[tuple]]:
    """The screen's image and what was drawn on it, in order: ("box", rows, columns, fill)
    for each filled box, ("text", face, text, fill, before, alone) for each text pasted, where
    `before` is the panel just before it and `alone` the text's ink pasted alone on a blank
    image MARGIN pixels larger on every side (so ink off the panel is known too)."""
    made: list[Canvas] = []
    events: list[tuple] = []
    original_init, original_draw, original_box = Canvas.__init__, Font.draw, Canvas.box

    def keep(self, canvas_size):
        original_init(self, canvas_size)
        made.append(self)

    def draw(self, image, x, y, text, fill=1):
        if any(image is canvas.image for canvas in made):  # not ink_rows' own scratch image
            alone = Image.new("1", (image.width + 2 * MARGIN, image.height + 2 * MARGIN), 0)
            original_draw(self, alone, x + MARGIN, y + MARGIN, text, 1)
            events.append(("text", self.name, text, fill, image.copy(), alone))
        return original_draw(self, image, x, y, text, fill)

    def box(self, x0, y0, x1, y1, fill=1):
        events.append(("box", range(y0, y1 + 1), range(x0, x1 + 1), fill))
        return original_box(self, x0, y0, x1, y1, fill)

    Canvas.__init__ = keep  # type: ignore[method-assign]
    Font.draw = draw  # type: ignore[method-assign]
    Canvas.box = box  # type: ignore[method-assign]
    try:
        final = RENDERERS[type(screen)](screen, size)
    finally:
        Canvas.__init__ = original_init  # type: ignore[method-assign]
        Font.draw = original_draw  # type: ignore[method-assign]
        Canvas.box = original_box  # type: ignore[method-assign]
    return final, events


def ink_of(alone: Image.Image) -> list[tuple[int, int]]:
    """The panel coordinates of a text's ink pasted alone (see `drawn`)."""
    ink = alone.load()
    return [
        (x - MARGIN, y - MARGIN)
        for y in range(alone.height)
        for x in range(alone.width)
        if ink[x, y]
    ]


def ink_faults(screen: Screen, size) -> list[str]:
    """Every text of the screen whose ink is not all seen: ink off the panel (a tail below
    its last row, dots above its first), ink on its own colour (an inverted text's descender
    below its box, a text run into a box or into another text's ink), drawn over later, or
    under a box filled later in its own colour (a Persian label's tail in the box below it)."""
    final, events = drawn(screen, size)
    width, height = size
    seen = final.load()
    faults = []
    for index, event in enumerate(events):
        if event[0] != "text":
            continue
        _, face, text, fill, before, alone = event
        under = before.load()
        rows: dict[str, set[int]] = {"off the panel": set(), "on its own colour": set()}
        rows["drawn over"], rows["under a box drawn later"] = set(), set()
        # a box filled later in the text's colour (one drawn in the other colour is seen
        # as "drawn over"): the ink inside it cannot be told from the box
        later = [
            (ys, xs)
            for kind, ys, xs, box_fill, *_ in events[index:]
            if kind == "box" and bool(box_fill) == bool(fill)
        ]
        for x, y in ink_of(alone):
            if not (0 <= x < width and 0 <= y < height):
                rows["off the panel"].add(y)
            elif bool(under[x, y]) == bool(fill):
                rows["on its own colour"].add(y)
            elif bool(seen[x, y]) != bool(fill):
                rows["drawn over"].add(y)
            elif any(y in ys and x in xs for ys, xs in later):
                rows["under a box drawn later"].add(y)
        faults += [
            f"{face} {text!r}{' inverted' if not fill else ''}: ink rows {sorted(ys)} {what}"
            for what, ys in rows.items()
            if ys
        ]
    return faults


# The screens whose ink is checked in every language: every screen type, in Persian too
# (the Arcana status's tall prompt and the score breakdown were the last, see
# docs/languages.md). A new screen type is named here once its Persian layout keeps its ink.
INK_CHECKED_IN_PERSIAN = {
    "ArcanaStatusScreen",
    "BreakdownScreen",
    "BribeScreen",
    "ChoiceScreen",
    "DeviceTroubleScreen",
    "EmptyStakeScreen",
    "ProductionScreen",
    "PromptScreen",
    "RankingScreen",
    "RefusalScreen",
    "ResStatusScreen",
    "RoundResultsScreen",
    "SavedScreen",
    "SeatScreen",
    "StakeScreen",
    "StruggleScreen",
    "UndoScreen",
    "UnknownCardScreen",
    "VictoryCheckScreen",
}


def test_every_screen_type_is_ink_checked_in_persian():
    assert {kind.__name__ for kind in RENDERERS} == INK_CHECKED_IN_PERSIAN


def ink_checked(screen: Screen) -> bool:
    return current().direction != "rtl" or type(screen).__name__ in INK_CHECKED_IN_PERSIAN


def assert_nothing_cut(shown) -> None:
    """No text is shortened past its short forms, and all of every text's ink is seen."""
    problems = []
    for role, screen in shown:
        for size in SIZES:
            faults = ink_faults(screen, size) if ink_checked(screen) else []
            for cut in [*cuts(screen, size), *faults]:
                problems.append(f"{role} {size[0]}x{size[1]} {type(screen).__name__}: {cut}")
    assert not problems, "\n".join(sorted(set(problems)))


def guilds_of(code: str) -> list[str]:
    """The sample catalog's guilds by their names in the language."""
    with using(code):
        return [
            local_name(guild.get("name", gid), guild.get("names"))
            for gid, guild in catalog_objects()[0]["guilds"].items()
        ]


@pytest.mark.parametrize("code", codes())
def test_a_stake_of_four_guilds_with_face_down_agents_shows_every_guild(code):
    """Four guilds, each with face-down agents, the first in control: every guild's label is
    drawn (whole or in a short form) at both heights, with two-digit strengths, in Latin
    and Persian digits; whichever guild is in control (at 128x32 a Persian guild in control
    takes a pixel of its neighbour's cell)."""
    from firmware.screens import Arcanum, GuildAtStake, StakeScreen

    labels = guilds_of(code)[:4]
    shown = []
    for size, digits, control in itertools.product(SIZES, DIGITS, range(4)):
        guilds = tuple(
            GuildAtStake(label, strength=39, hidden=9, controls=index == control)
            for index, label in enumerate(labels)
        )
        screen = StakeScreen(LONGEST_CARD, Arcanum.MILITARY, 9, guilds)
        with using(code, digits):
            where = f"{size} {digits} {labels[control]} in control:"
            shown += [f"{where} {cut}" for cut in cuts(screen, size)]
            if ink_checked(screen):
                shown += [f"{where} {fault}" for fault in ink_faults(screen, size)]
    assert not shown, "\n".join(shown)
    assert len(set(labels)) == 4


def test_a_text_left_out_or_run_into_a_later_box_is_found():
    """The checks above find a label whose box is too narrow for even an ellipsis (it is
    drawn as nothing) and a Persian tail reaching into a box drawn under it in its colour."""
    from firmware.screens import RENDERERS as renderers
    from firmware.screens import SavedScreen

    def narrow(screen, size):
        canvas = Canvas(size)
        canvas.text(0, 2, "Ferrymen", width=2)
        return canvas.image

    def tail_in_box(screen, size):
        canvas = Canvas(size)
        canvas.text(10, 20, "قایق")
        canvas.box(0, 29, 60, 40)
        return canvas.image

    saved = renderers[SavedScreen]
    try:
        renderers[SavedScreen] = narrow
        assert cuts(SavedScreen(), (128, 64)) == ["'Ferrymen' shown as ''"]
        renderers[SavedScreen] = tail_in_box
        with using("fa"):
            (fault,) = ink_faults(SavedScreen(), (128, 64))
    finally:
        renderers[SavedScreen] = saved
    assert fault == "small 'قایق': ink rows [29] under a box drawn later"


def test_the_longest_names_are_the_ones_checked():
    assert LONGEST_CARD == "Sample location 10"
    assert LONGEST_GUILD == "Ferrymen"
    assert LONGEST_IN == {
        "en": "Sample location 10",
        "de": "Wucherer-Agent 9",
        "fa": "مخفیگاه رباخواران",
    }


@pytest.mark.parametrize("code", codes())
def test_every_sample_card_name_stands_whole_on_a_stake_in_every_language(code):
    """Not only the widest: every card's own name in the language (Persian names differ in
    their dots' and tails' height), as the title of a stake, beside the free-trade label and
    a stake's, at both sizes, with a guild and without."""
    from firmware.screens import Arcanum, GuildAtStake, StakeScreen

    names = sorted({name_in(card, code) for card in catalog_objects()[0]["cards"]})
    with using(code):
        guild = GuildAtStake(guilds_of(code)[0], strength=12, hidden=1, controls=True)
        labels = (current().text("stake.free_trade"), current().text("stake.label", n=5))
        shown = [
            ("stake-0", StakeScreen(name, Arcanum.MILITARY, 9, guilds, label))
            for name in names
            for label in labels
            for guilds in ((), (guild,))
        ]
        assert_nothing_cut(shown)
    assert len(names) > 150


# Each language with Latin digits, and Persian with its own digits (۳ is 2 px wider than 3)
WRITTEN = [
    *(pytest.param(code, "latin", id=code) for code in codes()),
    pytest.param("fa", "persian", id="fa-persian-digits"),
]


@pytest.mark.parametrize(("code", "digits"), WRITTEN)
@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_an_arcana_game_of_four_with_the_longest_names_cuts_no_text(
    tmp_path, variant, code, digits
):
    catalog = longest_names_catalog()
    with using(code, digits):  # the models are noted and drawn here in the game's language
        shelf = GameShelf(catalog=catalog, language=code, digits=digits)
        table = QuickTable(tmp_path, shelf)
        play_arcana(table, ArcanaBot(seed=3, players=4, variant=variant, catalog=catalog))
        table.press("select")  # the breakdowns after the ranking
        table.press("undo")  # and an undo notice
        assert_nothing_cut(table.shown)
    assert len(table.shown) > 50  # a whole game, not just its first screen


@pytest.mark.parametrize(("code", "digits"), WRITTEN)
def test_a_res_arcana_game_of_four_cuts_no_text(tmp_path, code, digits):
    with using(code, digits):
        table = QuickTable(tmp_path, GameShelf(language=code, digits=digits))
        play_res(table, ResBot(seed=2, players=4))
        table.press("undo")
        assert_nothing_cut(table.shown)
    assert len(table.shown) > 20


@pytest.mark.parametrize("code", codes())
def test_a_discard_names_the_widest_res_arcana_card_whole(code):
    from firmware.screens import ChoiceScreen

    with using(code):
        card = widest(res_arcana_name(card) for card in CARDS)
        gains = (gain_label("gold"), gain_label("death"))
        assert_nothing_cut([("stake-0", ChoiceScreen(card, gains))])


# The refusals the controllers and the engines give, with the longest names filled in (the
# games above only show the refusals a bot runs into).
L, G = LONGEST_CARD, LONGEST_GUILD
REFUSALS = [
    "That agent is already on stake 5",
    f"{G} places a militia first",
    "Swapping needs two different stakes",
    f"{L} (swap_stakes) takes a and b",
    f"{L} is not one of your agents on a stake",
    "The game-end card has already been revealed",
    "The last card of the free-trade pile is the game-end card",
    "The game-end card is only in the free-trade pile (stake 5)",
    f"{L} has already been revealed",
    f"{L} is not a market card",
    "Stake 5 shows no market card",
    "Bribe needs one of your agents here",
    "A militia comes only right after a relic is discarded",
    "No stake is waiting for a card",
    f"{L} is not in your possession",
    f"{G} to play",
    "There is no stake 6 (stakes 1 to 5)",
    f"{L} is a location, not an agent",
    "Reveal the next card on stake 5 first",
    "Finish the location, or Undo to cancel it",
    "None of your agents is on a stake with somewhere to go",
    "Seat the players first: tap your guild base",
    "Swapping needs two stakes with a market card",
    "Tap the card to discard, or Select to cancel",
    "Tap the first market card of this stake",
    "Two players at least: tap your guild base",
    "No stake on this pad with 3 players",
    "This pad is no seat: sit at Seat 1 to Seat 4",
    "Seat 3 is still empty: sit there first",
    "Tap the new card on stake 5 first",
    f"{L} is the market card of stake 5",
    f"{L} is under the {G} base for good",
    "Master of Calm already sits at seat 4",
    f"{L} lies on stake 5",
    "Free trade has its card: tap that card again to take it back",
    f"{G} are seated already (seat 4)",
    f"{G}: tap the militia on a stake first",
]
UNDONE = [
    Notice("undone", "placed a face-down agent on stake 5"),
    Notice("redone", f"bribed with {L} on stake 5"),
]


@pytest.mark.parametrize("notice", [Notice("refusal", text) for text in REFUSALS] + UNDONE)
def test_every_refusal_fits_whole_at_its_longest(notice):
    assert_nothing_cut([("stake-0", notice_screen(notice))])


def longest(language, field: str) -> object:
    """The widest value a catalog sentence's placeholder takes at the table."""
    guild = widest([local_name(n) for n in ("Blades", "Ferrymen", "Thieves", "Usurers")])
    return {
        "card": LONGEST_CARD,
        "name": guild,
        "names": f"{guild} & {guild}",
        "what": language.text("undo.bribe", card=LONGEST_CARD),
        "stake": widest([language.text("stake.free_trade"), language.text("stake.label", n=5)]),
        "arcanum": widest(
            [
                language.text(f"arcanum.{a}")
                for a in ("military", "political", "spiritual", "financial")
            ]
        ),
        "outcome": language.text("struggle.wins", name=guild),
        "essence": widest(
            [language.text(f"essence.{e}") for e in ("fire", "life", "calm", "death", "gold")]
        ),
        "uid": "04A224B2C35E80",
    }.get(field, 44)


# Sentences shown as a notice or in a prompt's box; the rest are drawn in games above.
SENTENCES = ("refusal.", "table.", "seating.", "notice.", "stake.", "choice.choose_first")


@pytest.mark.parametrize("code", codes())
def test_every_catalog_sentence_fits_whole_as_a_notice_at_its_longest(code):
    from firmware.screens import RefusalScreen

    with using(code) as language:
        shown = []
        for key, template in language.texts.items():
            if key.startswith(SENTENCES) and key not in ("stake.label", "stake.free_trade"):
                fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
                said = language.text(key, **{f: longest(language, f) for f in fields})
                shown.append((key, RefusalScreen(said)))
        assert_nothing_cut(shown)
    assert len(shown) > 60


# Gallery examples that show on purpose what a name from an owner's own catalog (one without a
# short form) looks like in a box too narrow for it: the ellipsis (docs/screens.md). Nothing
# else in the gallery may be cut, in any language, at either panel height.
OWNERS_NAMES_CUT = {
    "stake": {"Ann", "Cleo"},  # three guilds side by side at 128x32
    "stake_four_guilds": {"Temple of the Drowned Moon"},
    "ranking": {"Maximilian-Theodor"},
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_gallery_example_cuts_no_text_in_its_language(name):
    language = LANGUAGE_OF.get(name, "en")
    allowed = OWNERS_NAMES_CUT.get(name, set())
    with using(language, DIGITS_OF.get(name)):
        cut = {size: cut_marks(EXAMPLES[name], size) for size in SIZES}
        assert all(forms(text) == () for text in allowed)  # no short form it could show
        checked = ink_checked(EXAMPLES[name])
        ink = [
            f"{size[0]}x{size[1]} {fault}"
            for size in SIZES
            if checked
            for fault in ink_faults(EXAMPLES[name], size)
        ]
    problems = [
        f"{size[0]}x{size[1]} {mark.text!r} shown as {mark.shown!r}"
        for size, marks in cut.items()
        for mark in marks
        if mark.text not in allowed
    ] + ink
    assert not problems, f"{name} ({language}): " + "; ".join(problems)
    if allowed:  # the example still shows what it is there for
        assert allowed == {mark.text for marks in cut.values() for mark in marks}


@pytest.mark.parametrize("code", codes())
def test_the_game_choice_fits_whole_at_every_line(tmp_path, code):
    """The games above choose their game from the first lines; the language line is last."""
    from firmware.screens import ChoiceScreen

    with using(code):
        table = QuickTable(tmp_path, GameShelf(language=code))
        options = len(table.companion.controller.screens()["status"].options)
        for _ in range(options - 1):
            table.press("select")
        assert_nothing_cut(table.shown)
    shown = {screen.selected for _, screen in table.shown if isinstance(screen, ChoiceScreen)}
    assert shown == set(range(options)) and options >= 4  # ... the language line among them


def test_every_language_is_checked():
    assert {"en", "de"} <= set(codes())
    assert load("de").text("stake.free_trade") == "Freihandelszone"


@pytest.mark.parametrize("code", codes())
@pytest.mark.parametrize("fault", ["not_answering", "irq_wire"])  # firmware.inputs
def test_a_reader_in_trouble_fits_whole_on_its_screen_and_in_the_status_alert(code, fault):
    from dataclasses import replace

    from firmware.events import Device
    from firmware.screens import DeviceTroubleScreen
    from firmware.screens.gallery import EXAMPLES

    with using(code):
        for role in (*FULL_TABLE_PADS, "seat-1", "main"):
            text = Device("reader", role).trouble(fault)
            alert = replace(EXAMPLES["arcana_status_alert"], alert=text)
            assert_nothing_cut([(role, DeviceTroubleScreen(text)), ("status", alert)])


@pytest.mark.parametrize("code", codes())
def test_the_catalog_builders_status_screen_fits_whole(code):
    from firmware.web.catalog_taps import BuildingController

    controller = BuildingController(lambda pad, uid, written: 999, "status")
    controller.read = 999
    with using(code):
        assert_nothing_cut(controller.screens().items())


def drawn_marks(screen: Screen, size) -> tuple[object, list[Mark]]:
    """The image of the screen and the marks of what was drawn on it."""
    made: list[Canvas] = []
    original = Canvas.__init__

    def keep(self, canvas_size):
        original(self, canvas_size)
        made.append(self)

    Canvas.__init__ = keep  # type: ignore[method-assign]
    try:
        image = RENDERERS[type(screen)](screen, size)
    finally:
        Canvas.__init__ = original  # type: ignore[method-assign]
    return image, made[0].marks


def ink_runs(image, column: int = 0) -> list[range]:
    """The runs of ink rows of one column: the title bar and the selected option's box."""
    runs, start = [], None
    for y in range(image.height + 1):
        ink = y < image.height and image.getpixel((column, y))
        if ink and start is None:
            start = y
        elif not ink and start is not None:
            runs.append(range(start, y))
            start = None
    return runs


def overlaps(screen) -> list[str]:
    """At 128x64: the title's ink rows outside its bar or meeting the selected option's box,
    the selected option's ink rows outside its box (in every language: an English
    descender, the g of "Language", reached two rows below it)."""
    image, marks = drawn_marks(screen, (128, 64))
    small = load_font("small")
    bar, *boxes = ink_runs(image)
    by_text = {mark.text: mark for mark in marks}
    title = by_text[screen.title]
    top, bottom = small.ink_rows(title.shown)
    title_rows = set(range(title.y0 + top, title.y0 + bottom + 1))
    option = by_text[screen.options[screen.selected]]
    face = load_font("medium" if option.y1 - option.y0 == 10 else "small")
    top, bottom = face.ink_rows(option.shown)
    option_rows = set(range(option.y0 + top, option.y0 + bottom + 1))
    (box,) = [run for run in boxes if option.y0 in run]
    problems = []
    if not title_rows <= set(bar):
        problems.append(
            f"title {screen.title!r} ink rows {sorted(title_rows - set(bar))} off its bar"
        )
    if title_rows & set(box):
        problems.append(f"title {screen.title!r} meets the selected option's box")
    if not option_rows <= set(box):
        problems.append(
            f"option {option.text!r} ink rows {sorted(option_rows - set(box))} off its box"
        )
    return problems


@pytest.mark.parametrize("code", codes())
def test_the_game_choice_title_stays_clear_of_the_selected_option(tmp_path, code):
    """A title's ink stays in its bar, apart from the selected option's inverted box, and that
    option's ink inside the box, at every line of every choice of the game choice."""
    from firmware.screens import ChoiceScreen

    with using(code):
        table = QuickTable(tmp_path, GameShelf(language=code))
        options = len(table.companion.controller.screens()["status"].options)
        for _ in range(options - 1):
            table.press("select")
        choices = {screen for _, screen in table.shown if isinstance(screen, ChoiceScreen)}
        choices |= {
            screen
            for name, screen in EXAMPLES.items()
            if isinstance(screen, ChoiceScreen) and LANGUAGE_OF.get(name, "en") == code
        }
        problems = [problem for screen in choices for problem in overlaps(screen)]
    assert len(choices) >= options
    assert not problems, "\n".join(problems)


def test_an_overlap_of_title_and_selected_option_is_found():
    """The check above finds a Persian title drawn the left-to-right way (its 11-row bar):
    a left-to-right mark in front keeps it out of the right-to-left layout."""
    from firmware.screens import ChoiceScreen

    options = ("آرکانا", "رس آرکانا")
    with using("fa"):
        assert overlaps(ChoiceScreen("کدام بازی؟", options, selected=0)) == []
        problems = overlaps(ChoiceScreen("\u200eکدام بازی؟", options, selected=0))
    assert any("meets the selected option's box" in problem for problem in problems)
    assert any("off its bar" in problem for problem in problems)


def ranking_rows(screen, size) -> list[tuple[set[int], set[int]]]:
    """The rows and columns each player of a drawn ranking takes: its box (a winner's) and
    the ink of its rank, points and name; the heading first, when there is one."""
    _, events = drawn(screen, size)
    texts = [e for e in events if e[0] == "text"]
    groups: list[tuple[set[int], set[int]]] = []
    if size[1] >= 64:  # the heading
        ink = ink_of(texts[0][5])
        groups.append(({y for _, y in ink}, {x for x, _ in ink}))
        events = events[events.index(texts[0]) + 1 :]
    rows: set[int] = set()
    columns: set[int] = set()
    drawn_texts = 0
    for event in events:
        if event[0] == "box":
            rows |= set(event[1])
            columns |= set(event[2])
            continue
        ink = ink_of(event[5])
        rows |= {y for _, y in ink}
        columns |= {x for x, _ in ink}
        drawn_texts += 1
        if drawn_texts == 3:  # rank, points, name
            groups.append((rows, columns))
            rows, columns, drawn_texts = set(), set(), 0
    return groups


def touching_rows(screen, size) -> list[str]:
    """Rows of a ranking (and its heading) that share a pixel row or touch: each must keep a
    blank row from the next one in the same columns."""
    groups = ranking_rows(screen, size)
    problems = []
    for index, (rows, columns) in enumerate(groups):
        for other, (rows_b, columns_b) in enumerate(groups[index + 1 :], index + 1):
            if not columns & columns_b:
                continue  # side by side (128x32, four players)
            near = {y for y in rows if {y - 1, y, y + 1} & rows_b}
            if near:
                problems.append(f"{size[1]}: row {index} touches row {other} at {sorted(near)}")
    return problems


def rankings() -> list[tuple[str, object]]:
    """Four-player rankings in every language, with the names shown at the table: the
    gallery's, the sample guilds' and Res Arcana's mages', winners first and last."""
    from firmware.screens import RankedPlayer, RankingScreen

    shown = [
        (LANGUAGE_OF.get(name, "en"), screen)
        for name, screen in EXAMPLES.items()
        if isinstance(screen, RankingScreen)
    ]
    mages = [card for card in CARDS if CARDS[card].kind == "mage"]
    for code in codes():
        with using(code):
            guilds = [local_name(n) for n in ("Blades", "Ferrymen", "Thieves", "Usurers")]
            magi = [res_arcana_name(card) for card in mages]
        for names in (guilds, magi):
            for ranks in ((1, 2, 3, 4), (1, 1, 3, 4), (2, 3, 4, 1)):
                players = tuple(
                    RankedPlayer(rank, name, 20 - rank)
                    for rank, name in zip(ranks, names, strict=True)
                )
                shown.append((code, RankingScreen(tuple(sorted(players, key=lambda p: p.rank)))))
                shown.append((code, RankingScreen(players[:3])))
    return shown


def test_a_rankings_rows_never_touch_and_keep_their_ink():
    """A four-player Persian ranking's 13-row rows: a name's tail shared a pixel row with the
    next name. Each row keeps a blank row from the next, and all its ink is seen."""
    problems = []
    checked = 0
    for code, screen in rankings():
        with using(code):
            for size in SIZES:
                checked += 1
                found = touching_rows(screen, size) + ink_faults(screen, size)
                problems += [f"{code} {screen.players[0].name}…: {p}" for p in found]
    assert checked > 50
    assert not problems, "\n".join(problems)


def test_touching_rows_are_found():
    """The check above finds two names drawn one row too close: the Persian ranking as it
    was, each name placed by its ink from its row's first row, no blank row below."""
    from firmware.screens import RankedPlayer, RankingScreen, arcana

    screen = RankingScreen(tuple(RankedPlayer(i + 2, "قایقرانان", 9) for i in range(4)))
    original = arcana._ranking_name

    def too_low(name, name_font, first, last, number_y):
        face, text, y = original(name, name_font, first, last, number_y)
        return face, text, y + 2

    with using("fa"):
        assert touching_rows(screen, (128, 64)) == []
        arcana._ranking_name = too_low
        try:
            assert touching_rows(screen, (128, 64))
        finally:
            arcana._ranking_name = original


CHOICES = {  # the game chooser's titles and their options (firmware/controllers/chooser.py)
    "choice.which_game": ("arcana", "res_arcana", "enroll_cards", "language"),
    "choice.variant": ("basic", "advanced"),
    "choice.enroll": ("arcana_cards", "res_arcana_cards"),
}


@pytest.mark.parametrize("code", codes())
def test_every_choice_of_the_chooser_keeps_its_ink_at_both_heights(code):
    """Each of the chooser's choices at each of its lines: all ink on the panel and inside
    its box (the Persian variant title "آرکانا: کدام نسخه؟" lost its top rows at 128x32),
    the title clear of the selected option's box at 128x64."""
    from firmware.screens import ChoiceScreen

    problems = []
    with using(code) as language:
        for title, keys in CHOICES.items():
            options = tuple(language.text(f"choice.{key}", name=language.name) for key in keys)
            for selected in range(len(options)):
                screen = ChoiceScreen(language.text(title), options, selected)
                problems += [f"{size[1]}: {f}" for size in SIZES for f in ink_faults(screen, size)]
                problems += overlaps(screen)
    assert not problems, "\n".join(problems)
