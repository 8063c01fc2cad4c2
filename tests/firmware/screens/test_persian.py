"""Persian on the OLED: shaped and ordered exactly as arabic_reshaper and python-bidi say, cut at
its logical end (the left), set against the right of its box, every letter form in the fonts.

The glyph sequence is read from what the font really pastes onto the image (each paste's mask
is one of the font's glyph bitmaps), then compared with the libraries' own visual string,
computed here with their default settings, independently of `firmware.screens.shaping`.
"""

from __future__ import annotations

import tomllib
import unicodedata
from pathlib import Path

import pytest
from arabic_reshaper import reshape
from bidi import get_display
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from firmware.language import text as tr
from firmware.language import using
from firmware.screens import (
    RENDERERS,
    SIZE_128X32,
    SIZE_128X64,
    ChoiceScreen,
    Essence,
    Essences,
    RankedPlayer,
    RankingScreen,
    ResStatusScreen,
    SeatScreen,
    Strength,
    VictoryCheckScreen,
    render,
)
from firmware.screens import font as font_module
from firmware.screens.canvas import Canvas
from firmware.screens.font import ELLIPSIS, REPLACEMENT, Font, load_font
from firmware.screens.shaping import RLM, is_rtl, persian_digits, shape
from firmware.screens.short_forms import forms

FONT_NAMES = ["small", "medium"]
FONTS_DIR = Path(__file__).resolve().parents[3] / "firmware" / "screens" / "fonts"

# The 32 letters of the Persian alphabet, with alef madda, the hamza forms, heh with yeh above
# and the Arabic kaf, yeh and teh marbuta that Persian text copied from Arabic carries.
PERSIAN_LETTERS = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی" + "آءأإؤئۀكية"
PERSIAN_SIGNS = "۰۱۲۳۴۵۶۷۸۹،؛؟«»٪"

SENTENCES = [
    "آتش، زندگی، آرامش، مرگ و طلا",  # the five essences, in the rules' words
    "بازیکن ۲ با ۱۰ امتیاز برنده است",
    "مریم 12 VP",  # ASCII digits and a Latin word inside
    "اژدهای استخوانی (Bone Dragon) ۳ طلا",
    "سلام، کلاه لاک",  # lam-alef ligatures
    "می\u200cکشد",  # a zero-width non-joiner
    "پاس دادن؟",
    "«رس آرکانا»",
    "Ann و مریم",  # starts left to right
]


def library_visual(text: str) -> str:
    """What the two libraries make of the text, with their default settings."""
    return get_display(reshape(text))


def drawn(visual: str) -> list[str]:
    """The characters of a visual string that leave a glyph: format characters have none."""
    return [char for char in visual if unicodedata.category(char) != "Cf"]


@pytest.fixture
def marks_of(monkeypatch):
    """Draw a screen with its renderer (render() may answer from its cache) and give the
    marks of its canvas by text."""
    made: list[Canvas] = []
    original = Canvas.__init__

    def keep(self, canvas_size):
        original(self, canvas_size)
        made.append(self)

    monkeypatch.setattr(Canvas, "__init__", keep)

    def marks(screen, size):
        made.clear()
        RENDERERS[type(screen)](screen, size)
        (canvas,) = made
        return {mark.text: mark for mark in canvas.marks}

    return marks


