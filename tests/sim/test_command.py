"""`arcana-table sim` as a command: it prints the address, seats the players with --game,
resumes the journal's game after a restart, stops on SIGTERM and refuses to bind a
non-loopback address without a token."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from firmware.commands.sim import is_loopback

ADDRESS = "arcana-table sim: open "


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "firmware", "sim", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def address_of(process: subprocess.Popen[str]) -> tuple[str, list[str]]:
    """The printed address, and the lines printed before it."""
    before = []
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith(ADDRESS):
            return line.removeprefix(ADDRESS).split()[0], before
        before.append(line.rstrip("\n"))
    raise AssertionError(f"no address printed; stderr: {process.stderr.read()}")  # type: ignore[union-attr]


def stop(process: subprocess.Popen[str]) -> int:
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=30)  # reads what is left and closes the pipes
    return process.returncode


def state_at(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=30) as response:
        return json.load(response)


def test_game_seats_the_players_and_a_restart_resumes_it(tmp_path):
    journal = str(tmp_path / "state")
    process = start("--game", "res-arcana", "--players", "3", "--state-dir", journal)
    try:
        url, _ = address_of(process)
        assert url.startswith("http://127.0.0.1:")
        first = state_at(url)
    finally:
        assert stop(process) == 0
    assert first["game"] == "res-arcana" and first["phase"] == "play"
    assert [p["pad"] for p in first["players"]] == ["stake-0", "stake-1", "stake-2"]

    process = start("--game", "arcana", "--state-dir", journal)  # the unfinished game wins
    try:
        url, said = address_of(process)
        again = state_at(url)
    finally:
        assert stop(process) == 0
    assert said == [f"resuming game {first['game_id']} (res-arcana) from {journal}"]
    assert again["record"] == first["record"] and again["screens"] == first["screens"]


def test_without_game_the_page_shows_the_choice(tmp_path):
    process = start("--state-dir", str(tmp_path / "state"), "--profile", "minimal")
    try:
        url, _ = address_of(process)
        state = state_at(url)
    finally:
        assert stop(process) == 0
    assert state["phase"] == "setup" and state["game"] is None
    assert state["table"]["pads"] == ["main"] and state["table"]["displays"] == ["main"]


def test_a_public_address_needs_a_token(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware",
            "sim",
            "--host",
            "0.0.0.0",
            "--state-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "binding 0.0.0.0 lets other machines in; give a secret with --token" in done.stderr
    assert not (tmp_path / "journal.sqlite3").exists()  # nothing started


def test_a_public_address_with_a_token_prints_it_in_the_address(tmp_path):
    process = start("--host", "0.0.0.0", "--token", "t0k", "--state-dir", str(tmp_path))
    try:
        url, _ = address_of(process)
        with pytest.raises(urllib.error.HTTPError) as refused:
            state_at(url.split("?")[0])
        refused.value.close()
        assert refused.value.code == 401
        with urllib.request.urlopen(url.replace("/?", "/api/state?"), timeout=30) as answer:
            assert json.load(answer)["phase"] == "setup"
    finally:
        assert stop(process) == 0
    assert url.endswith("/?token=t0k")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::", False),
        ("table.local", False),
    ],
)
def test_which_addresses_count_as_this_machine_only(host, loopback):
    assert is_loopback(host) is loopback


def test_a_busy_port_is_named_with_what_to_do(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "firmware",
                "sim",
                "--port",
                str(port),
                "--state-dir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "choose another port with --port" in done.stderr
