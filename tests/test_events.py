"""The broadcast stamps every event with ``stamp`` and keeps the wire order: event, time, then the fields."""

import pytest

from hal import VirtualClock
from shooter.events import Broadcast, stamp

AWKWARD_TIMES = [0.0, 0.65, 1 / 3, 2.0000004, 2.0000005, 12345.6789015, 86399.9999995, 0.1 + 0.2]


@pytest.mark.parametrize("t", AWKWARD_TIMES)
def test_an_emitted_event_is_stamped_as_stamp_says(t):
    clock = VirtualClock(start=t)
    events = Broadcast(clock)
    got = []
    events.add(got.append)
    events.emit("press", source="button")
    assert got == [{"event": "press", "t": stamp(t), "source": "button"}]


@pytest.mark.parametrize("t", AWKWARD_TIMES)
def test_a_rules_event_is_stamped_as_stamp_says(t):
    clock = VirtualClock(start=t)
    events = Broadcast(clock)
    got = []
    events.add(got.append)
    events.emit_event({"event": "turn", "seat": 2})
    assert got == [{"event": "turn", "t": stamp(t), "seat": 2}]
    assert list(got[0]) == ["event", "t", "seat"]  # the wire order: event, time, then the fields
