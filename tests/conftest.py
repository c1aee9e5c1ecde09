"""Shared fixtures: the real hardware layer on the simulator's pins, in virtual time.

Nothing here mocks our own classes: the gpiozero devices of ``hal`` run on
``sim``'s pin factory, and the world model drives and reads those pins.
"""

from __future__ import annotations

import io
import json

import pytest

from hal import Hardware, HardwareSettings, VirtualClock
from shooter.loop import ControlLoop
from sim import ShooterWorld, SimFactory


class Rig:
    """Clock, loop, simulated pins and world, and the hardware layer on them."""

    def __init__(self, settings: HardwareSettings = HardwareSettings(), cards: int = 50, seed: int = 1):
        self.clock = VirtualClock()
        self.loop = ControlLoop(self.clock)
        self.factory = SimFactory(self.clock)
        self.world = ShooterWorld(self.factory, settings.pins, seed=seed, cards=cards,
                                  exit_active_low=settings.inputs.exit_active_low,
                                  rest_time=settings.motor.rest_time)
        self.hw = Hardware(settings, clock=self.clock, post=self.loop.post, pin_factory=self.factory)
        self.loop.run_until_quiet()

    def pin(self, name: str):
        return self.factory.sim_pin(getattr(self.hw.settings.pins, name))

    def motor_pins_on(self) -> bool:
        return self.pin("motor_forward").state > 0 or self.pin("motor_backward").state > 0

    def settle(self):
        self.loop.run_until_quiet()

    def wait(self, seconds: float):
        self.loop.run_for(seconds)


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.hw.close()


@pytest.fixture
def make_rig():
    made = []

    def make(**kwargs):
        r = Rig(**kwargs)
        made.append(r)
        return r
    yield make
    for r in made:
        r.hw.close()


def run_console(lines, *, seed: int = 1, config=None, state_dir=None, exit_sensor: bool = True) -> list[dict]:
    """Run the stdio console in virtual time in-process, as the CLI does; returns every JSON object written."""
    from shooter.app import App
    from shooter.config import parse_config
    from shooter.consoles import stream_sink

    out = io.BytesIO()
    with App(config or parse_config({}), sim=True, virtual=True, seed=seed, state_dir=state_dir,
             exit_sensor=exit_sensor, log=lambda m: None) as app:
        sink = stream_sink(out)
        app.controller.add_sink(sink)
        app.loop.run_until_quiet()
        for line in lines:
            app.loop.post(lambda line=line: app.controller.handle_line(line, sink))
            app.loop.run_until_quiet()
    return [json.loads(x) for x in out.getvalue().decode("utf-8").splitlines()]


@pytest.fixture
def console():
    return run_console


def pytest_terminal_summary(terminalreporter):
    """The fault suite's table (python -m pytest -m faults): tried, survived, data lost per kind."""
    import sys
    module = sys.modules.get("tests.test_faults")
    if module is None or not module.RESULTS:
        return
    terminalreporter.section("fault suite")
    for result in module.RESULTS:
        terminalreporter.write_line(result.row())


def pytest_sessionstart(session):
    """Under mutmut, a mutant of the built-in records' code: build them again with it on (tests/mutmut_editions.py)."""
    from tests import mutmut_editions
    if mutmut_editions.mutant().startswith(mutmut_editions.MUTANTS):
        mutmut_editions.rebuild()


def pytest_runtest_setup(item):
    """Under mutmut's stats, the tests run against those mutants reach the code that builds the records."""
    from tests import mutmut_editions
    if mutmut_editions.mutant() == "stats" and item.nodeid.startswith(mutmut_editions.TESTS):
        mutmut_editions.rebuild()
