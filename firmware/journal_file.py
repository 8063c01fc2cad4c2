"""Opening the journal's SQLite file: damaged files are set aside, busy or full ones never.

    db = connect_writer(path, busy_s=5.0)   # the table (run, sim, demo, enroll)
    db = connect_reader(path, busy_s=5.0)   # history, export: read-only, renames nothing

Five rules:
1. Only proof of damage sets a file aside: SQLite says "not a database" or "corrupt", or
   `PRAGMA quick_check` fails. The file and its WAL become `.damaged-<time>`, the reason goes
   beside them in `.reason`, and `set_aside_files()` lists them for `history`.
2. A journal another program holds (a write lock) is waited for `busy_s`, then refused with
   `JournalBusy`; no file is touched.
3. A full disk, a read-only directory or an I/O error is a `JournalError` sentence, no rename.
4. Anything else SQLite reports at open is also a `JournalError`: unknown is not damaged.
5. A reader never writes: no schema, no rename; a missing file reads as an empty journal.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from pathlib import Path

from firmware.journal_rows import JournalError, SetAside

BUSY_S = 5.0  # how long a command waits for a journal another program holds


class JournalBusy(JournalError):
    """Another program holds the journal's write lock for longer than we wait."""


class JournalDamaged(JournalError):
    """The file is proven damaged (what a writer sets aside, what a reader refuses)."""

    def __init__(self, path: Path, reason: str, kept: bool = False) -> None:
        """`kept`: a reader's refusal, the file left as it is for the table to set aside."""
        if kept:
            said = f"{reason}; nothing was changed: the table sets it aside when it next starts"
        else:
            said = reason
        super().__init__(
            f"The journal {path} is damaged ({said}).",
            "journal_damaged_kept" if kept else "journal_damaged",
            path=str(path),
            reason=reason,
        )
        self.reason = said


def busy_seconds() -> float:
    """`$ARCANA_TABLE_BUSY_S` if set to a number of seconds, else BUSY_S."""
    try:
        value = float(os.environ.get("ARCANA_TABLE_BUSY_S", BUSY_S))
    except ValueError:
        return BUSY_S
    return value if 0 <= value <= 3600 else BUSY_S


def connect_writer(path: Path, busy_s: float, schema: str) -> sqlite3.Connection:
    """A read-write connection holding the schema; raises JournalError (or a subclass)."""
    try:
        db = sqlite3.connect(path, timeout=busy_s, check_same_thread=False)
    except sqlite3.Error as err:
        raise explain(path, err, busy_s) from err
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        _quick_check(db)
        # BEGIN IMMEDIATE takes the write lock now: a journal held elsewhere is found at open.
        db.executescript(f"BEGIN IMMEDIATE;\n{schema}\nCOMMIT;")
    except sqlite3.Error as err:
        db.close()
        raise explain(path, err, busy_s) from err
    return db


def hold_directory(state_dir: Path, busy_s: float) -> int:
    """An open descriptor of `state_dir` holding its exclusive flock for as long as it is open:
    one table (run, sim, demo, enroll) writes a journal at a time, as SQLite's locks between
    transactions cannot promise. Waits `busy_s`, then JournalBusy; creates no file."""
    fd = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY)
    deadline = time.monotonic() + busy_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                journal = state_dir / "journal.sqlite3"
                raise JournalBusy(
                    f"The journal {journal} is in use by another table "
                    f"(waited {busy_s:g} s); nothing was changed: stop that one first (is the "
                    "table service or another sim running?).",
                    "journal_held",
                    path=str(journal),
                    seconds=f"{busy_s:g}",
                ) from None
            time.sleep(0.05)


def connect_reader(path: Path, busy_s: float) -> sqlite3.Connection | None:
    """A read-only connection, or None when there is no journal file yet."""
    if not path.exists():
        return None
    existed = journal_files(path)
    writer_open = Path(f"{path}-wal") in existed
    try:
        return _reader(path, busy_s, "mode=ro")
    except sqlite3.Error as err:
        cannot_write = (getattr(err, "sqlite_errorname", "") or "").startswith(
            ("SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_READONLY")
        )
        if not cannot_write or writer_open:
            raise explain(path, err, busy_s) from err
        remove_new(path, existed)  # the -wal and -shm this failed attempt made
    # Even a reader of a WAL journal makes its -shm file; on a full disk (or a directory it
    # cannot write) it cannot. No -wal file means no writer has the journal open, so the file
    # is read as it stands.
    try:
        return _reader(path, busy_s, "mode=ro&immutable=1")
    except sqlite3.Error as err:
        raise explain(path, err, busy_s) from err