class PasteLog:
    """An image that records the glyph bitmaps pasted on it (and pastes them)."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.pastes: list[tuple[tuple[int, int, int, int], Image.Image]] = []

    def paste(self, fill, box, mask) -> None:
        self.pastes.append((box, mask))
        self.image.paste(fill, box, mask)


def pasted_chars(face: Font, log: PasteLog) -> list[str]:
    by_bitmap = {id(bitmap): char for char, bitmap in face.glyphs.items()}
    return [by_bitmap[id(mask)] for _, mask in log.pastes]


def draw_logged(face: Font, text: str, x: int = 2) -> tuple[PasteLog, int]:
    log = PasteLog(Image.new("1", (400, 40), 0))
    end = face.draw(log, x, 10, text)
    return log, end


@pytest.mark.parametrize("name", FONT_NAMES)
@pytest.mark.parametrize("text", SENTENCES)
def test_the_font_pastes_the_glyphs_the_shaping_libraries_give_left_to_right(name, text):
    face = load_font(name)
    log, end = draw_logged(face, text)
    expected = drawn(library_visual(text))
    assert pasted_chars(face, log) == expected
    assert REPLACEMENT not in expected or REPLACEMENT in text
    # each glyph starts where the previous one's advance ended, from left to right
    pen = 2
    ink_end = 0  # the last column with ink, plus one (an آ's madda reaches past its advance)
    for char, (box, _) in zip(expected, log.pastes, strict=True):
        left = face.spacing.get(char, (0, 0))[1]
        assert box[0] == pen - left
        pen += face.advance(char)
        ink = face.glyph(char).getbbox()
        ink_end = max(ink_end, box[0] + ink[2]) if ink else ink_end
    assert end == pen
    assert 2 + face.width(text) == max(pen, ink_end)  # a text's width holds all its ink


@pytest.mark.parametrize("text", SENTENCES)
def test_the_pixels_are_the_library_glyphs_side_by_side(text):
    """Not the paste log alone: the image equals the expected glyph bitmaps pasted in turn."""
    face = load_font("small")
    canvas = Canvas(SIZE_128X64)
    canvas.text(0, 20, text, width=400)  # room enough: nothing is cut
    expected = Image.new("1", SIZE_128X64, 0)
    visual = drawn(library_visual(text))
    x = canvas.marks[0].x0
    for char in visual:
        bitmap = face.glyphs[char]
        left = x - face.spacing.get(char, (0, 0))[1]
        top = 20 - face.cap_top
        expected.paste(1, (left, top, left + bitmap.width, top + bitmap.height), bitmap)
        x += face.advance(char)
    assert canvas.image.tobytes() == expected.tobytes()


@settings(deadline=None)
@given(
    text=st.text(
        alphabet=st.sampled_from(PERSIAN_LETTERS + PERSIAN_SIGNS + " 0123456789 abc-:()."),
        max_size=40,
    )
)
def test_any_persian_text_is_pasted_as_the_libraries_order_it(text):
    assume("لله" not in text)  # the libraries' default ALLAH word ligature, left off here
    face = load_font("small")
    log, _ = draw_logged(face, text)
    assert pasted_chars(face, log) == drawn(library_visual(text))
    assert shape(text) == library_visual(text)


def test_shape_leaves_text_without_arabic_script_alone_and_is_the_libraries_otherwise():
    assert shape("Thieves 3") == "Thieves 3"
    assert shape("آتش ۳") == "۳ \ufeb6\ufe97\ufe81"  # final sheen, initial teh, alef madda
    assert shape("طلا") == "\ufefc\ufec3"  # the lam-alef ligature (final), then initial tah
    # the ALLAH ligature has no glyph in our fonts: the word is shaped letter by letter
    assert shape("الله") == "\ufeea\ufee0\ufedf\ufe8d"


@pytest.mark.parametrize("name", FONT_NAMES)
def test_every_form_the_reshaper_makes_of_the_persian_alphabet_is_baked(name):
    face = load_font(name)
    replacement = face.glyph(REPLACEMENT).tobytes()
    contexts = ("{}", "ب{}", "{}ب", "ب{}ب", "ل{}", "بل{}", "{}ـ")
    forms = set(PERSIAN_SIGNS)
    for letter in PERSIAN_LETTERS:
        for context in contexts:
            forms.update(shape(context.format(letter)))
    forms.discard(" ")
    assert len(forms) > 130  # isolated, initial, medial and final forms, ligatures, signs
    for char in forms:
        assert char in face.glyphs, f"U+{ord(char):04X} {unicodedata.name(char, '?')}"
        assert face.glyph(char).getbbox() is not None, f"U+{ord(char):04X} has no ink"
        assert face.glyph(char).tobytes() != replacement


@pytest.mark.parametrize("name", FONT_NAMES)
def test_joining_marks_are_in_the_font_and_take_no_room(name):
    face = load_font(name)
    for char in ("\u200c", "\u200d", RLM):
        assert char in face.glyphs
        assert face.advance(char) == 0
    assert face.width("می\u200cکشد") == face.width("می") + face.width("کشد")


def test_persian_glyphs_sit_on_the_latin_baseline():
    """Merged on one baseline: alef stands where x stands, and each Persian digit on the
    rows of the Latin ones (in `medium` a row above x, as DejaVu's digits stand there)."""
    for name in FONT_NAMES:
        face = load_font(name)
        for char in ("\ufe8d", "x"):
            assert face.glyph(char).getbbox()[3] == face.baseline, (name, char)
        for latin, persian in zip("0123456789", "۰۱۲۳۴۵۶۷۸۹", strict=True):
            assert face.ink_rows(latin)[1] == face.ink_rows(persian)[1] or persian == "۰"
        assert {glyph.height for glyph in face.glyphs.values()} == {face.height}


@pytest.mark.parametrize("name", ["small", "medium"])
def test_persian_digits_take_no_more_rows_than_latin_ones(name):
    """A layout made for 0-9 holds ۰-۹: their ink is inside the Latin digits' rows (the
    13 and 16 px Vazirmatn digits reached up to three rows above them and one below)."""
    face = load_font(name)
    top, bottom = face.ink_rows("0123456789")
    for digit in "۰۱۲۳۴۵۶۷۸۹":
        first, last = face.ink_rows(digit)
        assert top <= first and last <= bottom, (digit, first, last)


@pytest.mark.parametrize("name", FONT_NAMES)
def test_a_cut_persian_text_loses_its_left_end_and_shows_the_ellipsis_there(name):
    face = load_font(name)
    text = "اژدهای استخوانی سه طلا می‌گیرد"
    shown = face.fit(text, 50)
    assert face.width(shown) <= 50
    assert shown.endswith(ELLIPSIS) and text.startswith(shown[: -len(ELLIPSIS)])
    visual = face.pasted(shown)
    assert visual[0] == ELLIPSIS  # the logical end of right-to-left text is its left
    assert visual == library_visual(shown)
    # the kept letters are the start of the text, as the libraries order them
    kept = drawn(library_visual(shown[: -len(ELLIPSIS)]))
    assert drawn(visual)[1:] == kept


def test_a_cut_latin_text_still_ends_on_the_right():
    small = load_font("small")
    shown = small.fit("Ann و مریم و علی", 40)
    assert shown.endswith(ELLIPSIS) and small.pasted(shown).endswith(ELLIPSIS)


def test_a_cut_that_leaves_only_digits_stays_right_to_left():
    small = load_font("small")
    shown = small.fit("۱۲۳۴۵ ۶۷۸۹۰ مریم", 30)
    assert shown.startswith(RLM) and shown.endswith(ELLIPSIS)
    assert small.pasted(shown)[0] == ELLIPSIS


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(PERSIAN_LETTERS + "۰۱۲۳ 12 ab"), max_size=40),
    width=st.integers(min_value=0, max_value=128),
)
def test_fit_cuts_right_to_left_text_on_its_left(name, text, width):
    face = load_font(name)
    shown = face.fit(text, width)
    assert face.width(shown) <= width
    if face.width(text) <= width:
        assert shown == text
    elif shown:
        assert shown.endswith(ELLIPSIS)
        assert text.startswith(shown.removeprefix(RLM)[: -len(ELLIPSIS)])
        visual = face.pasted(shown)
        if is_rtl(text):
            assert visual[0] == ELLIPSIS
        else:
            assert visual.endswith(ELLIPSIS)


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(PERSIAN_LETTERS + "۱۲ "), max_size=60),
    width=st.integers(min_value=30, max_value=128),
)
def test_wrapped_persian_lines_fit_their_width(name, text, width):
    face = load_font(name)
    lines = face.wrap(text, width, 3)
    assert 1 <= len(lines) <= 3
    assert all(face.width(line) <= width for line in lines)


