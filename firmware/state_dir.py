"""Where the table keeps its journal: `--state-dir`, else $ARCANA_TABLE_STATE_DIR, else
systemd's $STATE_DIRECTORY, else /var/lib/arcana-table."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.journal import Journal

DEFAULT = Path("/var/lib/arcana-table")


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="directory of the journal (default: $ARCANA_TABLE_STATE_DIR, "
        "$STATE_DIRECTORY or /var/lib/arcana-table)",
    )


def resolve(given: Path | None) -> Path:
    if given is not None:
        return given
    for variable in ("ARCANA_TABLE_STATE_DIR", "STATE_DIRECTORY"):
        value = os.environ.get(variable)
        if value:
            # systemd may pass several colon-separated directories; the first is ours.
            return Path(value.split(":")[0])
    return DEFAULT


def open_journal(
    given: Path | None, command: str, *, read_only: bool = False, announce: bool = True
) -> Journal | None:
    """The journal of the state directory, or None after telling stderr why it cannot be
    opened (the command then exits 2). A journal set aside at this open is said on stderr.

    Readers (`history`, `export`) pass `read_only`: they never write or rename anything.
    `run` passes `announce=False`: its log says it (see ServiceLoop.start).
    """
    from firmware.journal import Journal, JournalError

    try:
        journal = Journal.open(resolve(given), read_only=read_only)
    except JournalError as err:
        print(f"arcana-table {command}: {err}", file=sys.stderr)
        return None
    if journal.notice and announce:
        print(f"arcana-table {command}: {journal.notice}", file=sys.stderr)
    return journal
