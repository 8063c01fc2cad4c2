"""A bot's Res Arcana game on the emulated table whose disk fills up at a chosen moment.

    python full_disk_table.py STATE_DIR (fsize|fill) LINES

Run as its own process by tests/firmware/test_journal_full_disk.py, because a file-size limit
(RLIMIT_FSIZE) applies to the whole process. The bot plays until the journal holds LINES
action lines (a negative LINES counts back from the game's end: -1 is its last move), then
the disk is made full: `fsize` lowers the limit to the journal's current size, `fill` writes
a filler file until the filesystem (a small tmpfs) has no space left. The bot goes on trying
for a few moves, every one of which must be refused; then the space comes back and the bot
plays to the end.

Prints one JSON object: the sentences of the refusals, whether the refused moves changed the
game or were acknowledged, how many actions the table acknowledged (its "ok" beeps: a beep is
the acknowledgement), and the result.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import sys
from pathlib import Path

from engine.resarcana import RULES, Position
from firmware.controllers.resarcana import Bot
from firmware.controllers.resarcana.bot import choose
from firmware.games import GameShelf
from firmware.tabletop import EmulatedTable

TRIES = 6  # moves attempted on the full disk


def make_full(state: Path, mode: str) -> None:
    if mode == "fsize":
        largest = max(p.stat().st_size for p in state.iterdir())
        resource.setrlimit(resource.RLIMIT_FSIZE, (largest, resource.RLIM_INFINITY))
        return
    with open(state / "filler", "wb", buffering=0) as filler:
        for chunk in (65536, 4096, 512, 1):
            try:
                while filler.write(b"\0" * chunk):
                    pass
            except OSError as err:
                if err.errno != errno.ENOSPC:
                    raise


def make_room(state: Path, mode: str) -> None:
    if mode == "fsize":
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
    else:
        os.unlink(state / "filler")


def game_length(bot: Bot) -> int:
    """How many actions the bot's game takes (the bot's policy on the engine alone)."""
    state, count = RULES.setup(bot.deal), 0
    while not Position(state).finished:
        state, count = RULES.apply(state, choose(state)).state, count + 1
    return count


def main(state: Path, mode: str, lines: int) -> dict:
    bot = Bot(2, 2)
    total = game_length(bot)
    lines = lines if lines >= 0 else total + lines
    with EmulatedTable(state, GameShelf()) as top:
        companion = top.companion
        for step in bot.setup_steps():
            top.perform(step)
        game = companion.game_id
        while len(top.journal.lines(game)) < lines:
            for step in bot.next_steps(companion.controller.state):
                top.perform(step)
            if companion.journal_trouble is not None:  # full before its time: a test's fault
                raise SystemExit(f"the disk was full too early: {companion.journal_trouble}")
        make_full(state, mode)
        refusals, before = [], companion.controller.state
        beeps = top.table.buzzer.played.count("ok")
        for _ in range(TRIES):
            for step in bot.next_steps(companion.controller.state):
                top.perform(step)
            refusals.append(companion.journal_trouble)
        unchanged = companion.controller.state == before and not companion.finished
        unchanged = unchanged and top.table.buzzer.played.count("ok") == beeps
        make_room(state, mode)
        while not companion.controller.is_over():
            for step in bot.next_steps(companion.controller.state):
                top.perform(step)
        result = companion.rules.result(companion.controller.state)
        return {
            "game": game,
            "refusals": refusals,
            "unchanged": unchanged,
            "acknowledged": top.table.buzzer.played.count("ok") - 1,  # the first: game begun
            "result": result,
            "total": total,
            "full_at": lines,
        }


if __name__ == "__main__":
    state_dir, how, count = sys.argv[1:]
    print(json.dumps(main(Path(state_dir), how, int(count))))
