"""No import circles among our own modules, and each game's screens apart from its controller.

The graph is read from the source (every `import`, also inside functions and under
TYPE_CHECKING: a circle there is still two modules that cannot be read one without the
other). `from package import name` is an edge to the submodule `package.name` when there is
one, else to the package itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "hardware", "firmware")

# Circles that stand today, each with why it is not removed here. Remove the entry when the
# circle goes (the test fails while a listed circle no longer exists, to keep the list true).
HARDWARE_BUSES = ("hardware.buses", "hardware.buses.emulated", "hardware.buses.pi")
KNOWN_CIRCLES = {
    frozenset({*HARDWARE_BUSES, "hardware.profile"}): (
        "the bus factory in hardware/buses/__init__.py opens its emulated or Pi implementation"
        " lazily, which import its ReaderWires back; hardware/profile.py takes KINDS from"
        " hardware.buses and the factory names the profile's specs: the split of profile.py is"
        " item 4 of issue 14"
    ),
}


def modules() -> dict[str, Path]:
    """Every module of our packages by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module and the modules of ours it imports."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in known)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    if sub in known:
                        edges.add(sub)
                    elif node.module in known:
                        edges.add(node.module)
        edges.discard(name)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


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
