"""A tiny disk at open, mid-game and at the game's last move: refused in a sentence, nothing
acknowledged is lost, no file is renamed.

Two ways to fill a disk, each in its own process: a file-size limit (RLIMIT_FSIZE: writes past
it fail with EFBIG, SQLite's "disk I/O error") and, when the suite runs as root (as in CI), a
small tmpfs mounted for the test and filled by a file until it has no space left (ENOSPC,
SQLite's "database or disk is full"). The tmpfs is unmounted whatever happens.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_disk import fill, tiny_disk

from engine.records import replay
from firmware.journal import FILENAME, Journal

DRIVER = Path(__file__).with_name("full_disk_table.py")
ROOT = Path(__file__).resolve().parents[2]
MODES = ["fsize", "fill"] if os.geteuid() == 0 else ["fsize"]  # mounting needs root
JOURNAL_FILES = {FILENAME, f"{FILENAME}-wal", f"{FILENAME}-shm"}


@pytest.fixture(params=MODES)
def disk(request, tmp_path):
    """(mode, directory on the disk that will fill up)."""
    if request.param == "fsize":
        yield "fsize", tmp_path
        return
    with tiny_disk(tmp_path, "2m") as mount:
        yield "fill", mount


def no_writes() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))


def arcana_table(mode: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        preexec_fn=no_writes if mode == "fsize" else None,
    )


@pytest.mark.parametrize("full_at", [20, -1], ids=["mid-game", "last-move"])
def test_a_full_disk_refuses_moves_and_loses_no_acknowledged_one(disk, full_at):
    mode, base = disk
    state = base / "state"
    done = subprocess.run(
        [sys.executable, str(DRIVER), str(state), mode, str(full_at)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    said = "disk I/O error: is the disk full" if mode == "fsize" else "is full"
    assert run["refusals"] and all(said in (r or "") for r in run["refusals"]), run["refusals"]
    assert run["unchanged"]  # no refused move changed the game, ended it or was acknowledged
    assert run["full_at"] == (run["total"] - 1 if full_at == -1 else full_at)
    assert sorted(p.name for p in state.iterdir()) == [FILENAME]  # nothing set aside
    with Journal.open(state) as journal:
        assert journal.notice is None
        [game] = journal.games()
        assert len(journal.lines(game.id)) == run["acknowledged"] == run["total"]
        assert game.finished is not None and game.result == run["result"]
        assert replay(journal.record(game.id)) == run["result"]


WRITERS = {
    "run": ["run", "--emulated"],
    "sim": ["sim", "--port", "0"],
    "demo": ["demo", "--quiet", "--game", "res-arcana", "--state-dir", "{state}"],
    "enroll": ["enroll", "--game", "res-arcana", "--import", "{csv}"],
}


@pytest.mark.parametrize("command", WRITERS)
def test_a_full_disk_at_start_is_one_sentence_and_leaves_no_file(disk, command):
    mode, base = disk
    state = base / "state"
    source = base / "tags.csv"
    source.write_text("uid,card\n04a1b2c3d4e5f6,seer_orb\n")
    if mode == "fill":
        fill(base)
    args = [a.format(state=state, csv=source) for a in WRITERS[command]]
    if "--state-dir" not in args:
        args += ["--state-dir", str(state)]
    done = arcana_table(mode, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "OperationalError" not in done.stderr
    [sentence] = [line for line in done.stderr.splitlines() if line.startswith("arcana-table")]
    assert sentence.startswith(f"arcana-table {command}: ") and "full" in sentence
    assert not JOURNAL_FILES & {p.name for p in state.glob("*")}  # no half-made journal


def test_on_a_full_disk_readers_read_and_a_writer_is_refused_keeping_all(disk):
    mode, base = disk
    state = base / "state"
    with Journal.open(state) as journal:
        game = journal.start("res-arcana", {"players": ["A", "B"]})
        journal.append(game, {"player": 0, "action": "pass"})
        journal.bind("04000000000001", "seer_orb", "res-arcana")
    rows = "".join(f"04a1b2c3d4{n:04x},seer_orb\n" for n in range(2000))
    source = base / "tags.csv"
    source.write_text(rows)
    if mode == "fill":
        fill(base)
    before = sorted(p.name for p in state.iterdir())
    history = arcana_table(mode, "history", "--state-dir", str(state))
    assert history.returncode == 0 and "in progress" in history.stdout, history.stderr
    export = arcana_table(mode, "export", "--state-dir", str(state))
    assert export.returncode == 0 and export.stdout.count("\n") == 2, export.stderr
    imported = arcana_table(
        mode, "enroll", "--game", "res-arcana", "--import", str(source), "--state-dir", str(state)
    )
    # A writer needs room for the journal's WAL even to begin: refused at open, one sentence.
    assert imported.returncode == 2 and "Traceback" not in imported.stderr, imported.stderr
    assert imported.stderr.startswith("arcana-table enroll: ") and "full" in imported.stderr
    assert imported.stderr.count("\n") == 1
    if mode == "fill":
        (base / "filler").unlink()
    assert sorted(p.name for p in state.iterdir()) == before
    with Journal.open(state) as journal:
        assert journal.bindings() == {"04000000000001": "seer_orb"}  # all or nothing: nothing
        assert journal.lines(game) == [{"player": 0, "action": "pass"}]


def test_demo_stops_at_the_first_refused_move_instead_of_spinning(tmp_path):
    """The disk fills mid-game (a file-size limit of 64 KiB: a few moves' worth of WAL)."""
    state = tmp_path / "state"

    def tiny_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, resource.RLIM_INFINITY))

    done = subprocess.run(
        [sys.executable, "-m", "firmware", "demo", "--quiet", "--game", "res-arcana",
         "--state-dir", str(state)],
        capture_output=True, text=True, timeout=120, cwd=ROOT, preexec_fn=tiny_disk,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    [said] = [line for line in done.stderr.splitlines() if line.startswith("arcana-table demo")]
    assert said.startswith("arcana-table demo: The journal could not save the last action")
    assert said.endswith("The demo stopped.")
    assert "final ranking" not in done.stdout
    with Journal.open(state) as journal:  # what the demo showed as played is all there
        [game] = journal.games()
        assert game.finished is None and journal.lines(game.id)
