"""Paired phones streaming from the web app while a bench plays (`bench companion --phones N`).

The table is the emulated one of `bench companion`, driven a tap at a time, with the web
app of `arcana-table run` beside it: the companion draws on the same wrapped displays
(`firmware.web.serve`), the web app's questions are `Ask` events answered between two
events as the service loop answers them, and the loop's after-event hook (which hashes the
screens for a new version) runs after every event. The phones are another process (as
phones are other devices): each seat's phone holds the event stream open and fetches its
`/api/state` on every version, as the phone's page does.

    with StreamedTable(scratch, GameShelf(), phones=4) as top:
        Demo(top, ...).play(bot)
        top.phones_report()        # {"states": [...per phone], "errors": [...]}
"""

from __future__ import annotations

import dataclasses
import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from firmware.events import Ask, Event
from firmware.tabletop import EmulatedTable
from firmware.web.live import LiveTable
from firmware.web.pairing import Pairing, Role
from firmware.web.qr import QrOverlay, Remembered
from firmware.web.serve import status_role
from hardware.profile import load_profile
from hardware.profile.web import WebSpec

HOST = "127.0.0.1"


class StreamedTable(EmulatedTable):
    """An EmulatedTable with the web app served and `phones` seats' phones streaming."""

    def __init__(
        self,
        state_dir: Path | str,
        games: Any,
        phones: int,
        players: int,
        back_to_back: bool = False,
    ) -> None:
        """`back_to_back`: the next tap comes at once, while the phones still fetch (their
        questions queue before it); otherwise each tap waits until every phone has the
        screens of the last one, as at a table where players are slower than phones."""
        self.back_to_back = back_to_back
        self.fetched: dict[int, int] = {}  # phone -> the last version it fetched
        self.report: dict[str, Any] | None = None
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()  # the web app's Asks
        self.when_settled: list[Any] = []  # as the service loop's hooks
        self.on_event: list[Any] = []
        profile = load_profile("full-table")
        profile = dataclasses.replace(profile, web=WebSpec(True, 8080, False))
        super().__init__(state_dir, games, profile, displays=self._wrapped)
        from firmware.web.app import SETTINGS, make_app, overlay_pending
        from firmware.web.running import Running

        self.pairing = Pairing(Path(state_dir))
        live = LiveTable(self, profile, games)
        app = make_app(live, self.pairing, HOST, 0, spectators=False)
        self.served = Running(app, host=HOST, port=0)
        app[SETTINGS]["port"] = self.served.port
        self.overlay.pending = overlay_pending(self.pairing, HOST, self.served.port)
        tokens = [self._pair(1 + n % players) for n in range(phones)]
        self.client = subprocess.Popen(
            [sys.executable, "-m", "firmware.benchmarks.phone_client", self.served.url, *tokens],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.live = live
        self.phones = phones
        self.streaming = 0
        self.failures: list[str] = []
        self.reader = threading.Thread(target=self._read_client, daemon=True)
        self.reader.start()
        self._wait(lambda: self.streaming >= phones, "did not start streaming")

    def _wrapped(self, table: Any) -> dict[str, Any]:
        displays: dict[str, Any] = {role: Remembered(d) for role, d in table.displays.items()}
        role = status_role(displays)
        self.overlay = displays[role] = QrOverlay(table.displays[role], lambda: None)
        return displays

    def _pair(self, seat: int) -> str:
        offer = self.pairing.offer(Role.of_seat(seat))
        _device, token = self.pairing.redeem(offer.code, f"bench phone {seat}")
        return token

    def _read_client(self) -> None:
        assert self.client.stdout is not None
        for line in self.client.stdout:
            words = line.split()
            if words[:1] == ["fetched"]:
                self.fetched[int(words[1])] = int(words[2])
            elif line.startswith("{"):
                self.report = json.loads(line)
            elif words[:1] == ["streaming"]:
                self.streaming += 1
            elif words[:1] == ["failed"]:
                self.failures.append(line.strip())

    def perform(self, step: Any) -> None:
        if not self.back_to_back:
            self._catch_up()
        super().perform(step)

    def _catch_up(self) -> None:
        """Answer the phones' questions until each has fetched the current version."""

        def caught_up() -> bool:
            version = self.live.version
            return all(self.fetched.get(n, -1) >= version for n in range(self.phones))

        self._wait(caught_up, "fell behind")

    def _wait(self, done: Any, what: str, seconds: float = 30.0) -> None:
        """Answer the web app's questions (as the loop would) until `done()`."""
        deadline = time.monotonic() + seconds
        while not done():
            if self.failures or time.monotonic() > deadline:
                raise RuntimeError(f"the bench phones {what}: {self.failures or self.fetched}")
            self._answer_asks()
            time.sleep(0.001)

    # -- the service loop's order: queued questions, then each event and its hooks ------------
    def settle(self) -> None:
        """The questions queued so far, then the scan cycle's events with their hooks. The
        cycle queues its events together, so a question asked while they are handled waits
        behind them, as on the service loop's queue: it is answered at the next settle."""
        self._answer_asks()
        super().settle()

    def handle(self, event: Event) -> None:
        """The event through the companion, then the loop's hooks, as the service loop runs
        them: `on_event` after each, `when_settled` after the last one queued."""
        super().handle(event)
        for seen in self.on_event:
            seen(event)
        if not self.inbox:
            for hook in self.when_settled:
                hook()

    def _answer_asks(self) -> None:
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return
            if isinstance(event, Ask):
                event.run()
            else:  # a Tick from the web app (redraw soon)
                self.inbox.append(event)

    def phones_report(self) -> dict[str, Any]:
        """Stop the phones; how many states each fetched, and what went wrong."""
        assert self.client.stdin is not None and self.client.stdout is not None
        done = threading.Event()
        # The phones' last fetches are Asks: answer them while the client winds down.
        helper = threading.Thread(target=self._answer_until, args=(done,), daemon=True)
        helper.start()
        self.client.stdin.close()
        self.client.wait(timeout=30)
        self.reader.join(timeout=30)
        done.set()
        helper.join()
        return self.report or {"states": [], "errors": ["the phones gave no report"]}

    def _answer_until(self, done: threading.Event) -> None:
        while not done.wait(0.01):
            self._answer_asks()

    def close(self) -> None:
        if self.client.poll() is None:
            self.client.kill()
            self.client.wait()
        self.served.stop()
        super().close()
