"""A Res Arcana game in Persian clicked through the simulator's page in Debian's chromium.

The simulator starts with a table profile whose first language is Persian (`[table] language =
"fa"`); a seeded bot plays both seats to the end by clicks in the page. The OLED mirrors the
page draws are read back pixel by pixel and must hold the Persian words as the shaping
libraries give them: the glyphs of `get_display(reshape(text))` (python-bidi over
arabic-reshaper, computed here with their own defaults, not through firmware.screens.shaping)
side by side, found in the mirror. Of the page's own words (firmware/sim/page), mid-game and
at the end: no Latin word but the table's ids and the buttons' names (`latin_words`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

import numpy as np
import pytest
from arabic_reshaper import reshape
from bidi import get_display
from PIL import Image

from engine.resarcana import CARDS
from firmware.controllers import resarcana
from firmware.language import load, using
from firmware.screens import RefusalScreen, render
from firmware.screens.font import load_font
from firmware.sim.server import Running, make_app
from firmware.sim.table import Simulator
from hardware.profile import load_profile
from tests.browser.conftest import PageTable, latin_words_on
from tests.browser.test_play import acting_seat, check_mirrors, frame, play_steps, same

pytestmark = pytest.mark.browser

PERSIAN = load("fa")


@pytest.fixture
def persian_table(browser, tmp_path):
    """The simulator on the full table whose profile names Persian first, in a page."""
    profile = replace(load_profile("full-table"), language="fa")
    table = Simulator(tmp_path / "state", profile)
    running = Running(make_app(table, tick_s=0.5))
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield PageTable(page, table, running.url)
    page.close()
    running.stop()
    assert errors == [], f"the page raised: {errors}"


def library_glyphs(text: str, font: str) -> np.ndarray:
    """The text as the libraries order and shape it, drawn glyph after glyph in the table's
    font, cropped to its ink with a margin of one pixel (True where lit)."""
    face = load_font(font)
    visual = [c for c in get_display(reshape(text)) if unicodedata.category(c) != "Cf"]
    strip = Image.new("1", (sum(face.advance(c) for c in visual) + 8, face.height + 4), 0)
    x = 4
    for char in visual:
        glyph = face.glyphs[char]  # a missing form would be a KeyError, not a "?"
        left = x - face.spacing.get(char, (0, 0))[1]
        strip.paste(1, (left, 2, left + glyph.width, 2 + glyph.height), glyph)
        x += face.advance(char)
    x0, y0, x1, y1 = strip.getbbox()
    return np.array(strip.crop((x0 - 1, y0 - 1, x1 + 1, y1 + 1)), dtype=bool)


def halo(ink: np.ndarray) -> np.ndarray:
    """The pixels next to the ink (8 neighbours), not ink themselves."""
    near = ink.copy()
    padded = np.pad(ink, 1)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            near |= padded[dy : dy + ink.shape[0], dx : dx + ink.shape[1]]
    return near & ~ink


def shows(image: Image.Image, text: str, inverted: bool | None = None) -> bool:
    """Whether the library's glyphs of `text` stand in the image, in either font, lit on
    dark or dark on lit (an inverted line): every glyph pixel drawn, and the pixels around
    them the background's. A glyph leaves the pixels around it to what is behind, so some
    of them may be the edge of its box or a neighbouring line's dot: 4 in 5 must be the
    background. Rows past the panel's edge count as unknown. `inverted`: only dark on lit
    (True) or only lit on dark (False)."""
    screen = np.pad(np.array(image.convert("1"), dtype=bool), 2)
    known = np.pad(np.ones(image.size[::-1], dtype=bool), 2)
    for font in ("small", "medium"):
        ink = library_glyphs(text, font)
        if ink.shape[0] > screen.shape[0] or ink.shape[1] > screen.shape[1]:
            continue
        around = halo(ink)
        pixels = np.lib.stride_tricks.sliding_window_view(screen, ink.shape)
        seen = np.lib.stride_tricks.sliding_window_view(known, ink.shape)
        for lit in (True, False) if inverted is None else (not inverted,):
            drawn = ((pixels[..., ink] == lit) | ~seen[..., ink]).all(axis=-1)
            behind = (pixels[..., around] != lit) & seen[..., around]
            counted = seen[..., around].sum(axis=-1)
            background = behind.sum(axis=-1) >= 0.8 * counted
            if (drawn & background & (seen[..., ink].mean(axis=-1) > 0.9)).any():
                return True
    return False


def latin_words(page_table) -> set[str]:
    """Every Latin word a Persian player reads on the simulator's page: none but the
    table's own ids (pads, displays, buttons: the profile's names, printed on the table),
    the buttons' names (the OLEDs too say "Select", "OK") and the record's JSON."""
    table = page_table.api_state()["table"]
    ids = {*table["pads"], *table["roles"], *table["displays"], *table["buttons"]}
    names = {"arcana-table", "Undo", "OK", "Select", "N"}
    return latin_words_on(page_table.page, "#record") - ids - names


def test_a_res_arcana_game_in_persian_clicked_through_the_page(persian_table):
    page_table = persian_table
    table = page_table.table
    companion = table.top.companion
    state = page_table.api_state()
    assert (state["table"]["language"], state["table"]["direction"]) == ("fa", "rtl")
    chooser = page_table.mirror("status")
    assert shows(chooser, PERSIAN.text("choice.arcana"))  # the first option, inverted
    assert shows(chooser, PERSIAN.text("choice.res_arcana"))
    assert not shows(chooser, "رس آرکانی")  # the search tells one word from another

    bot = resarcana.Bot(5, 2)  # a short seeded game (55 steps)
    play_steps(page_table, bot.setup_steps(), None)
    _, setup = companion.journal.setup(companion.game_id)
    assert setup["language"] == "fa"
    check_mirrors(page_table)
    first = acting_seat(page_table)
    assert shows(page_table.mirror(f"stake-{first}"), PERSIAN.text("res.your_turn"))
    status = page_table.mirror("status")
    assert shows(status, PERSIAN.text("res.places"))
    with using("fa"):
        model = companion.controller.screens()["status"]
    assert same(status, render(model, language="fa"))

    # the seat that is not to act taps a card: refused in Persian on its own pad
    waiting = 1 - first
    page_table.choose_seat(waiting)
    page_table.tap(f"stake-{waiting}", "trade_ring")
    refused = page_table.mirror(f"stake-{waiting}")
    sentence = PERSIAN.text("refusal.not_your_turn")
    assert all(shows(refused, word) for word in sentence.split())  # wrapped on two lines
    assert same(refused, render(RefusalScreen(sentence), language="fa"))
    assert latin_words(page_table) == set()  # a seat's hand, the box, the legend: Persian

    while not companion.controller.is_over():
        steps = bot.next_steps(companion.controller.state)
        play_steps(page_table, steps, acting_seat(page_table))
    check_mirrors(page_table)
    assert latin_words(page_table) == set()  # the ranking too

    result = page_table.api_state()["result"]
    assert result["finished"] and len(result["winners"]) == 1
    with using("fa"):
        ranking = companion.controller.screens()["status"]
    (winner,) = result["winners"]  # the record names players after their mages, in English
    mage = next(c for c, found in CARDS.items() if found.kind == "mage" and found.name == winner)
    persian = PERSIAN.res_arcana_cards[mage]  # the OLEDs name them by the mage's Persian name
    assert ranking.players[0].name == persian
    assert ranking.players[0].rank == 1 and ranking.players[1].rank == 2
    shown = page_table.mirror("status")
    assert same(shown, render(ranking, language="fa"))
    assert same(shown, frame(page_table, "status"))
    assert shows(shown, PERSIAN.text("score.ranking"))
    assert shows(shown, persian, inverted=True) and not shows(shown, persian, inverted=False)
