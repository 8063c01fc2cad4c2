"""Scanning every pad in turn and turning polls into placed/removed events, with fault back-off.

    >>> from hardware.nfc.buses import EmulatedI2C
    >>> from hardware.nfc.emulator import EmulatedPN532
    >>> from hardware.nfc.reader import Reader
    >>> from hardware.nfc.tags import Ntag
    >>> i2c, now = EmulatedI2C(), [0.0]
    >>> chip = i2c.attach(EmulatedPN532())
    >>> scanner = Scanner([Reader.over_i2c(i2c, name="stake-0")], clock=lambda: now[0])
    >>> _ = chip.place(Ntag("04a1b2c3d4e5f6", card_id="relic-07"))
    >>> [(e.kind, e.card_id) for e in scanner.cycle()]
    [('placed', 'relic-07')]

Rules (docs/nfc.md has the reasoning):
- a tag gives one `placed` when it arrives and one `removed` once unseen for `absence_s`;
  missed reads shorter than that change nothing, and a tag left on a pad never repeats;
- two tags on one pad give one `conflict` (their UIDs), never a placed for either: stacked
  tags are listed 2, 1, 0 in turn, so nothing is placed until the conflict was last seen
  `absence_s` ago;
- a reader failing `fault_after` polls in a row gives `reader_fault`, is re-initialised with
  exponential back-off (`backoff_s` doubling up to `max_backoff_s`) while the others keep being
  polled, and gives `reader_back` when it answers again; its tags are neither placed nor
  removed while it is down, and their absence time restarts when it is back;
- with `one_field_at_a_time` each reader's RF field is switched off before the next is polled.
"""

from __future__ import annotations

import collections
import itertools
import logging
import math
import statistics
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from hardware.nfc.reader import PollResult, Reader, ReaderFault, ReaderHealth, TagError

log = logging.getLogger(__name__)
T = TypeVar("T")

EVENT_KINDS = ("placed", "removed", "conflict", "reader_fault", "reader_back")
SCAN_PAUSE_S = 0.02  # ScanThread's pause between cycles
# A tag must stay unseen this many scan periods before it counts as removed: stacked tags are
# listed 2, 1, 0 in turn (3 polls), plus one poll for a read missed on the way.
ABSENCE_POLLS = 4
PERIOD_WINDOW = 20  # cycles whose median period is checked against absence_s


def absence_for(cycle_s: float, pause_s: float = SCAN_PAUSE_S) -> float:
    """The shortest safe `absence_s` for a scan cycle of `cycle_s` seconds (see docs/nfc.md).

    `ABSENCE_POLLS` scan periods (cycle plus the ScanThread's pause), rounded up to 50 ms:

        >>> absence_for(0.058)
        0.35
    """
    periods = ABSENCE_POLLS * (cycle_s + pause_s)
    return math.ceil(round(periods * 20, 6)) / 20  # round() first: 0.3 / 0.05 is 5.999...


@dataclass(frozen=True)
class TagEvent:
    """Something that happened on a pad.

    `uid` is the tag's UID in hex ("" for reader events; for a conflict, the UIDs joined by
    "+"); `card_id` comes from the tag's NDEF text record when it has a readable one; `detail`
    says why not, or what the fault was; `uids` lists every tag of a conflict; `fault` is a
    reader_fault's kind (hardware.nfc.reader.FAULT_KINDS).
    """

    kind: str
    reader: str
    uid: str = ""
    card_id: str | None = None
    detail: str | None = None
    uids: tuple[str, ...] = ()
    fault: str = ""


@dataclass
class _Pad:
    seen: dict[str, float] = field(default_factory=dict)  # announced uid -> last seen
    conflict: frozenset[str] = frozenset()
    conflict_seen: float = 0.0
    down: bool = False
    backoff_s: float = 0.0
    retry_at: float = 0.0


