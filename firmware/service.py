"""The table as a systemd service: readiness, status, watchdog pings and a bounded stop.

Standard library only. Outside systemd (no $NOTIFY_SOCKET) every call is a silent no-op, so
`arcana-table run` behaves the same from a terminal.

The event loop uses it like this::

    service = Service.from_environment()
    with service.stop:                       # SIGTERM/SIGINT now ask the loop to stop
        ... start devices, resume the game ...
        service.ready("Arcana: round 1")
        while not service.stop.requested:
            event = take_event(timeout=service.wait_timeout(0.5))
            ... handle it ...
            service.tick()                   # pings the watchdog when half its interval is up
        report = service.shutdown([("save", journal.close), ("screens", screens.show_saved)])
    service.close()

A loop that hangs stops pinging, and systemd restarts the service (WatchdogSec= in the unit).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import FrameType, TracebackType

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
# The unit's TimeoutStopSec= is 5 s; what remains after the budget is the margin for the
# interpreter to exit before systemd sends SIGKILL.
SHUTDOWN_BUDGET_S = 3.5


class Notifier:
    """Sends sd_notify(3) messages to the datagram socket named by $NOTIFY_SOCKET.

    `address` is a filesystem path or, starting with "@", an abstract-namespace name. Without
    an address every message is dropped and the calls return False.

    >>> Notifier(None).ready()
    False
    """

    def __init__(self, address: str | None) -> None:
        self.address = address or None
        self.note = ""
        self._target: str | bytes | None = None
        self._socket: socket.socket | None = None
        self._failed = False
        if self.address is None:
            return
        if self.address.startswith("/"):
            self._target = self.address
        elif self.address.startswith("@") and len(self.address) > 1:
            # "@name" is Linux's abstract namespace: a leading NUL byte, no file on disk.
            self._target = "\0" + self.address[1:]
        else:
            self.note = (
                f"NOTIFY_SOCKET={self.address!r} is neither a path nor an @abstract name; "
                "systemd notifications are off"
            )

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """The notifier systemd asked for via $NOTIFY_SOCKET (a no-op one if unset)."""
        env = os.environ if environ is None else environ
        return cls(env.get("NOTIFY_SOCKET"))

    @property
    def enabled(self) -> bool:
        return self._target is not None

    def send(self, *fields: str) -> bool:
        """Sends one message of `KEY=value` fields; True if systemd's socket took it."""
        if self._target is None or not fields:
            return False
        message = "\n".join(fields).encode("utf-8")
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto(message, self._target)
        except OSError as err:
            # systemd going away must never take the game down; say it once, keep playing.
            if not self._failed:
                log.warning("cannot notify systemd at %s: %s", self.address, err)
                self._failed = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is complete (Type=notify): READY=1, with a status line if given."""
        fields = ["READY=1"]
        if status is not None:
            fields.append(_status_field(status))
        return self.send(*fields)

    def status(self, text: str) -> bool:
        """One line for `systemctl status arcana-table`."""
        return self.send(_status_field(text))

    def watchdog(self) -> bool:
        """Tells systemd's watchdog the loop is alive."""
        return self.send("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """The service has begun to shut down."""
        fields = ["STOPPING=1"]
        if status is not None:
            fields.append(_status_field(status))
        return self.send(*fields)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _status_field(text: str) -> str:
    # A newline would start a new field: a status line must never smuggle in READY=1.
    return "STATUS=" + " ".join(text.split())


class Watchdog:
    """Knows systemd's watchdog interval and when the next ping is due (half the interval).

    `interval` is in seconds, None when the watchdog is off. `clock` is injectable for tests.
    """

    def __init__(
        self,
        notifier: Notifier,
        interval: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        note: str = "",
    ) -> None:
        if interval is not None and interval <= 0:
            raise ValueError(f"a watchdog interval must be positive, not {interval!r}")
        self.notifier = notifier
        self.interval = interval
        self.note = note
        self._clock = clock
        self._next_ping = clock()  # the first tick pings at once

    @classmethod
    def from_environment(
        cls,
        notifier: Notifier,
        environ: Mapping[str, str] | None = None,
        *,
        pid: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Watchdog:
        """The watchdog systemd set up: $WATCHDOG_USEC, if $WATCHDOG_PID (when set) is us."""
        env = os.environ if environ is None else environ
        interval, note = watchdog_interval(env, os.getpid() if pid is None else pid)
        return cls(notifier, interval, clock=clock, note=note)

    @property
    def enabled(self) -> bool:
        return self.interval is not None

    @property
    def ping_every(self) -> float | None:
        """Seconds between pings: half the interval, as sd_watchdog_enabled(3) advises."""
        return None if self.interval is None else self.interval / 2

    def seconds_until_due(self) -> float | None:
        """How long the loop may block before the next ping; None when the watchdog is off."""
        if self.interval is None:
            return None
        return max(0.0, self._next_ping - self._clock())

    def tick(self) -> bool:
        """Pings if a ping is due; True when it pinged."""
        if self.interval is None:
            return False
        now = self._clock()
        if now < self._next_ping:
            return False
        self.ping()
        return True

    def ping(self) -> None:
        """Pings now and restarts the count to the next ping."""
        if self.interval is None:
            return
        self.notifier.watchdog()
        self._next_ping = self._clock() + self.interval / 2


def watchdog_interval(environ: Mapping[str, str], pid: int) -> tuple[float | None, str]:
    """(seconds, note) from $WATCHDOG_USEC / $WATCHDOG_PID; (None, why) when it is off.

    >>> watchdog_interval({"WATCHDOG_USEC": "10000000"}, pid=42)
    (10.0, '')
    >>> watchdog_interval({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "7"}, pid=42)[0] is None
    True
    """
    raw = environ.get("WATCHDOG_USEC")
    if raw is None or raw == "":
        return None, ""
    if not raw.isdigit() or int(raw) == 0:
        return None, f"WATCHDOG_USEC={raw!r} is not a positive number of microseconds; no watchdog"
    owner = environ.get("WATCHDOG_PID")
    if owner:
        if not owner.isdigit():
            return None, f"WATCHDOG_PID={owner!r} is not a process id; no watchdog"
        if int(owner) != pid:
            # The watchdog belongs to another process (we were started by it): not ours to ping.
            return None, f"WATCHDOG_PID={owner} is not this process ({pid}); no watchdog"
    return int(raw) / 1_000_000, ""


class StopRequest:
    """Turns SIGTERM/SIGINT into a request the loop sees, instead of an exception mid-write.

    Use as a context manager (from the main thread) to install the handlers and restore the
    previous ones afterwards. Callbacks given to `on_request` run inside the signal handler, so
    they must be reentrant: `queue.SimpleQueue.put` is, to wake a loop blocked on its queue.
    """

    def __init__(self, signals: Iterable[int] = STOP_SIGNALS) -> None:
        self.signals = tuple(signals)
        self.signal: int | None = None
        self._event = threading.Event()
        self._callbacks: list[Callable[[], object]] = []
        self._previous: dict[int, object] = {}

    @property
    def requested(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Blocks until a stop is requested or `timeout` passes; True if requested."""
        return self._event.wait(timeout)

    def request(self, signum: int | None = None) -> None:
        """Asks the loop to stop (what the signal handler does; callable directly too)."""
        if self._event.is_set():
            return
        self.signal = signum
        self._event.set()
        for callback in self._callbacks:
            try:
                callback()
            except Exception:
                # Raised from a signal handler, it would surface at a random line of the loop.
                log.exception("stop callback %r failed", callback)

    def on_request(self, callback: Callable[[], object]) -> None:
        """Calls `callback` once when a stop is requested (from the signal handler)."""
        self._callbacks.append(callback)

    def install(self) -> None:
        for signum in self.signals:
            self._previous[signum] = signal.signal(signum, self._handle)

    def uninstall(self) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)  # type: ignore[arg-type]
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.request(signum)

    def __enter__(self) -> StopRequest:
        self.install()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.uninstall()


