"""The journal: every accepted action is on disk before the screens acknowledge it.

One SQLite database (standard library, WAL, `synchronous=FULL`) holds every game as its
record header and action lines (`../spec/records.md`), so a game is resumed, exported and
replayed from the same data. Undo marks the last line undone (it can be redone until a new
action is taken); nothing is ever rewritten in place.

    journal = Journal.open(state_dir)
    game = journal.start("arcana", setup)
    journal.append(game, {"player": 0, "action": "agent", ...})   # durable when it returns
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.records import dumps

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
"""


class JournalError(RuntimeError):
    """The journal cannot keep an action (full disk, read-only directory, ...).

    The message is a sentence for the status screen and the service log; the action that
    caused it has not been acknowledged and must be treated as not taken.
    """


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One journalled game, as `arcana-table history` lists it."""

    id: int
    game: str
    started: float
    finished: float | None
    result: dict[str, Any] | None


class Journal:
    """The SQLite journal in a state directory. Use `Journal.open`."""

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection,
        notice: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self._db = connection
        self._clock = clock
        self.notice = notice  # set when a damaged file was put aside at open

    @classmethod
    def open(cls, state_dir: Path | str, clock: Callable[[], float] = time.time) -> Journal:
        """Open (or create) the journal; a damaged file is kept aside and a fresh one started."""
        state_dir = Path(state_dir)
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise JournalError(f"cannot create the state directory {state_dir}: {err}") from err
        path = state_dir / FILENAME
        notice = None
        try:
            connection = _connect(path)
        except sqlite3.DatabaseError as err:
            if _is_unwritable(err):
                raise JournalError(_unwritable_message(state_dir, err)) from err
            aside = _put_aside(path, clock())
            notice = f"The journal {path.name} was damaged ({err}); kept as {aside.name}."
            connection = _connect(path)
        return cls(path, connection, notice, clock)

    def close(self) -> None:
        self._db.close()

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

    def append(self, game: int, line: dict[str, Any]) -> int:
        """Append an accepted action line (dropping anything undone after it); durable on return.

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
            return int(last + 1)

        return self._transaction(write)

    def undo(self, game: int) -> dict[str, Any] | None:
        """Take back the last action; returns its line, or None when only the setup is left."""

        def write(db: sqlite3.Connection) -> dict[str, Any] | None:
            row = db.execute(
                "SELECT seq, line FROM lines WHERE game = ? AND undone = 0 "
                "ORDER BY seq DESC LIMIT 1",
                (game,),
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE lines SET undone = 1 WHERE game = ? AND seq = ?", (game, row[0]))
            return json.loads(row[1])

        return self._transaction(write)

    def redo(self, game: int) -> dict[str, Any] | None:
        """Put back the action undone last; None when there is nothing to redo."""

        def write(db: sqlite3.Connection) -> dict[str, Any] | None:
            row = db.execute(
                "SELECT seq, line FROM lines WHERE game = ? AND undone = 1 ORDER BY seq LIMIT 1",
                (game,),
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE lines SET undone = 0 WHERE game = ? AND seq = ?", (game, row[0]))
            return json.loads(row[1])

        return self._transaction(write)

    def finish(self, game: int, result: dict[str, Any]) -> None:
        """Mark a game finished with its replay result (for `history`)."""
        self._write(
            "UPDATE games SET finished = ?, result = ? WHERE id = ?",
            (self._clock(), json.dumps(result, ensure_ascii=False), game),
        )

    def unfinish(self, game: int) -> None:
        """A game taken back from its end (undo) is unfinished again."""
        self._write("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game,))

    # -- reading -------------------------------------------------------------------------
    def unfinished(self) -> int | None:
        """The most recent game that has not finished, if any: the one to resume."""
        row = self._db.execute(
            "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else int(row[0])

    def setup(self, game: int) -> tuple[str, dict[str, Any]]:
        row = self._db.execute("SELECT game, setup FROM games WHERE id = ?", (game,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game} in the journal")
        return row[0], json.loads(row[1])

    def lines(self, game: int) -> list[dict[str, Any]]:
        """The game's accepted action lines in order (undone ones left out)."""
        rows = self._db.execute(
            "SELECT line FROM lines WHERE game = ? AND undone = 0 ORDER BY seq", (game,)
        )
        return [json.loads(text) for (text,) in rows]

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
        rows = self._db.execute("SELECT id, game, started, finished, result FROM games ORDER BY id")
        return [
            GameEntry(int(i), g, s, f, None if r is None else json.loads(r))
            for i, g, s, f, r in rows
        ]

    # -- tag bindings (enrollment) -------------------------------------------------------
    def bind(self, uid: str, card: str, catalog: str) -> None:
        self._write(
            "INSERT INTO bindings (uid, card, catalog) VALUES (?, ?, ?) "
            "ON CONFLICT(uid) DO UPDATE SET card = excluded.card, catalog = excluded.catalog",
            (uid, card, catalog),
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
        except sqlite3.OperationalError as err:
            raise JournalError(_write_failure(self.path, err)) from err


def _connect(path: Path) -> sqlite3.Connection:
    # One thread owns the game, but the service's shutdown may close from another.
    db = sqlite3.connect(path, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        (verdict,) = db.execute("PRAGMA quick_check").fetchone()
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {verdict}")
        with db:
            db.executescript(SCHEMA)
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def _is_unwritable(err: sqlite3.DatabaseError) -> bool:
    text = str(err).lower()
    return "readonly" in text or "unable to open" in text or "disk is full" in text


def _unwritable_message(state_dir: Path, err: Exception) -> str:
    return f"cannot write the journal in {state_dir} ({err}); check its permissions and space"


def _write_failure(path: Path, err: sqlite3.OperationalError) -> str:
    text = str(err).lower()
    if "full" in text:
        return f"The disk holding {path.parent} is full: the last action was not saved."
    if "readonly" in text or "read-only" in text:
        return f"{path.parent} is read-only: the last action was not saved."
    return f"The journal could not save the last action ({err})."


def _put_aside(path: Path, now: float) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            os.replace(part, Path(f"{aside}{suffix}"))
    return aside
