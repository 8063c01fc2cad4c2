"""The real table seen by the web app: the ServiceLoop's companion, asked on the loop's thread.

    live = LiveTable(loop, profile, games)     # before loop.run(); hooks into the loop
    await live.state(seat)                      # from the web app's event loop (any thread)
    live.wake()                                 # redraw soon (a pairing code opened or closed)

The companion belongs to the loop's thread: every question is an `Ask` event on the loop's
queue, answered between two taps. After each event the loop calls `refresh`, which bumps
`version` when a screen changed, and tells the web app's stream (`on_version`).
The screens hashed are the ones the companion drew, never the pairing QR code over them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from PIL import Image

from firmware.events import Ask, Tick
from firmware.games import GameShelf
from firmware.web.table_view import TableView
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
        loop.after_event.append(self.refresh)

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
        """On the loop's thread, after an event: a new version if a screen changed."""
        before = self.version
        self.language = self.companion.current_language()
        self._changed(only_if_frames_differ=True)
        if self.version != before and self.on_version is not None:
            self.on_version(self.version)

    async def ask(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` run on the loop's thread; its answer here."""
        answer: Future[Any] = Future()
        self.loop.events.put(Ask(lambda: fn(*args), answer))
        return await asyncio.wait_for(asyncio.wrap_future(answer), ASK_S)

    async def read_state(self, seat: int | None) -> dict[str, Any]:
        return await self.ask(self.state, seat)

    def wake(self) -> None:
        self.loop.events.put(Tick())
