"""A companion process for the kill test: plays a scripted game on an emulated table,
resuming from its journal after being killed.

    python scripted_table.py STATE_DIR SCRIPT.json

The script is a list of groups of physical steps; each group ends with exactly one change
of the journal (an action, an undo, a redo, the start of the game). Before a group starts,
its number and the journal's version go to STATE_DIR/progress (fsynced). After a restart a
group whose change reached the journal (the version moved on) is done; any other group is
done again from its first step, because prompts half-entered before a crash are gone. The
process prints "group N" as each group starts and "done" at the end.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from firmware.games import GameShelf
from firmware.tabletop import EmulatedTable


def resume_point(progress: Path, version: int) -> int:
    if not progress.exists():
        return 0
    lines = progress.read_text().split("\n")
    complete = [line for line in lines[:-1] if line]  # the last may be torn: ignore it
    if not complete:
        return 0
    group, version_before = map(int, complete[-1].split())
    return group + 1 if version > version_before else group


def perform(top: EmulatedTable, step: list) -> None:
    kind, target, *rest = step
    if kind == "tap":
        top.tap(target, rest[0])
    else:
        top.press(target, held=bool(rest and rest[0] == "held"))


def main(state: str, script_path: str) -> int:
    groups = json.loads(Path(script_path).read_text())
    progress = Path(state) / "progress"
    with EmulatedTable(state, GameShelf()) as top, open(progress, "a") as log:
        start = resume_point(progress, top.journal.version())
        for number in range(start, len(groups)):
            log.write(f"{number} {top.journal.version()}\n")
            log.flush()
            os.fsync(log.fileno())
            print(f"group {number}", flush=True)
            for step in groups[number]:
                perform(top, step)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
