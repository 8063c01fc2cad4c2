"""What the journal says and reads back at its edges: unreadable lines named by number, games
set aside in history with their time, a redo that ends a game, the open-time sentences, and
the SQLite failures each turned into the sentence the status screen shows."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from tiny_disk import fill, tiny_disk

from firmware.journal import FILENAME, Journal, JournalDamaged, JournalError, UnreadableGame
from firmware.journal import _write_failure as write_failure

SETUP = {"players": ["Ann", "Ben"], "start_player": 0}
RESULT = {
    "players": [{"name": "Ann", "vp": 3}, {"name": "Ben", "vp": 1}],
    "winners": ["Ann"],
    "round": 3,
}


def line(n: int) -> dict:
    return {"player": n % 2, "action": "pass", "n": n}


@pytest.fixture
def journal(tmp_path):
    with Journal.open(tmp_path, clock=lambda: 1_700_000_000.0) as j:
        yield j


def spoil(journal: Journal, game: int, seq: int, text: str = "not json") -> None:
    """Someone else's tool wrote over one stored line."""
    with journal._db:
        journal._db.execute(
            "UPDATE lines SET line = ? WHERE game = ? AND seq = ?", (text, game, seq)
        )


def test_undoing_an_unreadable_line_names_the_game_and_the_line(journal):
    game = journal.start("arcana", SETUP)
    for n in range(3):
        journal.append(game, line(n))
    spoil(journal, game, 3)
    with pytest.raises(UnreadableGame) as refused:
        journal.undo(game)
    assert refused.value.game == game
    assert refused.value.reason.startswith("its line 3 is not JSON")


def test_redoing_an_unreadable_line_names_the_game_and_the_line(journal):
    game = journal.start("arcana", SETUP)
    for n in range(3):
        journal.append(game, line(n))
    journal.undo(game)
    journal.undo(game)
    spoil(journal, game, 2, "[1, 2]")
    with pytest.raises(UnreadableGame) as peeked:
        journal.next_redo(game)
    assert (peeked.value.game, peeked.value.reason) == (game, "its line 2 is not a JSON object")
    with pytest.raises(UnreadableGame) as refused:
        journal.redo(game)
    assert (refused.value.game, refused.value.reason) == (game, "its line 2 is not a JSON object")


def test_an_unreadable_setup_is_named_as_the_setup(journal):
    game = journal.start("arcana", SETUP)
    with journal._db:
        journal._db.execute("UPDATE games SET setup = '[]' WHERE id = ?", (game,))
    with pytest.raises(UnreadableGame) as refused:
        journal.setup(game)
    assert (refused.value.game, refused.value.reason) == (game, "its setup is not a JSON object")


def test_next_redo_shows_the_line_a_redo_puts_back_without_putting_it_back(journal):
    game = journal.start("arcana", SETUP)
    assert journal.next_redo(game) is None
    for n in range(3):
        journal.append(game, line(n))
    assert journal.next_redo(game) is None
    journal.undo(game)
    journal.undo(game)
    assert journal.next_redo(game) == line(1)  # the earlier of the two undone
    assert journal.next_redo(game) == line(1)
    assert journal.lines(game) == [line(0)]
    assert journal.redo(game) == line(1)
    assert journal.next_redo(game) == line(2)


def test_a_redo_with_a_result_finishes_the_game_in_the_same_write(journal):
    game = journal.start("arcana", SETUP)
    journal.append(game, line(0))
    journal.append(game, line(1), RESULT)
    journal.undo(game)
    assert journal.unfinished() == game
    assert journal.redo(game, RESULT) == line(1)
    assert journal.unfinished() is None
    (entry,) = journal.games()
    assert (entry.id, entry.finished, entry.result) == (game, 1_700_000_000.0, RESULT)


