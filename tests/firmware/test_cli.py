"""The `arcana-table` command line: every subcommand listed, unimplemented ones exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from firmware import cli

SUBCOMMANDS = ["replay", "demo", "sim", "run", "enroll", "selftest", "export", "bench"]


def test_help_lists_every_subcommand():
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "--help"], capture_output=True, text=True, check=True
    )
    for name in SUBCOMMANDS:
        assert f"    {name} " in done.stdout or f"    {name}\n" in done.stdout, name
        assert cli.COMMANDS[name][1] in " ".join(done.stdout.split())


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_each_subcommand_has_its_own_help(name, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main([name, "--help"])
    assert stop.value.code == 0
    assert cli.COMMANDS[name][1] in " ".join(capsys.readouterr().out.split())


def test_a_subcommand_without_a_module_says_so_and_exits_2(monkeypatch, capsys):
    monkeypatch.setitem(cli.COMMANDS, "levitate", ("levitate", "float the table"))
    assert cli.main(["levitate", "--now"]) == 2
    assert "arcana-table levitate: not implemented yet" in capsys.readouterr().err


def test_no_subcommand_prints_help_and_exits_2(capsys):
    assert cli.main([]) == 2
    assert "replay" in capsys.readouterr().out


def test_the_console_script_is_installed():
    from importlib.metadata import entry_points

    (script,) = [ep for ep in entry_points(group="console_scripts") if ep.name == "arcana-table"]
    assert script.value == "firmware.cli:main"
