"""Every command that needs no hardware starts cleanly where Blinka believes it is on a Pi,
and so do the commands on emulated hardware.

With the board forced (`BLINKA_FORCEBOARD`), importing Blinka's `board` or `digitalio` loads
the Pi's GPIO library (gpiod) at once, as on a real Pi 4 or Pi 5: a command that imports them
while it builds its parser dies there, `--help` and the service included. So the hardware
libraries may only be imported when a table's real buses are opened. The real-mode commands
on such a machine (no /dev/spidev*) end in one sentence that names the fix.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "engine" / "arcana" / "fixtures" / "2p_basic.jsonl"
BOARDS = {
    "pi4": {"BLINKA_FORCEBOARD": "RASPBERRY_PI_4B", "BLINKA_FORCECHIP": "BCM2XXX"},
    "pi5": {"BLINKA_FORCEBOARD": "RASPBERRY_PI_5", "BLINKA_FORCECHIP": "BCM2XXX"},
}
# What a command that opens no hardware must not import: Blinka's hardware modules and the
# GPIO, SPI and serial libraries under them (adafruit_pn532 imports digitalio).
HARDWARE_MODULES = (
    "board", "busio", "digitalio", "microcontroller", "adafruit_pn532",
    "RPi", "spidev", "serial", "gpiod", "lgpio",
)  # fmt: skip
PATIENCE_S = 60  # a bound on a hung command, not a timing assert


def hardware_free(state: Path) -> list[list[str]]:
    """Commands (argument lists) that read, write or draw but open no device."""
    return [
        ["--help"],
        *([name, "--help"] for name in COMMANDS),
        ["history", "--state-dir", str(state)],
        ["replay", str(FIXTURE)],
        ["wiring", "--profile", "full-table", "--text"],
        ["catalog", "check", "sample"],
        ["bench", "engine", "--seconds", "0.05", "--players", "2"],
    ]


def on_emulated_hardware() -> list[list[str]]:
    """Commands on emulated buses: they run the real PN532 driver, which imports digitalio
    (and so Blinka's GPIO library), but open no device."""
    return [
        ["selftest", "--profile", "minimal", "--emulated"],
        ["demo", "--quiet", "--players", "2"],
    ]


def environment(board: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BLINKA_", "ARCANA_TABLE_"))}
    env.update(BOARDS[board], PYTHONUNBUFFERED="1")
    return env


def arcana_table(args: list[str], board: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args],
        capture_output=True,
        text=True,
        env=environment(board),
        stdin=subprocess.DEVNULL,
        timeout=PATIENCE_S,
        cwd=ROOT,
    )


@pytest.mark.slow  # some thirty interpreters
@pytest.mark.parametrize("board", BOARDS)
def test_every_hardware_free_command_starts_cleanly_on_a_forced_pi_board(board, tmp_path):
    for args in [*hardware_free(tmp_path / "state"), *on_emulated_hardware()]:
        done = arcana_table(args, board)
        assert done.returncode == 0, (args, done.stderr)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert "gpiod" not in done.stdout + done.stderr, args


@pytest.mark.parametrize("board", BOARDS)
def test_hardware_free_commands_import_no_hardware_library(board, tmp_path):
    # In one process: every command's parser is built, then each command runs.
    program = f"""
import contextlib, io, json, sys
from firmware import cli
for args in {json.dumps(hardware_free(tmp_path / "state"))}:
    out = io.TextIOWrapper(io.BytesIO())  # replay writes to sys.stdout.buffer
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        cli.main(args)
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {HARDWARE_MODULES!r})))
"""
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=environment(board),
        timeout=PATIENCE_S,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []


@pytest.mark.parametrize("command", ["run", "selftest"])
@pytest.mark.parametrize("board", BOARDS)
def test_real_mode_without_spi_names_the_fix_in_one_sentence(board, command, tmp_path):
    assert not Path("/dev/spidev0.0").exists(), "this test needs a machine without SPI"
    state = ["--state-dir", str(tmp_path)] if command == "run" else []
    done = arcana_table([command, "--profile", "full-table", *state], board)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"arcana-table {command}: cannot open the table's hardware: /dev/spidev0.0 does not "
        "exist: SPI0 is off; switch SPI on with `sudo raspi-config nonint do_spi 0`, then reboot"
    ]


def test_the_environment_chooses_emulated_buses_for_the_real_mode_commands(monkeypatch, capsys):
    from firmware import cli

    monkeypatch.setenv("ARCANA_TABLE_BUSES", "emulated")
    assert cli.main(["selftest", "--profile", "minimal"]) == 0  # the emulated finger presses
    assert "(emulated hardware)" in capsys.readouterr().out


def test_a_mistyped_buses_variable_is_one_sentence(monkeypatch, capsys, tmp_path):
    from firmware import cli

    monkeypatch.setenv("ARCANA_TABLE_BUSES", "fake")
    assert cli.main(["run", "--state-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "arcana-table run: unknown buses 'fake' (from $ARCANA_TABLE_BUSES); "
        "expected one of real, emulated"
    ]


def test_a_device_node_that_will_not_open_is_its_own_error_without_the_emulated_hint(
    tmp_path, capsys
):
    from firmware.commands import open_table
    from hardware.profile import parse_profile

    # A "serial port" that exists but cannot be opened (a directory): pyserial's own error.
    text = f'[[readers]]\nrole = "main"\ninterface = "uart"\nport = "{tmp_path}"\n'
    assert open_table(parse_profile(text), "run", "real") is None
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("arcana-table run: cannot open the table's hardware: SerialException:")
    assert str(tmp_path) in line and "--emulated" not in line
