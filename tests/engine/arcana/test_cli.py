"""End to end through the command line: `arcana-table replay` on Arcana records (the exit-2
contract of ../shared/spec/records.md), `arcana-table catalog check` and the engine bench."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.arcana import RULES, random_playout
from engine.records import dumps

ROOT = Path(__file__).resolve().parents[3]


def arcana_table(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args], capture_output=True, text=True, cwd=ROOT
    )


@pytest.fixture(scope="module")
def played():
    return random_playout(random.Random(7), 3, "advanced", policy="sensible", record=True)


def test_replay_prints_the_result_of_a_whole_arcana_game(tmp_path, played):
    record = tmp_path / "game.jsonl"
    record.write_text(dumps("arcana", played["setup"], played["lines"]), encoding="utf-8")
    done = arcana_table("replay", str(record))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == RULES.result(played["state"])
    assert result["finished"] and result["winners"]
    assert list(result) == ["game", "round", "finished", "winners", "stakes", "players"]


@pytest.mark.parametrize(
    ("bad_line", "reason"),
    [
        ('{"player": 0, "action": "discard", "card": "blades_agent_1"}', "The game is over"),
        ('{"player": 0, "action": "fly", "card": "blades_agent_1"}', "unknown action 'fly'"),
        ('{"player": 0, "action": "agent", "card": "x"', "not valid JSON"),
    ],
)
def test_replay_refuses_a_bad_line_with_its_number_and_prints_nothing(
    tmp_path, played, bad_line, reason
):
    record = tmp_path / "game.jsonl"
    text = dumps("arcana", played["setup"], played["lines"]) + bad_line + "\n"
    record.write_text(text, encoding="utf-8")
    done = arcana_table("replay", str(record))
    assert done.returncode == 2 and done.stdout == ""
    number = len(played["lines"]) + 2
    assert done.stderr.startswith(f"line {number}: {reason}")


def test_replay_names_an_illegal_move_in_the_middle_of_a_game(tmp_path, played):
    lines = list(played["lines"])
    first_turn = next(i for i, line in enumerate(lines) if line.get("action") == "agent")
    lines[first_turn] = {**lines[first_turn], "player": (lines[first_turn]["player"] + 1) % 3}
    record = tmp_path / "game.jsonl"
    record.write_text(dumps("arcana", played["setup"], lines), encoding="utf-8")
    done = arcana_table("replay", str(record))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"line {first_turn + 2}: ")
    assert done.stderr.rstrip().endswith("to play")


def test_replay_refuses_a_bad_setup_on_line_1(tmp_path, played):
    setup = {**played["setup"], "stakes": ["m_agent_01"]}
    record = tmp_path / "game.jsonl"
    record.write_text(dumps("arcana", setup, []), encoding="utf-8")
    done = arcana_table("replay", str(record))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith('line 1: "stakes" must name the 4 market cards')


def test_catalog_check_accepts_the_sample(tmp_path):
    done = arcana_table("catalog", "check", "engine/arcana/catalogs/sample.toml")
    assert (done.returncode, done.stdout) == (0, "ok: 162 cards\n")


def test_catalog_check_lists_every_problem_and_exits_2(tmp_path):
    text = (ROOT / "engine/arcana/catalogs/sample.toml").read_text(encoding="utf-8")
    text = text.replace('effect = "swap_stakes"', 'effect = "teleport"', 1)
    text = text.replace('id = "m_agent_02"', 'id = "m_agent_01"', 1)
    mine = tmp_path / "mine.toml"
    mine.write_text(text, encoding="utf-8")
    done = arcana_table("catalog", "check", str(mine))
    assert done.returncode == 2 and done.stdout == ""
    assert "2 problem(s)" in done.stderr
    assert 'card "ferrymen_location": unknown location effect "teleport" in effect' in done.stderr
    assert 'duplicate id "m_agent_01"' in done.stderr


def test_bench_engine_plays_arcana_games_to_the_end():
    done = arcana_table("bench", "engine", "--game", "arcana", "--seconds", "0.2")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["game"] == "arcana" and figures["games"] >= 1
    assert figures["unfinished_games"] == 0
    assert figures["actions_per_s"] > 0 and figures["rounds_per_game"]


def test_catalog_playtest_reports_rounds_per_game_of_bot_games():
    done = arcana_table("catalog", "playtest", "--games", "3", "--players", "2,4", "--seed", "5")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["catalog"] == "sample" and figures["policy"] == "sensible"
    for key in ("2_players", "4_players"):
        assert sum(figures[key]["rounds_per_game"].values()) == 3
        assert figures[key]["unfinished"] == 0


def test_replay_accepts_an_inline_catalog_object(tmp_path, game):
    g = game(changes={"blades_agent_2": {"arcana": {"political": 2}}})
    g.play(
        {0: [("agent", "blades_agent_1", {"stake": 4}), ("agent", "blades_agent_2", {"stake": 4})]}
    )
    g.do(None, "reveal", "m_agent_20", stake=4)
    record = tmp_path / "inline.jsonl"
    record.write_text(dumps("arcana", g.setup, g.lines), encoding="utf-8")
    done = arcana_table("replay", str(record))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result == g.result and result["round"] == 2 and not result["finished"]
    assert result["players"][0]["vp"] == 3 and result["stakes"][4]["market"] == "m_agent_20"
