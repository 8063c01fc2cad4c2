"""The service loop in-process on an emulated table: taps from the scanning threads reach
the game, SIGTERM-style stop leaves "Game saved" on every screen, the watchdog is pinged."""

from __future__ import annotations

import threading
import time

from service import Recorder, wait_until

from firmware.events import Press
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.screens import RefusalScreen, SavedScreen, render
from firmware.service import Service, StopRequest, Watchdog
from firmware.table_loop import ServiceLoop
from firmware.tabletop import uid_for
from hardware.nfc.tags import Ntag
from hardware.profile import load_profile
from hardware.table import build_table


def test_the_loop_plays_taps_from_its_threads_and_stops_saved(tmp_path):
    table = build_table(load_profile("full-table"), emulated=True)
    journal = Journal.open(tmp_path)
    notifier = Recorder()
    service = Service(notifier, Watchdog(notifier, 0.2), StopRequest(signals=()))
    loop = ServiceLoop(table, journal, GameShelf(), service)
    runner = threading.Thread(target=loop.run)
    runner.start()
    try:
        assert wait_until(lambda: "READY=1" in notifier.sent)
        table.pads["stake-1"].place(Ntag(uid_for("seer_orb"), card_id="seer_orb"))
        refusal = render(RefusalScreen("Choose the game first: Select, then OK"))
        assert wait_until(lambda: table.displays["status"].frame().tobytes() == refusal.tobytes())
        assert wait_until(lambda: notifier.sent.count("WATCHDOG=1") >= 2)
    finally:
        service.stop.request()
        runner.join(timeout=10)
    assert not runner.is_alive()
    saved = render(SavedScreen()).tobytes()
    assert all(display.frame().tobytes() == saved for display in table.displays.values())
    assert "STOPPING=1" in notifier.sent


def test_one_scanning_thread_per_bus():
    from firmware.table_loop import bus_scanners

    with build_table(load_profile("full-table"), emulated=True) as table:
        (scanner,) = bus_scanners(table, time.monotonic)  # five SPI readers share SPI0
        assert len(scanner.readers) == 5


def _loop_with_queued(tmp_path, events):
    """A loop on an emulated table with `events` queued before it runs, and what its hooks
    saw: the events handled by the time each `when_settled` ran."""
    table = build_table(load_profile("full-table"), emulated=True)
    journal = Journal.open(tmp_path)
    notifier = Recorder()
    service = Service(notifier, Watchdog(notifier, 0.2), StopRequest(signals=()))
    loop = ServiceLoop(table, journal, GameShelf(), service)
    handled: list[object] = []
    settled: list[int] = []
    loop.on_event.append(handled.append)
    loop.when_settled.append(lambda: settled.append(len(handled)))
    for event in events:
        loop.events.put(event)
    runner = threading.Thread(target=loop.run)
    runner.start()
    try:
        assert wait_until(lambda: len(handled) >= len(events) and settled)
    finally:
        service.stop.request()
        runner.join(timeout=10)
    return handled, settled


def test_the_web_app_looks_once_a_burst_of_events_is_handled(tmp_path):
    """The screens are looked at (and the phones told) after the events queued together, a
    tap's burst, not between them: the phones' work never comes inside a tap."""
    burst = [Press("down"), Press("down"), Press("up")]
    handled, settled = _loop_with_queued(tmp_path, burst)
    assert handled[:3] == burst
    assert settled[0] == 3


def test_a_queue_that_never_drains_still_has_its_screens_looked_at(tmp_path):
    from firmware.table_loop import SETTLE_AT_MOST

    burst = [Press("down")] * (2 * SETTLE_AT_MOST + 3)
    _handled, settled = _loop_with_queued(tmp_path, burst)
    assert settled[:3] == [SETTLE_AT_MOST, 2 * SETTLE_AT_MOST, 2 * SETTLE_AT_MOST + 3]
