"""Commands refuse bad arguments and unusable profiles with one sentence and exit 2, before
anything is created (issue 11): `sim --port -1`, a state directory that cannot be made,
a profile without pads or screens (`sim`, `run`; `selftest` reports it as a fault)."""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from firmware import cli

ROOT = Path(__file__).resolve().parents[2]
NO_PADS = '[[buttons]]\nrole = "ok"\npin = 5\n'
NO_SCREENS = '[[readers]]\nrole = "main"\ninterface = "i2c"\n'


def arcana_table(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = cli.main(list(args))
    return status, out.getvalue(), err.getvalue()


def one_sentence(err: str, start: str) -> None:
    assert err.startswith(start) and err.count("\n") == 1 and err.endswith("\n"), err


@pytest.mark.parametrize("port", ["-1", "65536", "99999999999999999999", "http"])
def test_sim_refuses_a_port_out_of_range(tmp_path, capsys, port):
    with pytest.raises(SystemExit) as stop:
        cli.main(["sim", "--port", port, "--state-dir", str(tmp_path / "s")])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    one_sentence(
        err, f"arcana-table sim: argument --port: '{port}' is not a whole number from 0 to 65535"
    )
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["selftest", "--button-timeout", "nan"],
         "arcana-table selftest: argument --button-timeout: 'nan' is not a number of seconds"),
        (["bench", "engine", "--seconds", "-1"],
         "arcana-table bench engine: argument --seconds: '-1' is not a number of seconds above 0"),
        (["catalog", "playtest", "--players", "2,x"],
         "arcana-table catalog playtest: argument --players: '2,x' is not a list of whole"),
        (["catalog", "playtest", "--games", "0"],
         "arcana-table catalog playtest: argument --games: '0' is not a whole number from 1"),
        (["export", "abc"], "arcana-table export: argument game: invalid int value: 'abc'"),
        (["levitate"], "arcana-table: argument COMMAND: invalid choice: 'levitate'"),
    ],
)  # fmt: skip
def test_a_wrong_argument_is_one_line_and_exit_2(capsys, args, expected):
    with pytest.raises(SystemExit) as stop:
        cli.main(args)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    one_sentence(err, expected)
    assert err.rstrip().endswith("--help)")


@pytest.mark.parametrize("command", [["sim", "--port", "0"], ["demo", "--quiet"]])
def test_a_state_directory_that_cannot_be_made_is_one_sentence(tmp_path, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    status, out, err = arcana_table(*command, "--state-dir", str(blocker / "state"))
    assert (status, out) == (2, "")
    one_sentence(err, f"arcana-table {command[0]}: cannot create the state directory {blocker}")
    assert blocker.read_text() == "not a directory"


@pytest.mark.parametrize(
    ("body", "missing"),
    [(NO_PADS, "no [[readers]]: a table needs at least one pad"),
     (NO_SCREENS, "no [[displays]]: a table needs at least one screen")],
)  # fmt: skip
@pytest.mark.parametrize("command", [["sim", "--game", "arcana"], ["run", "--emulated"]])
def test_a_table_without_pads_or_screens_does_not_start(tmp_path, body, missing, command):
    profile = tmp_path / "bare.toml"
    profile.write_text(body)
    state = tmp_path / "state"
    status, out, err = arcana_table(*command, "--profile", str(profile), "--state-dir", str(state))
    assert (status, out) == (2, "")
    one_sentence(err, f"arcana-table {command[0]}: bare.toml has {missing}")
    assert not state.exists()  # nothing created, no READY=1


def test_selftest_of_a_profile_without_pads_or_screens_finds_faults(tmp_path):
    profile = tmp_path / "bare.toml"
    profile.write_text(NO_PADS)
    status, out, _ = arcana_table(
        "selftest", "--profile", str(profile), "--emulated", "--button-timeout", "0.5"
    )
    assert status == 1
    assert "all parts work" not in out
    assert "FAIL  profile: bare.toml has no [[readers]]: a table needs at least one pad" in out
    assert "FAIL  profile: bare.toml has no [[displays]]" in out
    assert out.splitlines()[-1] == "2 faults found"


def test_hostile_input_never_shows_a_traceback_in_a_real_process(tmp_path):
    """The same refusals in a process of their own, stderr read as the user sees it."""
    record = tmp_path / "r.jsonl"
    record.write_bytes(
        b'{"format": "arcana-table/record", "version": 1, "game": "arcana", "setup": '
        b'{"catalog": "sample", "players": [{"name": "A\\ud800", "guild": ["blades"]}]}}\n'
    )
    catalog = tmp_path / "c.toml"
    catalog.write_text("guilds.thieves = 5\ncards = " + "[" * 3000 + "]" * 3000 + "\n")
    for args in (["replay", str(record)], ["catalog", "check", str(catalog)],
                 ["sim", "--port", "-1"], ["demo", "--state-dir", str(record / "x")]):  # fmt: skip
        done = subprocess.run(
            [sys.executable, "-m", "firmware", *args], capture_output=True, text=True, cwd=ROOT
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip(), args


def test_enrolling_by_tap_needs_a_reader(tmp_path):
    profile = tmp_path / "bare.toml"
    profile.write_text(NO_PADS)
    status, out, err = arcana_table(
        "enroll", "--game", "arcana", "--emulated", "--profile", str(profile),
        "--state-dir", str(tmp_path / "state"), "m_agent_01",
    )  # fmt: skip
    assert (status, out) == (2, "")
    one_sentence(err, "arcana-table enroll: bare.toml has no [[readers]] to tap tags on")


def test_a_refusal_line_is_printable_and_bounded():
    from firmware.commands.refusal import LONGEST, printable

    assert printable("Ann\nBen\x1b[2J\ud800\u2028é") == "Ann\\nBen\\x1b[2J\\ud800\\u2028é"
    long = printable("x" * 10 * LONGEST)
    assert len(long) == LONGEST and long.endswith("...")


def test_export_to_a_path_that_cannot_be_written_is_one_sentence(tmp_path):
    state = tmp_path / "state"
    demo = [sys.executable, "-m", "firmware", "demo", "--quiet", "--state-dir", str(state)]
    subprocess.run(demo, capture_output=True, check=True, cwd=ROOT)
    blocker = tmp_path / "a-file"
    blocker.write_text("kept")
    status, out, err = arcana_table(
        "export", "-o", str(blocker / "game.jsonl"), "--state-dir", str(state)
    )
    assert (status, out) == (2, "")
    one_sentence(err, f"arcana-table export: cannot write {blocker / 'game.jsonl'} (Not a dir")
    assert blocker.read_text() == "kept"
