"""Fuzzing records: whatever a record holds, `replay` answers with a result or a RecordError
naming its line, never another exception (issue 11, "bad input: a sentence").

Mutations start from real records of both games (the Arcana fixtures, one with an inline
catalog, and a finished Res Arcana game) and either put a hostile JSON fragment at one place
of one line (wrong types, deep nesting, 5,000-digit numbers, NaN, lone surrogates, U+2028)
or damage the bytes (invalid UTF-8, cut lines). Each test runs FUZZ_EXAMPLES examples in a
few seconds; ARCANA_FUZZ_SCALE=N (CONTRIBUTING.md) runs N times as many.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arcana import load_catalog
from engine.records import MAX_DEPTH, RecordError, dumps, replay, split
from engine.resarcana import RULES as RES_ARCANA
from engine.resarcana import physical_setup
from engine.resarcana.scenario import finished_game
from firmware import cli

FIXTURES = Path(__file__).parent / "arcana" / "fixtures"
SCALE = int(os.environ.get("ARCANA_FUZZ_SCALE", "1"))
FUZZ_EXAMPLES = 200 * SCALE
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# through the command line, each example also writes and reads a file: fewer examples
CLI_FUZZ = settings(FUZZ, max_examples=FUZZ_EXAMPLES // 2)
SENTINEL = "\x00fuzz\x00"


@cache
def base_records() -> tuple[tuple[str, ...], ...]:
    """Records as lists of lines: Arcana basic and advanced, Arcana with its catalog inline,
    and a whole Res Arcana game, with its deal and as played with physical cards."""
    arcana = [(FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8") for name in
              ("2p_basic", "3p_advanced")]  # fmt: skip
    lines = arcana[0].splitlines()
    first = json.loads(lines[0])
    first["setup"]["catalog"] = load_catalog("sample").to_object()
    inline = [json.dumps(first), *lines[1:]]
    game = finished_game(11, 2)
    moves = [RES_ARCANA.encode_action(a) for a in game["moves"]]
    res = dumps("res-arcana", game["setup"], moves)
    physical = dumps("res-arcana", physical_setup(game["setup"]), moves)  # hands unknown
    texts = (*arcana, "\n".join(inline), res, physical)
    return tuple(tuple(text.splitlines()) for text in texts)


def places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a parsed line, the line itself included."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(places(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(places(item, (*path, index)))
    return found


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, *rest = path
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = put(value[head], tuple(rest), new)
    return copy


strings = st.sampled_from(
    ["", "\ud800", "a\udfffb", "Ann\u2028Ben", "\u2029", "\x85", "\x00", "\x1b[2J", "\n", "é" * 50]
) | st.text(max_size=20)
plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | strings,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(strings, inner, max_size=3),
    max_leaves=8,
)
@cache
def words() -> list[str]:
    """Every string of the base records (card ids, guilds, actions, names), JSON-quoted:
    mutations that stay close to a real game reach deeper into the rules."""
    found = {json.dumps(w) for lines in base_records() for line in lines[1:]
             for w in json.loads(line).values() if isinstance(w, str)}  # fmt: skip
    return sorted(found)


fragments = st.one_of(
    st.integers(-2, 6).map(str),
    st.deferred(lambda: st.sampled_from(words())),
    plain.map(lambda v: json.dumps(v).replace("NaN", "0")),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1.0", "true", "1e999", "-0", '"\\ud800"']),
    st.integers(16, 6000).map(lambda n: "7" * n),
    st.integers(MAX_DEPTH - 2, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(MAX_DEPTH - 2, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
)


@st.composite
def well_typed_line(draw: st.DrawFn) -> str:
    """An action line of the right shape with values from the games' own words: what a
    confused program, not a damaged file, would write. The rules must refuse or accept it."""
    vocabulary = [json.loads(w) for w in words()] + ["militia_1", "task_01", "game_end"]
    word, number = st.sampled_from(vocabulary), st.integers(-2, 7)
    line = {"player": draw(number), "action": draw(st.sampled_from(
        ["agent", "bribe", "location", "discard", "militia", "stash", "reveal", "play",
         "activate", "buy", "pass"])), "card": draw(word), "stake": draw(number)}  # fmt: skip
    if draw(st.booleans()):
        keys = st.sampled_from(["a", "b", "to", "card", "stake"])
        line["params"] = draw(st.dictionaries(keys, number | word, max_size=3))
    if draw(st.booleans()):
        line["gain"] = draw(st.dictionaries(st.sampled_from(["gold", "calm", "fire", "x"]),
                                            st.integers(0, 3), max_size=2))  # fmt: skip
    for key in draw(st.sets(st.sampled_from(sorted(line)), max_size=2)):
        del line[key]
    return json.dumps(line)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A record with one hostile change: a fragment at one place of one line, or bytes."""
    lines = list(draw(st.sampled_from(base_records())))
    number = draw(st.integers(0, min(len(lines) - 1, 40)))
    lines = lines[: number + 1 + draw(st.integers(0, 2))]
    if number and draw(st.integers(0, 3)) == 0:  # a well-typed action in a real game
        lines[number] = draw(well_typed_line())
        return "\n".join(lines).encode("utf-8")
    if draw(st.integers(0, 3)):  # three in four: a value; else damaged bytes
        line = json.loads(lines[number])
        path = draw(st.sampled_from(places(line)))
        if path and draw(st.integers(0, 4)) == 0:  # drop the value instead
            parent = line  # freshly parsed: ours to change
            for key in path[:-1]:
                parent = parent[key]
            del parent[path[-1]]
            text = json.dumps(line, ensure_ascii=False)
        else:
            text = json.dumps(put(line, path, SENTINEL), ensure_ascii=False)
            text = text.replace(json.dumps(SENTINEL, ensure_ascii=False), draw(fragments))
        lines[number] = text
        return "\n".join(lines).encode("utf-8", "surrogatepass")
    data = bytearray("\n".join(lines).encode("utf-8"))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        junk = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\n", b"\r", b"{",
                                     "\u2028".encode(), b"", b'"', b"\x00"]))  # fmt: skip
        cut = draw(st.integers(0, 3))
        data[at : at + cut] = junk
    return bytes(data)


