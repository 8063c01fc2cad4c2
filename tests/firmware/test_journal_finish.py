"""The end of a game is one write with its last move: finish, undo from the end and redo to
the end are each kept whole or refused whole, also when the disk is full at that moment.

Run in a child process, because a file-size limit (RLIMIT_FSIZE) applies to a whole
process; the child looks at what is durable through a second, read-only connection."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json, resource, sys
    from firmware.controllers.resarcana import Bot
    from firmware.games import GameShelf
    from firmware.journal import Journal
    from firmware.tabletop import EmulatedTable

    state = sys.argv[1]
    seen = []

    def durable():
        with Journal.open(state, read_only=True) as reader:
            [game] = reader.games()
            return {"finished": game.finished is not None, "lines": len(reader.lines(game.id))}

    def full(on):
        limit = 0 if on else resource.RLIM_INFINITY
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    def look(what, top):
        companion = top.companion
        seen.append({"what": what, "over": companion.controller.is_over(),
                     "trouble": companion.journal_trouble, **durable()})

    bot = Bot(2, 2)
    with EmulatedTable(state, GameShelf()) as top:
        for step in bot.setup_steps():
            top.perform(step)
        while not top.companion.controller.is_over():
            for step in bot.next_steps(top.companion.controller.state):
                top.perform(step)
        look("played to the end", top)
        for what, button, held in [("undo", "undo", False), ("redo", "undo", True)]:
            full(True)
            top.press(button, held=held)
            look(f"{what} on a full disk", top)
            full(False)
            top.press(button, held=held)
            look(what, top)
    print(json.dumps(seen))
    """
)


def test_finish_undo_and_redo_at_the_end_are_whole_even_on_a_full_disk(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "state")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    seen = {step.pop("what"): step for step in json.loads(done.stdout)}
    end = seen["played to the end"]
    assert end == {"over": True, "trouble": None, "finished": True, "lines": end["lines"]}
    full = end["lines"]
    refused = "The journal could not save the last action (disk I/O error: is the disk full"
    # Refused whole: the table still shows the end, and the end is still what is kept.
    undo_full = seen["undo on a full disk"]
    assert undo_full["trouble"].startswith(refused)
    assert (undo_full["over"], undo_full["finished"], undo_full["lines"]) == (True, True, full)
    # Undone whole: the last move and the finish together.
    assert seen["undo"] == {"over": False, "trouble": None, "finished": False, "lines": full - 1}
    redo_full = seen["redo on a full disk"]
    assert redo_full["trouble"].startswith(refused)
    assert (redo_full["over"], redo_full["finished"]) == (False, False)
    assert redo_full["lines"] == full - 1
    # Redone whole: the game is over and finished (history has it) in the same write.
    assert seen["redo"] == {"over": True, "trouble": None, "finished": True, "lines": full}
    with_result = subprocess.run(
        [sys.executable, "-m", "firmware", "history", "--state-dir", str(tmp_path / "state")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert "won by" in with_result.stdout
