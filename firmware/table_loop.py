"""The table running for real: scanning threads and buttons feed one queue, one thread owns
the game, systemd hears that it is alive.

    loop = ServiceLoop(table, journal, games, service)
    loop.run()                 # until SIGTERM/SIGINT; then the screens say "saved"

Readers are grouped by bus, one scanning thread per bus (readers on one bus take turns;
separate buses poll at the same time). A failing reader or display never stops the loop.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Mapping
from typing import Any

from firmware.companion import Companion, Games
from firmware.events import Ask, Event, Tick
from firmware.inputs import from_scanner, wire_buttons
from firmware.journal import Journal
from firmware.screens import SavedScreen, render
from firmware.service import Service
from hardware.nfc.scanner import Scanner, ScanThread
from hardware.table import TableDevices

log = logging.getLogger(__name__)

# A queue that never drains (a busy bus, many phones) still has `when_settled` run this often.
SETTLE_AT_MOST = 16  # events
TICK_S = 0.5


class ServiceLoop:
    """Threads around a Companion; `run()` returns when a stop is requested."""

    def __init__(
        self,
        table: TableDevices,
        journal: Journal,
        games: Games,
        service: Service,
        clock: Callable[[], float] = time.monotonic,
        displays: Mapping[str, Any] | None = None,
    ) -> None:
        """`displays`: what the companion draws on (default the table's; the web app passes
        them with the status display wrapped to show its pairing QR code)."""
        self.table = table
        self.journal = journal
        self.service = service
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.displays = dict(table.displays if displays is None else displays)
        self.companion = Companion(self.displays, journal, games, buzzer=table.buzzer, clock=clock)
        # On this thread: `on_event` after each event, told which; `when_settled` once the
        # events queued so far are handled (a tap's burst, not each of its events), so what
        # watches the screens (the web app) starts its work after the tap is drawn.
        self.on_event: list[Callable[[Event], None]] = []
        self.when_settled: list[Callable[[], None]] = []
        self._unsettled = 0  # events handled since `when_settled` last ran
        self.scan_threads = [
            ScanThread(scanner, self._on_tag) for scanner in bus_scanners(table, clock)
        ]
        wire_buttons(table.buttons, self.events.put)
        service.stop.on_request(lambda: self.events.put(Tick()))  # wake the loop at once

    def _on_tag(self, tag_event: Any) -> None:
        if tag_event.kind == "reader_fault":  # the screen has room for a word; the log says why
            log.warning("%s", tag_event.detail)
        event = from_scanner(tag_event)
        if event is not None:
            self.events.put(event)

    def start(self) -> None:
        """Resume or set up the game, show it, start scanning, tell systemd we are ready."""
        self.companion.start()
        for sentence in self.companion.set_asides:  # the service log: journalctl -u ...
            log.warning("journal: %s", sentence)
        for thread in self.scan_threads:
            thread.start()
        self.service.ready(self.status_text())

    def status_text(self) -> str:
        """`systemctl status` line: the game, and what the journal set aside at start."""
        text = (
            "choosing a game"
            if self.companion.game_id is None
            else f"game {self.companion.game_id} in play"
        )
        asides = self.companion.set_asides
        if asides:
            more = f" (+{len(asides) - 1} more)" if len(asides) > 1 else ""
            text += f"; set aside: {asides[-1]}{more}; see arcana-table history"
        return text

    def run(self) -> None:
        with self.service.stop:
            self.start()
            while not self.service.stop.requested:
                try:
                    event = self.events.get(timeout=self.service.wait_timeout(TICK_S))
                except queue.Empty:
                    event = Tick()
                try:
                    if isinstance(event, Ask):
                        event.run()
                    else:
                        self.companion.handle(event)
                        for seen in self.on_event:
                            seen(event)
                        self._unsettled += 1
                    if self._unsettled and (
                        self.events.empty() or self._unsettled >= SETTLE_AT_MOST
                    ):
                        self._unsettled = 0
                        for hook in self.when_settled:
                            hook()
                except Exception:  # the loop must survive anything one event does
                    log.exception("handling %r failed", event)
                self.service.tick()
            self.shutdown()

    def shutdown(self) -> None:
        """Bounded: stop scanning, leave "saved" on the screens, close devices and journal."""
        report = self.service.shutdown(
            [
                ("scanning", self._stop_scanning),
                ("screens", self._show_saved),
                ("devices", self.table.close),
                ("journal", self.journal.close),
            ]
        )
        if not report.clean:
            log.warning("shutdown: %s", report)

    def _stop_scanning(self) -> None:
        for thread in self.scan_threads:
            thread.stop(timeout=1.0)

    def _show_saved(self) -> None:
        """"Game saved" stays on every screen after the process ends."""
        for display in self.table.displays.values():
            display.show(render(SavedScreen(), display.size))
            display.close(keep_image=True)


def bus_scanners(table: TableDevices, clock: Callable[[], float]) -> list[Scanner]:
    """One scanner per bus, each polling its readers in turn."""
    groups: dict[tuple[str, str], list[Any]] = {}
    specs = {spec.role: spec for spec in table.profile.readers}
    for role, reader in table.readers.items():
        spec = specs[role]
        # A UART carries one reader; SPI and I2C readers share their numbered bus.
        key = (spec.interface, role if spec.interface == "uart" else str(spec.bus))
        groups.setdefault(key, []).append(reader)
    profile = table.profile
    return [
        Scanner(
            readers,
            absence_s=profile.absence_s,
            one_field_at_a_time=profile.one_field_at_a_time,
            clock=clock,
        )
        for readers in groups.values()
    ]