def check_refusal_or_result(data: bytes) -> None:
    """The property: a JSON-writable result, or a RecordError on a line of the record."""
    try:
        result = replay(data)
    except RecordError as err:
        assert err.line is not None and 1 <= err.line <= data.count(b"\n") + 1, err
        assert err.reason and str(err).startswith(f"line {err.line}: ")
    else:
        json.dumps(result, ensure_ascii=False).encode("utf-8")  # it can be written out


@FUZZ
@given(mutated())
def test_a_mutated_record_replays_or_is_refused_with_its_line(data):
    check_refusal_or_result(data)


PARSER = cli.build_parser()  # once: building it imports every command (70 ms)


def arcana_table(*args: str) -> tuple[int, str, str]:
    """Run the command as `cli.main` does, in this process: exit status, stdout (its UTF-8
    bytes decoded), stderr."""
    parsed = PARSER.parse_args(list(args))
    module = importlib.import_module(f"firmware.commands.{cli.COMMANDS[parsed.command][0]}")
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = module.run(parsed)
    out.flush()
    return status, out.buffer.getvalue().decode("utf-8"), err.getvalue()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@CLI_FUZZ
@given(mutated())
def test_the_replay_command_answers_a_mutated_record_with_json_or_one_line(data):
    """Exit 0 and one JSON line, or exit 2, `line N: ...` alone on stderr, nothing on stdout;
    the record and its folder are as they were."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        path.write_bytes(data)
        status, out, err = arcana_table("replay", str(path))
        assert snapshot(Path(folder)) == {"game.jsonl": data}
    if status == 0:
        assert err == "" and out.endswith("\n") and out.count("\n") == 1
        json.loads(out)
    else:
        assert status == 2 and out == ""
        assert err.startswith("line ") and err.endswith("\n") and err.count("\n") == 1, err
        assert err[:-1].isprintable(), err


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"action": ["agent"]}, "line 2: unknown action ['agent']"),
        ({"card": {"id": 1}}, 'line 2: an "agent" line needs "card"'),
        ({"stake": [2]}, 'line 2: an "agent" line needs "stake"'),
        ({"player": True}, 'line 2: an "agent" line needs "player"'),
    ],
)
def test_an_action_field_of_the_wrong_type_is_refused(change, expected):
    lines = list(base_records()[0][:2])
    lines[1] = json.dumps({**json.loads(lines[1]), **change})
    with pytest.raises(RecordError) as err:
        replay(lines)
    assert str(err.value).startswith(expected)


@pytest.mark.parametrize(
    ("version", "reason"), [("true", "true"), ("1.0", "1.0"), ('"1"', '"1"'), ("2", "2")]
)
def test_only_the_integer_1_is_version_1(version, reason):
    first = base_records()[0][0].replace('"version": 1', f'"version": {version}')
    with pytest.raises(RecordError, match=f"line 1: unsupported record version {reason}"):
        replay([first])


@pytest.mark.parametrize(
    ("fragment", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than 32 levels"),
        ("[" * 40 + "]" * 40, "nested deeper than 32 levels"),
        ("9" * 4301, "a number of 4301 digits (at most 15 in a record)"),
        ("NaN", "NaN is not a JSON number"),
        ('"\\ud800"', "a string holds a lone surrogate (\\ud800)"),
    ],
)
def test_hostile_json_is_refused_with_its_line(fragment, reason):
    lines = list(base_records()[0][:3])
    lines[2] = lines[2].replace('"stake": 3', f'"stake": {fragment}')
    assert fragment in lines[2]
    with pytest.raises(RecordError) as err:
        replay("\n".join(lines))
    assert str(err.value) == f"line 3: {reason}"


def test_invalid_utf8_names_its_line():
    data = "\n".join(base_records()[0][:4]).encode() + b"\n" + b'{"player": 0, "\xff"}'
    with pytest.raises(RecordError) as err:
        replay(data)
    assert str(err.value) == "line 5: not UTF-8 text (byte 16 of the line)"


def test_lines_are_split_at_newline_only_so_u2028_in_a_name_replays():
    lines = list(base_records()[0])
    lines[0] = lines[0].replace('"Ann"', '"Ann\u2028\u2029\x85Lee"')
    result = replay("\n".join(lines) + "\n")
    assert result["players"][0]["name"] == "Ann\u2028\u2029\x85Lee"
    assert split("a\u2028b\r\nc") == ["a\u2028b\r", "c"]


def test_the_fuzzer_reaches_results_and_refusals_of_every_kind():
    """Guard against a fuzzer that only ever breaks line 1: over a fixed sample, mutations
    reach later lines, and some records still replay."""
    seen: set[str] = set()

    @settings(max_examples=250, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(mutated())
    def sample(data: bytes) -> None:
        try:
            replay(data)
            seen.add("replayed")
        except RecordError as err:
            seen.add("line 1" if err.line == 1 else "later line")

    sample()
    assert seen == {"replayed", "line 1", "later line"}


def test_replay_from_stdin_reads_bytes_and_names_the_line(monkeypatch):
    good = "\n".join(base_records()[0][:3]).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(good + b"\n\xc3(\n")))
    assert arcana_table("replay", "-") == (2, "", "line 4: not UTF-8 text (byte 1 of the line)\n")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(good)))
    status, out, err = arcana_table("replay", "-")
    assert (status, err) == (0, "") and json.loads(out)["game"] == "arcana"
