"""The journal: every accepted action is on disk before the screens acknowledge it.

One SQLite database (standard library, WAL, `synchronous=FULL`) holds every game as its
record header and action lines (`../spec/records.md`), so a game is resumed, exported and
replayed from the same data. Undo marks the last line undone (it can be redone until a new
action is taken); nothing is ever rewritten in place.

    journal = Journal.open(state_dir)
    game = journal.start("arcana", setup)
    journal.append(game, {"player": 0, "action": "agent", ...})   # durable when it returns
    journal.append(game, last_line, result)     # the move that ends it, and the finish: one write
    Journal.open(state_dir, read_only=True)     # history, export: never writes, never renames

Opening (`journal_file.py`): only proven damage sets a file aside; a busy journal is waited
for, then refused; a full disk is a sentence. Reading back (`journal_rows.py`): a game whose
rows cannot be read is set aside alone (`set_aside_game`), and `set_aside()` lists it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from engine.records import dumps
from firmware.journal_file import (
    JournalBusy,
    JournalDamaged,
    busy_seconds,
    connect_reader,
    connect_writer,
    hold_directory,
    journal_files,
    put_aside,
    remove_new,
    set_aside_files,
)
from firmware.journal_rows import (
    GameEntry,
    JournalError,
    SetAside,
    UnreadableGame,
    known_game,
    read_game,
    read_object,
)

__all__ = [
    "FILENAME",
    "GameEntry",
    "Journal",
    "JournalBusy",
    "JournalDamaged",
    "JournalError",
    "SetAside",
    "UnreadableGame",
]

FILENAME = "journal.sqlite3"
DEFAULT_STATE_DIR = Path("/var/lib/arcana-table")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS lines (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT OR IGNORE INTO meta (key, value) VALUES ('version', 0);
CREATE TABLE IF NOT EXISTS bindings (
    uid TEXT PRIMARY KEY,
    card TEXT NOT NULL,
    catalog TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS set_aside (
    game INTEGER PRIMARY KEY,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
"""