def test_persian_text_is_set_against_the_right_of_its_box():
    canvas = Canvas(SIZE_128X64)
    canvas.text(10, 5, "مریم", width=100)
    canvas.text(10, 25, "Ann", width=100)
    persian, latin = canvas.marks
    assert persian.x1 == 110 and persian.x0 > 10
    assert latin.x0 == 10 and latin.x1 < 110


def test_a_cut_persian_text_fills_its_box_from_the_right_with_the_ellipsis_leftmost():
    canvas = Canvas(SIZE_128X64)
    canvas.text(20, 5, "اژدهای استخوانی سه طلا می‌گیرد", width=60)
    (mark,) = canvas.marks
    assert mark.shown.endswith(ELLIPSIS) and mark.x0 >= 20 and mark.x1 == 80
    small = load_font("small")
    ellipsis = small.glyph(ELLIPSIS)
    # the leftmost ink is the ellipsis: its dots in place, nothing left of the mark
    assert canvas.image.crop((0, 0, mark.x0, 64)).getbbox() is None
    top = 5 - small.cap_top
    there = canvas.image.crop((mark.x0, top, mark.x0 + ellipsis.width, top + small.height))
    assert ImageChops.logical_and(there, ellipsis).tobytes() == ellipsis.tobytes()


@pytest.mark.parametrize("size", [SIZE_128X64, SIZE_128X32], ids=["128x64", "128x32"])
def test_name_and_value_columns_are_mirrored_for_persian_names(size, marks_of):
    scores = (Strength("مریم", 11), Strength("علی", 9), Strength("سارا", 4))
    marks = marks_of(VictoryCheckScreen(round=2, scores=scores), size)
    first, second, third = (marks[name] for name in ("مریم", "علی", "سارا"))
    assert first.x0 > second.x0 > third.x0  # the first column on the right
    if size == SIZE_128X32:  # "number name" on one line: the number on the left
        assert marks["11"].x1 <= first.x0 and marks["9"].x1 <= second.x0
    latin = (Strength("Ann", 11), Strength("Ben", 9))
    marks = marks_of(VictoryCheckScreen(round=2, scores=latin), size)
    assert marks["Ann"].x0 < marks["Ben"].x0
    if size == SIZE_128X32:
        assert marks["Ann"].x1 <= marks["11"].x0


