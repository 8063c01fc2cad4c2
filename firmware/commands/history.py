"""`arcana-table history`: the journalled games, finished ones with their winners and scores."""

from __future__ import annotations

import argparse
import time

from firmware import state_dir


def configure(parser: argparse.ArgumentParser) -> None:
    state_dir.add_argument(parser)


def run(args: argparse.Namespace) -> int:
    journal = state_dir.open_journal(args.state_dir, "history")
    if journal is None:
        return 2
    with journal:
        games = journal.games()
    if not games:
        print("no games yet")
        return 0
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
    return 0
