"""`arcana-table history`: the journalled games, finished ones with their winners and scores,
then whatever the journal set aside (damaged files, unreadable games) and why.

Read-only: it never writes or renames anything, so it is safe while the table runs.
"""

from __future__ import annotations

import argparse
import time

from firmware import state_dir


def configure(parser: argparse.ArgumentParser) -> None:
    state_dir.add_argument(parser)


def run(args: argparse.Namespace) -> int:
    journal = state_dir.open_journal(args.state_dir, "history", read_only=True)
    if journal is None:
        return 2
    with journal:
        games = journal.games()
        asides = journal.set_aside()
    if not games:
        print("no games yet")
    for entry in games:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.started))
        if entry.result is None:
            outcome = "in progress"
        elif "abandoned" in entry.result:
            outcome = f"abandoned: {entry.result['abandoned']}"
        else:
            scores = ", ".join(f"{p['name']} {p['vp']}" for p in entry.result.get("players", []))
            winners = " & ".join(entry.result.get("winners", []))
            outcome = f"won by {winners} ({scores}) in round {entry.result.get('round')}"
        print(f"{entry.id:4d}  {started}  {entry.game:<10}  {outcome}")
    for aside in asides:
        when = "" if aside.at is None else time.strftime(" on %Y-%m-%d %H:%M", _local(aside.at))
        print(f"set aside{when}: {aside.what}: {aside.reason}")
    return 0


def _local(at: float) -> time.struct_time:
    try:
        return time.localtime(at)
    except (OverflowError, OSError, ValueError):
        return time.localtime(0)