def test_persian_digits_replace_ascii_digits_only():
    assert persian_digits("Round 12: 3/4 VP") == "Round ۱۲: ۳/۴ VP"
    assert persian_digits("مریم ۱۰") == "مریم ۱۰"
    # digits keep their left-to-right order inside right-to-left text
    assert "۱۲۳" in shape(persian_digits("امتیاز 123"))


def test_is_rtl_follows_the_first_strong_character():
    assert is_rtl("مریم 12") and is_rtl("۱۲ مریم") and is_rtl("12: علی")
    assert not is_rtl("Ann مریم") and not is_rtl("۱۲") and not is_rtl("")


def test_the_big_digits_font_holds_persian_digits_as_tall_as_its_own():
    digits = load_font("digits")
    for char in "۰۱۲۳۴۵۶۷۸۹":
        assert digits.glyph(char).tobytes() != digits.glyph(REPLACEMENT).tobytes(), char
    one, latin_one = digits.glyph("۱").getbbox(), digits.glyph("1").getbbox()
    assert abs((one[3] - one[1]) - (latin_one[3] - latin_one[1])) <= 1
    assert digits.width(persian_digits("12")) <= digits.width("12") + 4


def test_persian_text_without_a_box_starts_where_it_is_put():
    """A caller that sized a box to the text (an inverted status) draws it at x."""
    canvas = Canvas(SIZE_128X64)
    end = canvas.text(2, 19, "نوبت شما")
    (mark,) = canvas.marks
    assert mark.x0 == 2 and end == mark.x1 == 2 + load_font("small").width("نوبت شما")


