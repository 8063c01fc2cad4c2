"""The bitmap fonts: complete for German names, and text that always fits its box."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.screens.font import ELLIPSIS, load_font

FONT_NAMES = ["small", "medium"]
NAME_TEXT = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzÄÖÜäöüß ABCXYZ-.'0123456789"), max_size=60
)


@pytest.mark.parametrize("name", FONT_NAMES)
def test_german_letters_have_their_own_glyphs(name):
    face = load_font(name)
    replacement = face.glyph("?").tobytes()
    for char in "ÄÖÜäöüßéèçñ€…":
        assert char in face.glyphs, char
        assert face.glyph(char).tobytes() != replacement, char


@pytest.mark.parametrize("name", [*FONT_NAMES, "digits"])
def test_every_glyph_is_as_tall_as_its_font(name):
    face = load_font(name)
    assert {glyph.height for glyph in face.glyphs.values()} == {face.height}
    assert face.cap_height > 0 and face.cap_top + face.cap_height <= face.height


def test_the_fonts_have_the_promised_sizes():
    assert load_font("small").cap_height == 7
    assert load_font("medium").cap_height == 10
    assert load_font("digits").cap_height == 22
    assert set("0123456789+-") <= set(load_font("digits").glyphs)


def test_a_character_the_font_lacks_is_drawn_as_a_question_mark():
    small = load_font("small")
    assert small.glyph("文").tobytes() == small.glyph("?").tobytes()
    assert small.width("文字") == 2 * small.width("?")


def test_fonts_are_parsed_once():
    assert load_font("small") is load_font("small")


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(deadline=None)  # the first example parses the bitmap font
@given(text=NAME_TEXT, width=st.integers(min_value=0, max_value=128))
def test_fit_never_exceeds_the_width_and_shows_when_it_cut(name, text, width):
    face = load_font(name)
    shown = face.fit(text, width)
    assert face.width(shown) <= width
    if face.width(text) <= width:
        assert shown == text
    elif shown:
        assert shown.endswith(ELLIPSIS)
        assert text.startswith(shown[: -len(ELLIPSIS)])


@pytest.mark.parametrize("name", FONT_NAMES)
@settings(deadline=None)  # the first example parses the bitmap font
@given(
    text=NAME_TEXT,
    width=st.integers(min_value=30, max_value=128),
    max_lines=st.integers(min_value=1, max_value=3),
)
def test_wrap_keeps_every_line_inside_and_at_most_max_lines(name, text, width, max_lines):
    face = load_font(name)
    lines = face.wrap(text, width, max_lines)
    assert 1 <= len(lines) <= max_lines
    assert all(face.width(line) <= width for line in lines)
    words_in = "".join(text.split())
    words_out = "".join("".join(lines).split())
    if lines[-1].endswith(ELLIPSIS) and not text.rstrip().endswith(ELLIPSIS):
        assert words_in.startswith(words_out[: -len(ELLIPSIS)])
    else:
        assert words_out == words_in  # nothing lost when it fits


def test_wrap_breaks_at_spaces_and_marks_what_it_leaves_out():
    small = load_font("small")
    assert small.wrap("Thieves to play", 60, 3) == ["Thieves to", "play"]
    lines = small.wrap("That agent is already on stake 2 and more words follow here", 70, 2)
    assert len(lines) == 2 and lines[-1].endswith(ELLIPSIS)
