"""The rooms' import rules (../shared/design/ARCHITECTURE.md), checked by walking imports.

- engine/ imports only the standard library and engine itself.
- hardware/ imports nothing from firmware/ (nor from engine/: it knows nothing of games).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUR_PACKAGES = {"engine", "hardware", "firmware"}


def imported_modules(source: str) -> set[str]:
    """Top-level names of every module imported anywhere in the source (also inside functions)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


def violations(room: str, allowed) -> list[str]:
    found = []
    for path in sorted((ROOT / room).rglob("*.py")):
        for name in sorted(imported_modules(path.read_text(encoding="utf-8"))):
            if not allowed(name):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    return found


def engine_may_import(name: str) -> bool:
    return name == "engine" or (name in sys.stdlib_module_names and name not in OUR_PACKAGES)


def hardware_may_import(name: str) -> bool:
    return name not in {"firmware", "engine"}


def test_engine_imports_only_the_standard_library():
    assert violations("engine", engine_may_import) == []


def test_hardware_imports_nothing_from_firmware_or_engine():
    assert violations("hardware", hardware_may_import) == []


@pytest.mark.parametrize(
    ("source", "offender"),
    [
        ("import hardware.nfc\n", "hardware"),
        ("from firmware import cli\n", "firmware"),
        ("def f():\n    import PIL.Image\n", "PIL"),
        ("import importlib\nimportlib.import_module('hardware.display')\n", "hardware"),
        ("from gpiozero import Button\n", "gpiozero"),
    ],
)
def test_the_walk_catches_forbidden_engine_imports(source, offender):
    names = imported_modules(source)
    assert offender in names
    assert not engine_may_import(offender)


def test_the_walk_accepts_standard_library_and_relative_imports():
    names = imported_modules("import json\nfrom . import rules\nfrom engine.records import load\n")
    assert names == {"json", "engine"}
    assert all(engine_may_import(name) for name in names)