def test_history_lists_every_game_after_one_set_aside_with_its_time_and_reason(tmp_path):
    times = iter([100.0, 200.0, 300.0, 400.0, 500.0])
    with Journal.open(tmp_path, clock=lambda: next(times)) as journal:
        kept_aside = journal.start("arcana", SETUP)  # started at 100
        good = journal.start("arcana", SETUP)  # 200
        bad_line = journal.start("arcana", SETUP)  # 300
        journal.append(bad_line, line(0))
        journal.append(bad_line, line(1))
        spoil(journal, bad_line, 2)
        journal.set_aside_game(kept_aside, "its rows were damaged")  # at 400
        assert [entry.id for entry in journal.games()] == [good]
        assert [(s.what, s.reason, s.at) for s in journal.set_aside()] == [
            (f"game {kept_aside}", "its rows were damaged", 400.0),
            (f"game {bad_line}", "its line 2 is not JSON", None),
        ]
        assert journal.unfinished() == bad_line  # set aside by the table only, not by reading


def test_history_names_the_first_bad_line_of_each_game_and_why(journal):
    text = journal.start("arcana", SETUP)
    json_array = journal.start("arcana", SETUP)
    not_object = journal.start("arcana", SETUP)
    for game in (text, json_array, not_object):
        for n in range(3):
            journal.append(game, line(n))
    with journal._db:
        journal._db.execute("UPDATE lines SET line = x'00ff' WHERE game = ? AND seq = 2", (text,))
    spoil(journal, text, 3)
    spoil(journal, json_array, 3, "[3]")
    spoil(journal, json_array, 2, "not json")
    spoil(journal, not_object, 1, '"a string"')
    assert [(s.what, s.reason) for s in journal.set_aside()] == [
        (f"game {text}", "its line 2 is not text"),
        (f"game {json_array}", "its line 2 is not JSON"),
        (f"game {not_object}", "its line 1 is not a JSON object"),
    ]


def test_a_game_this_table_does_not_play_is_set_aside_in_history(journal):
    journal.start("chess", SETUP)
    kept = journal.start("arcana", SETUP)
    assert [entry.id for entry in journal.games()] == [kept]
    assert [(s.what, s.reason) for s in journal.set_aside()] == [
        ("game 1", "this table does not play 'chess'")
    ]


def test_bind_all_binds_every_tag_in_one_write(journal):
    journal.bind("04:aa", "old", "arcana")
    version = journal.version()
    journal.bind_all({"04:aa": "dragon", "04:bb": "witch"}, "arcana")
    assert journal.bindings("arcana") == {"04:aa": "dragon", "04:bb": "witch"}
    assert journal.version() == version + 1


def test_bind_all_that_cannot_be_kept_binds_none(journal):
    journal.bind("04:aa", "old", "arcana")
    journal._db.execute("DROP TABLE meta")  # the closing version count fails: rolled back
    with pytest.raises(JournalError):
        journal.bind_all({"04:aa": "dragon", "04:bb": "witch"}, "arcana")
    assert journal.bindings() == {"04:aa": "old"}


def test_closing_twice_is_harmless(tmp_path):
    journal = Journal.open(tmp_path)
    journal.close()
    journal.close()
    with Journal.open(tmp_path, busy_s=0) as again:  # the directory's lock was given back
        assert again.games() == []


def test_a_read_only_journal_of_a_missing_file_makes_no_file_and_serves_any_thread(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "state"
    journal = Journal.open(state, read_only=True)
    assert list(tmp_path.iterdir()) == []
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(journal.games()))
    thread.start()
    thread.join()
    assert found == [[]]
    journal.close()


def test_a_damaged_journal_read_only_is_refused_naming_the_file_and_what_happens(tmp_path):
    path = tmp_path / FILENAME
    path.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(JournalDamaged) as refused:
        Journal.open(tmp_path, read_only=True)
    assert str(refused.value) == (
        f"The journal {path} is damaged (file is not a database; nothing was changed: the "
        "table sets it aside when it next starts)."
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILENAME]


