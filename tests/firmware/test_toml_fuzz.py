"""Fuzzing the TOML files an owner or an installer writes: card catalogs (`catalog check`)
and table profiles (`wiring`, and the profile loader every table command shares).

Each example changes one line of a shipped file: a hostile value (wrong type, nan, inf, a
date, 5,000 digits, deep nesting, U+2028), a misspelt or unknown key, a lost or doubled line,
or damaged bytes. The command must answer with exit 0, or exit 2 and only lines that each
start with the file's name (`FILE: [section] key: ...` or `FILE line N: ...`), and leave the
file and its folder as they were; `run`, which would open a journal there, must refuse
the same file and create nothing. FUZZ_EXAMPLES examples each, a few seconds;
ARCANA_FUZZ_SCALE=N (CONTRIBUTING.md) runs N times as many.
"""

from __future__ import annotations

import importlib
import io
import os
import re
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.arcana.catalog import CATALOG_DIR
from firmware import cli
from hardware.profile import PROFILES, ProfileError, parse_profile

SCALE = int(os.environ.get("ARCANA_FUZZ_SCALE", "1"))
FUZZ_EXAMPLES = 100 * SCALE
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CATALOG = (CATALOG_DIR / "sample.toml").read_text(encoding="utf-8")
PROFILE_TEXTS = [(PROFILES / f"{name}.toml").read_text() for name in ("full-table", "minimal")]
SETTING = re.compile(r"^(\s*)([A-Za-z0-9_.-]+)(\s*=\s*)(.*)$")

HOSTILE = ["5", "-1", "0", "nan", "inf", "-inf", "1.5", "true", '"x"', '""', '["blades"]',
           '[1, "a"]', "{a = 1}", "{}", "[]", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
           '"\\ud800"', '"a\u2028b"', '"\x1b[2J"', '"military"', '"blades"', '"stake-0"',
           "0x3C"]  # fmt: skip
SECTIONS = ["[guilds]", "[[guilds]]", "[table]", "[[readers]]", "[cards]", "[x.y]"]
values = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(-(2**70), 2**70).map(str),
    st.integers(16, 6000).map(lambda n: "9" * n),
    st.integers(2, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(2, 400).map(lambda n: "{a = " * n + "1" + "}" * n),
    st.text(max_size=12).map(lambda t: '"' + t.replace("\\", "").replace('"', "") + '"'),
)
keys = st.sampled_from(
    ["tie_arcanumm", "nmae", "vpp", "colour", "absense_s", "pin", "role", "guild", "arcana",
     "kind", "main", "fief", "count", "effect", "id", "cs", "interface", "x"]
) | st.from_regex(r"\A[a-z_]{1,12}\Z")  # fmt: skip


@st.composite
def mutated_toml(draw: st.DrawFn, texts: list[str]) -> bytes:
    """One shipped file with one line changed, or a few bytes damaged."""
    lines = draw(st.sampled_from(texts)).split("\n")
    number = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["value", "key", "drop", "double", "section", "bytes"]))
    found = SETTING.match(lines[number])
    if how == "value" and found:
        lines[number] = found[1] + found[2] + found[3] + draw(values)
    elif how == "key" and found:
        lines[number] = found[1] + draw(keys) + found[3] + found[4]
    elif how == "drop":
        del lines[number]
    elif how == "double":
        lines.insert(number, lines[number])
    elif how == "section":
        lines.insert(number, draw(st.sampled_from(SECTIONS)))
    data = bytearray("\n".join(lines).encode("utf-8", "surrogatepass"))
    if how == "bytes":
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(data)))
            junk = draw(st.sampled_from([b"\xff", b"\xc3", b"\n", b"=", b"[", b'"', b"\x00"]))
            data[at : at + draw(st.integers(0, 2))] = junk
    return bytes(data)


PARSER = cli.build_parser()  # once: building it imports every command (70 ms)


def arcana_table(*args: str) -> tuple[int, str, str]:
    """Run the command as `cli.main` does, in this process: status, stdout, stderr."""
    parsed = PARSER.parse_args(list(args))
    module = importlib.import_module(f"firmware.commands.{cli.COMMANDS[parsed.command][0]}")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = module.run(parsed)
    return status, out.getvalue(), err.getvalue()


def run_on_file(
    data: bytes, name: str, *command: str, then: tuple[str, ...] = ()
) -> tuple[int, str, str]:
    """Run `command FILE` on the bytes in a fresh folder; check that nothing changed there.
    When the command refuses the file, `then` (a command that would create a journal in
    the folder's `state`, given the file as its last argument) must refuse it too, and
    create nothing."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        status, out, err = arcana_table(*command, str(path))
        if status != 0 and then:
            state = str(Path(folder) / "state")
            again = arcana_table(*then, str(path), "--state-dir", state)
            assert again[0] == 2, again
        assert {p.name: p.read_bytes() for p in Path(folder).iterdir()} == {name: data}
    return status, out, err.replace(str(path), name)


# `run` on the emulated table: the command that would start a table on the file
RUN_WITH_CATALOG = ("run", "--emulated", "--profile", "minimal", "--catalog")
RUN_WITH_PROFILE = ("run", "--emulated", "--profile")


def refused_lines(status: int, out: str, err: str, name: str) -> None:
    assert status == 2 and out == "", (status, out)
    lines = err.splitlines()
    assert lines and err.endswith("\n"), err
    for line in lines:
        assert line.startswith(name) and line.isprintable(), line
        assert "Traceback" not in line


@settings(FUZZ, max_examples=FUZZ_EXAMPLES * 2 // 5)  # 162 cards checked, twice when refused
@given(mutated_toml([CATALOG]))
def test_catalog_check_answers_every_mutation_with_ok_or_named_problems(data):
    status, out, err = run_on_file(data, "mine.toml", "catalog", "check", then=RUN_WITH_CATALOG)
    if status == 0:
        assert (out, err) == ("ok: 162 cards\n", "")
        return
    refused_lines(status, out, err, "mine.toml: ")
    assert re.fullmatch(r"mine\.toml: \d+ problem\(s\)", err.splitlines()[0])


@FUZZ
@given(mutated_toml(PROFILE_TEXTS))
def test_a_mutated_profile_is_drawn_or_refused_line_by_line(data):
    status, out, err = run_on_file(
        data, "t.toml", "wiring", "--text", "--profile", then=RUN_WITH_PROFILE
    )
    if status == 0:
        assert out and err == ""
        return
    refused_lines(status, out, err, "t.toml")
    assert all(re.match(r"t\.toml( line \d+)?: ", line) for line in err.splitlines()), err


@settings(FUZZ, max_examples=FUZZ_EXAMPLES * 2)
@given(mutated_toml(PROFILE_TEXTS))
def test_parse_profile_raises_nothing_but_profile_errors(data):
    """Below the command: the loader every table command shares (sim, run, selftest)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return  # `load_profile` reads the file; the command-level fuzz covers this case
    try:
        profile = parse_profile(text, source="t.toml")
    except ProfileError as err:
        assert err.problems and all(reason for _, reason in err.problems)
    else:
        assert all(isinstance(s, str) for s in profile.missing())