@dataclass
class ShutdownReport:
    """What a bounded shutdown did: steps done, failed (with the error), unfinished, skipped."""

    done: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    unfinished: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.failed or self.unfinished or self.skipped)


ShutdownStep = tuple[str, Callable[[], object]]


def bounded_shutdown(
    steps: Iterable[ShutdownStep],
    budget: float = SHUTDOWN_BUDGET_S,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> ShutdownReport:
    """Runs the clean-up steps in order, all of them within `budget` seconds.

    A step that raises is logged and the next one still runs (a dead display must not keep
    the journal from closing). A step still running when the budget is spent is left behind
    in its daemon thread, and the steps after it are skipped: systemd's SIGKILL would
    otherwise cut them at a worse moment.
    """
    report = ShutdownReport()
    deadline = clock() + budget
    pending = list(steps)
    while pending:
        name, step = pending.pop(0)
        remaining = deadline - clock()
        if remaining <= 0:
            report.skipped.extend([name] + [later for later, _ in pending])
            break
        outcome: list[BaseException | None] = []
        worker = threading.Thread(
            target=_run_step, args=(step, outcome), name=f"shutdown:{name}", daemon=True
        )
        worker.start()
        worker.join(remaining)
        if worker.is_alive():
            log.error("shutdown step %r did not finish within the %.1f s budget", name, budget)
            report.unfinished.append(name)
            report.skipped.extend(later for later, _ in pending)
            break
        error = outcome[0] if outcome else None
        if error is None:
            report.done.append(name)
        else:
            log.error("shutdown step %r failed: %s", name, error)
            report.failed[name] = f"{type(error).__name__}: {error}"
    return report


def _run_step(step: Callable[[], object], outcome: list[BaseException | None]) -> None:
    try:
        step()
    except Exception as err:  # reported by bounded_shutdown, never raised past it
        outcome.append(err)
    else:
        outcome.append(None)


class Service:
    """Notifier, watchdog and stop request together, as the event loop needs them."""

    def __init__(
        self,
        notifier: Notifier | None = None,
        watchdog: Watchdog | None = None,
        stop: StopRequest | None = None,
    ) -> None:
        self.notifier = notifier if notifier is not None else Notifier(None)
        self.watchdog = watchdog if watchdog is not None else Watchdog(self.notifier, None)
        self.stop = stop if stop is not None else StopRequest()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Service:
        """The service as systemd started it ($NOTIFY_SOCKET, $WATCHDOG_USEC, $WATCHDOG_PID)."""
        notifier = Notifier.from_environment(environ)
        watchdog = Watchdog.from_environment(notifier, environ)
        for note in (notifier.note, watchdog.note):
            if note:
                log.warning("%s", note)
        return cls(notifier, watchdog)

    def ready(self, status: str | None = None) -> bool:
        """The screens show the game: tell systemd start-up is done, and ping at once."""
        sent = self.notifier.ready(status)
        self.watchdog.ping()
        return sent

    def status(self, text: str) -> bool:
        return self.notifier.status(text)

    def tick(self) -> bool:
        """Call once per loop turn: pings the watchdog when due."""
        return self.watchdog.tick()

    def wait_timeout(self, longest: float) -> float:
        """How long the loop may block waiting for an event: `longest`, or less if a ping is due."""
        due = self.watchdog.seconds_until_due()
        return longest if due is None else min(longest, due)

    def close(self) -> None:
        """Closes the socket to systemd (the loop is over)."""
        self.notifier.close()

    def shutdown(
        self, steps: Iterable[ShutdownStep], budget: float = SHUTDOWN_BUDGET_S
    ) -> ShutdownReport:
        """STOPPING=1, then the clean-up steps within `budget` seconds (see bounded_shutdown)."""
        self.notifier.stopping("saving the game")
        report = bounded_shutdown(steps, budget)
        self.notifier.status("saved" if report.clean else "stopped with clean-up problems")
        return report
