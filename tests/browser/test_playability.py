"""The page as a new player reads it: card faces with their values, the icon legend, the
seat hint, prompts and pads counted from 1, every pad lit where a card may go, the agents a
location can move, the table's cards grouped and filtered, one seat per tab, and a phone.
"""

from __future__ import annotations

import pytest

from engine.arcana import load_catalog
from firmware.screens.icons import LEGEND
from tests.browser.conftest import PageTable

pytestmark = pytest.mark.browser

CATALOG = load_catalog("sample")
STAKES = ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03", "m_agent_06")
PADS = [f"stake-{i}" for i in range(5)]


def seat_two(table, stakes=STAKES) -> None:
    """Arcana, basic: Blades (seat 1) and Ferrymen (seat 2), these first market cards."""
    table.press("ok")
    table.press("ok")
    table.tap("stake-0", "blades_base")
    table.tap("stake-1", "ferrymen_base")
    table.press("ok")
    for pad, card in zip(PADS, stakes, strict=True):
        table.tap(pad, card)


def reload(page_table) -> None:
    page_table.page.reload()
    page_table.page.wait_for_function("document.body.dataset.version !== '-1'")


def test_hand_cards_show_the_values_printed_on_them_and_the_legend_explains_the_icons(
    page_table,
):
    seat_two(page_table.table)
    reload(page_table)
    page_table.choose_seat(0)
    card = page_table.page.locator('#hand [data-card="blades_agent_1"]')
    values = {
        arcanum: card.locator(f'.arcana [data-value="{arcanum}"]').inner_text()
        for arcanum in ("military", "political", "spiritual", "financial")
    }
    assert values == {k: str(v) for k, v in CATALOG.cards["blades_agent_1"].arcana.items()}
    # a market card: its main arcanum and threshold, and its VP
    market = CATALOG.cards["m_loc_02"]
    page_table.page.click("#box-area > summary")
    page_table.page.fill("#box-search", "m_loc_02")
    face = page_table.page.locator('#box [data-card="m_loc_02"] .card-face')
    assert face.locator(f'.main [data-value="{market.main}"]').inner_text() == str(market.threshold)
    assert face.locator(".vp").inner_text() == f"{market.vp} VP"
    # the legend: every icon drawn as the OLEDs draw it, with what it means
    page_table.page.click("#legend-area > summary")
    items = page_table.page.locator("#legend li")
    assert items.all_inner_texts() == [means for means in LEGEND.values()]
    assert page_table.page.locator("#legend canvas.icon").count() == len(LEGEND)


def test_res_arcana_cards_show_cost_production_and_power(page_table):
    page_table.table.set_up("res-arcana", 2, seed=1)
    reload(page_table)
    # the start player is drawn at random: look at the hand of a seat that holds a producer
    hands = {seat: page_table.api_state(seat)["hand"]["cards"] for seat in (0, 1)}
    seat = next(s for s, cards in hands.items() if any(c["face"]["produces"] for c in cards))
    cards = hands[seat]
    page_table.choose_seat(seat)
    producer = next(card for card in cards if card["face"]["produces"])
    shown = page_table.page.locator(f'#hand [data-card="{producer["id"]}"] .card-face')
    produced = producer["face"]["produces"]
    line = shown.locator(".face-line", has_text="makes")
    for essence, count in produced.items():
        assert line.locator(f'[data-value="{essence}"]').inner_text() == str(count)
    costly = next(card for card in cards if card["face"]["cost"])
    line = page_table.page.locator(
        f'#hand [data-card="{costly["id"]}"] .face-line', has_text="cost"
    )
    for essence, count in costly["face"]["cost"].items():
        assert line.locator(f'[data-value="{essence}"]').inner_text() == str(count)


def test_without_a_seat_the_page_says_how_to_see_a_hand_and_names_no_guild_twice(page_table):
    seat_two(page_table.table)
    reload(page_table)
    hint = page_table.page.locator("#seat-hint")
    assert hint.is_visible() and "Hand of" in hint.inner_text()
    prompt = page_table.page.locator("#prompt").inner_text()
    assert prompt == "Blades to play. Tap a card to play."
    assert "(Blades)" not in prompt
    page_table.choose_seat(0)
    assert not hint.is_visible()


def test_pads_are_named_as_the_oleds_name_the_stakes(page_table):
    seat_two(page_table.table)
    reload(page_table)
    names = page_table.page.locator("button.pad .pad-name").all_inner_texts()
    assert names == ["Stake 1", "Stake 2", "Stake 3", "Stake 4", "Free trade"]
    roles = page_table.page.locator("button.pad .pad-role").all_inner_texts()
    assert roles == [f"pad {pad}" for pad in PADS]


