"""Games in a journal for the history tests: finished and in progress, from the recorded
Arcana games in tests/engine/arcana/fixtures.

    with Journal.open(state_dir) as journal:
        games = journal_games(journal)    # {"finished": 1, "in_progress": 2, "res": 3}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.records import replay, split
from firmware.journal import Journal

FIXTURES = Path(__file__).parents[1] / "engine" / "arcana" / "fixtures"
PREFIX = 8  # 2p_advanced's first lines: blades_agent_9 lies face down, each player kept tasks
RES_SETUP = {"players": ["Cy", "Di"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]}


def fixture_lines(name: str) -> list[dict[str, Any]]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in split(text) if line.strip()]


def journal_games(journal: Journal) -> dict[str, int]:
    """A finished Arcana game (2p_basic), an Arcana game in progress (advanced: tasks kept,
    an agent face down) and a Res Arcana game in progress; their ids by name."""
    done = fixture_lines("2p_basic.jsonl")
    finished = journal.start("arcana", done[0]["setup"])
    result = replay([json.dumps(line) for line in done])
    for n, line in enumerate(done[1:], start=1):
        journal.append(finished, line, result if n == len(done) - 1 else None)
    going = fixture_lines("2p_advanced.jsonl")[:PREFIX]
    in_progress = journal.start("arcana", going[0]["setup"])
    for line in going[1:]:
        journal.append(in_progress, line)
    res = journal.start("res-arcana", RES_SETUP)
    journal.append(res, {"player": 0, "action": "pass"})
    return {"finished": finished, "in_progress": in_progress, "res": res}
