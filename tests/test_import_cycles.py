"""No import circles among our own modules, and each game's screens apart from its controller.

The graph and the circle finder are structure.py's (`python3 dev.py structure` prints them).

The graph is read from the source (every `import`, also inside functions and under
TYPE_CHECKING: a circle there is still two modules that cannot be read one without the
other). `from package import name` is an edge to the submodule `package.name` when there is
one, else to the package itself.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("structure", ROOT / "structure.py")
assert _spec is not None and _spec.loader is not None
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)

# Circles that stand today, each with why it is not removed here. Remove the entry when the
# circle goes (the test fails while a listed circle no longer exists, to keep the list true).
KNOWN_CIRCLES: dict[frozenset[str], str] = {}


def import_graph() -> dict[str, set[str]]:
    return structure.import_graph(ROOT)


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    return [frozenset(circle) for circle in structure.circles(graph)]


def test_the_circle_finder_finds_a_circle_and_only_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [frozenset({"a", "b", "c"})]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_but_the_listed_ones():
    found = set(circles(import_graph()))
    new = [sorted(circle) for circle in found if circle not in KNOWN_CIRCLES]
    assert new == [], "import circles: break them (a value passed in, not the module imported)"
    gone = [sorted(circle) for circle in KNOWN_CIRCLES if circle not in found]
    assert gone == [], "these listed circles are gone: remove them from KNOWN_CIRCLES"


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for successor in graph[todo.pop()]:
            if successor not in seen:
                seen.add(successor)
                todo.append(successor)
    return seen


def test_each_games_screens_take_values_and_never_reach_its_controller():
    graph = import_graph()
    for game in ("arcana", "resarcana"):
        package = f"firmware.controllers.{game}"
        for job in ("controller", "screens", "seating", "bot"):
            assert f"{package}.{job}" in graph, f"{package} has no {job} module"
        assert f"{package}.screens" in graph[f"{package}.controller"]
        assert f"{package}.controller" not in reachable(graph, f"{package}.screens")
