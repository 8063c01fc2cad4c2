"""Shared test set-up: the repository root, and the retired regeneration variables refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from regenerate import retired_switches

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    retired = retired_switches()
    if retired:
        raise pytest.UsageError(retired)


@pytest.fixture
def repo_root() -> Path:
    return ROOT
