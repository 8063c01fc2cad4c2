"""A second process holds the journal's write lock while every command runs.

Readers (`history`, `export`, `enroll --list`) read as if nothing held it; writers (`enroll
--import`, `run`, `sim`, `demo`) wait `$ARCANA_TABLE_BUSY_S`, then say so in one sentence
and exit non-zero. No file is renamed, and nothing anybody committed is lost: neither the game
already there nor what the lock holder commits afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from firmware.journal import FILENAME, Journal

SETUP = {"players": ["Ann", "Ben"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]}
UID = "04a1b2c3d4e5f6"

HOLDER = textwrap.dedent(
    """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")  # the write lock, held until stdin closes
    db.execute("INSERT INTO meta (key, value) VALUES ('holder', 1)")
    print("locked", flush=True)
    sys.stdin.read()
    db.execute("COMMIT")
    """
)


@pytest.fixture
def held(tmp_path):
    """A state directory with one game, its journal write-locked by another process."""
    state = tmp_path / "state"
    with Journal.open(state) as journal:
        game = journal.start("res-arcana", SETUP)
        journal.append(game, {"player": 0, "action": "pass"})
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(state / FILENAME)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        yield state, holder
    finally:
        holder.kill()
        holder.wait()


def arcana_table(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, ARCANA_TABLE_BUSY_S="0.3")
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=60,
    )


def files(state) -> list[str]:
    return sorted(p.name for p in state.iterdir() if not p.name.endswith(("-wal", "-shm")))


def test_readers_read_while_another_process_holds_the_write_lock(held):
    state, _ = held
    before = files(state)
    history = arcana_table("history", "--state-dir", str(state))
    assert history.returncode == 0, history.stderr
    assert "res-arcana" in history.stdout and "in progress" in history.stdout
    assert "no games yet" not in history.stdout
    export = arcana_table("export", "--state-dir", str(state))
    assert export.returncode == 0, export.stderr
    assert export.stdout.count("\n") == 2  # the header and the one action
    listing = arcana_table("enroll", "--game", "res-arcana", "--list", "--state-dir", str(state))
    assert listing.returncode == 0, listing.stderr
    assert files(state) == before


WRITERS = {
    "enroll --import": ["enroll", "--game", "res-arcana", "--import", "{csv}"],
    "run --emulated": ["run", "--emulated"],
    "sim": ["sim", "--port", "0"],
    "demo": ["demo", "--quiet", "--game", "res-arcana"],
}


@pytest.mark.parametrize("command", WRITERS)
def test_writers_wait_then_say_busy_in_one_sentence_touching_nothing(held, command, tmp_path):
    state, holder = held
    source = tmp_path / "tags.csv"
    source.write_text(f"uid,card\n{UID},seer_orb\n")
    args = [a.format(csv=source) for a in WRITERS[command]]
    before = files(state)
    done = arcana_table(*args, "--state-dir", str(state))
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    [sentence] = [line for line in done.stderr.splitlines() if "in use by another program" in line]
    assert sentence.startswith(f"arcana-table {args[0]}: The journal ")
    assert files(state) == before
    holder.stdin.close()  # the holder commits: its change and the game are both there
    assert holder.wait(timeout=10) == 0
    with Journal.open(state) as journal:
        assert journal._db.execute("SELECT value FROM meta WHERE key = 'holder'").fetchone()
        assert journal.notice is None
        [game] = journal.games()
        assert journal.lines(game.id) == [{"player": 0, "action": "pass"}]
        assert journal.bindings() == {}  # the refused import bound nothing
    assert files(state) == before


def test_a_second_table_is_refused_while_one_has_the_journal_open(tmp_path):
    """Two tables writing one journal interleave their lines, and the game no longer replays
    at the next start (found by the red team with two `sim`s on one --state-dir): a table that
    has the journal open keeps it for itself, between its transactions too."""
    state = tmp_path / "state"
    with Journal.open(state) as journal:  # a running table: open, no transaction in progress
        game = journal.start("res-arcana", SETUP)
        journal.append(game, {"player": 0, "action": "pass"})
        before = files(state)
        second = arcana_table("demo", "--state-dir", str(state), "--quiet")
        assert second.returncode == 2, second.stdout + second.stderr
        assert "in use by another table" in second.stderr
        assert "Traceback" not in second.stderr
        assert files(state) == before
        assert len(journal.lines(game)) == 1
        history = arcana_table("history", "--state-dir", str(state))  # readers still read
        assert history.returncode == 0 and "in progress" in history.stdout, history.stderr
    with Journal.open(state) as journal:  # closed: the next table gets it at once
        assert journal.lines(game) == [{"player": 0, "action": "pass"}]