def test_a_state_directory_that_cannot_be_made_is_one_sentence(tmp_path):
    (tmp_path / "file").write_text("")
    state = tmp_path / "file" / "state"
    with pytest.raises(JournalError) as refused:
        Journal.open(state)
    assert str(refused.value).startswith(f"cannot create the state directory {state}: ")


def test_the_busy_wait_given_is_the_one_used(tmp_path, monkeypatch):
    monkeypatch.setenv("ARCANA_TABLE_BUSY_S", "0")
    with Journal.open(tmp_path), pytest.raises(JournalError) as refused:
        Journal.open(tmp_path, busy_s=0.1)
    assert str(refused.value) == (
        f"The journal {tmp_path / FILENAME} is in use by another table (waited 0.1 s); nothing "
        "was changed: stop that one first (is the table service or another sim running?)."
    )


def test_a_table_waits_for_the_one_that_has_the_journal_until_it_closes(tmp_path):
    first = Journal.open(tmp_path)
    closing = threading.Timer(0.3, first.close)
    closing.start()
    try:
        with Journal.open(tmp_path, busy_s=30) as second:  # given up on only after 30 s
            assert second.games() == []
    finally:
        closing.join()


def test_a_journal_another_program_writes_at_open_is_refused_with_the_wait(tmp_path):
    Journal.open(tmp_path).close()
    other = sqlite3.connect(tmp_path / FILENAME, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(JournalError) as refused:
            Journal.open(tmp_path, busy_s=0.2)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert str(refused.value) == (
        f"The journal {tmp_path / FILENAME} is in use by another program (waited 0.2 s); "
        "nothing was changed: try again when it is done (is the table service running?)."
    )


def test_a_journal_another_program_locks_refuses_the_action_with_a_sentence(tmp_path):
    with Journal.open(tmp_path, busy_s=0) as journal:
        game = journal.start("arcana", SETUP)
        other = sqlite3.connect(tmp_path / FILENAME, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(JournalError) as refused:
                journal.append(game, line(0))
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert str(refused.value) == (
            "The journal is in use by another program: the last action was not saved."
        )
        assert journal.lines(game) == []


IN_USE = "The journal is in use by another program: the last action was not saved."
READ_ONLY = "/state is read-only: the last action was not saved."


@pytest.mark.parametrize(
    ("sqlite_says", "sentence"),
    [
        ("database is locked", IN_USE),
        ("database is busy", IN_USE),
        (
            "database or disk is full",
            "The disk holding /state is full: the last action was not saved.",
        ),
        ("attempt to write a readonly database", READ_ONLY),
        ("read-only file system", READ_ONLY),
        (
            "disk I/O error",
            "The journal could not save the last action (disk I/O error: is the "
            "disk full or failing?).",
        ),
        ("no such table: t", "The journal could not save the last action (no such table: t)."),
    ],
)
def test_each_sqlite_failure_is_the_sentence_for_it(sqlite_says, sentence):
    failure = sqlite3.OperationalError(sqlite_says)
    assert str(write_failure(Path("/state/journal.sqlite3"), failure)) == sentence


# -- opening the file (firmware/journal_file.py) -------------------------------------------


def sqlite_error(name: str | None, message: str = "it says so") -> sqlite3.Error:
    """An error as SQLite raises it (named), or, for None, as the journal's own integrity
    check raises it (no name at all)."""
    err = sqlite3.DatabaseError(message)
    if name is not None:
        err.sqlite_errorname = name
    return err


STATE = Path("/state/journal.sqlite3")


@pytest.mark.parametrize(
    ("name", "message", "kind", "sentence"),
    [
        (
            name,
            "database is locked",
            "JournalBusy",
            f"The journal {STATE} is in use by another program (waited 2.5 s); nothing was "
            "changed: try again when it is done (is the table service running?).",
        )
        for name in ("SQLITE_BUSY", "SQLITE_LOCKED_SHAREDCACHE")
    ]
    + [
        (name, "file is not a database", "JournalDamaged", "")
        for name in ("SQLITE_NOTADB", "SQLITE_CORRUPT")
    ]
    + [
        (None, "integrity check failed: page 3", "JournalDamaged", ""),
        (
            "SQLITE_FULL",
            "database or disk is full",
            "JournalError",
            "The disk holding /state is full: free some space, then start again.",
        ),
    ]
    + [
        (
            name,
            "it says so",
            "JournalError",
            "cannot write the journal in /state (it says so); check its permissions and space",
        )
        for name in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")
    ]
    + [
        (
            "SQLITE_IOERR_WRITE",
            "disk I/O error",
            "JournalError",
            "cannot write the journal in /state (disk I/O error): the disk may be full or failing.",
        ),
        (
            "SQLITE_ERROR",
            "integrity check failed: but SQLite named it",  # only an unnamed one is ours
            "JournalError",
            f"cannot open the journal {STATE} (integrity check failed: but SQLite named it); "
            "nothing was changed.",
        ),
        (
            "",
            "no such table: t",
            "JournalError",
            f"cannot open the journal {STATE} (no such table: t); nothing was changed.",
        ),
    ],
)
def test_each_failure_to_open_is_the_sentence_for_it(name, message, kind, sentence):
    from firmware.journal_file import explain

    said = explain(STATE, sqlite_error(name, message), 2.5)
    assert type(said).__name__ == kind
    if kind == "JournalDamaged":
        assert str(said) == f"The journal {STATE} is damaged ({message})."
        assert said.reason == message
    else:
        assert str(said) == sentence


def test_an_error_without_a_name_is_not_taken_for_any_named_one():
    from firmware.journal_file import explain

    plain = sqlite3.OperationalError("database is locked")  # no sqlite_errorname at all
    assert str(explain(STATE, plain, 1)) == (
        f"cannot open the journal {STATE} (database is locked); nothing was changed."
    )


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        (None, 5.0),
        ("12.5", 12.5),
        ("0", 0.0),
        ("3600", 3600.0),
        ("3601", 5.0),
        ("-1", 5.0),
        ("soon", 5.0),
        ("", 5.0),
    ],
)
def test_the_busy_wait_is_the_environments_when_it_is_a_sensible_number(
    monkeypatch, value, seconds
):
    from firmware.journal_file import busy_seconds

    if value is None:
        monkeypatch.delenv("ARCANA_TABLE_BUSY_S", raising=False)
    else:
        monkeypatch.setenv("ARCANA_TABLE_BUSY_S", value)
    assert busy_seconds() == seconds


