"""shooter/'s rooms (docs/design.md, "The layout of the repository"): every folder says what lives in it, and the
imports run one way, down from what drives the controller to what the controller drives.

The controller is driven from above by a few modules: the composition root that builds it, the command table
that names its own commands, the consoles and the web server that carry lines to it, the camera's feed that
posts reads to it, and the CLI. Everything the controller reaches (its parts, the table's rules, the launcher,
the recogniser) imports none of those: a part that imported a driver would run back up."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.test_import_graph import ROOT, import_graph

# The modules that drive the controller, and why each may import it.
DRIVERS = {
    "shooter.app": "the composition root: builds the controller from the config",
    "shooter.cli": "the command line: starts the app, or the bare parts for bring-up",
    "shooter.commands.table": "the command table: names the controller's own commands (help, status, press)",
    "shooter.consoles.terminal": "a console: carries a person's lines to the controller",
    "shooter.web.server": "the web console: carries the page's lines to the controller",
    "shooter.camera.pile_camera": "the camera's feed: posts each read of the pile to the controller",
}


def reach(graph: dict[str, dict[str, int]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for target in graph.get(todo.pop(), {}):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph()


def test_only_the_drivers_import_the_controller(graph):
    importers = {name: targets["shooter.controller"] for name, targets in graph.items()
                 if "shooter.controller" in targets}
    assert set(importers) <= set(DRIVERS), {name: line for name, line in importers.items() if name not in DRIVERS}


def test_nothing_the_controller_reaches_imports_a_driver(graph):
    below = reach(graph, "shooter.controller")
    assert "shooter.controller" not in below
    runs_back_up = {name: sorted(set(graph[name]) & set(DRIVERS)) for name in below if set(graph[name]) & set(DRIVERS)}
    assert not runs_back_up


def test_every_driver_is_a_module_that_exists(graph):
    # a driver renamed or moved must leave this table, or the rule above would pass for a module that is gone
    assert set(DRIVERS) <= set(graph)


def test_every_room_says_what_lives_in_it():
    for init in sorted((ROOT / "shooter").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 8, f"{init.relative_to(ROOT)}: no docstring saying what lives here"


def test_the_hall_holds_the_core_and_no_room_of_its_own():
    # the rooms of issue 34: the camera's wiring, the bot games and the commands each live in their folder
    hall = {p.stem for p in (ROOT / "shooter").glob("*.py")}
    for prefix in ("pile_", "simulate", "frame_", "camera_", "cards_"):
        assert not {name for name in hall if name.startswith(prefix)}, prefix
    assert not {name for name in hall if name.endswith("_commands")}
    assert len(hall) <= 25, sorted(hall)


def test_the_design_document_names_every_room():
    design = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    rooms = sorted(p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "shooter").glob("*/__init__.py"))
    missing = [room for room in rooms if f"{Path(room).name}/" not in design]
    assert not missing
