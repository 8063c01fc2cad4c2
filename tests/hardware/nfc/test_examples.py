"""The examples in the NFC modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["tags", "emulator", "reader", "scanner", "bench"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(f"hardware.nfc.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
