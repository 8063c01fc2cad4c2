"""Commands that need no hardware start cleanly on a fake Pi 5, whose board the libraries
detect by themselves (no BLINKA_FORCEBOARD): nothing on stderr, no device opened. (The
forced-board test in tests/firmware covers every command on a Pi 4 and a Pi 5.)"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.fakepi

COMMANDS = (("--help",), ("history",))


def test_commands_without_hardware_start_cleanly(fake_pi):
    pi = fake_pi("pi5", "full-table")  # a Pi 5: every Pi library would find its board
    for command in COMMANDS:
        done = pi.run(*command)
        assert done.returncode == 0 and done.stderr == "", (command, done.stderr)
        assert done.stdout.strip(), command
    report = pi.report()
    assert report["used_lines"] == [] and report["spi_transfers"] == 0
    assert set(report["i2c_transfers"].values()) == {0}
