"""The journal keeps every acknowledged action, survives damage, and undoes/redoes."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from firmware.journal import FILENAME, Journal, JournalError

SETUP = {"players": ["Ann", "Ben"], "start_player": 0}


def line(n: int) -> dict:
    return {"player": n % 2, "action": "pass", "n": n}


@pytest.fixture
def journal(tmp_path):
    with Journal.open(tmp_path, clock=lambda: 1_700_000_000.0) as j:
        yield j


def test_uses_wal_and_full_sync(journal):
    db = journal._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_appended_lines_come_back_in_order_after_reopening(tmp_path):
    with Journal.open(tmp_path) as j:
        game = j.start("res-arcana", SETUP)
        for n in range(5):
            assert j.append(game, line(n)) == n + 1
    with Journal.open(tmp_path) as j:
        assert j.unfinished() == game
        assert j.setup(game) == ("res-arcana", SETUP)
        assert j.lines(game) == [line(n) for n in range(5)]


def test_undo_down_to_the_setup_then_redo(journal):
    game = journal.start("res-arcana", SETUP)
    for n in range(3):
        journal.append(game, line(n))
    assert journal.undo(game) == line(2)
    assert journal.undo(game) == line(1)
    assert journal.undo(game) == line(0)
    assert journal.undo(game) is None
    assert journal.lines(game) == []
    assert journal.redo(game) == line(0)
    assert journal.redo(game) == line(1)
    assert journal.lines(game) == [line(0), line(1)]
    assert journal.can_redo(game)


def test_a_new_action_ends_redo(journal):
    game = journal.start("res-arcana", SETUP)
    journal.append(game, line(0))
    journal.append(game, line(1))
    journal.undo(game)
    journal.append(game, line(7))
    assert not journal.can_redo(game)
    assert journal.redo(game) is None
    assert journal.lines(game) == [line(0), line(7)]


def test_record_export_is_the_header_and_the_kept_lines(journal):
    game = journal.start("res-arcana", SETUP)
    journal.append(game, line(0))
    journal.append(game, line(1))
    journal.undo(game)
    header, *rest = journal.record(game).splitlines()
    assert '"format": "arcana-table/record"' in header
    assert len(rest) == 1 and '"n": 0' in rest[0]


def test_finished_games_are_history_and_not_resumed(journal):
    first = journal.start("arcana", SETUP)
    journal.finish(first, {"winners": ["Ann"]})
    second = journal.start("res-arcana", SETUP)
    assert journal.unfinished() == second
    journal.finish(second, {"winners": ["Ben"]})
    assert journal.unfinished() is None
    assert [(g.id, g.result) for g in journal.games()] == [
        (first, {"winners": ["Ann"]}),
        (second, {"winners": ["Ben"]}),
    ]


def test_a_damaged_file_is_kept_aside_and_a_fresh_one_started(tmp_path):
    (tmp_path / FILENAME).write_bytes(b"this is not a database at all" * 200)
    with Journal.open(tmp_path, clock=lambda: 0.0) as j:
        assert "damaged" in j.notice and "kept as" in j.notice
        assert j.unfinished() is None
        j.start("arcana", SETUP)
        assert [(s.what, s.reason) for s in j.set_aside()] == [
            (f"{FILENAME}.damaged-19700101-000000", "file is not a database")
        ]
    aside = [p for p in tmp_path.glob(f"{FILENAME}.damaged-*") if p.suffix != ".reason"]
    assert len(aside) == 1
    assert aside[0].read_bytes().startswith(b"this is not a database")


def test_a_torn_wal_tail_loses_nothing_that_was_committed(tmp_path):
    with Journal.open(tmp_path) as j:
        game = j.start("res-arcana", SETUP)
        for n in range(4):
            j.append(game, line(n))
        wal = tmp_path / f"{FILENAME}-wal"
        # Simulate a power cut in the middle of the next write: garbage after the last commit.
        size_before = wal.stat().st_size
        with open(wal, "ab") as tail:
            tail.write(os.urandom(1500))
        assert wal.stat().st_size > size_before
    # Reopen through a fresh process-like connection: the committed lines are all there.
    with Journal.open(tmp_path) as j:
        assert j.lines(game) == [line(n) for n in range(4)]


def test_a_full_disk_refuses_the_action_with_a_sentence(journal):
    game = journal.start("res-arcana", SETUP)
    journal.append(game, line(0))
    # SQLite reports a full disk as SQLITE_FULL; a page limit produces exactly that error.
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(JournalError, match="full"):
        for n in range(1, 200):
            journal.append(game, {**line(n), "pad": "x" * 3000})
    journal._db.execute("PRAGMA max_page_count = 1000000")
    kept = journal.lines(game)
    assert kept[0] == line(0)
    assert all(entry["n"] == i for i, entry in enumerate(kept))


READ_ONLY_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from firmware.journal import Journal, JournalError
    if os.geteuid() == 0:
        os.setgid(65534); os.setuid(65534)  # root ignores permissions; drop to nobody
    try:
        Journal.open(sys.argv[1])
    except JournalError as err:
        print(err)
        sys.exit(3)
    """
)


def test_a_read_only_state_directory_gives_a_clear_message():
    # Outside pytest's private tmp tree, so that an unprivileged user can reach it.
    base = Path(tempfile.mkdtemp(prefix="arcana-ro-"))
    try:
        base.chmod(0o755)
        state = base / "state"
        state.mkdir(mode=0o555)
        done = subprocess.run(
            [sys.executable, "-c", READ_ONLY_SCRIPT, str(state)], capture_output=True, text=True
        )
        assert done.returncode == 3, done.stderr
        assert "cannot write the journal" in done.stdout
        assert not (state / FILENAME).exists()
    finally:
        shutil.rmtree(base)


def test_a_read_only_database_refuses_appends_and_keeps_what_it_had(tmp_path):
    with Journal.open(tmp_path) as j:
        game = j.start("res-arcana", SETUP)
        j.append(game, line(0))
    db = sqlite3.connect(f"file:{tmp_path / FILENAME}?mode=ro", uri=True)
    readonly = Journal(tmp_path / FILENAME, db)
    with pytest.raises(JournalError, match="read-only"):
        readonly.append(game, line(1))
    assert readonly.lines(game) == [line(0)]
    readonly.close()


def test_bindings_are_stored_and_rebound(journal):
    journal.bind("04a1b2c3d4e5f6", "blades_agent_3", "sample")
    journal.bind("04a1b2c3d4e5f7", "seer_orb", "res-arcana")
    journal.bind("04a1b2c3d4e5f6", "blades_agent_4", "sample")
    assert journal.bindings("sample") == {"04a1b2c3d4e5f6": "blades_agent_4"}
    assert len(journal.bindings()) == 2
    journal.unbind("04a1b2c3d4e5f7")
    assert journal.bindings("res-arcana") == {}


def test_the_version_counts_committed_changes_only(journal):
    start = journal.version()
    game = journal.start("res-arcana", SETUP)
    journal.append(game, line(0))
    journal.undo(game)
    assert journal.version() == start + 3
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(JournalError):
        journal.append(game, {**line(1), "pad": "x" * 50_000})
    assert journal.version() == start + 3  # the failed append changed nothing