def _reader(path: Path, busy_s: float, query: str) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?{query}"
    db = sqlite3.connect(uri, uri=True, timeout=busy_s, check_same_thread=False)
    try:
        _quick_check(db)
    except sqlite3.Error:
        db.close()
        raise
    return db


def _quick_check(db: sqlite3.Connection) -> None:
    rows = db.execute("PRAGMA quick_check").fetchall()
    if rows != [("ok",)]:
        verdict = "; ".join(str(r[0]) for r in rows[:3])
        raise sqlite3.DatabaseError(f"integrity check failed: {verdict}")


def explain(path: Path, err: sqlite3.Error, busy_s: float) -> JournalError:
    """The one sentence for what SQLite said about opening `path`."""
    name = getattr(err, "sqlite_errorname", "") or ""
    where = path.parent
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return JournalBusy(
            f"The journal {path} is in use by another program (waited {busy_s:g} s); "
            "nothing was changed: try again when it is done (is the table service running?).",
            "journal_busy",
            path=str(path),
            seconds=f"{busy_s:g}",
        )
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")) or (
        not name and "integrity check failed" in str(err)
    ):
        return JournalDamaged(path, str(err))
    if name == "SQLITE_FULL":
        return JournalError(
            f"The disk holding {where} is full: free some space, then start again.",
            "journal_disk_full",
            where=str(where),
        )
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return JournalError(
            f"cannot write the journal in {where} ({err}); check its permissions and space",
            "journal_not_writable",
            where=str(where),
            error=str(err),
        )
    if name.startswith("SQLITE_IOERR"):
        return JournalError(
            f"cannot write the journal in {where} ({err}): the disk may be full or failing.",
            "journal_disk_failing",
            where=str(where),
            error=str(err),
        )
    return JournalError(
        f"cannot open the journal {path} ({err}); nothing was changed.",
        "journal_cannot_open",
        path=str(path),
        error=str(err),
    )


def put_aside(path: Path, now: float, reason: str) -> Path:
    """Rename the damaged file and its WAL to `.damaged-<time>` and write the reason beside."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    counter = 1
    while aside.exists() or Path(f"{aside}.reason").exists():
        counter += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}.{counter}")
    try:
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{path}{suffix}")
            if part.exists():
                os.replace(part, Path(f"{aside}{suffix}"))
        note = Path(f"{aside}.reason")
        note.write_text(f"{now}\n{reason}\n", encoding="utf-8")
    except OSError as err:
        raise JournalError(f"cannot set the damaged journal {path} aside: {err}") from err
    return aside


def journal_files(path: Path) -> set[Path]:
    """The journal's files that exist now: the database, its WAL and shared-memory index."""
    return {part for suffix in ("", "-wal", "-shm") if (part := Path(f"{path}{suffix}")).exists()}


def remove_new(path: Path, existed: set[Path]) -> None:
    """Remove the journal files a failed open made (not there before it began)."""
    for part in journal_files(path) - existed:
        part.unlink(missing_ok=True)


def set_aside_files(path: Path) -> list[SetAside]:
    """The journal files set aside beside `path`, oldest first, with their reasons."""
    found = []
    for aside in sorted(path.parent.glob(f"{path.name}.damaged-*")):
        if aside.name.endswith(("-wal", "-shm", ".reason")):
            continue
        at, reason = None, "damaged (no reason kept)"
        try:
            first, _, rest = Path(f"{aside}.reason").read_text(encoding="utf-8").partition("\n")
            at, reason = float(first), rest.strip() or reason
        except (OSError, ValueError, UnicodeDecodeError):
            pass
        found.append(SetAside(aside.name, reason, at))
    return found