def test_the_choice_count_moves_left_of_a_persian_title(marks_of):
    for size in (SIZE_128X64, SIZE_128X32):
        marks = marks_of(ChoiceScreen("بازی را انتخاب کنید", ("آرکانا", "رس آرکانا")), size)
        assert marks["1/2"].x1 < marks["بازی را انتخاب کنید"].x0
        assert marks["بازی را انتخاب کنید"].x1 >= 126
        marks = marks_of(ChoiceScreen("Choose the game", ("Arcana", "Res Arcana")), size)
        assert marks["Choose the game"].x1 < marks["1/2"].x0


PERSIAN_CATALOG = Path(__file__).resolve().parents[3] / "firmware" / "language" / "fa.toml"


def catalog_texts(table: dict) -> list[str]:
    """Every text of a catalog table: its keys (the short forms' names) and values."""
    found: list[str] = []
    for key, value in table.items():
        found.append(key)
        if isinstance(value, dict):
            found.extend(catalog_texts(value))
        else:
            found.extend(map(str, value) if isinstance(value, list) else [str(value)])
    return found


@pytest.mark.parametrize("name", FONT_NAMES)
def test_every_persian_catalog_text_is_drawn_with_the_fonts_own_glyphs(name):
    """No sentence of fa.toml shows a '?' box: every shaped character has its glyph."""
    face = load_font(name)
    catalog = tomllib.loads(PERSIAN_CATALOG.read_text(encoding="utf-8"))
    texts = catalog_texts(catalog)
    assert len(texts) > 200
    for text in texts:
        for line in text.split("\n"):
            missing = {char for char in face.pasted(line) if char not in face.glyphs}
            assert not missing, f"{line!r}: no glyph for {sorted(missing)}"


def test_every_wrapped_line_of_a_persian_paragraph_reads_right_to_left():
    small = load_font("small")
    text = "\u200fClockwork Spy را در منطقه ۲ گذاشت و Old Smuggler را دور انداخت"
    lines = small.wrap(text, 60, 6)
    assert len(lines) >= 3
    assert any(line.startswith(RLM + "Old") or line.startswith(RLM + "Smuggler") for line in lines)
    assert all(is_rtl(line) for line in lines)
    assert not any(RLM in line for line in small.wrap("Clockwork Spy and more", 60, 3))


def test_a_seat_with_a_persian_line_has_its_vp_on_the_left_on_128x32(marks_of):
    marks = marks_of(SeatScreen(name="مریم", essences=Essences(), vp=7), SIZE_128X32)
    assert marks["7 VP"].x0 == 1 and marks["7 VP"].x1 < marks["مریم"].x0
    assert marks["مریم"].x1 == 126  # against the right edge, inside the box
    marks = marks_of(SeatScreen(name="Ann", essences=Essences(), vp=7), SIZE_128X32)
    assert marks["Ann"].x1 < marks["7 VP"].x0 and marks["7 VP"].x1 == 128