class Journal:
    """The SQLite journal in a state directory. Use `Journal.open`."""

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection,
        notice: str | None = None,
        clock: Callable[[], float] = time.time,
        held: int | None = None,
    ) -> None:
        self.path = path
        self._db = connection
        self._held = held  # the state directory's flock (writers), released by close()
        self._clock = clock
        self.notice = notice  # set when a damaged file was put aside at open

    @classmethod
    def open(
        cls,
        state_dir: Path | str,
        clock: Callable[[], float] = time.time,
        *,
        read_only: bool = False,
        busy_s: float | None = None,
    ) -> Journal:
        """Open (or create) the journal; only a proven-damaged file is set aside.

        A journal another program holds is waited for `busy_s` seconds (default
        `$ARCANA_TABLE_BUSY_S` or 5), then JournalBusy, touching nothing. A full disk or a
        read-only directory is a JournalError. `read_only` (history, export) never writes,
        never renames, and reads a missing journal as an empty one.
        """
        state_dir = Path(state_dir)
        path = state_dir / FILENAME
        busy_s = busy_seconds() if busy_s is None else busy_s
        if read_only:
            if state_dir.exists() and not state_dir.is_dir():
                raise JournalError(
                    f"cannot use the state directory {state_dir}: not a directory",
                    "journal_not_a_directory",
                    folder=str(state_dir),
                )
            try:
                reader = connect_reader(path, busy_s)
            except JournalDamaged as err:
                raise JournalDamaged(path, err.reason, kept=True) from err
            if reader is None:
                reader = sqlite3.connect(":memory:", check_same_thread=False)
                reader.executescript(SCHEMA)
            return cls(path, reader, None, clock)
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise JournalError(f"cannot create the state directory {state_dir}: {err}") from err
        notice = None
        try:
            held = hold_directory(state_dir, busy_s)
        except OSError as err:
            raise JournalError(f"cannot use the state directory {state_dir}: {err}") from err
        existed = journal_files(path)
        try:
            try:
                connection = connect_writer(path, busy_s, SCHEMA)
            except JournalDamaged as err:
                aside = put_aside(path, clock(), err.reason).name
                notice = f"The journal {path.name} was damaged ({err.reason}); kept as {aside}."
                existed = set()
                connection = connect_writer(path, busy_s, SCHEMA)
        except JournalError:
            os.close(held)
            remove_new(path, existed)  # a full disk: leave no half-made file behind
            raise
        return cls(path, connection, notice, clock, held)

    def close(self) -> None:
        self._db.close()
        if self._held is not None:
            os.close(self._held)
            self._held = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games ---------------------------------------------------------------------------
    def start(self, game: str, setup: dict[str, Any]) -> int:
        """Start a new game; returns its id. An unfinished game before it stays as it was."""
        cursor = self._write(
            "INSERT INTO games (game, setup, started) VALUES (?, ?, ?)",
            (game, json.dumps(setup, ensure_ascii=False), self._clock()),
        )
        return int(cursor.lastrowid)

    def append(self, game: int, line: dict[str, Any], result: dict[str, Any] | None = None) -> int:
        """Append an accepted action line (dropping anything undone after it); durable on return.

        With `result`, the action ends the game: the line and the finish are one transaction.
        Returns the line's sequence number. Raises JournalError if it could not be kept.
        """
        text = json.dumps(line, ensure_ascii=False)

        def write(db: sqlite3.Connection) -> int:
            db.execute("DELETE FROM lines WHERE game = ? AND undone = 1", (game,))
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM lines WHERE game = ?", (game,)
            ).fetchone()
            db.execute(
                "INSERT INTO lines (game, seq, line) VALUES (?, ?, ?)", (game, last + 1, text)
            )
            self._finish_in(db, game, result)
            return int(last + 1)

        return self._transaction(write)

    def undo(self, game: int) -> dict[str, Any] | None:
        """Take back the last action; returns its line, or None when only the setup is left.

        A game taken back from its end is unfinished again, in the same transaction.
        """

        def write(db: sqlite3.Connection) -> dict[str, Any] | None:
            row = db.execute(
                "SELECT seq, line FROM lines WHERE game = ? AND undone = 0 "
                "ORDER BY seq DESC LIMIT 1",
                (game,),
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE lines SET undone = 1 WHERE game = ? AND seq = ?", (game, row[0]))
            db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game,))
            return read_object(game, row[1], f"line {row[0]}")

        return self._transaction(write)

    def next_redo(self, game: int) -> dict[str, Any] | None:
        """The line `redo` would put back, without putting it back."""
        row = self._db.execute(
            "SELECT seq, line FROM lines WHERE game = ? AND undone = 1 ORDER BY seq LIMIT 1",
            (game,),
        ).fetchone()
        return None if row is None else read_object(game, row[1], f"line {row[0]}")

    def redo(self, game: int, result: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Put back the action undone last; None when there is nothing to redo.

        With `result`, the redone action ends the game (one transaction, as in `append`).
        """

        def write(db: sqlite3.Connection) -> dict[str, Any] | None:
            row = db.execute(
                "SELECT seq, line FROM lines WHERE game = ? AND undone = 1 ORDER BY seq LIMIT 1",
                (game,),
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE lines SET undone = 0 WHERE game = ? AND seq = ?", (game, row[0]))
            self._finish_in(db, game, result)
            return read_object(game, row[1], f"line {row[0]}")

        return self._transaction(write)

    def finish(self, game: int, result: dict[str, Any]) -> None:
        """Mark a game finished with its replay result (for `history`)."""
        self._transaction(lambda db: self._finish_in(db, game, result))

    def unfinish(self, game: int) -> None:
        """A game taken back from its end (undo) is unfinished again."""
        self._write("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game,))

    def set_aside_game(self, game: int, reason: str) -> None:
        """Keep a game whose rows cannot be read out of play; its rows stay as they are."""
        self._write(
            "INSERT OR REPLACE INTO set_aside (game, reason, at) VALUES (?, ?, ?)",
            (game, reason, self._clock()),
        )

    def _finish_in(self, db: sqlite3.Connection, game: int, result: dict[str, Any] | None) -> None:
        if result is not None:
            db.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                (self._clock(), json.dumps(result, ensure_ascii=False), game),
            )

    # -- reading -------------------------------------------------------------------------
    def unfinished(self) -> int | None:
        """The most recent game that has not finished and is not set aside: the one to resume."""
        row = self._db.execute(
            "SELECT id FROM games WHERE finished IS NULL AND id NOT IN "
            "(SELECT game FROM set_aside) ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else int(row[0])

    def setup(self, game: int) -> tuple[str, dict[str, Any]]:
        """The game's name and setup; KeyError if there is no such game, UnreadableGame if
        its row cannot be read."""
        row = self._db.execute(
            "SELECT id, game, setup, started, finished, result FROM games WHERE id = ?", (game,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no game {game} in the journal")
        entry = read_game(row)  # a bad start time or result sets the game aside too
        return entry.game, read_object(game, row[2], "setup")

    def lines(self, game: int) -> list[dict[str, Any]]:
        """The game's accepted action lines in order (undone ones left out)."""
        rows = self._db.execute(
            "SELECT seq, line FROM lines WHERE game = ? AND undone = 0 ORDER BY seq", (game,)
        )
        return [read_object(game, text, f"line {seq}") for seq, text in rows]

    def version(self) -> int:
        """Counts committed changes: a caller can tell whether its last change was kept."""
        (value,) = self._db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        return int(value)

    def can_redo(self, game: int) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM lines WHERE game = ? AND undone = 1 LIMIT 1", (game,)
        ).fetchone()
        return row is not None

    def record(self, game: int) -> str:
        """The game as a record (JSON Lines) that `arcana-table replay` reproduces."""
        name, setup = self.setup(game)
        return dumps(name, setup, self.lines(game))

    def games(self) -> list[GameEntry]:
        """The readable games that are not set aside, in order (see `set_aside`)."""
        return [entry for entry in self._read_games() if isinstance(entry, GameEntry)]

    def set_aside(self) -> list[SetAside]:
        """Everything kept out of play, with its reason: journal files set aside at open,
        games set aside by the table, and games whose rows cannot be read now."""
        found = set_aside_files(self.path)
        found.extend(entry for entry in self._read_games() if isinstance(entry, SetAside))
        return found

    def _read_games(self) -> list[GameEntry | SetAside]:
        kept = dict(((g, (r, a)) for g, r, a in self._set_aside_rows()))
        out: list[GameEntry | SetAside] = []
        bad_lines = self._bad_lines()
        rows = self._db.execute(
            "SELECT id, game, setup, started, finished, result FROM games ORDER BY id"
        )
        for row in rows:
            if row[0] in kept:
                reason, at = kept[row[0]]
                out.append(SetAside(f"game {row[0]}", reason, at))
                continue
            reason = bad_lines.get(row[0])
            try:
                entry = read_game(row)
            except UnreadableGame as err:
                reason = err.reason
            else:
                reason = reason or known_game(entry.game)
            out.append(entry if reason is None else SetAside(f"game {row[0]}", reason, None))
        return out

    def _bad_lines(self) -> dict[int, str]:
        """Games with an action line that is not a JSON object, found by SQLite's JSON1
        (fast enough for `history` over years of games); {} where JSON1 is missing."""
        try:
            rows = self._db.execute(
                "SELECT game, seq, CASE WHEN typeof(line) != 'text' THEN 'text' "
                "WHEN NOT json_valid(line) THEN 'JSON' ELSE 'a JSON object' END FROM lines "
                "WHERE undone = 0 AND (typeof(line) != 'text' OR NOT json_valid(line) "
                "OR json_type(line) != 'object') ORDER BY game, seq"
            ).fetchall()
        except sqlite3.OperationalError:
            return {}
        found: dict[int, str] = {}
        for game, seq, what in rows:
            found.setdefault(game, f"its line {seq} is not {what}")
        return found

    def _set_aside_rows(self) -> list[tuple[int, str, float]]:
        try:
            return self._db.execute("SELECT game, reason, at FROM set_aside").fetchall()
        except sqlite3.OperationalError:  # an older journal opened read-only: none yet
            return []

    # -- tag bindings (enrollment) -------------------------------------------------------
    def bind(self, uid: str, card: str, catalog: str) -> None:
        self._write(
            "INSERT INTO bindings (uid, card, catalog) VALUES (?, ?, ?) "
            "ON CONFLICT(uid) DO UPDATE SET card = excluded.card, catalog = excluded.catalog",
            (uid, card, catalog),
        )

    def bind_all(self, bindings: Mapping[str, str], catalog: str) -> None:
        """Bind many tags (UID -> card) in one transaction: all of them or, failing, none."""
        rows = [(uid, card, catalog) for uid, card in bindings.items()]
        self._transaction(
            lambda db: db.executemany(
                "INSERT INTO bindings (uid, card, catalog) VALUES (?, ?, ?) "
                "ON CONFLICT(uid) DO UPDATE SET card = excluded.card, catalog = excluded.catalog",
                rows,
            )
        )

    def unbind(self, uid: str) -> None:
        self._write("DELETE FROM bindings WHERE uid = ?", (uid,))

    def bindings(self, catalog: str | None = None) -> dict[str, str]:
        """UID -> card id (of one catalog, or all)."""
        if catalog is None:
            rows = self._db.execute("SELECT uid, card FROM bindings ORDER BY uid")
        else:
            rows = self._db.execute(
                "SELECT uid, card FROM bindings WHERE catalog = ? ORDER BY uid", (catalog,)
            )
        return dict(rows)

    # -- plumbing ------------------------------------------------------------------------
    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        return self._transaction(lambda db: db.execute(sql, params))

    def _transaction(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        try:
            with self._db:  # commits (fsync under synchronous=FULL) or rolls back
                result = work(self._db)
                self._db.execute("UPDATE meta SET value = value + 1 WHERE key = 'version'")
                return result
        except sqlite3.Error as err:  # full, read-only, locked, I/O: nothing was kept
            raise _write_failure(self.path, err) from err


def _write_failure(path: Path, err: sqlite3.Error) -> JournalError:
    text, where = str(err).lower(), str(path.parent)
    if "locked" in text or "busy" in text:
        return JournalError(
            "The journal is in use by another program: the last action was not saved.",
            "journal_write_busy",
        )
    if "full" in text:
        return JournalError(
            f"The disk holding {where} is full: the last action was not saved.",
            "journal_write_full",
            where=where,
        )
    if "readonly" in text or "read-only" in text:
        return JournalError(
            f"{where} is read-only: the last action was not saved.",
            "journal_write_read_only",
            where=where,
        )
    if "i/o" in text:
        return JournalError(
            f"The journal could not save the last action ({err}: is the disk full or failing?).",
            "journal_write_io",
            error=str(err),
        )
    return JournalError(
        f"The journal could not save the last action ({err}).",
        "journal_write_failed",
        error=str(err),
    )
