"""Safety that must not depend on the control loop being free: the lid cutting the motor on the
GPIO thread, the real-time backstop, and consoles that can never block the loop."""

import threading

from hal import Hardware, HardwareSettings, MonotonicClock, MotorSettings
from shooter.consoles import QueuedSink
from shooter.loop import ControlLoop
from sim import ShooterWorld, SimFactory


def test_the_lid_opening_cuts_the_motor_before_the_loop_runs(rig):
    rig.hw.motor.forward()
    rig.wait(0.05)
    rig.world.open_lid()          # the GPIO callback ran; nothing posted has been handled yet
    assert not rig.motor_pins_on()
    assert rig.world.unsafe_time() == 0.0


def test_emergency_stop_works_from_another_thread(rig):
    rig.hw.motor.forward()
    t = threading.Thread(target=rig.hw.motor.emergency_stop)
    t.start()
    t.join()
    assert not rig.motor_pins_on()


def test_with_a_real_clock_a_backstop_stops_the_motor_even_if_the_loop_never_runs():
    clock = MonotonicClock()
    loop = ControlLoop(clock)           # never run: as if the loop were stuck
    factory = SimFactory(clock)
    ShooterWorld(factory, seed=1)
    settings = HardwareSettings(motor=MotorSettings(max_on_time=0.1))
    stopped = threading.Event()
    pin = factory.sim_pin(settings.pins.motor_forward)
    pin.listeners.append(lambda p, value: value == 0 and stopped.set())
    with Hardware(settings, clock=clock, post=loop.post, pin_factory=factory) as hw:
        hw.motor.forward()
        assert pin.state > 0
        assert stopped.wait(5.0), "the backstop did not cut the motor"
        assert pin.state == 0


def test_a_console_that_stops_reading_never_blocks_the_loop():
    gate = threading.Event()
    written, overflowed = [], []

    def stuck_write(data):
        gate.wait(5.0)  # a Bluetooth link out of range
        written.append(data)
    sink = QueuedSink(stuck_write, name="test", limit=10, on_overflow=lambda: overflowed.append(1))
    for i in range(100):  # returns at once every time
        sink({"event": "x", "i": i})
    assert overflowed == [1] and not sink.alive and sink.dropped > 0
    gate.set()
    sink.close(wait=5.0)
    assert len(written) >= 10


def test_a_queued_sink_writes_everything_in_order_and_flushes_on_close():
    written = []
    sink = QueuedSink(written.append, name="test")
    for i in range(50):
        sink({"reply": "x", "i": i})
    sink.close(wait=5.0)
    assert [int(w.split(b'"i": ')[1].rstrip(b"}\n")) for w in written] == list(range(50))


def test_a_write_error_is_reported_and_does_not_kill_the_writer():
    errors, written = [], []

    def flaky(data):
        if not errors:
            errors.append(1)
            raise OSError("link lost")
        written.append(data)
    sink = QueuedSink(flaky, name="test", on_error=lambda exc: None)
    sink({"a": 1})
    sink({"a": 2})
    sink.close(wait=5.0)
    assert errors == [1] and written == [b'{"a": 2}\n']


def test_the_backstop_is_one_thread_for_all_runs_and_leaves_with_the_motor():
    # Arming it must not start a thread per run (that delayed every burst's switch-on by a thread's start).
    # The runs and their rests on virtual time; the backstop itself always watches wall time.
    from hal import VirtualClock
    from hal.inputs import GpioLid
    from hal.motor import GpioMotor
    clock = VirtualClock()
    factory = SimFactory(clock)
    world = ShooterWorld(factory, seed=1)
    pins = HardwareSettings().pins
    lid = GpioLid(pins.lid, clock=clock, post=lambda fn: fn(), close_debounce=0.3, pin_factory=factory)
    before = threading.active_count()
    motor = GpioMotor(pins.motor_forward, pins.motor_backward, lid=lid, clock=clock, pin_factory=factory,
                      backstop=True)
    try:
        during = threading.active_count()
        for _ in range(50):
            motor.forward()
            clock.advance_to(clock.now() + 0.05)
            motor.stop()
            clock.advance_to(clock.now() + 0.2)  # its rest
        assert world.longest_motor_run > 0 and threading.active_count() == during == before + 1
    finally:
        motor.close()
        lid.close()
    assert threading.active_count() == before


def test_a_run_stopped_in_time_is_never_cut_by_the_backstop():
    from hal.backstop import Backstop
    cut = threading.Event()
    backstop = Backstop(cut.set)
    try:
        backstop.arm(0.05)
        backstop.disarm()             # the loop stopped the run in time
        assert not cut.wait(0.15)
        backstop.arm(0.01)            # the next run is still watched
        assert cut.wait(5.0)
    finally:
        backstop.close()


class _WatchedLock:
    """The motor's lock, telling when another thread (the backstop's) starts waiting for it."""

    def __init__(self):
        self._lock = threading.RLock()
        self._owner = threading.current_thread()
        self.other_waiting = threading.Event()

    def __enter__(self):
        if threading.current_thread() is not self._owner:
            self.other_waiting.set()
        self._lock.acquire()
        return self

    def __exit__(self, *exc):
        self._lock.release()


def test_a_backstop_cut_due_for_a_run_that_ended_spares_the_next_run():
    # The backstop decides to cut, then waits for the motor's lock; meanwhile the loop ends that run and,
    # after its rest, starts the next one. The late cut must not stop a run that has barely begun.
    from hal import VirtualClock
    from hal.inputs import GpioLid
    from hal.motor import GpioMotor
    clock = VirtualClock()
    factory = SimFactory(clock)
    ShooterWorld(factory, seed=1)
    pins = HardwareSettings().pins
    lid = GpioLid(pins.lid, clock=clock, post=lambda fn: fn(), close_debounce=0.3, pin_factory=factory)
    motor = GpioMotor(pins.motor_forward, pins.motor_backward, lid=lid, clock=clock, pin_factory=factory,
                      settings=MotorSettings(max_on_time=0.05), backstop=True)
    lock = motor._lock = _WatchedLock()
    try:
        motor.forward()
        with lock:
            assert lock.other_waiting.wait(5.0), "the backstop never came to cut"
            clock.advance_to(0.04)
            motor.stop()                      # the loop ended the run in time after all
            clock.advance_to(1.0)             # its rest
            motor.forward()                   # the next run
        assert motor._backstop is not None
        motor._backstop.close()               # joins the backstop's thread: its late cut is done
        assert motor.direction == "forward" and factory.sim_pin(pins.motor_forward).state > 0
    finally:
        motor.close()
        lid.close()


def test_a_cut_that_fails_once_does_not_end_the_backstop_for_the_runs_after_it():
    from hal.backstop import Backstop
    failed, cut_again = threading.Event(), threading.Event()

    def cut():
        if not failed.is_set():
            failed.set()
            raise OSError("the pin write failed")
        cut_again.set()
    backstop = Backstop(cut)
    try:
        backstop.arm(0.0)
        assert failed.wait(5.0)
        backstop.arm(0.01)            # the next run
        assert cut_again.wait(5.0), "the backstop's thread died with the failed cut"
    finally:
        backstop.close()
