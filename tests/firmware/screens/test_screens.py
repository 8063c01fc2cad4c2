"""The screens' contract: pure rendering, hidden agents only counted, text art, the gallery,
and no engine or hardware imports.
"""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from firmware.screens import (
    SIZE_128X32,
    SIZE_128X64,
    SIZES,
    Arcanum,
    BribeScreen,
    Essence,
    Essences,
    GuildAtStake,
    StakeScreen,
    guild_at_stake,
    render,
    text_art,
)
from firmware.screens.gallery import DIGITS_OF, EXAMPLES, LANGUAGE_OF, LEGEND, main, picture
from firmware.screens.icons import icon, icon_names
from firmware.screens.text_art import HALF_BLOCKS, diff_art

SCREENS_DIR = Path(__file__).resolve().parents[3] / "firmware" / "screens"
AGENTS = st.lists(st.tuples(st.integers(0, 9), st.booleans()), max_size=9)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_screen_is_a_one_colour_image_of_the_display_size(name, size):
    image = render(EXAMPLES[name], size)
    assert image.mode == "1"
    assert image.size == size
    assert image.getbbox() is not None  # something is drawn
    assert render(EXAMPLES[name], size).tobytes() == image.tobytes()  # pure: same pixels


def test_render_refuses_other_sizes_and_other_objects_with_a_sentence():
    with pytest.raises(ValueError, match="128x64 or 128x32"):
        render(EXAMPLES["saved"], (96, 16))
    with pytest.raises(TypeError, match="dict is not a screen model"):
        render({"card": "Clockwork Spy"})


def test_models_are_frozen_plain_data():
    screen = EXAMPLES["stake"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        screen.threshold = 3
    assert hash(screen) == hash(dataclasses.replace(screen))


@settings(deadline=None)  # renders two screens at every size (PIL), slow on a loaded machine
@given(agents=AGENTS, other_values=st.lists(st.integers(0, 9), min_size=9, max_size=9))
def test_face_down_values_never_change_the_stake_screen(agents, other_values):
    swapped = [
        (value if face_up else other, face_up)
        for (value, face_up), other in zip(agents, other_values, strict=False)
    ]
    first = guild_at_stake("Ann", agents)
    second = guild_at_stake("Ann", swapped)
    assert first == second
    assert first.strength == sum(value for value, up in agents if up)
    assert first.hidden == sum(1 for _, up in agents if not up)
    screens = [StakeScreen("Spy", Arcanum.MILITARY, 7, (guild,)) for guild in (first, second)]
    for size in SIZES:
        assert render(screens[0], size).tobytes() == render(screens[1], size).tobytes()


def test_the_hidden_count_is_shown_and_the_values_have_no_field_to_hide_in():
    assert [field.name for field in dataclasses.fields(GuildAtStake)] == [
        "label",
        "strength",
        "hidden",
        "controls",  # whether the guild controls the stake: public, from the seating
    ]
    images = {
        hidden: render(StakeScreen("Spy", Arcanum.MILITARY, 7, (GuildAtStake("Ann", 3, hidden),)))
        for hidden in (0, 1, 2)
    }
    assert len({image.tobytes() for image in images.values()}) == 3


def test_a_bribe_succeeds_when_its_value_reaches_the_agents_financial():
    assert BribeScreen("Spy", "Ann", 5, 5).succeeded
    assert not BribeScreen("Spy", "Ann", 4, 5).succeeded


def test_essences_are_counted_by_kind():
    essences = Essences(fire=1, life=2, calm=3, death=4, gold=5)
    assert [essences.count(kind) for kind in Essence] == [1, 2, 3, 4, 5]


def test_every_arcanum_and_essence_has_an_icon_of_twelve_pixels():
    for name in [*Arcanum, *Essence]:
        assert name.value in icon_names()
        assert icon(name.value).size == (12, 12)
        assert icon(name.value, scale=2).size == (24, 24)
    drawn = {icon(name.value).tobytes() for name in [*Arcanum, *Essence]}
    assert len(drawn) == 9  # all different


def test_scaling_an_icon_repeats_each_pixel():
    small, big = icon("death"), icon("death", scale=2)
    for y in range(small.height):
        for x in range(small.width):
            assert all(
                bool(big.getpixel((2 * x + dx, 2 * y + dy))) == bool(small.getpixel((x, y)))
                for dx in (0, 1)
                for dy in (0, 1)
            )


def test_text_art_packs_two_rows_into_half_blocks():
    image = Image.new("1", (4, 2), 0)
    image.putpixel((0, 0), 1)
    image.putpixel((1, 1), 1)
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)
    assert text_art(image) == "▀▄█ "
    assert text_art(image, style="hash") == "#.#.\n.##."
    assert text_art(image, frame=True).splitlines() == ["┌────┐", "│▀▄█ │", "└────┘"]