def test_a_second_file_set_aside_in_the_same_second_gets_its_own_name(tmp_path):
    from firmware.journal_file import put_aside, set_aside_files

    path = tmp_path / FILENAME
    names = []
    for n in range(3):
        path.write_bytes(b"damaged %d" % n)
        Path(f"{path}-wal").write_bytes(b"its wal %d" % n)
        Path(f"{path}-shm").write_bytes(b"its index %d" % n)  # as a crashed writer leaves it
        names.append(put_aside(path, 86_400.0, f"reason {n}").name)
    stamp = f"{FILENAME}.damaged-19700102-000000"
    assert names == [stamp, f"{stamp}.2", f"{stamp}.3"]
    assert (tmp_path / f"{stamp}.3").read_bytes() == b"damaged 2"
    assert (tmp_path / f"{stamp}.2-wal").read_bytes() == b"its wal 1"
    assert (tmp_path / f"{stamp}.2-shm").read_bytes() == b"its index 1"
    assert (tmp_path / f"{stamp}.2.reason").read_text() == "86400.0\nreason 1\n"
    assert not {path, Path(f"{path}-wal"), Path(f"{path}-shm")} & set(tmp_path.iterdir())
    found = [(s.what, s.reason, s.at) for s in set_aside_files(path)]
    assert found == [(name, f"reason {n}", 86_400.0) for n, name in enumerate(names)]
    (tmp_path / f"{stamp}.reason").unlink()  # a reason lost: its file is still not replaced
    path.write_bytes(b"damaged 3")
    assert put_aside(path, 86_400.0, "reason 3").name == f"{stamp}.4"
    assert (tmp_path / stamp).read_bytes() == b"damaged 0"


