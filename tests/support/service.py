"""The service under test: `arcana-table run --emulated` in a subprocess with a notify socket
as systemd's (`start_service`), or in-process with a `Recorder` of its notify messages, and
`wait_until` for what its threads do."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from firmware.service import Notifier


def start_service(
    tmp_path: Path, *extra: str, state: Path | None = None, timeout_s: float = 20
) -> tuple[subprocess.Popen, socket.socket]:
    """The service on `state` (default tmp_path/state) and the socket its messages reach."""
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(timeout_s)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware",
            "run",
            "--emulated",
            "--state-dir",
            str(state or tmp_path / "state"),
            *extra,
        ],
        env=dict(os.environ, NOTIFY_SOCKET=address),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process, listener


def messages_until(listener: socket.socket, wanted: str) -> list[str]:
    """Every notify message up to and including the one carrying the field `wanted`."""
    seen = []
    while True:
        message = listener.recv(4096).decode()
        seen.append(message)
        if wanted in message.split("\n"):
            return seen


class Recorder(Notifier):
    """A notifier that keeps every field the service sends ("READY=1", "WATCHDOG=1", ...)."""

    def __init__(self) -> None:
        super().__init__(None)
        self.sent: list[str] = []

    def send(self, *fields: str) -> bool:
        self.sent.extend(fields)
        return True


def wait_until(condition: Callable[[], object], seconds: float = 20.0) -> bool:
    """Whether `condition()` came true within `seconds` (a deadline for threads to get there,
    long enough for a loaded machine; never a measure of speed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False
