"""The ``>>>`` examples in the docstrings (the hardware parts, the table engine, the simulator) run, on the
simulator's pins in virtual time: documentation that cannot go stale. Every module that has one is run,
so an example added anywhere is tested without a list to keep."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(".".join(path.relative_to(ROOT).with_suffix("").parts)
                 for package in ("hal", "shooter", "sim") for path in (ROOT / package).rglob("*.py")
                 if ">>> " in path.read_text(encoding="utf-8"))


def test_the_parts_people_build_on_have_examples():
    for name in ("hal.gpio", "hal.motor", "hal.inputs", "hal.servo", "shooter.table.table", "sim.magazine"):
        assert name in MODULES, name


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False, report=True)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
