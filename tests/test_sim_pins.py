"""The simulator's pins: memory stays flat however long a session runs."""

from hal import VirtualClock
from sim import SimFactory


def _toggle(pin, clock, times):
    pin.output_with_state(0)
    for i in range(times):
        clock.advance_to(clock.now() + 0.001)
        pin.state = i % 2


def test_a_pin_remembers_only_its_last_changes():
    clock = VirtualClock()
    factory = SimFactory(clock, history_limit=100)
    pin = factory.sim_pin(5)
    _toggle(pin, clock, 1000)
    assert len(pin.history) == 100 and len(pin.states) == 100
    assert pin.history[-1] == (clock.now(), 1.0)  # the newest change is kept


def test_a_test_that_wants_every_change_can_have_them():
    clock = VirtualClock()
    factory = SimFactory(clock, history_limit=None)
    pin = factory.sim_pin(5)
    _toggle(pin, clock, 1000)
    assert len(pin.history) >= 1000