def test_a_set_aside_file_whose_reason_is_lost_or_spoilt_is_still_listed(tmp_path):
    from firmware.journal_file import set_aside_files

    path = tmp_path / FILENAME
    for name, reason in [
        ("a", None),
        ("b", "not a time\nwhy\n"),
        ("c", "12.5\n\n"),
        ("d", b"\xff\xfe"),
        ("e", "7\nthe pages were torn\n"),
    ]:
        (tmp_path / f"{FILENAME}.damaged-{name}").write_bytes(b"x")
        note = tmp_path / f"{FILENAME}.damaged-{name}.reason"
        if isinstance(reason, bytes):
            note.write_bytes(reason)
        elif reason is not None:
            note.write_text(reason)
    (tmp_path / f"{FILENAME}.damaged-e-wal").write_bytes(b"x")
    (tmp_path / f"{FILENAME}.damaged-e-shm").write_bytes(b"x")
    lost = "damaged (no reason kept)"
    assert [(s.what, s.reason, s.at) for s in set_aside_files(path)] == [
        (f"{FILENAME}.damaged-a", lost, None),
        (f"{FILENAME}.damaged-b", lost, None),
        (f"{FILENAME}.damaged-c", lost, 12.5),
        (f"{FILENAME}.damaged-d", lost, None),
        (f"{FILENAME}.damaged-e", "the pages were torn", 7.0),
    ]


def test_a_damaged_file_that_cannot_be_renamed_is_one_sentence(tmp_path):
    from firmware.journal_file import put_aside

    path = tmp_path / FILENAME
    path.write_bytes(b"x")
    Path(f"{path}-wal").write_bytes(b"its wal")
    stuck = tmp_path / f"{FILENAME}.damaged-19700101-000000-wal"  # a directory in the way
    stuck.mkdir()
    (stuck / "something").write_bytes(b"")
    with pytest.raises(JournalError) as refused:
        put_aside(path, 0.0, "torn")
    assert str(refused.value).startswith(f"cannot set the damaged journal {path} aside: ")


