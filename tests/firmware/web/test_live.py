"""The web app's view of the real table (`LiveTable`): a new version exactly when a screen
the companion drew has changed, looked at once the loop's queued events are handled."""

from __future__ import annotations

from PIL import Image, ImageDraw
from service import Recorder

from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.service import Service, StopRequest, Watchdog
from firmware.table_loop import ServiceLoop
from firmware.web.live import LiveTable
from firmware.web.qr import Remembered
from hardware.profile import load_profile
from hardware.table import build_table


def drawn(text: str) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((0, 0), text, fill=1)
    return image


def test_a_version_for_each_changed_screen_and_none_for_a_screen_drawn_again_alike(tmp_path):
    profile = load_profile("full-table")
    table = build_table(profile, emulated=True)
    journal = Journal.open(tmp_path)
    try:
        notifier = Recorder()
        service = Service(notifier, Watchdog(notifier, 0.5), StopRequest(signals=()))
        displays = {role: Remembered(d) for role, d in table.displays.items()}
        loop = ServiceLoop(table, journal, GameShelf(), service, displays=displays)
        live = LiveTable(loop, profile, GameShelf())
        told: list[int] = []
        live.on_version = told.append
        assert loop.when_settled == [live.refresh]
        first, second = sorted(displays)[:2]

        live.refresh()  # every screen dark: the first look
        start = live.version
        live.refresh()
        assert live.version == start  # nothing drawn since

        displays[first].show(drawn("one"))
        live.refresh()
        assert live.version == start + 1
        displays[second].show(drawn("two"))
        live.refresh()
        assert live.version == start + 2
        displays[second].show(drawn("two"))  # a new image, the same pixels
        displays[first].show(drawn("one"))
        live.refresh()
        assert live.version == start + 2
        displays[first].show(drawn("three"))  # drawn again after it was hashed: looked at again
        live.refresh()
        assert live.version == start + 3
        displays[first].show(drawn("one"))  # back to what it showed before
        live.refresh()
        assert live.version == start + 4
        assert told[-4:] == [start + 1, start + 2, start + 3, start + 4]
    finally:
        journal.close()
        table.close()
