"""Layouts hold for the worst a table can throw at them: long names, numbers up to 99, four
players, both display sizes. Checked on the marks the canvas keeps of every text and icon.
"""

from __future__ import annotations

import dataclasses
import re
from enum import Enum

import pytest

from firmware.screens import RENDERERS, SIZES, ChoiceScreen, Essence, RefusalScreen, render
from firmware.screens.canvas import Canvas
from firmware.screens.font import ELLIPSIS
from firmware.screens.gallery import EXAMPLES
from firmware.screens.shaping import RLM
from firmware.screens.short_forms import is_short_form

LONG = "Maximilian-Theodor Wolfgang Überschall-Käßbohrer von Grünewald"
NUMBER = re.compile(r"^(R|\+)?\d+(/\d+|\.| VP)?$")


def stressed(value):
    """The same screen with every name long, every number 99 and every list four long."""
    if isinstance(value, Enum | bool) or value is None:
        return value
    if isinstance(value, str):
        return LONG
    if isinstance(value, int):
        return 99
    if isinstance(value, tuple):
        if value and all(isinstance(item, Essence) for item in value):
            return tuple(Essence)
        items = [stressed(item) for item in value]
        return tuple(items + items[-1:] * (4 - len(items))) if items else value
    if dataclasses.is_dataclass(value):
        changes = {f.name: stressed(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    raise TypeError(f"no stress rule for {value!r}")


SCREENS = {**EXAMPLES, **{f"{name}_stressed": stressed(s) for name, s in EXAMPLES.items()}}


@pytest.fixture
def canvases(monkeypatch):
    """Every canvas a render makes, to read its marks."""
    made: list[Canvas] = []
    original = Canvas.__init__

    def keep(self, size):
        original(self, size)
        made.append(self)

    monkeypatch.setattr(Canvas, "__init__", keep)
    return made


def marks_of(screen, size, canvases):
    canvases.clear()
    RENDERERS[type(screen)](screen, size)  # the renderer itself: render() may answer from cache
    assert len(canvases) == 1
    return canvases[0].marks


def overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(SCREENS))
def test_text_and_icons_stay_inside_the_display_and_apart(name, size, canvases):
    marks = marks_of(SCREENS[name], size, canvases)
    width, height = size
    for mark in marks:
        assert 0 <= mark.x0 <= mark.x1 <= width, f"{mark} leaves the display sideways"
        assert 0 <= mark.y0 <= mark.y1 <= height, f"{mark} leaves the display vertically"
    for index, mark in enumerate(marks):
        for other in marks[index + 1 :]:
            assert not overlap(mark, other), f"{mark} overlaps {other}"


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(SCREENS))
def test_numbers_stay_whole_and_other_text_is_a_short_form_or_shows_an_ellipsis(
    name, size, canvases
):
    for mark in marks_of(SCREENS[name], size, canvases):
        if mark.text.startswith("icon:"):
            continue
        if NUMBER.match(mark.text):
            assert mark.shown == mark.text, f"number {mark.text!r} drawn as {mark.shown!r}"
        elif is_short_form(mark.text, mark.shown):  # a hand-chosen short form (or whole)
            continue
        else:
            assert mark.shown.endswith(ELLIPSIS), mark
            # a right-to-left text cut to no letter of its own keeps an RLM in front (Font.fit)
            kept = mark.shown[:-1].rstrip()
            assert mark.text.startswith(kept) or mark.text.startswith(kept.removeprefix(RLM)), mark


def test_stressed_screens_really_are_stressed(canvases):
    shortened = [
        mark
        for name, screen in SCREENS.items()
        if name.endswith("_stressed")
        for mark in marks_of(screen, SIZES[0], canvases)
        if mark.shown.endswith(ELLIPSIS)
    ]
    numbers = [
        mark for mark in marks_of(SCREENS["seat_stressed"], SIZES[0], canvases) if mark.text == "99"
    ]
    assert len(shortened) > len(EXAMPLES)  # long names were cut everywhere, visibly
    assert len(numbers) == 6  # five essences and the VP, all 99


def test_a_longer_name_changes_nothing_beyond_its_box():
    screen = EXAMPLES["stake"]
    long = render(dataclasses.replace(screen, card=LONG))
    longer = render(dataclasses.replace(screen, card=LONG + LONG))
    assert long.tobytes() == longer.tobytes()
    assert long.tobytes() != render(screen).tobytes()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_long_sentence_wraps_to_four_lines_at_most_and_says_it_was_cut(size, canvases):
    sentence = " ".join([LONG] * 4)
    marks = marks_of(RefusalScreen(sentence), size, canvases)
    texts = [m for m in marks if m.shown]
    assert 1 < len(texts) <= (4 if size[1] == 64 else 3)  # the small font's lines
    assert texts[-1].shown.endswith(ELLIPSIS)
    assert not [m for m in marks if m.text.startswith("icon:")]  # the text took its room
    short = [m for m in marks_of(RefusalScreen("Thieves to play"), size, canvases) if m.shown]
    assert " ".join(m.shown for m in short) == "Thieves to play"


def test_a_choice_scrolls_so_the_selected_option_shows(canvases):
    options = ("Two players", "Three players", "Four players", "Five", "Six")
    # two at a time on 128x64: the selected one and the next (the last two at the end)
    for selected, visible in ((0, options[:2]), (2, options[2:4]), (4, options[3:])):
        marks = marks_of(ChoiceScreen("Players", options, selected), SIZES[0], canvases)
        assert tuple(m.text for m in marks if m.text in options) == visible
        short = marks_of(ChoiceScreen("Players", options, selected), SIZES[1], canvases)
        assert [m.text for m in short if m.text in options] == [options[selected]]
    empty = marks_of(ChoiceScreen("Players", (), 3), SIZES[0], canvases)
    assert [m.text for m in empty] == ["Players", "Select: next  OK: pick"]


def test_render_answers_repeated_models_with_independent_copies():
    screen = RefusalScreen("Thieves to play")
    first = render(screen)
    first.paste(1, (0, 0, 128, 64))  # a caller drawing on its image...
    second = render(screen)
    assert second.tobytes() == RENDERERS[RefusalScreen](screen, (128, 64)).tobytes()
    assert second.tobytes() != first.tobytes()  # ...does not change the next one