def files_of(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_a_reader_reads_what_a_writer_left_in_its_wal_and_changes_no_byte(tmp_path):
    """A writer stopped with its moves still in the WAL (as a power cut leaves it): history
    reads them, from any thread, and leaves the database and its WAL as they were (no
    checkpoint; the -shm file is only SQLite's index of the WAL, rebuilt by any reader)."""
    import shutil

    copy = tmp_path / "copy"
    copy.mkdir()
    with Journal.open(tmp_path / "state") as writer:
        game = writer.start("arcana", SETUP)
        writer.append(game, line(0))
        for name in (FILENAME, f"{FILENAME}-wal", f"{FILENAME}-shm"):
            shutil.copyfile(tmp_path / "state" / name, copy / name)
    before = files_of(copy)
    assert len(before[f"{FILENAME}-wal"]) > 0
    reader = Journal.open(copy, read_only=True)
    try:
        found: list[object] = []
        thread = threading.Thread(target=lambda: found.append(reader.lines(game)))
        thread.start()
        thread.join()
        assert found == [[line(0)]]
        assert [g.game for g in reader.games()] == ["arcana"]
    finally:
        reader.close()
    after = files_of(copy)
    for name in (FILENAME, f"{FILENAME}-wal"):
        assert after[name] == before[name]


def test_a_reader_on_a_full_disk_reads_the_journal_as_it_stands_and_leaves_no_file(tmp_path):
    """No room even for the -shm file a reader of a WAL journal makes: the file is read as it
    stands (no -wal: no writer has it open), and what the failed attempt made is removed."""
    with tiny_disk(tmp_path) as mount:
        with Journal.open(mount / "state") as writer:
            game = writer.start("res-arcana", {"players": ["A", "B"]})
            writer.append(game, line(0))
        fill(mount)
        before = files_of(mount / "state")
        assert list(before) == [FILENAME]
        with Journal.open(mount / "state", read_only=True) as reader:
            assert reader.lines(game) == [line(0)]
        assert files_of(mount / "state") == before


def test_pages_the_check_finds_unused_are_damage_named_by_what_the_check_said(tmp_path):
    """A journal that opens and reads, but whose pages SQLite's quick check finds wrong (here:
    a table's pages no longer listed in the schema, as a bad edit leaves them): the reader
    refuses it, naming what the check said."""
    Journal.open(tmp_path).close()
    db = sqlite3.connect(tmp_path / FILENAME)
    db.execute("PRAGMA journal_mode=DELETE")  # every page in the file itself
    db.execute("CREATE TABLE extra (x)")
    db.executemany("INSERT INTO extra VALUES (?)", [("y" * 200,)] * 200)
    db.commit()
    db.execute("PRAGMA writable_schema=ON")
    db.execute("DELETE FROM sqlite_master WHERE name = 'extra'")
    db.commit()
    db.close()
    db = sqlite3.connect(tmp_path / FILENAME)
    said = [str(row[0]) for row in db.execute("PRAGMA quick_check").fetchall()]
    db.close()
    assert "is never used" in said[0]
    with pytest.raises(JournalDamaged) as refused:
        Journal.open(tmp_path, read_only=True)
    assert refused.value.reason.startswith(f"integrity check failed: {'; '.join(said[:3])}")


def test_a_full_disk_at_open_leaves_no_half_made_journal(tmp_path):
    with tiny_disk(tmp_path) as mount:
        (mount / "state").mkdir()
        fill(mount)
        with pytest.raises(JournalError) as refused:
            Journal.open(mount / "state")
        assert "full" in str(refused.value)
        assert list((mount / "state").iterdir()) == []


def test_a_reader_on_a_read_only_disk_reads_the_journal_as_it_stands(tmp_path):
    """A card the kernel remounted read-only: not even the -shm file can be made."""
    import subprocess

    with tiny_disk(tmp_path) as mount:
        with Journal.open(mount / "state") as writer:
            game = writer.start("res-arcana", {"players": ["A", "B"]})
            writer.append(game, line(0))
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        before = files_of(mount / "state")
        with Journal.open(mount / "state", read_only=True) as reader:
            assert reader.lines(game) == [line(0)]
        assert files_of(mount / "state") == before


def test_a_damaged_journal_on_a_full_disk_is_refused_as_damaged(tmp_path):
    with tiny_disk(tmp_path, "8m") as mount:
        state = mount / "state"
        with Journal.open(state) as writer:
            game = writer.start("res-arcana", {"players": ["A", "B"]})
            for n in range(200):
                writer.append(game, {"player": n % 2, "action": "pass", "pad": "x" * 40})
        path = state / FILENAME
        db = sqlite3.connect(path)
        (page_size,) = db.execute("PRAGMA page_size").fetchone()
        (pages,) = db.execute("PRAGMA page_count").fetchone()
        db.close()
        with open(path, "r+b") as file:  # a bad sector in the middle
            file.seek(page_size * (pages // 2))
            file.write(b"\xa5" * page_size)
        fill(mount)
        with pytest.raises(JournalDamaged) as refused:
            Journal.open(state, read_only=True)
        said = str(refused.value)
        assert said.startswith(f"The journal {path} is damaged (integrity check failed: ")
        assert said.endswith("; nothing was changed: the table sets it aside when it next starts).")
        assert sorted(p.name for p in state.iterdir()) == [FILENAME]
