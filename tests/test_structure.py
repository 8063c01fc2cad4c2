"""structure.py (`python3 dev.py structure`): the import graph, its circles, the report.

tests/test_import_cycles.py applies it to the tree."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("structure", ROOT / "structure.py")
assert _spec is not None and _spec.loader is not None
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for package in structure.PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").touch()
    return tmp_path


def test_a_circle_through_a_relative_and_a_late_import_is_found(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "engine/game/__init__.py": "",
            "engine/game/rules.py": "from .screens import draw\n",
            "engine/game/screens.py": "def draw():\n    from engine.game import rules\n",
            "engine/game/alone.py": "from engine.game import rules\n",
        },
    )
    graph = structure.import_graph(root)
    assert graph["engine.game.screens"] == {"engine.game.rules"}
    assert structure.circles(graph) == [["engine.game.rules", "engine.game.screens"]]


def test_a_submodule_imported_from_its_package_is_not_the_package(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "firmware/screens/__init__.py": "from firmware.screens.render import draw\n",
            "firmware/screens/render.py": "from firmware.screens import fonts\n",
            "firmware/screens/fonts.py": "",
        },
    )
    assert structure.circles(structure.import_graph(root)) == []
    # ...but a name the package itself defines is an import of the package:
    (root / "firmware/screens/render.py").write_text("from firmware.screens import draw\n")
    assert structure.circles(structure.import_graph(root)) == [
        ["firmware.screens", "firmware.screens.render"]
    ]


def test_the_report_names_the_counts_and_the_biggest_files() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "structure.py")], capture_output=True, text=True, check=True
    ).stdout
    modules = structure.modules(ROOT)
    assert out.startswith(f"modules: {len(modules)} (engine ")
    biggest = max(modules.values(), key=lambda p: len(p.read_text().splitlines()))
    assert str(biggest.relative_to(ROOT)) in out.splitlines()[2]
    found = structure.circles(structure.import_graph(ROOT))
    assert f"import circles: {len(found)}" in out
