"""`arcana-table run` with the web app in a subprocess, for the tests that start it: a free
port, a full-table profile with `[web]` on that port, and a pairing URL from `arcana-table pair`.

    port = free_port()
    profile = web_profile(tmp_path, port)
    url = pair_url(profile, state)      # http://127.0.0.1:PORT/pair/CODE
"""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from hardware.profile import PROFILES


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def web_profile(tmp_path: Path, port: int) -> Path:
    """The full table's profile with the web app on `port`."""
    profile = tmp_path / "web-table.toml"
    profile.write_text(
        f"[web]\nenabled = true\nport = {port}\n"
        + (PROFILES / "full-table.toml").read_text(encoding="utf-8")
    )
    return profile


def pair_url(profile: Path, state: Path) -> str:
    """`arcana-table pair`'s URL for the owner's phone (a code opened on the running table)."""
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "pair", "--profile", str(profile),
         "--state-dir", str(state), "--address", "127.0.0.1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()[-1]
