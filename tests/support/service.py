"""`arcana-table run --emulated` in a subprocess, with a notify socket as systemd's."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path


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
