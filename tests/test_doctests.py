"""The ``>>>`` examples in the docstrings of the hardware parts and the table engine run, on the
simulator's pins in virtual time: documentation that cannot go stale."""

import doctest
import importlib

import pytest

MODULES = ["hal.gpio", "hal.backstop", "hal.settings", "hal.motor", "hal.inputs", "hal.servo", "hal.beeper",
           "hal.hardware", "shooter.events", "shooter.table.table"]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False, report=True)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
