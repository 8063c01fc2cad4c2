"""`arcana-table run --emulated`: the service loop tells systemd it is ready, stops cleanly on
SIGTERM within the unit's budget, and leaves the journal where a restart resumes it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from service import messages_until, start_service

from firmware.journal import Journal


def test_ready_then_sigterm_stops_cleanly_and_says_saved(tmp_path):
    process, listener = start_service(tmp_path)
    try:
        messages_until(listener, "READY=1")
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        messages_until(listener, "STOPPING=1")
        assert process.wait(timeout=5) == 0
        assert time.monotonic() - started < 5
    finally:
        process.kill()
        listener.close()
    with Journal.open(tmp_path / "state") as journal:
        assert journal.notice is None  # the database closed cleanly


def test_a_broken_profile_is_refused_before_any_device(tmp_path):
    bad = tmp_path / "table.toml"
    bad.write_text('[[buttons]]\nrole = "undo"\npin = 17\n[[buttons]]\nrole = "ok"\npin = 17\n')
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware",
            "run",
            "--emulated",
            "--profile",
            str(bad),
            "--state-dir",
            str(tmp_path / "state"),
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "17" in done.stderr and "line" in done.stderr


def test_without_the_table_hardware_it_says_so_and_exits_1(tmp_path):
    # This machine is not a Pi: Blinka cannot open the profile's SPI bus and GPIO pins.
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "run", "--state-dir", str(tmp_path / "state")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert "cannot open the table's hardware" in done.stderr
    assert "Traceback" not in done.stderr
