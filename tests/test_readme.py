"""The README's promise: exactly two set-up commands at the top (run the table; run the
tests), and CI runs the very test command written there."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_two_setup_commands_before_the_first_section():
    top = README.split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)\n```", top, flags=re.S)
    assert blocks == ["python3 dev.py sim", "python3 dev.py test"]


def test_ci_reads_the_test_command_from_the_readme():
    done = subprocess.run(
        ["awk", "/<!-- test-command -->/{getline; getline; print; exit}", "README.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "python3 dev.py test"
    assert "README.md" in (ROOT / ".ci" / "run").read_text()


def test_every_subcommand_is_in_the_readme():
    from firmware.cli import COMMANDS

    for name in COMMANDS:
        assert f"| `{name}" in README or f"/ `{name}`" in README, name
