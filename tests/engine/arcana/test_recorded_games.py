"""Recorded full games (2, 3 and 4 players, basic and advanced), diffed on every run.

Each fixture is a game record (`<name>.jsonl`, replayable with `arcana-table replay`) and a
trace (`<name>.trace.jsonl`): per action line the number of legal actions before it and the
events it caused, then the replay result. Any change in the rules, the sample catalog or the
bots shows up as a diff here.

To accept an intended change, regenerate and review the diff:

    ARCANA_REGENERATE=1 .venv/bin/pytest tests/engine/arcana/test_recorded_games.py

Regenerating fails the run on purpose, so that nothing passes by accident (the suite's one
switch: `tests/support/regenerate.py`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from regenerate import regenerating, rewrote

from engine.arcana import RULES, random_playout
from engine.protocol import Applied, event_to_json
from engine.records import dumps, parse_header, parse_line

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = {  # name -> (seed, players, variant)
    "2p_basic": (201, 2, "basic"),
    "2p_advanced": (202, 2, "advanced"),
    "3p_basic": (301, 3, "basic"),
    "3p_advanced": (302, 3, "advanced"),
    "4p_basic": (401, 4, "basic"),
    "4p_advanced": (402, 4, "advanced"),
}


def record_text(name: str) -> str:
    seed, players, variant = GAMES[name]
    played = random_playout(random.Random(seed), players, variant, "sensible", record=True)
    assert played["finished"]
    return dumps("arcana", played["setup"], played["lines"])


def trace_text(record: str) -> str:
    lines = record.splitlines()
    _, setup = parse_header(parse_line(lines[0]))
    state = RULES.setup(setup)
    out = []
    for number, text in enumerate(lines[1:], start=2):
        legal = len(RULES.legal_actions(state))
        outcome = RULES.apply(state, RULES.decode_action(parse_line(text)))
        assert isinstance(outcome, Applied), f"line {number}: {outcome}"
        state = outcome.state
        events = [event_to_json(event) for event in outcome.events]
        out.append(json.dumps({"line": number, "legal": legal, "events": events}))
    out.append(json.dumps({"result": RULES.result(state)}))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_recorded_game_replays_exactly_as_recorded(name):
    record_path = FIXTURES / f"{name}.jsonl"
    trace_path = FIXTURES / f"{name}.trace.jsonl"
    if regenerating():
        FIXTURES.mkdir(exist_ok=True)
        record = record_text(name)
        record_path.write_text(record, encoding="utf-8")
        trace_path.write_text(trace_text(record), encoding="utf-8")
        rewrote(f"fixtures/{name}.jsonl and {name}.trace.jsonl")
    record = record_path.read_text(encoding="utf-8")
    expected = trace_path.read_text(encoding="utf-8").splitlines()
    for want, got in zip(expected, trace_text(record).splitlines(), strict=True):
        assert json.loads(got) == json.loads(want)
    assert record_text(name) == record  # the same seed still plays the same game


def test_the_recorded_games_cover_every_action():
    kinds: set[str] = set()
    reasons: set[str] = set()
    for name in GAMES:
        for text in (FIXTURES / f"{name}.trace.jsonl").read_text(encoding="utf-8").splitlines():
            entry = json.loads(text)
            for event in entry.get("events", []):
                kinds.add(event["kind"])
                if event["kind"] == "game_ended":
                    reasons.add(event["reason"])
    assert kinds >= {
        "agent_placed", "location_played", "bribed", "card_discarded", "militia_placed",
        "stake_evaluated", "card_revealed", "game_end_revealed", "round_started", "game_ended",
        "stashed", "agent_moved",
    }  # fmt: skip
    assert reasons == {"game_end_card"}
