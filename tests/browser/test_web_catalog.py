"""The owner's catalog page on a 360 px phone: a CSV catalog imported from a file, its
progress shown, a Res Arcana tag tapped on a pad and bound by choosing its card."""

from __future__ import annotations

import tomllib

import pytest
from web_table import PHONE, WebTable, pair_in_browser

from engine.arcana.catalog import CATALOG_DIR
from firmware.tabletop import uid_for
from firmware.web.catalog_transfer import to_csv
from firmware.web.pairing import Role
from hardware.nfc.tags import Ntag

pytestmark = pytest.mark.browser


def test_import_progress_and_res_arcana_enrollment_on_a_phone(browser, tmp_path) -> None:
    sample = tomllib.loads((CATALOG_DIR / "sample.toml").read_text(encoding="utf-8"))
    upload = tmp_path / "my-copy.csv"
    upload.write_text(to_csv({**sample, "cards": sample["cards"][:30]}), encoding="utf-8")
    with WebTable(tmp_path / "state") as table:
        context, page = pair_in_browser(
            browser, f"{table.url}pair/{table.offer(Role.owner())}", "Ana"
        )
        page.click("text=Catalog: progress")
        page.wait_for_selector("#summary:has-text('0 of 162 cards entered')")
        page.set_input_files("#catalog-file", str(upload))
        page.wait_for_selector("#message:has-text('Imported 30 cards; not complete yet')")
        page.wait_for_selector("#summary:has-text('30 of 162 cards entered, 132 missing')")
        page.wait_for_selector("#problems:has-text('too few market cards')")

        uid = uid_for("blank-7")
        table.table.pads["stake-3"].place(Ntag(uid))
        page.wait_for_selector(f"#tap:has-text('Tag {uid} on stake-3 (not bound)')")
        page.click("#res-cards button:has-text('Seer')")
        page.wait_for_selector(f"#message:has-text('{uid} → seer_orb')")
        page.wait_for_selector("#enrolled:has-text('1 cards bound, 38 without a tag')")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        context.close()
