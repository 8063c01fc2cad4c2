"""The simulator's page in the game's language, in Debian's chromium: its own words come from the
catalogs (GET api/words), Persian turns the page right to left, and back in English the
English words return."""

from __future__ import annotations

import re

import pytest

from firmware.language import load
from firmware.screens.icons import LEGEND_ICONS

pytestmark = pytest.mark.browser


def shown(page_table) -> dict[str, object]:
    page = page_table.page
    return {
        "lang": page.evaluate("document.documentElement.lang"),
        "dir": page.evaluate("document.documentElement.dir"),
        "title": page.title(),
        "game": page.locator("#game").inner_text(),
        "nobody": page.locator("#seat option[value='']").inner_text(),
        "legend": page.locator("#legend-area > summary").inner_text(),
        "holds": page.locator("#buttons [data-held]").all_inner_texts(),
        "search": page.get_attribute("#box-search", "placeholder"),
    }


def expected(code: str) -> dict[str, object]:
    language = load(code)
    return {
        "lang": code,
        "dir": language.direction,
        "title": language.text("sim.title"),
        "game": language.text("sim.choose_game"),
        "nobody": language.text("sim.nobody"),
        "legend": language.text("sim.legend"),
        "holds": [language.text("sim.hold_undo")],  # a full table: Select has no hold
        "search": language.text("sim.filter_box"),
    }


def test_the_page_speaks_the_games_language_and_persian_reads_right_to_left(page_table):
    page = page_table.page
    assert shown(page_table) == expected("en")
    for _ in range(3):
        page_table.press("select")  # to "Language: English"
    page_table.press("ok")  # Deutsch
    page_table.press("ok")  # فارسی
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert shown(page_table) == expected("fa")
    page.click("#legend-area > summary")
    persian = load("fa")
    means = [persian.text(f"legend.{name}") for name in LEGEND_ICONS]
    assert page.locator("#legend li").all_inner_texts() == means
    assert page.locator("#connection").inner_text() == persian.text("sim.live")

    page_table.press("ok")  # English again: the words and the direction come back
    page.wait_for_function("document.documentElement.dir === 'ltr'")
    assert shown(page_table) == expected("en")
    assert page.locator("#legend li").first.inner_text() == load("en").text("legend.military")

    page_table.press("ok")
    page_table.press("ok")  # Persian for the game
    page_table.press("select")  # back to Arcana, where a bot's set-up starts
    page_table.table.set_up("res-arcana", 2)
    page.reload()
    page.wait_for_function("document.body.dataset.version !== '-1'")
    page_table.choose_seat(0)
    state = page_table.api_state(0)
    assert state["table"]["language"] == "fa"
    name = state["players"][0]["shown"]  # the mage's Persian name, as the screens say it
    assert name == persian.res_arcana_cards[state["view"]["players"][0]["mage"]]
    title = persian.text("sim.hand_of", name=name, n=1)
    assert page.locator("#hand-title").inner_text() == title
    assert name in page.locator("#players").inner_text()
    assert page.locator("#players-title").inner_text() == persian.text("sim.players")
    page.click("#box-area > summary")  # every card of the game, with what it prints
    page.locator("#box .face-label").first.wait_for()  # drawn once the box opens
    labels = page.locator("#box .face-label").all_inner_texts()
    assert persian.text("sim.cost") in labels  # هزینه, the Persian rules' word
    # the cards' kinds, the box's groups and what a card in hand can do: Persian, no ids
    kinds = page.locator("#box .card-kind, #box h3, #hand .card-kind").all_inner_texts()
    assert persian.text("sim.kind_artifact") in " ".join(kinds)
    assert [k for k in kinds if re.search("[A-Za-z]", k)] == []
    assert page.evaluate("document.documentElement.dir") == "rtl"