class Scanner:
    """Polls readers in turn; `cycle()` is one synchronous pass and returns its events."""

    def __init__(
        self,
        readers: Iterable[Reader],
        absence_s: float = 0.3,
        one_field_at_a_time: bool = True,
        clock: Callable[[], float] = time.monotonic,
        *,
        fault_after: int = 2,
        backoff_s: float = 0.1,
        max_backoff_s: float = 5.0,
        read_card_ids: bool = True,
        watch_period: bool = True,
    ) -> None:
        self.readers = list(readers)
        names = [reader.name for reader in self.readers]
        if len(set(names)) != len(names):
            raise ValueError(f"reader names must be unique, got {names}")
        if absence_s < 0 or fault_after < 1 or backoff_s <= 0 or max_backoff_s < backoff_s:
            raise ValueError("absence_s >= 0, fault_after >= 1, 0 < backoff_s <= max_backoff_s")
        self.absence_s = absence_s
        self.one_field_at_a_time = one_field_at_a_time
        self.clock = clock
        self.fault_after = fault_after
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.read_card_ids = read_card_ids
        self._pads = {reader.name: _Pad() for reader in self.readers}
        # health() may be asked from another thread while a ScanThread runs cycles.
        self._lock = threading.Lock()
        self._pending: list[TagEvent] = []
        self._starts: collections.deque[float] = collections.deque(maxlen=PERIOD_WINDOW + 1)
        # A table that is stepped by hand (the EmulatedTable: a cycle per tap on a manual clock)
        # has no scan period to watch: the gaps between its cycles are its steps.
        self._absence_warned = not watch_period
        for reader in self.readers:
            if reader.health.state != "ok":  # absent from the start: say so, retry soon
                pad = self._pads[reader.name]
                pad.down, pad.backoff_s = True, backoff_s
                kind, _, why = (reader.health.last_error or "").partition(": ")
                detail = f"reader {reader.name}: {why}"  # as a ReaderFault says it
                event = TagEvent("reader_fault", reader.name, detail=detail, fault=kind)
                self._pending.append(event)

    def cycle(self) -> list[TagEvent]:
        """Poll every reader once, in order; return what changed."""
        self._check_period(self.clock())
        with self._lock:
            events, self._pending = self._pending, []
        for reader in self.readers:
            with self._lock:
                events += self._visit(reader)
        return events

    def between_polls(self, name: str, job: Callable[[Reader], T]) -> T:
        """`job(reader)` for the reader called `name`, run between two polls of this
        scanner's bus (a tag write from another thread must not share the bus with a poll).

        Raises KeyError for a reader this scanner does not poll."""
        reader = next((r for r in self.readers if r.name == name), None)
        if reader is None:
            raise KeyError(name)
        with self._lock:
            return job(reader)

    @property
    def period_s(self) -> float | None:
        """The median time between the starts of the last cycles (pauses included), as the
        scanner's clock measures it; None until PERIOD_WINDOW cycles have run."""
        starts = list(self._starts)
        if len(starts) <= PERIOD_WINDOW:
            return None
        return statistics.median(b - a for a, b in itertools.pairwise(starts))

    def _check_period(self, now: float) -> None:
        """Say once, with the fix, when the measured cycles are too slow for `absence_s`."""
        self._starts.append(now)
        period = self.period_s
        if period is None or self._absence_warned:
            return
        needed = absence_for(period, pause_s=0.0)
        if needed > self.absence_s:
            self._absence_warned = True
            log.warning(
                "scan cycles take %.0f ms, so absence_s %.2f s is too short (stacked tags may "
                "be placed, still tags removed): set absence_s = %.2f in the profile's [table]",
                period * 1000,
                self.absence_s,
                needed,
            )

    def health(self) -> dict[str, ReaderHealth]:
        """Each reader's health, with the time left before its next re-init while down."""
        now = self.clock()
        with self._lock:
            return self._health(now)

    def _health(self, now: float) -> dict[str, ReaderHealth]:
        out = {}
        for reader in self.readers:
            health = reader.health.snapshot()
            pad = self._pads[reader.name]
            health.retry_in_s = max(0.0, pad.retry_at - now) if pad.down else None
            out[reader.name] = health
        return out

    def close(self) -> None:
        """Close every reader (idempotent)."""
        with self._lock:
            for reader in self.readers:
                reader.close()

    # --- one reader ---------------------------------------------------------------------------

    def _visit(self, reader: Reader) -> list[TagEvent]:
        pad = self._pads[reader.name]
        now = self.clock()
        if pad.down and now < pad.retry_at:
            return []
        events: list[TagEvent] = []
        try:
            if pad.down:
                reader.reinit()
            result = reader.poll()
            if pad.down:
                events.append(self._back(reader, pad, now))
            events += self._track(reader, pad, result, now)
            if self.one_field_at_a_time:
                reader.field_off()
        except ReaderFault as fault:
            events += self._fault(reader, pad, fault, now)
        return events

    def _back(self, reader: Reader, pad: _Pad, now: float) -> TagEvent:
        pad.down = False
        pad.backoff_s = 0.0
        for uid in pad.seen:
            pad.seen[uid] = now  # absence restarts: while down nothing was known
        return TagEvent("reader_back", reader.name, detail=reader.health.firmware)

    def _fault(self, reader: Reader, pad: _Pad, fault: ReaderFault, now: float) -> list[TagEvent]:
        if pad.down:
            pad.backoff_s = min(max(pad.backoff_s * 2, self.backoff_s), self.max_backoff_s)
            pad.retry_at = now + pad.backoff_s
            return []
        if reader.health.consecutive_failures < self.fault_after:
            return []  # one glitch: counted in the health, polled again next cycle
        pad.down = True
        pad.backoff_s = self.backoff_s
        pad.retry_at = now + pad.backoff_s
        return [TagEvent("reader_fault", reader.name, detail=str(fault), fault=fault.kind)]

    def _track(self, reader: Reader, pad: _Pad, result: PollResult, now: float) -> list[TagEvent]:
        events: list[TagEvent] = []
        uids = result.uids
        for uid in uids:
            if uid in pad.seen:
                pad.seen[uid] = now
        if len(uids) > 1:
            current = frozenset(uids)
            if current != pad.conflict:
                order = tuple(sorted(uids))
                events.append(TagEvent("conflict", reader.name, "+".join(order), uids=order))
            pad.conflict, pad.conflict_seen = current, now
        else:
            if pad.conflict and now - pad.conflict_seen >= self.absence_s:
                pad.conflict = frozenset()
            for uid in uids:
                # while a conflict is remembered, a tag read alone may be a flicker of the pair
                if uid not in pad.seen and not pad.conflict:
                    card_id, detail = self._card_id(reader, uid)
                    pad.seen[uid] = now
                    events.append(TagEvent("placed", reader.name, uid, card_id, detail))
        for uid, last in list(pad.seen.items()):
            if uid not in uids and now - last >= self.absence_s:
                del pad.seen[uid]
                events.append(TagEvent("removed", reader.name, uid))
        return events

    def _card_id(self, reader: Reader, uid: str) -> tuple[str | None, str | None]:
        if not self.read_card_ids:
            return None, None
        try:
            return reader.read_card_id(uid), None
        except TagError as error:
            return None, str(error)


class ScanThread:
    """Runs `scanner.cycle()` in a background thread and hands each event to `on_event`.

    A failing `on_event` is logged and the scan goes on. `stop()` returns within the current
    cycle plus `timeout`; it says whether the thread ended.
    """

    def __init__(
        self,
        scanner: Scanner,
        on_event: Callable[[TagEvent], None],
        interval_s: float = SCAN_PAUSE_S,
        name: str = "nfc-scan",
    ) -> None:
        self.scanner = scanner
        self.on_event = on_event
        self.interval_s = interval_s
        self.cycles = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> ScanThread:
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 2.0) -> bool:
        """Ask the thread to end and wait up to `timeout` seconds; True if it ended."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        return not self._thread.is_alive()

    def __enter__(self) -> ScanThread:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                events = self.scanner.cycle()
            except Exception:
                log.exception("NFC scan cycle failed; trying again")
                events = []
            self.cycles += 1
            for event in events:
                try:
                    self.on_event(event)
                except Exception:
                    log.exception("handling %s failed", event)
            self._stop.wait(self.interval_s)
