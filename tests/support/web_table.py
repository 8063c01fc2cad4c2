"""The appliance's web app on an emulated table: the real ServiceLoop in a thread (as
`arcana-table run` runs it), the web app served on a free localhost port, phones as cookie
jars over HTTP, and the status OLED's QR code read back from the emulated SSD1306's RAM
with zbar (`zbarimg`, Debian's zbar-tools: the set-up apt-installs it when run as root).

    with WebTable(tmp_path) as table:
        owner = table.pair_owner()              # scans the QR code off the status OLED
        owner.get("api/state")                  # (status, JSON)
        table.tap("stake-0", "blades_base")     # a tag on a pad's emulated chip, handled
        table.press("ok")                       # a button's emulated pin, handled
"""

from __future__ import annotations

import dataclasses
import io
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from http_client import Client
from service import Recorder, wait_until

from firmware.events import Event, Press, Tap, Tick
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.service import Service, StopRequest, Watchdog
from firmware.tabletop import uid_for
from firmware.web.pairing import Pairing, Role
from firmware.web.serve import start, status_role
from hardware.display.pages import pages_to_image
from hardware.nfc.tags import Ntag
from hardware.profile import load_profile
from hardware.profile.web import WebSpec
from hardware.table import build_table

DEBIAN_PACKAGES = ("zbar-tools",)


def _ensure_zbar() -> str:
    found = shutil.which("zbarimg")
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, **quiet)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", *DEBIAN_PACKAGES], check=True, env=env, **quiet
        )
        found = shutil.which("zbarimg")
    if found is None:
        pytest.fail(
            "The QR code tests read the status OLED with zbar: on Debian or Ubuntu run "
            f"`sudo apt-get install -y {' '.join(DEBIAN_PACKAGES)}`."
        )
    return found


@pytest.fixture(scope="session")
def zbarimg() -> str:
    return _ensure_zbar()


def decode_qr(zbarimg: str, pages: list[bytes], width: int = 128) -> list[str]:
    """Every QR code zbar finds in a display's RAM pages (as the panel shows them)."""
    return decode_qr_image(zbarimg, pages_to_image(pages, width))


def decode_qr_image(zbarimg: str, image: Any) -> list[str]:
    """Every QR code zbar finds in an image (a panel's frame)."""
    out = io.BytesIO()
    image.convert("L").save(out, format="PNG")
    done = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", "-"],
        input=out.getvalue(),
        capture_output=True,
        timeout=60,
    )
    return [line for line in done.stdout.decode().splitlines() if line]


PHONE = {"width": 360, "height": 740}  # the browser tests' phone viewport (CSS px)


def pair_in_browser(browser: Any, url: str, name: str) -> tuple[Any, Any]:
    """A phone-sized browser context that opens a pairing URL, names itself and pairs; its
    context and its page, now on the phone's page."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.fill("#name", name)
    page.click("#pair")
    page.wait_for_url("**/")
    return context, page


class Phone(Client):
    """A browser's cookie jar for one table: JSON over HTTP, its Origin the table's own."""

    def __init__(self, url: str) -> None:
        super().__init__(url, cookies=True)


class WebTable:
    """An emulated full table with `[web]` on, its loop running, its web app served."""

    def __init__(
        self,
        state_dir: Path,
        spectators: bool = False,
        catalog: str = "sample",
        language: str = "en",
    ) -> None:
        profile = load_profile("full-table")
        web = WebSpec(True, 8080, spectators)
        profile = dataclasses.replace(profile, web=web, language=language)  # its first language
        self.state_dir = state_dir
        self.used: set[str] = set()  # the codes a phone has paired with (used up)
        self.table = build_table(profile, emulated=True)
        self.journal = Journal.open(state_dir)
        self.notifier = Recorder()
        service = Service(self.notifier, Watchdog(self.notifier, 0.5), StopRequest(signals=()))
        self.service = service
        self.loop, self.served = start(
            self.table,
            self.journal,
            GameShelf.for_profile(profile, catalog=catalog),
            service,
            profile,
            state_dir,
            address="127.0.0.1",
            host="127.0.0.1",
            port=0,
        )
        self.url = self.served.url
        self.pairing = Pairing(state_dir)
        self.handled: list[Event] = []  # taps and presses, once the loop has handled them
        self.loop.on_event.append(self._handled)
        self.removed: list[str] = []  # the UIDs the scanners saw taken away
        for thread in self.loop.scan_threads:
            thread.on_event = self._seen(thread.on_event)
        self.runner = threading.Thread(target=self.loop.run, daemon=True)
        self.runner.start()
        assert wait_until(lambda: "READY=1" in self.notifier.sent)

    def _handled(self, event: Event) -> None:
        if isinstance(event, Tap | Press):
            self.handled.append(event)

    def _seen(self, on_event: Callable[[Any], None]) -> Callable[[Any], None]:
        """The scan thread's callback, noting each tag it saw taken away."""

        def seen(tag_event: Any) -> None:
            if tag_event.kind == "removed":
                self.removed.append(tag_event.uid)
            on_event(tag_event)

        return seen

    def tap(self, pad: str, card: str) -> None:
        """Lay the card's tag (its id written on it) on the pad's emulated chip until the
        loop has handled the tap, then take it away until the scanner saw it gone."""
        uid = uid_for(card)
        tag = Ntag(uid, card_id=card)
        chip = self.table.pads[pad]
        handled, removed = len(self.handled), len(self.removed)
        chip.place(tag)
        try:
            assert wait_until(
                lambda: any(isinstance(e, Tap) and e.uid == uid for e in self.handled[handled:])
            ), f"the table did not read {card} on {pad}"
        finally:
            chip.remove(tag.uid)
        assert wait_until(lambda: uid in self.removed[removed:])

    def press(self, button: str, held: bool = False) -> None:
        """Press (or hold) a button on its emulated pin until the loop has handled it."""
        handled = len(self.handled)
        if held:
            self.table.hold_down(button)
            wanted = Press(button, True)
            try:
                assert wait_until(lambda: wanted in self.handled[handled:])
            finally:
                self.table.let_go(button)
        else:
            self.table.press(button)
            assert wait_until(lambda: Press(button) in self.handled[handled:])

    def status_pages(self) -> list[bytes]:
        return self.table.displays[status_role(dict(self.table.displays))].chip.pages()

    def scan(self, zbarimg: str) -> str:
        """The URL the status OLED's QR code carries, once it shows one whose code has not
        been used yet (the screen may still show a code just used until the loop redraws)."""
        found: list[str] = []

        def fresh() -> bool:
            found[:] = [
                url
                for url in decode_qr(zbarimg, self.status_pages())
                if url.rsplit("/", 1)[1] not in self.used
            ]
            return bool(found)

        assert wait_until(fresh)
        return found[0]

    def offer(self, role: Role) -> str:
        """Open a code as `arcana-table pair` or the owner's page does; the loop shows it."""
        code = self.pairing.offer(role).code
        self.loop.events.put(Tick())
        return code

    def pair(self, code: str, name: str = "") -> Phone:
        phone = Phone(self.url)
        status, answer = phone.post("api/pair", {"code": code, "name": name})
        assert status == 200, answer
        self.used.add(code.upper())
        return phone

    def pair_owner(self) -> Phone:
        return self.pair(self.offer(Role.owner()), "owner")

    def close(self) -> None:
        self.served.stop()
        self.service.stop.request()
        self.runner.join(timeout=20)

    def __enter__(self) -> WebTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
