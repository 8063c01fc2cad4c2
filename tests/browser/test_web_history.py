"""The owner's history on a 360 px phone: the games with their scores, the rounds of a
finished one, and a downloaded record that is the bytes `arcana-table export` writes."""

from __future__ import annotations

import json

import pytest
from history_games import journal_games
from web_table import PHONE, WebTable

from firmware import cli
from firmware.journal import Journal
from firmware.web.pairing import Role

pytestmark = pytest.mark.browser


def test_the_owner_reads_the_history_and_downloads_a_record(browser, tmp_path) -> None:
    with Journal.open(tmp_path) as journal:
        games = journal_games(journal)
    finished = games["finished"]
    exported = tmp_path / "exported.jsonl"
    assert (
        cli.main(["export", str(finished), "-o", str(exported), "--state-dir", str(tmp_path)]) == 0
    )
    with WebTable(tmp_path) as table:
        phone = table.pair(table.offer(Role.owner()), "Ana")
        context = browser.new_context(viewport=PHONE, accept_downloads=True)
        name, value = phone.cookie.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": table.url}])
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(table.url)
        row = page.locator(f"#games li[data-game='{finished}']")
        row.wait_for()
        assert "won by" in row.inner_text()
        going = page.locator(f"#games li[data-game='{games['in_progress']}']")
        assert "in progress" in going.inner_text()
        assert going.locator("a").count() == 0  # no record of a game in progress
        row.locator("button", has_text="Rounds").click()
        row.locator("h3", has_text="Round 1:").wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        with page.expect_download() as download:
            row.locator("a", has_text="Download record").click()
        saved = tmp_path / "downloaded.jsonl"
        download.value.save_as(saved)
        assert download.value.suggested_filename == f"arcana-table-game-{finished}.jsonl"
        assert saved.read_bytes() == exported.read_bytes()
        assert json.loads(saved.read_text().splitlines()[0])["game"] == "arcana"
        context.close()