def glyph_rows(name: str, char: str) -> tuple[str, list[str]]:
    """The header line and the rows of one glyph, read straight from its glyph file."""
    rows = (FONTS_DIR / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    start = next(i for i, row in enumerate(rows) if row.startswith(f"glyph {ord(char):04X} "))
    height = int(next(row for row in rows if row.startswith("height ")).split()[1])
    return rows[start], rows[start + 1 : start + 1 + height]


def ink_rows(image: Image.Image) -> list[str]:
    return [
        "".join("#" if image.getpixel((x, y)) else "." for x in range(image.width))
        for y in range(image.height)
    ]


def test_a_persian_glyph_file_parses_to_its_rows_advance_and_left_reach():
    """Parsed afresh (load_font keeps one copy per process)."""
    persian = font_module._read("small-fa")
    header, rows = glyph_rows("small-fa", "\ufef3")  # initial yeh: its dots reach 2 px left
    assert header == "glyph FEF3 4 2"
    assert persian.spacing["\ufef3"] == (4, 2) and persian.advance("\ufef3") == 4
    assert ink_rows(persian.glyphs["\ufef3"]) == [row.ljust(len(rows[0]), ".") for row in rows]
    assert persian.advance("\u200c") == 0 and persian.glyphs["\u200c"].width == 0
    assert (persian.height, persian.baseline) == (len(rows), 12)


@pytest.mark.parametrize("name", FONT_NAMES)
def test_merging_puts_both_glyph_files_on_one_baseline(name):
    latin, persian = font_module._read(name), font_module._read(f"{name}-fa")
    merged = font_module._merged(latin, persian)
    above = max(latin.baseline, persian.baseline)
    below = max(latin.height - latin.baseline, persian.height - persian.baseline)
    assert (merged.baseline, merged.height) == (above, above + below)
    assert merged.name == latin.name
    shift = above - latin.baseline
    assert merged.cap_top == latin.cap_top + shift and merged.cap_height == latin.cap_height
    for char, source in (("H", latin), ("g", latin), ("\ufef3", persian), ("\ufeea", persian)):
        top = above - source.baseline
        glyph = merged.glyphs[char]
        assert glyph.height == merged.height
        assert ink_rows(glyph)[top : top + source.height] == ink_rows(source.glyphs[char])
        assert glyph.crop((0, 0, glyph.width, top)).getbbox() is None
        assert merged.spacing.get(char) == source.spacing.get(char)
    assert set(merged.glyphs) == set(latin.glyphs) | set(persian.glyphs)


@pytest.mark.parametrize("name", FONT_NAMES)
def test_a_persian_word_wider_than_a_line_is_cut_where_its_shaped_prefix_fills_the_line(name):
    face = load_font(name)
    word = "ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهی".replace("ا", "ب")  # all joining letters
    for keep in (3, 7, 12):
        lines = face.wrap(word, face.width(word[:keep]), 99)
        assert lines[0] == word[:keep]  # exactly as wide as the line: it still fits
    assert "".join(face.wrap(word, 40, 99)) == word


def test_a_persian_paragraph_gets_no_marks_where_its_lines_read_right_to_left_anyway():
    small = load_font("small")
    lines = small.wrap("آتش زندگی آرامش مرگ و طلا جوهرهای بازی هستند", 50, 9)
    assert len(lines) > 2 and not any(RLM in line for line in lines)


@pytest.mark.parametrize(
    ("name", "cap_height"),
    [
        ("small", 7),
        ("medium", 10),
        ("digits", 22),
        ("small-fa", 9),
        ("digits-fa", 21),
        ("small-digits-fa", 7),
        ("medium-digits-fa", 10),
    ],
)
def test_each_glyph_file_parses_alone_with_its_name_and_letter_height(name, cap_height):
    """Parsed afresh: a Persian file measures its alef (or ۱, for the digits) as its capital."""
    face = font_module._read(name)
    assert face.name == name and face.cap_height == cap_height
    assert face.cap_top + face.cap_height <= face.baseline + 1
    assert {glyph.height for glyph in face.glyphs.values()} == {face.height}


RANKING = RankingScreen(
    players=(RankedPlayer(1, "مریم", 21), RankedPlayer(2, "Ann", 17), RankedPlayer(3, "سارا", 12))
)


@pytest.mark.parametrize("size", [SIZE_128X64, SIZE_128X32])
def test_the_persian_ranking_reads_right_to_left(size, marks_of):
    """Rank on the right, then the name, the points on the left (a Latin name too); in
    English rank, name, points from the left."""
    with using("fa"):
        marks = marks_of(RANKING, size)
    for rank, name, points in ((1, "مریم", "21"), (2, "Ann", "17"), (3, "سارا", "12")):
        assert marks[points].x1 < marks[name].x0, name
        assert marks[name].x1 < marks[f"{RLM}{rank}."].x0, name
    with using("en"):
        marks = marks_of(RankingScreen(players=(RankedPlayer(1, "Ann", 21),)), size)
    assert marks["1."].x1 < marks["Ann"].x0 < marks["Ann"].x1 < marks["21"].x0


def test_the_persian_ranking_title_stands_against_the_right_edge(marks_of):
    with using("fa"):
        title = tr("score.ranking")
        marks = marks_of(RANKING, SIZE_128X64)
        image = render(RANKING, SIZE_128X64, "fa")
    assert marks[title].x1 == 128 and marks[title].x0 > 40
    ink = image.crop((0, 0, 128, 11)).getbbox()
    assert ink is not None and ink[0] > 40 and ink[2] >= 126  # its pixels, not just its mark
    with using("en"):
        marks = marks_of(RANKING, SIZE_128X64)
    assert marks["Final ranking"].x0 == 0
    image = render(RANKING, SIZE_128X64, "en")
    assert image.crop((0, 0, 128, 11)).getbbox()[0] <= 1


def test_the_persian_ranking_puts_the_winner_first_on_the_right_at_128x32(marks_of):
    four = RankingScreen(players=(*RANKING.players, RankedPlayer(4, "رضا", 9)))
    with using("fa"):
        marks = marks_of(four, SIZE_128X32)
    assert marks["مریم"].x0 > 64 > marks["Ann"].x1  # the second cell on the left


@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_persian_winners_name_stays_inside_its_box_and_clear_of_the_next_row(count, marks_of):
    """Persian names reach higher and lower than Latin ones: with up to three players the rows
    are taller, so the winner's inverted box holds its whole name and the next name stays
    below it (the mages' Persian names, every order)."""
    from itertools import pairwise, permutations

    from engine.resarcana import CARDS
    from firmware.language import load

    names = [load("fa").res_arcana_cards[card] for card, c in CARDS.items() if c.kind == "mage"]
    for order in permutations(names, min(count, len(names))):
        players = tuple(RankedPlayer(i + 1, name, 20 - i) for i, name in enumerate(order))
        screen = RankingScreen(players=players)
        with using("fa"):
            marks = marks_of(screen, SIZE_128X64)
            image = render(screen, SIZE_128X64, "fa")
        rows = []
        for name in order:  # a name too tall for a row of 13 shows a short form
            with using("fa"):
                short = forms(name)
            shown = name if name in marks else next(f for f in short if f in marks)
            mark = marks[shown]
            face = load_font("small" if mark.y1 - mark.y0 == 7 else "medium")
            top, bottom = face.ink_rows(shown)
            rows.append((mark.y0 + top, mark.y0 + bottom))
        box_bottom = max(y for y in range(12, 64) if image.getpixel((0, y)))
        if count < 4:
            assert rows[0][0] >= 12 and rows[0][1] <= box_bottom, order
            assert rows[1][0] > box_bottom, order
        # four rows of 13 too: a blank row between a name's tail and the next name's top
        assert all(a[1] + 1 < b[0] for a, b in pairwise(rows)), order


def status_marks(monkeypatch, screen, size, language: str) -> list:
    """The marks of a Res Arcana status drawn in a language, in drawing order."""
    made: list[Canvas] = []
    original = Canvas.__init__

    def keep(self, canvas_size):
        original(self, canvas_size)
        made.append(self)

    monkeypatch.setattr(Canvas, "__init__", keep)
    with using(language):
        RENDERERS[type(screen)](screen, size)
    return made[-1].marks


STATUS = ResStatusScreen(
    round=4,
    turn="Ben",
    places=(Essence.FIRE, Essence.CALM, Essence.GOLD),
    monuments_up=2,
    monuments_hidden=3,
)


@pytest.mark.parametrize("language", ["fa", "en"])
def test_the_places_and_monuments_read_from_the_label_in_its_direction(monkeypatch, language):
    """128x64: "Places" then its icons, "Monuments" then the monuments and "+N", read from
    the left in English; in Persian each label stands against the right edge and its
    figures follow it leftwards, the first place nearest the label (icons unmirrored)."""
    marks = status_marks(monkeypatch, STATUS, SIZE_128X64, language)
    with using(language):
        places, monuments = tr("res.places"), tr("res.monuments")
    by_text = {mark.text: mark for mark in marks}
    label, row = by_text[places], [m for m in marks if 30 <= m.y0 <= 46 and m.text != places]
    icons = [m.text for m in row]
    assert icons == ["icon:fire", "icon:calm", "icon:gold"]  # in the places' order
    rtl = language == "fa"
    # reading order: from the label outwards, to the right (English) or to the left
    edges = [m.x0 for m in row]
    assert edges == (sorted(edges, reverse=True) if rtl else sorted(edges))
    if rtl:
        assert label.x1 == 128 and all(m.x1 < label.x0 for m in row)
    else:
        assert label.x0 == 0 and all(m.x0 > label.x1 for m in row)
    label = by_text[monuments]
    row = [m for m in marks if m.y0 >= 48 and m.text != monuments]
    assert [m.text for m in row] == ["icon:monument", "icon:monument", "+3"]
    edges = [m.x0 for m in row]
    assert edges == (sorted(edges, reverse=True) if rtl else sorted(edges))
    if rtl:
        assert label.x1 == 128 and all(m.x1 < label.x0 for m in row)
    else:
        assert all(m.x0 > label.x1 for m in row)


@pytest.mark.parametrize("language", ["fa", "en"])
def test_at_128x32_the_places_come_first_in_reading_order(monkeypatch, language):
    """No labels on 128x32: the places first, then the monuments; in Persian the places
    stand on the right, the monuments (and "+N" last) left of them."""
    marks = [m for m in status_marks(monkeypatch, STATUS, SIZE_128X32, language) if m.y0 >= 16]
    names = [m.text for m in marks]
    assert names == ["icon:fire", "icon:calm", "icon:gold", "icon:monument", "icon:monument", "+3"]
    edges = [m.x0 for m in marks]
    if language == "fa":
        assert edges == sorted(edges, reverse=True) and marks[0].x1 >= 126  # icon ink
    else:
        assert edges == sorted(edges) and marks[0].x0 <= 1


@pytest.mark.parametrize("name", ["small", "medium"])
@pytest.mark.parametrize("text", ["آزاد", "آتش", "آرامش"])
def test_a_text_right_aligned_against_the_edge_keeps_every_column_of_its_ink(name, text):
    """آ opens these words: its madda reaches a pixel past its advance, right of where the
    pen ends. A text's width counts it, so right-aligned at the edge nothing falls off."""
    face = load_font(name)
    canvas = Canvas(SIZE_128X64)
    canvas.text(0, 20, text, font=name, width=128, align="right")
    roomy = Image.new("1", (256, 64), 0)
    face.draw(roomy, 64, 20, text)

    def ink(image: Image.Image) -> int:
        return sum(image.convert("L").histogram()[1:])

    assert ink(canvas.image) == ink(roomy) > 0  # as many pixels as drawn with room around
    assert canvas.image.getbbox()[2] == 128  # and flush with the edge, not a pixel short
