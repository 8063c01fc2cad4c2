"""The appliance's web app on a 360 px phone: the owner pairs by the URL scanned off the
status OLED, pairs seat 1 from the owner's page, and the seat's phone unpairs itself."""

from __future__ import annotations

import pytest
from web_table import PHONE, WebTable, _ensure_zbar, pair_in_browser

from firmware.web.pairing import Role

pytestmark = pytest.mark.browser


def test_pairing_owner_and_seat_on_phone_sized_pages(browser, tmp_path) -> None:
    zbarimg = _ensure_zbar()
    with WebTable(tmp_path) as table:
        table.offer(Role.owner())  # as `arcana-table pair` does
        owner_context, owner = pair_in_browser(browser, table.scan(zbarimg), "Ana")
        owner.wait_for_selector("#role:has-text('Owner')")
        owner.click("text=Pair seat 1")
        owner.wait_for_selector("#offer:has-text('Waiting for Seat 1')")
        seat_context, seat = pair_in_browser(browser, table.scan(zbarimg), "Bo")
        seat.wait_for_selector("#role:has-text('Seat 1')")
        assert seat.locator("#owner-area").is_hidden()
        owner.wait_for_selector("#devices:has-text('Bo (Seat 1)')")
        for page in (owner, seat):  # one column: nothing wider than the phone
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        cookies = seat_context.cookies()
        assert [(c["name"], c["httpOnly"], c["sameSite"]) for c in cookies] == [
            ("arcana_table", True, "Strict")
        ]
        seat.click("#forget")
        # unpaired, the page itself is refused: the refusal says why
        seat.wait_for_function("document.body.innerText.includes('is not paired')")
        owner.wait_for_selector("#devices:not(:has-text('Bo'))")
        owner_context.close()
        seat_context.close()
