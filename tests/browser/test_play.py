"""Whole games clicked through the simulator's page in Debian's chromium.

A seeded bot decides what to do; every step is a click in the page (a card in the acting
seat's hand, the table's cards or the card box, then a pad; or a button). Along the way the
OLED mirrors are checked against the exact frames, an illegal tap shows its refusal, undo
and held undo work, secrets stay in their owner's hand, and the final ranking shows.
"""

from __future__ import annotations

import io
import urllib.request

import pytest
from PIL import Image

from firmware.controllers import arcana, resarcana
from firmware.screens import RefusalScreen, render

pytestmark = pytest.mark.browser


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def frame(page_table, role: str) -> Image.Image:
    """The frame the display driver last received, as the API serves it (scale 1)."""
    url = page_table.url + f"api/screens/{role}.png?scale=1"
    with urllib.request.urlopen(url, timeout=30) as answer:
        return Image.open(io.BytesIO(answer.read())).convert("1")


def check_mirrors(page_table) -> None:
    for role in page_table.api_state()["table"]["displays"]:
        assert same(page_table.mirror(role), frame(page_table, role)), role


def acting_seat(page_table) -> int | None:
    view = page_table.api_state()["view"]
    if view is None:
        return None
    if view["game"] == "arcana":
        return view["pending"]["player"]
    return view["current"]


def record_length(page_table) -> int:
    return len(page_table.page.locator("#record").text_content().splitlines())


def check_undo_and_redo(page_table) -> None:
    played = page_table.api_state()["record"]
    page_table.press("undo")
    assert page_table.message().startswith("Undone: ")
    assert page_table.api_state()["record"] == played[:-1]
    assert record_length(page_table) == len(played) - 1
    page_table.press("undo", held=True)
    assert page_table.message().startswith("Redone: ")
    assert page_table.api_state()["record"] == played


def check_refusal(page_table, pad: str, card: str) -> None:
    """An illegal tap: the sentence in the page is the OLED's, and nothing is played."""
    before = page_table.api_state()["record"]
    page_table.tap(pad, card)
    notice = page_table.table.top.companion.notices[pad].message
    assert page_table.message() == notice
    assert page_table.page.locator("#message.error").count() == 1
    assert same(page_table.mirror(pad), render(RefusalScreen(notice)))
    assert page_table.api_state()["record"] == before


def check_ranking(page_table) -> None:
    state = page_table.api_state()
    result = state["result"]
    assert state["phase"] == "over" and result["finished"]
    assert page_table.page.locator("#players-title").inner_text() == "Final ranking"
    shown = page_table.page.locator("#players li").all_inner_texts()
    # the rank is the only number: the list itself is not numbered ("1. 1. Blades")
    style = page_table.page.eval_on_selector("#players", "(l) => getComputedStyle(l).listStyleType")
    assert style == "none"
    ranked = sorted(result["players"], key=lambda p: -p["vp"])
    assert [text.split(". ", 1)[1].split(":")[0] for text in shown] == [p["name"] for p in ranked]
    for text, player in zip(shown, ranked, strict=True):
        assert f"{player['vp']} VP" in text
        assert text.endswith("(winner)") == (player["name"] in result["winners"])
    assert page_table.page.locator("#new-game").is_visible()


def play_steps(page_table, steps, seat: int | None) -> list[str | None]:
    page_table.choose_seat(seat)
    return [page_table.step(step) for step in steps]


def test_an_arcana_game_clicked_through_the_page(page_table):
    table = page_table.table
    bot = arcana.Bot(14, 2)  # a short seeded game (86 steps)
    check_mirrors(page_table)  # the choice of game
    play_steps(page_table, bot.setup_steps(), None)
    assert page_table.api_state()["phase"] == "play"
    check_mirrors(page_table)

    state = table.top.companion.controller.state
    first = acting_seat(page_table)
    other = 1 - first
    # Another guild's agent on a stake out of turn: refused with the engine's sentence.
    agent = next(
        c for c in table.games.catalog.guild_cards(state.guilds[other]) if c.kind == "agent"
    )
    check_refusal(page_table, "stake-1", agent.id)

    secret_checked = undo_checked = False
    clicked_in_hand = 0
    while not table.top.companion.controller.is_over():
        state = table.top.companion.controller.state
        seat = acting_seat(page_table)
        where = play_steps(page_table, bot.next_steps(state), seat)
        clicked_in_hand += where.count("hand")
        if not undo_checked and len(page_table.api_state()["record"]) > 3:
            check_undo_and_redo(page_table)
            undo_checked = True
        if not secret_checked:
            secret_checked = check_face_down_agents(page_table)
    assert undo_checked and secret_checked and clicked_in_hand > 10
    check_mirrors(page_table)
    check_ranking(page_table)


def check_face_down_agents(page_table) -> bool:
    """Once an agent lies face down, only its owner's hand view names it."""
    state = page_table.table.top.companion.controller.state
    hidden = [
        (player, card)
        for stake in state.stakes
        for player, side in enumerate(stake.agents)
        for card, down in side
        if down
    ]
    if not hidden:
        return False
    owner, card = hidden[0]
    page = page_table.page
    name = page_table.table.games.catalog.card_name(card)
    for seat in (None, 1 - owner):
        page_table.choose_seat(seat)
        assert page.locator(f'#face-down [data-card="{card}"]').count() == 0
        assert card not in page.locator("#record").text_content()
        assert page.locator(f'#hand [data-card="{card}"]').count() == 0
        assert name not in page.locator("#hand-area").text_content()
    page_table.choose_seat(owner)
    assert page.locator(f'#face-down [data-card="{card}"]').inner_text().startswith(name)
    return True


def test_a_res_arcana_game_clicked_through_the_page(page_table):
    table = page_table.table
    bot = resarcana.Bot(5, 2)  # a short seeded game (55 steps)
    play_steps(page_table, bot.setup_steps(), None)
    state = page_table.api_state()
    assert state["phase"] == "play" and [p["pad"] for p in state["players"]] == [
        "stake-0",
        "stake-1",
    ]
    check_mirrors(page_table)
    # The seat that is not to act taps a card on its own pad: out of turn.
    waiting = 1 - acting_seat(page_table)
    page_table.choose_seat(waiting)
    check_refusal(page_table, f"stake-{waiting}", "trade_ring")

    undo_checked = False
    clicked_in_hand = 0
    while not table.top.companion.controller.is_over():
        seat = acting_seat(page_table)
        steps = bot.next_steps(table.top.companion.controller.state)
        where = play_steps(page_table, steps, seat)
        clicked_in_hand += where.count("hand")
        if not undo_checked and len(page_table.api_state()["record"]) > 3:
            check_undo_and_redo(page_table)
            undo_checked = True
    assert undo_checked and clicked_in_hand > 10
    check_mirrors(page_table)
    check_ranking(page_table)
