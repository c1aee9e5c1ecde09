"""The one control loop and the one clock."""

import threading

import pytest

from hal import MonotonicClock, VirtualClock
from shooter.loop import ControlLoop


def test_timers_run_in_deadline_order_and_time_jumps_in_virtual_time():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    seen = []
    clock.call_later(0.3, lambda: seen.append(("b", clock.now())))
    clock.call_later(0.1, lambda: seen.append(("a", clock.now())))
    loop.run_until_quiet()
    assert seen == [("a", 0.1), ("b", 0.3)]


def test_run_until_quiet_leaves_idle_timers_pending():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    fired = []
    clock.call_later(10.0, lambda: fired.append(1), idle=True)
    clock.call_later(1.0, lambda: fired.append(2))
    loop.run_until_quiet()
    assert fired == [2] and clock.now() == 1.0
    assert len(clock.pending()) == 1


def test_run_for_runs_idle_timers_that_fall_due():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    fired = []
    clock.call_later(10.0, lambda: fired.append(1), idle=True)
    loop.run_for(12.0)
    assert fired == [1] and clock.now() == 12.0


def test_a_cancelled_timer_never_runs():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    fired = []
    timer = clock.call_later(1.0, lambda: fired.append(1))
    timer.cancel()
    loop.run_until_quiet()
    assert fired == []


def test_posted_work_runs_before_time_moves():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    seen = []
    clock.call_later(1.0, lambda: seen.append("timer"))
    loop.post(lambda: seen.append(("posted", clock.now())))
    loop.run_until_quiet()
    assert seen == [("posted", 0.0), "timer"]


def test_an_exception_goes_to_the_fail_safe_and_the_loop_goes_on():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    errors, seen = [], []
    loop.on_error = errors.append
    loop.post(lambda: 1 / 0)
    loop.post(lambda: seen.append("next"))
    loop.run_until_quiet()
    assert isinstance(errors[0], ZeroDivisionError) and seen == ["next"]


def test_a_loop_that_never_settles_is_reported():
    clock = VirtualClock()
    loop = ControlLoop(clock)

    def again():
        clock.call_later(1.0, again)
    again()
    with pytest.raises(RuntimeError, match="did not settle"):
        loop.run_until_quiet(limit=50)


def test_real_time_loop_serves_posts_from_other_threads_and_stops():
    loop = ControlLoop(MonotonicClock())
    seen = []
    thread = threading.Thread(target=lambda: [loop.post(lambda i=i: seen.append(i)) for i in range(100)]
                              + [loop.post(loop.stop)])
    thread.start()
    loop.run_forever()  # returns once the posted stop has run; no sleeping anywhere
    thread.join()
    assert seen == list(range(100))


def test_virtual_only_methods_refuse_a_real_clock():
    with pytest.raises(RuntimeError):
        ControlLoop(MonotonicClock()).run_until_quiet()
    with pytest.raises(RuntimeError):
        ControlLoop(VirtualClock()).run_forever()
