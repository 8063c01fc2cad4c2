"""The real table seen by the web app: the ServiceLoop's companion, asked on the loop's thread.

    live = LiveTable(loop, profile, games)     # before loop.run(); hooks into the loop
    await live.state(seat)                      # from the web app's event loop (any thread)
    live.wake()                                 # redraw soon (a pairing code opened or closed)

The companion belongs to the loop's thread: every question is an `Ask` event on the loop's
queue, answered between two taps. Once the loop has handled the events queued so far (a
tap's burst: `ServiceLoop.when_settled`) it calls `refresh`, which bumps `version` when a
screen changed, and tells the web app's stream (`on_version`): the phones' work starts after
the tap is drawn, not between its events. The screens hashed are the ones the companion drew,
never the pairing QR code over them; a screen is hashed again only when the companion drew
on it since the last look.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PIL import Image

from firmware.events import Ask, Tick
from firmware.games import GameShelf
from firmware.web.table_view import TableView, frame_hash
from hardware.profile import Profile

ASK_S = 10.0  # a question unanswered this long: the loop is stuck or stopped


class LiveTable(TableView):
    def __init__(self, loop: Any, profile: Profile, games: GameShelf) -> None:
        super().__init__(profile, games)
        self.loop = loop
        self.on_version: Callable[[int], None] | None = None  # set by the web app
        # The language of the game shown, as of the last event (the web app's refusals
        # read it from their own thread, without asking the loop).
        self.language: str | None = self.companion.current_language()
        # role -> (the display's `Remembered.shows`, its frame's hash) when last hashed
        self._hashed: dict[str, tuple[int, str]] = {}
        loop.when_settled.append(self.refresh)

    @property
    def companion(self) -> Any:
        return self.loop.companion

    @property
    def journal(self) -> Any:
        return self.loop.journal

    def frame_images(self) -> dict[str, Image.Image]:
        # What the companion drew (firmware.web.qr.Remembered): never the QR code over it,
        # and real displays cannot be read back.
        return {role: shown.companion_frame() for role, shown in self.loop.displays.items()}

    def refresh(self) -> None:
        """On the loop's thread, once the events queued so far are handled: a new version if
        a screen changed."""
        before = self.version
        self.language = self.companion.current_language()
        self._changed(only_if_frames_differ=True)
        if self.version != before and self.on_version is not None:
            self.on_version(self.version)

    def _frame_hashes(self) -> dict[str, str]:
        """Each screen's hash, computed again only for the displays drawn on since the last
        look (a tap redraws two or three of the table's screens)."""
        hashes: dict[str, str] = {}
        for role, shown in self.loop.displays.items():
            shows = getattr(shown, "shows", None)
            if shows is None:  # not a Remembered display: look every time
                hashes[role] = frame_hash(shown.companion_frame())
                continue
            known = self._hashed.get(role)
            if known is None or known[0] != shows:
                known = self._hashed[role] = (shows, frame_hash(shown.companion_frame()))
            hashes[role] = known[1]
        return hashes

    async def ask(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` run on the loop's thread; its answer here."""
        answer: Future[Any] = Future()
        self.loop.events.put(Ask(lambda: fn(*args), answer))
        return await asyncio.wait_for(asyncio.wrap_future(answer), ASK_S)

    async def read_state(self, seat: int | None) -> dict[str, Any]:
        return await self.ask(self.state, seat)

    def wake(self) -> None:
        self.loop.events.put(Tick())
