"""No import circles in hal/, sim/ and shooter/: every import counts (at module level, inside a function, under
``TYPE_CHECKING``), so that a circle cut at run time by a lazy or a typing-only import still fails here, named.

The graph is read from the source (the AST), as grimp reads it: an import of ``pkg.mod`` is an edge to that
module (the most specific one that exists), ``from pkg import name`` an edge to the submodule ``pkg.name`` if
there is one, else to ``pkg``. Layers: hal/ imports nothing of the shooter or the simulator, and sim/ nothing of
the shooter (its world is driven by shooter/ only through shooter.commands.simulator)."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hal", "sim", "shooter")


def modules(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Every module of the packages: its dotted name -> (file, is a package's __init__)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imports_of(name: str, path: Path, is_package: bool, known: set[str]) -> dict[str, int]:
    """The modules of ``known`` that module ``name`` imports anywhere in its source -> the first line doing so."""
    def most_specific(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if is_package else name.rpartition(".")[0]
    targets: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found = [most_specific(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            found = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else most_specific(origin)
                     for alias in node.names]
        else:
            continue
        for target in found:
            if target is not None and target != name:
                targets.setdefault(target, node.lineno)
    return targets


def import_graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    mods = modules(root)
    return {name: imports_of(name, path, is_package, set(mods)) for name, (path, is_package) in mods.items()}


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
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
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
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
    return found


def cycle_in(graph: dict[str, dict[str, int]], component: list[str]) -> list[str]:
    """One circle through the component's first module, as a path back to it (for the failure message)."""
    members, start = set(component), component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    return paths[node] + [start]
                if child in members and child not in paths:
                    paths[child] = paths[node] + [child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"{component} is no circle")  # pragma: no cover - a component always has one


def describe(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(cycle)) + f" -> {cycle[-1]}"


def test_there_is_no_import_circle_typing_imports_included():
    graph = import_graph()
    assert len(graph) > 50 and "shooter.controller" in graph["shooter.app"]   # the graph was read
    found = [describe(graph, cycle_in(graph, component)) for component in circles(graph)]
    assert not found, "import circles:\n" + "\n".join(found)


def test_hal_imports_nothing_above_it_and_sim_nothing_of_the_shooter():
    graph = import_graph()
    for name, targets in graph.items():
        above = {"hal": ("shooter", "sim"), "sim": ("shooter",)}.get(name.partition(".")[0], ())
        assert not [t for t in targets if t.partition(".")[0] in above], f"{name} imports {sorted(targets)}"


@pytest.mark.parametrize("how", ["module level", "in a function", "under TYPE_CHECKING"])
def test_a_circle_is_found_however_the_import_is_written(tmp_path, how):
    """The check itself: two modules importing each other, one of them in each way the shooter's code writes
    imports, make a circle named in the message."""
    lines = {"module level": "from . import a\n",
             "in a function": "def f():\n    from .a import X\n",
             "under TYPE_CHECKING": ("from typing import TYPE_CHECKING\n"
                                     "if TYPE_CHECKING:\n    from shooter.a import X\n")}
    package = tmp_path / "shooter"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import Y\nX = 1\n")
    (package / "b.py").write_text(lines[how] + "Y = 2\n")
    for other in ("hal", "sim"):
        (tmp_path / other).mkdir()
        (tmp_path / other / "__init__.py").write_text("")
    graph = import_graph(tmp_path)
    assert circles(graph) == [["shooter.a", "shooter.b"]]
    assert describe(graph, cycle_in(graph, ["shooter.a", "shooter.b"])).startswith("shooter.a (line 1) -> shooter.b")
