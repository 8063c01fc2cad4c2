"""An Arcana game in German clicked through the simulator's page in Debian's chromium: the
language chosen on the game choice's language line, the page's lang attribute, the OLED
mirrors in German, a refusal's German sentence and the journalled setup's language."""

from __future__ import annotations

import pytest

from firmware.controllers import arcana
from firmware.language import load, using
from firmware.screens import RefusalScreen, render
from tests.browser.test_play import acting_seat, check_mirrors, frame, play_steps, same

pytestmark = pytest.mark.browser


def test_an_arcana_game_in_german_clicked_through_the_page(page_table):
    table = page_table.table
    page = page_table.page
    assert page.evaluate("document.documentElement.lang") == "en"
    for _ in range(3):
        page_table.press("select")  # to "Language: English"
    page_table.press("ok")  # Deutsch
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert page_table.api_state()["table"]["language"] == "de"
    page_table.press("select")  # back to Arcana, where the bot's set-up starts
    check_mirrors(page_table)

    bot = arcana.Bot(14, 2)
    play_steps(page_table, bot.setup_steps(), None)
    companion = table.top.companion
    _, setup = companion.journal.setup(companion.game_id)
    assert setup["language"] == "de"
    with using("de"):
        status = companion.controller.screens()["status"]
    assert status.prompt == "Karte ausspielen"
    assert same(frame(page_table, "status"), render(status, language="de"))
    # the page names players and market cards as the OLEDs do: no English sample name
    german = {"Klingen", "Fährleute", "Diebe", "Wucherer"}
    english = ("Blades", "Ferrymen", "Thieves", "Usurers", "Sample ")
    page.wait_for_function("document.querySelectorAll('#players li').length === 2")
    players = page.locator("#players li").all_inner_texts()
    assert {line.split(":")[0] for line in players} <= german, players
    captions = " ".join(page.locator(".pad-caption").all_inner_texts())
    assert "Beispiel-" in captions and not any(name in captions for name in english), captions
    assert not any(name in page.inner_text("#seat") for name in english)
    page.evaluate("for (const d of document.querySelectorAll('details')) d.open = true")
    page.locator("#box .card-kind").first.wait_for()
    german_words = load("de").texts
    said = {v for k, v in german_words.items() if k.startswith(("sim.kind_", "sim.action_"))}
    kinds = page.locator("#box .card-kind, #table-cards .card-kind").all_inner_texts()
    parts = {part for kind in kinds for part in kind.split(", ")}
    assert load("de").text("sim.kind_agent") in parts and parts <= said, parts - said
    lines = set(page.locator("#box .face-line").all_inner_texts())  # a location's effect
    assert {"Zonen tauschen", "Agent versetzen"} <= lines
    assert not lines & {"swap stakes", "move agent", "swap_stakes", "move_agent"}

    # another guild's agent out of turn: the engine's refusal, said in German by its code
    state = companion.controller.state
    other = 1 - acting_seat(page_table)
    agent = next(
        c for c in table.games.catalog.guild_cards(state.guilds[other]) if c.kind == "agent"
    )
    page_table.tap("stake-1", agent.id)
    assert page_table.message() == "Du bist nicht am Zug"
    assert same(page_table.mirror("stake-1"), render(RefusalScreen("Du bist nicht am Zug")))

    while not companion.controller.is_over():
        state = companion.controller.state
        play_steps(page_table, bot.next_steps(state), acting_seat(page_table))
    check_mirrors(page_table)
    with using("de"):
        ranking = companion.controller.screens()["status"]
    assert same(frame(page_table, "status"), render(ranking, language="de"))
    assert page.evaluate("document.documentElement.lang") == "de"
