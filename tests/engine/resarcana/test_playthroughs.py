"""Recorded full games (like OpenSpiel's playthrough files), replayed and diffed on every run.

Each file in `playthroughs/` is JSON Lines: the record header, then one line per step with
the seat to act, its legal actions, the action taken and the events, then the replay result.
The test replays the actions and rebuilds every line; any difference in legal actions,
events or result fails with the first differing line.

To regenerate after an intended rule change, run with ARCANA_REGENERATE=1: the files
are rewritten and the run fails on purpose, so a regeneration never passes unnoticed.
Review the diff (git diff tests/engine/resarcana/playthroughs) before committing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from regenerate import regenerating, rewrote

from engine.protocol import event_to_json
from engine.records import header, parse_header
from engine.resarcana import RULES, current_player, physical_setup
from engine.resarcana.scenario import finished_game

HERE = Path(__file__).parent / "playthroughs"

# name -> (seed, players, physical play)
GAMES = {
    "two_players": (101, 2, False),
    "three_players": (202, 3, False),
    "four_players": (303, 4, False),
    "three_players_physical": (404, 3, True),
}


def short(action) -> str:
    return " ".join(w for w in (action.kind, action.card, action.gain) if w is not None)


def playthrough(setup: dict, action_lines: list[dict]) -> list[str]:
    """The lines of a playthrough file for a setup and the record lines of its actions."""
    state = RULES.setup(setup)
    lines = [json.dumps(header("res-arcana", setup))]
    for line in action_lines:
        legal = RULES.legal_actions(state)
        action = RULES.decode_action(line)
        outcome = RULES.apply(state, action)
        step = {
            "player": current_player(state),
            "legal": [short(a) for a in legal],
            "action": line,
            "events": [event_to_json(e) for e in outcome.events],
        }
        lines.append(json.dumps(step))
        state = outcome.state
    lines.append(json.dumps({"result": RULES.result(state)}))
    return lines


def generate(name: str) -> list[str]:
    seed, players, physical = GAMES[name]
    game = finished_game(seed, players)
    setup = physical_setup(game["setup"]) if physical else game["setup"]
    return playthrough(setup, [RULES.encode_action(a) for a in game["moves"]])


def stored(name: str) -> tuple[dict, list[dict], list[str]]:
    lines = (HERE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    _, setup = parse_header(json.loads(lines[0]))
    actions = [json.loads(line)["action"] for line in lines[1:-1]]
    return setup, actions, lines


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough_replays_exactly(name):
    if regenerating():
        HERE.mkdir(exist_ok=True)
        (HERE / f"{name}.jsonl").write_text("\n".join(generate(name)) + "\n", encoding="utf-8")
        rewrote(f"playthroughs/{name}.jsonl")
    setup, actions, expected = stored(name)
    actual = playthrough(setup, actions)
    for number, (want, got) in enumerate(zip(expected, actual, strict=True), start=1):
        assert json.loads(got) == json.loads(want), f"{name}.jsonl line {number} differs"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough_is_a_whole_game(name):
    _, actions, lines = stored(name)
    result = json.loads(lines[-1])["result"]
    assert result["finished"] and result["winners"]
    steps = [json.loads(line) for line in lines[1:-1]]
    assert all(short(RULES.decode_action(s["action"])) in s["legal"] for s in steps)
    assert steps[-1]["events"][-1]["kind"] == "game_ended"
    assert len(actions) == len(steps) > 20