def test_text_art_of_a_screen_reads_back_to_the_same_pixels():
    image = render(EXAMPLES["seat"])
    lines = text_art(image).splitlines()
    assert len(lines) == 32 and {len(line) for line in lines} == {128}
    decode = {char: pair for pair, char in HALF_BLOCKS.items()}
    for row, line in enumerate(lines):
        for x, char in enumerate(line):
            upper, lower = decode[char]
            assert upper == bool(image.getpixel((x, 2 * row)))
            assert lower == bool(image.getpixel((x, 2 * row + 1)))
    with pytest.raises(ValueError, match="'half' or 'hash'"):
        text_art(image, style="braille")


def test_diff_art_is_empty_for_equal_screens_and_marks_changes():
    first = render(EXAMPLES["refusal"])
    assert diff_art(first, render(EXAMPLES["refusal"])) == ""
    changed = first.copy()
    changed.putpixel((0, 0), 1)
    assert diff_art(first, changed).splitlines() == ["1 pixels differ in x 0..0, y 0..0:", "+"]
    assert "sizes differ" in diff_art(first, render(EXAMPLES["refusal"], SIZE_128X32))


def test_the_gallery_writes_doc_pictures_and_prints_text_art(tmp_path, capsys):
    assert main([str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("*.png"))) == 2 * len(EXAMPLES) + len(LEGEND)  # + icons
    with Image.open(tmp_path / "refusal.png") as written:
        assert written.size == picture(render(EXAMPLES["refusal"])).size
    capsys.readouterr()
    assert main(["--print", "refusal"]) == 0
    out = capsys.readouterr().out
    assert "refusal 128x64" in out and "refusal 128x32" in out
    assert text_art(render(EXAMPLES["refusal"], SIZE_128X64), frame=True) in out


def test_the_screens_import_neither_engine_nor_hardware():
    for path in SCREENS_DIR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in {"engine", "hardware"}, f"{path.name}: {name}"


DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_docs_show_the_current_screens(name):
    text = (DOCS / "screens.md").read_text(encoding="utf-8")
    for size, suffix in ((SIZE_128X64, ""), (SIZE_128X32, "_32")):
        path = DOCS / "screens" / f"{name}{suffix}.png"
        assert f"(screens/{path.name})" in text, f"docs/screens.md does not show {path.name}"
        with Image.open(path) as shown:
            current = picture(
                render(EXAMPLES[name], size, LANGUAGE_OF.get(name), DIGITS_OF.get(name))
            )
            assert shown.convert("RGB").tobytes() == current.tobytes(), (
                f"{path.name} is stale: python -m firmware.screens.gallery docs/screens"
            )


def test_render_times_cover_every_screen_at_both_sizes(capsys):
    assert main(["--time"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert len(figures["screens"]) == 2 * len(EXAMPLES)
    assert figures["max_ms"] == max(figures["screens"].values())


@pytest.mark.parametrize("name", list(LEGEND))
def test_the_docs_legend_shows_each_icon_as_drawn(name):
    text = (DOCS / "screens.md").read_text(encoding="utf-8")
    assert f"(screens/icon_{name}.png) | {LEGEND[name]} |" in text
    with Image.open(DOCS / "screens" / f"icon_{name}.png") as shown:
        assert shown.convert("RGB").tobytes() == picture(icon(name)).tobytes()


def test_the_legend_names_every_arcanum_and_essence():
    assert set(Arcanum) | set(Essence) <= set(LEGEND)