def test_a_location_and_a_base_light_every_pad_they_may_be_tapped_on(page_table):
    page_table.table.press("ok")
    page_table.table.press("ok")
    reload(page_table)
    page_table.pick("blades_base")  # seating: a base on any pad
    assert page_table.page.locator("button.pad.target").count() == 5
    page_table.pick("blades_base")  # unpicked
    page_table.table.tap("stake-3", "blades_base")
    page_table.table.tap("stake-0", "ferrymen_base")
    page_table.table.press("ok")
    for pad, card in zip(PADS, STAKES, strict=True):
        page_table.table.tap(pad, card)
    reload(page_table)
    page_table.choose_seat(0)
    page_table.pick("blades_location")
    lit = page_table.page.locator("button.pad.target")
    assert sorted(lit.evaluate_all("(pads) => pads.map((p) => p.dataset.pad)")) == PADS


def test_a_face_up_agent_a_location_may_move_is_listed_and_the_prompt_follows(page_table):
    table = page_table.table
    seat_two(table)
    assert table.tap("stake-2", "blades_agent_5").ok  # Ferrymen control stake 3: face up
    assert table.tap("stake-0", "ferrymen_agent_1").ok
    reload(page_table)
    page_table.choose_seat(0)
    face_up = page_table.page.locator('#face-up [data-card="blades_agent_5"]')
    assert "face up on Stake 3" in face_up.inner_text()
    page_table.tap("stake-1", "blades_location")
    assert page_table.page.locator("#prompt").inner_text() == (
        "Blades to play. Move: tap your agent."
    )
    page_table.tap("stake-2", "blades_agent_5")  # picked from the face-up list
    assert page_table.page.locator("#prompt").inner_text() == (
        "Blades to play. Move: tap new stake."
    )
    page_table.tap("stake-3", "blades_agent_5")
    line = page_table.api_state()["record"][-1]
    assert line["params"] == {"card": "blades_agent_5", "to": 3}


def test_the_tables_cards_are_grouped_by_kind_sorted_and_filtered_by_typing(page_table):
    table = page_table.table
    table.press("ok")
    table.press("ok")
    table.tap("stake-0", "blades_base")
    table.tap("stake-0", "ferrymen_base")
    table.press("ok")  # the stakes' first cards: every market card is offered
    reload(page_table)
    prompt = page_table.page.locator("#prompt").inner_text()
    assert prompt == "Setting up. Stakes: Tap each stake's first card (5 to go)"
    groups = page_table.page.locator("#table-cards .card-group")
    kinds = groups.evaluate_all("(gs) => gs.map((g) => g.dataset.kind)")
    assert kinds == sorted(kinds) and len(kinds) == len(set(kinds)) >= 3
    for group in groups.all():
        names = group.locator(".card-name").all_inner_texts()
        number = [int(n.rsplit(" ", 1)[1]) if n[-1].isdigit() else 0 for n in names]
        assert number == sorted(number), names  # "Sample agent 2" before "Sample agent 10"
    page_table.page.fill("#table-search", "location 1")
    shown = page_table.page.locator("#table-cards .card-name").all_inner_texts()
    assert shown and all("location 1" in name.lower() for name in shown)


def test_the_seat_is_kept_per_tab(browser, served):
    table, url = served
    seat_two(table)
    context = browser.new_context()  # one browser profile, two tabs
    try:
        first = PageTable(context.new_page(), table, url)
        first.choose_seat(1)
        reload(first)
        assert first.page.evaluate("document.body.dataset.seat") == "1"
        other = context.new_page()
        other.goto(url)
        other.wait_for_function("document.body.dataset.version !== '-1'")
        assert other.evaluate("document.body.dataset.seat") == ""  # not the first tab's seat
        assert other.evaluate("localStorage.length") == 0
    finally:
        context.close()


def test_on_a_phone_the_buttons_sit_near_the_screens_and_nothing_overflows(browser, served):
    table, url = served
    seat_two(table)
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(url)
        page.wait_for_function("document.body.dataset.version !== '-1'")
        buttons = page.locator("#buttons").bounding_box()
        status = page.locator('img.oled[data-display="status"]').bounding_box()
        first_pad = page.locator('figure[data-place="stake-0"]').bounding_box()
        assert buttons["y"] + buttons["height"] <= 844  # in reach without scrolling
        assert buttons["y"] < first_pad["y"] and abs(buttons["y"] - status["y"]) < 300
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click('#buttons [data-button="select"]:not([data-held])')  # the button works
        assert errors == []
    finally:
        page.close()
