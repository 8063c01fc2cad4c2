"""The owner's pages in the game's language, in Debian's chromium: a table set to Persian
serves its catalog page right to left in Persian words, and the phone page's catalog
builder and history in the same words."""

from __future__ import annotations

import pytest
from web_table import PHONE, Phone, WebTable, pair_in_browser

from firmware.language import load
from firmware.web.pairing import Role
from tests.browser.conftest import latin_words_on

pytestmark = pytest.mark.browser


def to_persian(table: WebTable) -> None:
    """On the game choice: Select down to the language line, OK until Persian shows."""
    phone = Phone(table.url)
    for _ in range(3):
        table.press("select")
    for _ in range(len(load("en").texts)):  # bounded: en, de, fa come round
        if phone.get("api/words")[1]["language"] == "fa":
            return
        table.press("ok")
    raise AssertionError("the game choice never showed Persian")


def test_the_owners_catalog_page_and_history_in_persian_read_right_to_left(browser, tmp_path):
    fa = load("fa")
    with WebTable(tmp_path / "state") as table:
        to_persian(table)
        context, page = pair_in_browser(
            browser, f"{table.url}pair/{table.offer(Role.owner())}", "Ana"
        )
        page.wait_for_selector(f"#history-area h2:has-text('{fa.text('history.heading')}')")
        page.wait_for_selector(f"#role:has-text('{fa.text('role.owner')}')")  # not "Owner"
        assert page.text_content("#build") == fa.text("catalog.build")
        kinds = page.eval_on_selector_all(
            "select[name=kind] option", "o => o.map(x => [x.value, x.text])"
        )
        assert ["agent", fa.text("catalog.kind_agent")] in kinds  # the value stays the catalog's
        page.wait_for_selector(f"#games li:has-text('{fa.text('history.no_games')}')")
        # no Latin word but the table's name, QR (as Persian writes it) and the device's name
        assert latin_words_on(page) <= {"arcana-table", "QR", "Ana"}

        page.goto(f"{table.url}progress")
        page.wait_for_function("document.getElementById('summary').textContent !== ''")
        summary = fa.text("progress.summary", name="", entered=0, expected=162, missing=162)
        assert summary.removeprefix("\u200f") in page.text_content("#summary")  # ": 0 از 162 ..."
        html = page.evaluate("[document.documentElement.lang, document.documentElement.dir]")
        assert html == ["fa", "rtl"]
        assert page.title() == fa.text("progress.title")
        assert page.text_content("h1") == fa.text("progress.heading")
        assert page.text_content("#enroll-area h2") == fa.text("progress.enroll")
        counts = page.text_content("#counts")
        assert fa.text("catalog.kind_agent") in counts and fa.text("progress.market") in counts
        assert "agent" not in counts and "Market" not in counts
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Res Arcana's cards to bind by their Persian names; Latin only the file formats,
        # the CSV's column names and the command that checks a catalog
        page.wait_for_selector("#res-cards button")
        buttons = page.locator("#res-cards button").all_inner_texts()
        assert fa.res_arcana_cards["seer_orb"] in buttons
        formats = {"TOML", "CSV", "toml", "csv", "uid", "card", "catalog", "check"}
        assert latin_words_on(page) <= formats
        context.close()


def to_language(table: WebTable, code: str) -> None:
    """On the game choice: Select down to the language line, OK until `code` shows."""
    phone = Phone(table.url)
    for _ in range(3):
        table.press("select")
    for _ in range(len(load("en").texts)):  # bounded: en, de, fa come round
        if phone.get("api/words")[1]["language"] == code:
            return
        table.press("ok")
    raise AssertionError(f"the game choice never showed {code}")


def test_the_catalog_builder_and_the_catalog_page_follow_a_language_chosen_while_open(
    browser, tmp_path
):
    en, de = load("en"), load("de")
    with WebTable(tmp_path / "state") as table:
        context, page = pair_in_browser(
            browser, f"{table.url}pair/{table.offer(Role.owner())}", "Ana"
        )
        page.wait_for_selector("#catalog-area")
        page.click("#build")
        page.wait_for_selector(f"#catalog-status:has-text('{en.text('catalog.tap_card')}')")
        page.click("#build-done")  # no file yet: what is still to do, in English
        page.wait_for_selector("#catalog-status:has-text('Still to do: ')")
        progress = context.new_page()
        progress.goto(f"{table.url}progress")
        progress.wait_for_selector("#counts:has-text('Blades')")  # the box's guilds: no file yet
        assert progress.text_content("h1") == en.text("progress.heading")

        to_language(table, "de")
        # Neither page is loaded again: each asks for the words of the game's new language.
        still = de.text("catalog.still_to_do", problems="", more="", name="").split(":")[0]
        page.wait_for_selector(f"#catalog-status:has-text('{still}: ')")  # "Noch zu tun: "
        assert page.text_content("#build") == de.text("catalog.build")
        progress.wait_for_selector("#counts:has-text('Klingen')")
        counts = progress.text_content("#counts")
        for guild in ("Fährleute", "Diebe", "Wucherer"):  # the rulebook's words
            assert guild in counts
        assert "Blades" not in counts and "Ferrymen" not in counts
        assert progress.text_content("h1") == de.text("progress.heading")
        assert progress.evaluate("document.documentElement.lang") == "de"
        context.close()
