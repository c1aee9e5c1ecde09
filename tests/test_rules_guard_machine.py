"""Guards for the table's phase diagram (shooter/table/machine.py, the ninth mutation run).

``uno-shooter diagram`` prints ``table_diagram()``; docs/rules.md holds its text (tests/test_docs.py compares the
two). It is mermaid text drawn by transitions' mermaid backend: graphviz is not one of the project's
dependencies, and transitions tries it, with a warning on the log, for any engine but mermaid.
"""

from __future__ import annotations

import logging

import pytest

from shooter.editions import COUNTING, EXTREME
from shooter.table import table_diagram


@pytest.mark.parametrize("family", [EXTREME, COUNTING])
def test_the_phase_diagram_is_drawn_as_mermaid_without_trying_graphviz(family: str, caplog) -> None:
    with caplog.at_level(logging.DEBUG):
        text = table_diagram(family)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert text.startswith("---\nTable phases\n---\nstateDiagram-v2\n")
