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
    from firmware.journal import UnreadableGame

    journal = state_dir.open_journal(args.state_dir, "export", read_only=True)
    if journal is None:
        return 2
    with journal:
        games = journal.games()
        asides = {aside.what: aside.reason for aside in journal.set_aside()}
        if not games and args.game is None:
            print("the journal holds no game yet", file=sys.stderr)
            return 2
        number = args.game if args.game is not None else games[-1].id
        if number not in {g.id for g in games} and f"game {number}" not in asides:
            print(f"no game {number} in the journal (see arcana-table history)", file=sys.stderr)
            return 2
        try:
            text = journal.record(number)
        except UnreadableGame as err:
            print(f"arcana-table export: {err}", file=sys.stderr)
            return 2
        if f"game {number}" in asides:  # readable rows: the record helps whoever mends it
            reason = asides[f"game {number}"]
            print(f"arcana-table export: game {number} was set aside: {reason}", file=sys.stderr)
        entry = next((g for g in games if g.id == number), None)
    if entry is not None and entry.result is None and entry.game == "arcana":
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
