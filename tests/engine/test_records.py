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


def test_an_empty_record_is_line_1_with_the_reason():
    with pytest.raises(RecordError) as err:
        load(["", " \t\r"])
    assert (err.value.line, str(err.value)) == (
        1,
        "line 1: the record is empty; line 1 must be a header",
    )


def test_a_refusal_without_a_line_is_the_reason_alone():
    assert str(RecordError("a reason")) == "a reason"
    assert str(RecordError("a reason").at(4)) == "line 4: a reason"


def test_a_record_as_text_or_bytes_replays_like_its_lines(counting):
    step = '{"action": "step", "by": %d}'
    text = "\n".join(lines(step % 1, step % 2, step % 2)) + "\n"
    for record in (text, text.encode()):
        _, state, actions = load(record)
        assert (state, actions) == (5, [1, 2, 2])


def test_only_json_whitespace_makes_a_line_blank(counting):
    # U+2028 and form feed are whitespace to Python, not to JSON: such a line is a bad line.
    for blank in ("\u2028", "\x0c"):
        with pytest.raises(RecordError) as err:
            load(lines(blank))
        assert str(err.value).startswith("line 2: not valid JSON")


def test_rules_for_names_the_known_games():
    from engine import arcana, resarcana

    assert records.rules_for("arcana") is arcana.RULES
    assert records.rules_for("res-arcana") is resarcana.RULES
    with pytest.raises(RecordError) as err:
        records.rules_for("chess")
    assert str(err.value) == 'unknown game \'chess\' (known: "res-arcana", "arcana")'


def test_a_shown_value_is_cut_to_40_characters():
    assert records.shown("x" * 38) == repr("x" * 38)  # 40 characters: as it is
    assert records.shown("x" * 39) == "'" + "x" * 36 + "..."  # 41: cut to 40
    assert len(records.shown(list(range(100)))) == 40


def test_a_long_unsupported_version_is_shown_cut_as_the_line_writes_it():
    version = "é" * 50
    first = json.dumps({"format": FORMAT, "version": version, "game": "arcana", "setup": {}})
    with pytest.raises(RecordError) as err:
        load([first])
    assert str(err.value) == f'line 1: unsupported record version "{"é" * 36}... (expected 1)'


@pytest.mark.parametrize(
    ("first", "reason"),
    [
        (
            json.dumps({"format": FORMAT, "version": 1, "game": 7, "setup": {}}),
            'the header needs "game": "res-arcana" or "arcana"',
        ),
        (
            json.dumps({"format": FORMAT, "version": 1, "game": "arcana", "setup": []}),
            'the header needs a "setup" object',
        ),
    ],
)
def test_a_header_without_a_game_or_setup_says_what_it_needs(first, reason):
    with pytest.raises(RecordError) as err:
        load([first])
    assert str(err.value) == f"line 1: {reason}"


def test_a_line_must_be_an_object_says_so():
    with pytest.raises(RecordError) as err:
        parse_line("[1]")
    assert str(err.value) == "expected a JSON object"


def test_nesting_is_counted_from_the_line_itself_up_to_32_levels():
    def nested(levels: int) -> str:  # the object is level 1
        return '{"x": ' + "[" * (levels - 1) + "]" * (levels - 1) + "}"

    assert parse_line(nested(32)) == json.loads(nested(32))
    with pytest.raises(RecordError) as err:
        parse_line(nested(33))
    assert str(err.value) == "nested deeper than 32 levels"


def test_every_value_of_a_line_is_checked_not_only_the_last():
    deep = "[" * 40 + "]" * 40
    with pytest.raises(RecordError, match="nested deeper than 32 levels"):
        parse_line('{"deep": ' + deep + ', "after": 1, "name": "Zoë"}')
    with pytest.raises(RecordError, match="lone surrogate"):
        parse_line('{"bad": "\\ud800", "after": "Zoë", "n": 1}')


def test_a_lone_surrogate_is_named_by_its_code_point():
    with pytest.raises(RecordError) as err:
        parse_line('{"name": "Zo\\udfffë"}')
    assert str(err.value) == "a string holds a lone surrogate (\\udfff)"
    assert parse_line('{"name": "Zoë \\ud83d\\ude00"}') == {"name": "Zoë \U0001f600"}


def test_numbers_of_up_to_15_digits_are_kept():
    assert parse_line('{"n": 999999999999999, "m": -999999999999999}') == {
        "n": 999_999_999_999_999,
        "m": -999_999_999_999_999,
    }
    with pytest.raises(RecordError) as err:
        parse_line('{"n": 1000000000000000}')
    assert str(err.value) == "a number of 16 digits (at most 15 in a record)"
    for constant in ("Infinity", "-Infinity"):
        with pytest.raises(RecordError, match=f"^{constant} is not a JSON number"):
            parse_line('{"n": ' + constant + "}")


def test_dumps_writes_letters_as_they_are():
    text = dumps("arcana", {"players": ["Zoë"]}, [{"player": 0, "note": "é"}])
    assert text == (
        '{"format": "arcana-table/record", "version": 1, "game": "arcana", '
        '"setup": {"players": ["Zoë"]}}\n{"player": 0, "note": "é"}\n'
    )
