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


def test_an_idle_real_time_loop_sleeps_until_woken_not_on_a_poll(mocker):
    loop = ControlLoop(MonotonicClock())
    waits = []

    def sleep(poller, timeout):
        waits.append(timeout)
        loop.post(loop.stop)  # what a console thread would do: the post wakes the loop
    mocker.patch.object(loop, "_sleep", side_effect=sleep)
    loop.run_forever()
    assert waits == [None]  # nothing pending: no timeout at all, so no wake-ups while idle


def test_a_real_time_loop_sleeps_exactly_until_its_next_timer(mocker):
    clock = MonotonicClock()
    loop = ControlLoop(clock)
    waits = []
    clock.call_later(30.0, lambda: None, idle=True, name="watchdog")

    def sleep(poller, timeout):
        waits.append(timeout)
        loop.stop()
    mocker.patch.object(loop, "_sleep", side_effect=sleep)
    loop.run_forever()
    assert len(waits) == 1 and 29.0 < waits[0] <= 30.0


def test_a_signal_taken_by_another_thread_wakes_the_sleeping_loop_and_its_handler_runs():
    # The case behind a rare hang on exit: the kernel delivers SIGTERM to a console thread, and the
    # loop's thread must still wake up (through the wake-up pipe) and run the Python handler.
    import signal
    clock = MonotonicClock()
    loop = ControlLoop(clock)
    stopped_by = []

    def handler(signum, frame):
        stopped_by.append("signal")
        loop.stop()  # straight from the handler: the wake-up path takes no lock
    guard = clock.call_later(10.0, lambda: (stopped_by.append("guard"), loop.stop()))  # only if broken
    ready = threading.Event()

    def other_thread():
        ready.wait()
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # to this thread, not the loop's
    sender = threading.Thread(target=other_thread)
    sender.start()   # before the mask below: the sender may take the signal, the loop's thread may not
    old_handler = signal.signal(signal.SIGUSR1, handler)
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    try:
        loop.post(ready.set)
        loop.run_forever()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        signal.signal(signal.SIGUSR1, old_handler)
        sender.join()
    guard.cancel()
    assert stopped_by == ["signal"]


def test_posts_in_virtual_time_need_no_wake_up():
    loop = ControlLoop(VirtualClock())
    seen = []
    loop.post(lambda: seen.append(1))
    loop.stop()  # harmless in virtual time
    loop.run_until_quiet()
    assert seen == [1] and loop._wake_w == -1  # no pipe: nothing to write to


def test_quiescence_is_known_without_scanning_the_timers():
    clock = VirtualClock()
    t1 = clock.call_later(1.0, lambda: None)
    clock.call_later(5.0, lambda: None, idle=True)
    t2 = clock.call_later(2.0, lambda: None)
    assert clock.next_deadline(include_idle=False) == 1.0
    t1.cancel()
    t1.cancel()  # twice: counted once
    assert clock.next_deadline(include_idle=False) == 2.0
    t2.cancel()
    assert clock.next_deadline(include_idle=False) is None and clock.next_deadline() == 5.0


def test_the_real_time_loop_keeps_start_up_objects_out_of_the_collectors_way():
    import gc
    loop = ControlLoop(MonotonicClock())
    frozen = []
    loop.post(lambda: frozen.append(gc.get_freeze_count()))
    loop.post(loop.stop)
    loop.run_forever()
    assert frozen[0] > 0 and gc.get_freeze_count() == 0  # frozen while serving, thawed on the way out
