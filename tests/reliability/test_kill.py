"""Power-cut proof: kill the companion with SIGKILL at 100+ random points of a scripted game
(taps, undos, redos, round ends), restart it, finish the game: the final record equals the
uninterrupted run's, every time."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from firmware.controllers.arcana import Bot
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.tabletop import EmulatedTable

DRIVER = Path(__file__).with_name("scripted_table.py")
KILLS = 100


def record_script(state: Path, seed: int) -> tuple[list[list], str]:
    """Play a bot game with undos and redos mixed in; return its groups and final record."""
    rng = random.Random(seed)
    groups: list[list] = []
    with EmulatedTable(state, GameShelf()) as top:
        current: list = []
        version = top.journal.version()

        def step(kind: str, target: str, extra: str | None = None) -> None:
            nonlocal current, version
            if kind == "tap":
                top.tap(target, extra)
            else:
                top.press(target, held=extra == "held")
            current.append([kind, target, *([extra] if extra else [])])
            if top.journal.version() != version:
                version = top.journal.version()
                groups.append(current)
                current = []

        bot = Bot(seed, 2)
        for move in bot.setup_steps():
            step(move.kind, move.target, move.card)
        while not top.companion.controller.is_over():
            for move in bot.next_steps(top.companion.controller.state):
                step(move.kind, move.target, move.card)
            if rng.random() < 0.15 and not top.companion.controller.is_over():
                step("press", "undo")
                step("press", "undo", "held")  # redo: the bot's plan goes on unchanged
        if current:
            groups.append(current)
        record = top.journal.record(top.companion.game_id)
    return groups, record


def kill_until_done(script: Path, state: Path, kills_wanted: int, seed: int) -> int:
    """Run the scripted table, killing it `kills_wanted` times at random points; then let it
    finish. Returns the number of kills."""
    rng = random.Random(seed)
    kills = 0
    while True:
        process = subprocess.Popen(
            [sys.executable, str(DRIVER), str(state), str(script)],
            stdout=subprocess.PIPE,
            text=True,
        )
        target = rng.randrange(1, 3) if kills < kills_wanted else None  # groups let through
        finished = False
        for seen, line in enumerate(process.stdout, start=1):
            if line.strip() == "done":
                finished = True
                break
            if target is not None and seen >= target:
                time.sleep(rng.uniform(0, 0.03))  # somewhere inside the group
                process.kill()
                kills += 1
                break
        process.stdout.close()
        process.wait(timeout=60)
        if finished:
            return kills
        assert target is not None, "the last, uninterrupted run did not finish the script"


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing(tmp_path):
    lanes = []
    for seed in (3, 4):  # two games side by side, one per core
        groups, expected = record_script(tmp_path / f"uninterrupted-{seed}", seed=seed)
        assert any(group[-1][:2] == ["press", "undo"] for group in groups)  # undos are in it
        script = tmp_path / f"script-{seed}.json"
        script.write_text(json.dumps(groups))
        state = tmp_path / f"killed-{seed}"
        state.mkdir()
        lanes.append((script, state, expected))
    with ThreadPoolExecutor(max_workers=len(lanes)) as pool:
        runs = [
            pool.submit(kill_until_done, script, state, KILLS // len(lanes), n)
            for n, (script, state, _) in enumerate(lanes)
        ]
        kills = sum(run.result() for run in runs)
    assert kills >= KILLS
    for _, state, expected in lanes:
        with Journal.open(state) as journal:
            (game,) = [entry.id for entry in journal.games()]
            assert journal.record(game) == expected
            assert journal.games()[0].finished is not None
