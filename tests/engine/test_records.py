"""The game-independent part of records (../shared/spec/records.md): lines, header, errors.

A toy game (count to a target in steps of 1 or 2) stands in for the real engines, so these
tests pin down the record machinery itself: line numbers, JSON errors, rejections.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from engine import records
from engine.protocol import Applied, Rejection
from engine.records import FORMAT, RecordError, dumps, header, load, parse_line, replay


class CountingRules:
    name = "count"

    def setup(self, setup: dict[str, Any]) -> int:
        if not isinstance(setup.get("target"), int):
            raise RecordError('setup needs an integer "target"')
        return 0

    def decode_action(self, line: dict[str, Any]) -> int:
        if line.get("action") != "step" or not isinstance(line.get("by"), int):
            raise RecordError('expected {"action": "step", "by": N}')
        return line["by"]

    def encode_action(self, action: int) -> dict[str, Any]:
        return {"action": "step", "by": action}

    def apply(self, state: int, action: int) -> Applied[int] | Rejection:
        if action not in (1, 2):
            return Rejection("bad_step", f"a step is 1 or 2, not {action}")
        return Applied(state + action, (("stepped", action),))

    def legal_actions(self, state: int) -> list[int]:
        return [1, 2]

    def is_terminal(self, state: int) -> bool:
        return False  # counting never ends

    def result(self, state: int) -> dict[str, Any]:
        return {"game": "count", "total": state}


@pytest.fixture
def counting(monkeypatch):
    monkeypatch.setattr(records, "rules_for", lambda game: CountingRules())


def lines(*actions: str) -> list[str]:
    return [json.dumps(header("count", {"target": 5})), *actions]


def test_a_legal_record_replays(counting):
    step = '{"action": "step", "by": %d}'
    assert replay(lines(step % 1, "", step % 2)) == {"game": "count", "total": 3}


def test_an_illegal_action_names_its_line_and_the_reason(counting):
    with pytest.raises(RecordError) as err:
        load(lines('{"action": "step", "by": 1}', '{"action": "step", "by": 7}'))
    assert str(err.value) == "line 3: a step is 1 or 2, not 7"


def test_a_line_that_does_not_fit_names_its_line(counting):
    with pytest.raises(RecordError) as err:
        load(lines('{"action": "jump"}'))
    assert err.value.line == 2


def test_not_json_names_the_line_counting_blank_lines(counting):
    with pytest.raises(RecordError) as err:
        load(lines("", "{not json"))
    assert str(err.value).startswith("line 3: not valid JSON")


def test_a_bad_setup_is_line_1(counting):
    with pytest.raises(RecordError) as err:
        load([json.dumps(header("count", {}))])
    assert str(err.value) == 'line 1: setup needs an integer "target"'


@pytest.mark.parametrize(
    ("first", "reason"),
    [
        ('{"format": "something-else", "version": 1}', "header"),
        (json.dumps({"format": FORMAT, "version": 2, "game": "arcana", "setup": {}}), "version"),
        (json.dumps({"format": FORMAT, "version": 1, "setup": {}}), '"game"'),
        (json.dumps({"format": FORMAT, "version": 1, "game": "chess", "setup": {}}), "chess"),
        (json.dumps({"format": FORMAT, "version": 1, "game": "arcana"}), '"setup"'),
        ("[1, 2]", "JSON object"),
    ],
)
def test_a_bad_header_is_line_1(first, reason):
    with pytest.raises(RecordError) as err:
        load([first])
    assert err.value.line == 1
    assert reason in err.value.reason


def test_an_empty_record_is_refused():
    with pytest.raises(RecordError, match="empty"):
        load(["", "  "])


def test_parse_line_wants_an_object():
    assert parse_line('{"action": "pass"}') == {"action": "pass"}
    with pytest.raises(RecordError, match="JSON object"):
        parse_line('"pass"')


def test_dumps_writes_one_object_per_line():
    text = dumps("res-arcana", {"players": ["Ann"]}, [{"player": 0, "action": "pass"}])
    first, second = text.splitlines()
    assert json.loads(first) == header("res-arcana", {"players": ["Ann"]})
    assert json.loads(second) == {"player": 0, "action": "pass"}
    assert text.endswith("\n")


def run_replay(path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", "replay", str(path)], capture_output=True, text=True
    )


def test_replay_command_refuses_a_malformed_record(tmp_path):
    record = tmp_path / "bad.jsonl"
    record.write_text('{"format": "arcana-table/record", "version": 1, "game": "go"}\n')
    done = run_replay(record)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("line 1: ")


def test_replay_command_reports_an_unreadable_file(tmp_path):
    done = run_replay(tmp_path / "missing.jsonl")
    assert (done.returncode, done.stdout) == (2, "")
    assert "cannot read" in done.stderr
