"""Playwright driving Debian's chromium against a simulator on a free localhost port.

Browser downloads are not possible here: the tests use /usr/bin/chromium (`python3 dev.py
test` installs it with apt-get when it is missing and it can). A `PageTable` clicks in the
page as a person would: a card in the seat's hand (or the table's cards, or the card box),
then a pad; the buttons; the seat selector.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware.sim.server import Running, make_app
from firmware.sim.table import Simulator
from firmware.steps import Step

CHROMIUM = Path(os.environ.get("ARCANA_TABLE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000

# Reads the pixels the browser drew for an OLED mirror: "1"/"0" per OLED pixel, row by row.
MIRROR_PIXELS = """(image) => {
  const scale = image.naturalWidth / 128;
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let bits = "";
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 128; x++) {
      const at = ((y * scale) * canvas.width + x * scale) * 4;
      bits += data[at] > 127 ? "1" : "0";
    }
  }
  return bits;
}"""


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; "
            "python3 dev.py test does it when run as root) or point ARCANA_TABLE_CHROMIUM at one"
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def served(tmp_path):
    """A simulator with its ticker running, as `arcana-table sim` serves it."""
    table = Simulator(tmp_path / "state")
    running = Running(make_app(table, tick_s=0.5))
    yield table, running.url
    running.stop()


class PageTable:
    """The simulator's page, clicked like a player would."""

    def __init__(self, page: Any, table: Simulator, url: str) -> None:
        self.page = page
        self.table = table
        self.url = url
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(url)
        page.wait_for_function("document.body.dataset.version !== '-1'")

    # -- reading ----------------------------------------------------------------------------
    def api_state(self, seat: int | None = None) -> dict[str, Any]:
        query = "" if seat is None else f"?seat={seat}"
        with urllib.request.urlopen(self.url + "api/state" + query, timeout=30) as answer:
            return json.load(answer)

    def mirror(self, role: str) -> Image.Image:
        """The OLED mirror as the browser drew it, back at 128x64, once it shows the latest
        frame the server announced."""
        image = self.page.locator(f'img.oled[data-display="{role}"]')
        self.page.wait_for_function(
            """(role) => {
              const image = document.querySelector(`img.oled[data-display="${role}"]`);
              const latest = image.src.includes(image.dataset.hash);
              return image.complete && image.naturalWidth > 0 && latest;
            }""",
            arg=role,
        )
        bits = image.evaluate(MIRROR_PIXELS)
        out = Image.new("1", (128, 64))
        out.putdata([255 if bit == "1" else 0 for bit in bits])
        return out

    def message(self) -> str:
        return self.page.locator("#message").inner_text()

    # -- acting ------------------------------------------------------------------------------
    def _acted(self, click: Any) -> None:
        """Click, then wait until the page has drawn the answer to that action."""
        done = self.page.evaluate("Number(document.body.dataset.actions || 0)")
        click()
        self.page.wait_for_function(
            "(done) => Number(document.body.dataset.actions || 0) > done", arg=done
        )

    def choose_seat(self, seat: int | None) -> None:
        wanted = "" if seat is None else str(seat)
        if self.page.evaluate("document.body.dataset.seat") != wanted:
            self.page.select_option("#seat", wanted)
            self.page.wait_for_function(
                "(wanted) => document.body.dataset.seat === wanted", arg=wanted
            )

    def pick(self, card: str) -> str:
        """Click the card where the page offers it: the hand, the face-down agents, the
        table's cards, else the card box; answers which."""
        for where in ("hand", "face-down", "table-cards"):
            found = self.page.locator(f'#{where} [data-card="{card}"]')
            if found.count():
                found.first.click()
                return where
        if self.page.locator("#box-area").get_attribute("open") is None:
            self.page.click("#box-area > summary")
        self.page.fill("#box-search", card)
        self.page.locator(f'#box [data-card="{card}"]').click()
        return "box"

    def tap(self, pad: str, card: str) -> str:
        where = self.pick(card)
        self._acted(lambda: self.page.click(f'button.pad[data-pad="{pad}"]'))
        return where

    def press(self, button: str, held: bool = False) -> None:
        selector = f'#buttons [data-button="{button}"]'
        selector += "[data-held]" if held else ":not([data-held])"
        self._acted(lambda: self.page.click(selector))

    def step(self, step: Step) -> str | None:
        if step.kind == "tap":
            assert step.card is not None
            return self.tap(step.target, step.card)
        self.press(step.target, step.held)
        return None


@pytest.fixture
def page_table(browser, served):
    table, url = served
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield PageTable(page, table, url)
    page.close()
    assert errors == [], f"the page raised: {errors}"


def latin_words_on(page: Any, leave_out: str = "") -> set[str]:
    """The Latin words of the page as a reader sees them, every <details> opened (the
    elements of CSS selector `leave_out` and scripts not read)."""
    page.evaluate("for (const d of document.querySelectorAll('details')) d.open = true")
    text = page.evaluate(
        """(leaveOut) => { const copy = document.body.cloneNode(true);
        for (const node of copy.querySelectorAll(leaveOut ? `script, ${leaveOut}` : 'script'))
          node.remove();
        document.body.append(copy);
        const shown = copy.innerText; copy.remove(); return shown; }""",
        leave_out,
    )
    return set(re.findall(r"[A-Za-z][A-Za-z0-9_-]*", text))
