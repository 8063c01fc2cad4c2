"""The suite's one switch for rewriting stored expectations: `ARCANA_REGENERATE=1`.

    from regenerate import regenerating, rewrote
    if regenerating():
        path.write_text(new_text)
        rewrote(path.name)      # fails the test on purpose, saying what to do next

Recorded Arcana games, Res Arcana playthroughs, screen reference images and display byte
baselines are all rewritten by a run with ARCANA_REGENERATE=1, and that run fails on purpose
(luma.oled's practice): a new expectation is accepted by reading its diff, never by a run
that happened to pass. The variables each of them once had are refused by name
(`tests/conftest.py`), so an old habit cannot pass silently without regenerating.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NoReturn

import pytest

VARIABLE = "ARCANA_REGENERATE"
RETIRED = ("ARCANA_REGENERATE_FIXTURES", "RES_ARCANA_REGENERATE", "ARCANA_REGENERATE_BASELINES")


def regenerating(environ: Mapping[str, str] = os.environ) -> bool:
    """True when this run rewrites stored expectations (ARCANA_REGENERATE=1)."""
    return environ.get(VARIABLE) == "1"


def rewrote(what: str) -> NoReturn:
    """Fail the test on purpose after rewriting `what` (a file or a folder)."""
    pytest.fail(f"regenerated {what}: review the diff, then run again without {VARIABLE}=1")


def retired_switches(environ: Mapping[str, str] = os.environ) -> str | None:
    """A sentence naming old regeneration variables that are set, or None."""
    found = [name for name in RETIRED if name in environ]
    if not found:
        return None
    return f"{', '.join(found)} no longer regenerates anything: use {VARIABLE}=1"
