#!/usr/bin/env python3
"""The shape of the tree: how many modules, the biggest files, and any import circles.

    python3 dev.py structure          # engine/, hardware/, firmware/ of this checkout
    python3 structure.py PATH         # another checkout (standard library only)

An import circle is a set of modules that reach each other through imports (a strongly
connected component of the import graph, counting imports inside functions too: a circle
hidden behind a late import is still one). `from package import submodule` counts as an
import of the submodule, not of the package. tests/test_structure.py keeps the tree free of
them.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGES = ("engine", "hardware", "firmware")


def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the three packages."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names = [f"{module}.{alias.name}" for alias in node.names]
            submodules = [n for n in names if n in known]
            yield from submodules
            if len(submodules) < len(names):
                yield module


def import_graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {
        name: {t for t in _imported(name, path, known) if t in known and t != name}
        for name, path in known.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
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
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def report(root: Path, biggest: int = 8) -> str:
    known = modules(root)
    lines = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in known.items()
    }
    per_package = {p: sum(1 for name in known if name.split(".")[0] == p) for p in PACKAGES}
    counts = ", ".join(f"{package} {count}" for package, count in per_package.items())
    out = [f"modules: {len(known)} ({counts}), {sum(lines.values())} lines", "biggest files:"]
    for name, count in sorted(lines.items(), key=lambda item: (-item[1], item[0]))[:biggest]:
        out.append(f"  {count:5d}  {known[name].relative_to(root)}")
    graph = import_graph(root)
    found = circles(graph)
    out.append(f"import circles: {len(found)}")
    for component in found:
        out.append("  " + " <-> ".join(component))
        members = set(component)
        for name in component:
            out.extend(f"      {name} -> {target}" for target in sorted(graph[name] & members))
    return "\n".join(out)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent))
