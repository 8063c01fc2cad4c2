"""The tags tapped on the table's pads, as the web app learns of them from the table loop.

    taps = Taps()
    loop.on_event.append(taps.record)     # on the loop's thread, after each event
    taps.last()                           # the newest tap: {"seq", "pad", "uid", "written_id"}

Enrollment from the phone binds "the tag just tapped": the page names the tap by its `seq`,
so a tag tapped after the owner chose a card is never bound by mistake. Only the newest tap
is kept; the companion handles every tap as ever (the web app only looks).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from firmware.events import Tap


class Taps:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, Any] | None = None
        self._seq = 0

    def record(self, event: Any) -> None:
        """A loop hook: remember `event` if it is a tap."""
        if not isinstance(event, Tap):
            return
        with self._lock:
            self._seq += 1
            self._last = {
                "seq": self._seq,
                "pad": event.pad,
                "uid": event.uid.lower(),
                "written_id": event.written_id,
                "at": time.time(),
            }

    def last(self) -> dict[str, Any] | None:
        with self._lock:
            return None if self._last is None else dict(self._last)
