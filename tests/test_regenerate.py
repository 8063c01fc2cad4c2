"""The suite's one regeneration switch (`tests/support/regenerate.py`)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from regenerate import RETIRED, VARIABLE, regenerating, retired_switches, rewrote


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({VARIABLE: "1"}, True),
        ({VARIABLE: "0"}, False),
        ({VARIABLE: ""}, False),
        ({VARIABLE: "yes"}, False),
        ({}, False),
        ({"ARCANA_REGENERATE_FIXTURES": "1"}, False),
    ],
)
def test_only_arcana_regenerate_1_regenerates(environ, expected):
    assert regenerating(environ) is expected


def test_a_regeneration_fails_the_test_on_purpose_and_says_how_to_go_on():
    with pytest.raises(pytest.fail.Exception) as failure:
        rewrote("baseline ssd1306_init.json")
    message = str(failure.value)
    assert "regenerated baseline ssd1306_init.json" in message
    assert f"without {VARIABLE}=1" in message


@pytest.mark.parametrize("old", RETIRED)
def test_an_old_regeneration_variable_is_named_with_the_one_to_use(old):
    assert retired_switches({old: "1"}) == f"{old} no longer regenerates anything: use {VARIABLE}=1"
    assert retired_switches({VARIABLE: "1"}) is None


def test_a_run_with_an_old_variable_stops_before_any_test(repo_root, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "RES_ARCANA_REGENERATE": "1"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--co",
            "-q",
            "tests/engine/resarcana/test_playthroughs.py",
        ],
        cwd=repo_root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == pytest.ExitCode.USAGE_ERROR, run.stdout + run.stderr
    assert "RES_ARCANA_REGENERATE no longer regenerates anything: use ARCANA_REGENERATE=1" in (
        run.stderr
    )
