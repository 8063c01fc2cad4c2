"""`arcana-table export [GAME]`: write a journalled game as a game record (JSON Lines).

Without GAME, the most recent game. `arcana-table replay` reproduces what this writes, so the
record names every card: an Arcana game in progress is exported with its face-down agents and
kept tasks (and a note on stderr), as the owner's archive (docs/records.md, "Hidden cards").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware import state_dir
from firmware.commands.refusal import refuse

IN_PROGRESS = "its record names the face-down agents and kept tasks: show it to no player yet"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", type=int, help="game number (see `history`)")
    parser.add_argument("-o", "--output", type=Path, help="write to this file (default: stdout)")
    state_dir.add_argument(parser)


def run(args: argparse.Namespace) -> int:
    journal = state_dir.open_journal(args.state_dir, "export")
    if journal is None:
        return 2
    with journal:
        games = journal.games()
        if not games:
            print("the journal holds no game yet", file=sys.stderr)
            return 2
        number = args.game if args.game is not None else games[-1].id
        if number not in {g.id for g in games}:
            print(f"no game {number} in the journal (see arcana-table history)", file=sys.stderr)
            return 2
        text = journal.record(number)
        entry = next(g for g in games if g.id == number)
    if entry.result is None and entry.game == "arcana":
        # The record names every card (replay needs them): it is the owner's archive.
        print(f"note: game {number} is in progress; {IN_PROGRESS}", file=sys.stderr)
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as err:  # a directory, a path under a file, no permission
            return refuse(f"arcana-table export: cannot write {args.output} ({err.strerror})")
    return 0
