"""The motor's continuous run, its rest between runs and its thermal budget, enforced in hal
where it is switched on (issue 7, items 1 and 2)."""

import random

import pytest

from hal import HalError, HardwareSettings, InvalidValueError, MotorRestingError, MotorSettings, VirtualClock
from hal.motor import GpioMotor
from hal.settings import MAX_ON_TIME_CEILING
from sim import SimFactory


def on_intervals(rig):
    """(start, end) of every stretch the motor pins were on, from the simulator's pin history."""
    events = sorted([(t, "f", v) for t, v in rig.pin("motor_forward").history]
                    + [(t, "b", v) for t, v in rig.pin("motor_backward").history], key=lambda e: e[0])
    level, since, out = {"f": 0.0, "b": 0.0}, None, []
    for t, pin, v in events:
        level[pin] = v
        on = level["f"] > 0 or level["b"] > 0
        if on and since is None:
            since = t
        elif not on and since is not None:
            out.append((since, t))
            since = None
    if since is not None:
        out.append((since, rig.clock.now()))
    return out


def test_a_stop_shorter_than_the_rest_cannot_restart_the_on_time_count(rig):
    # A caller that switches off and on again at once, over and over (back-to-back bursts).
    motor, faults = rig.hw.motor, []
    motor.on_fault = faults.append
    refused = 0
    for _ in range(200):
        try:
            motor.forward()
        except MotorRestingError:
            refused += 1
        rig.wait(0.05)
        motor.stop()
    rig.settle()
    assert refused > 0
    assert rig.world.longest_motor_run <= rig.hw.settings.motor.max_on_time
    assert not rig.motor_pins_on()


def test_the_motor_refuses_to_start_during_its_rest_and_says_how_long_to_wait(rig):
    motor, rest = rig.hw.motor, rig.hw.settings.motor.rest_time
    motor.forward()
    rig.wait(0.5)
    motor.stop()
    assert motor.ready_in() == pytest.approx(rest)
    with pytest.raises(MotorRestingError):
        motor.backward()
    assert not rig.motor_pins_on()
    rig.wait(rest)
    assert motor.ready_in() == 0.0
    motor.forward()
    assert rig.motor_pins_on()


def test_a_change_of_direction_while_running_is_allowed_and_is_the_same_run(rig):
    motor, max_on = rig.hw.motor, rig.hw.settings.motor.max_on_time
    motor.forward()
    rig.wait(max_on - 0.5)
    motor.backward()  # no rest needed: it never stopped
    assert rig.motor_pins_on()
    rig.settle()
    assert not rig.motor_pins_on()
    assert rig.world.longest_motor_run == pytest.approx(max_on)


def test_the_thermal_budget_refuses_a_start_until_a_whole_run_fits(make_rig):
    s = MotorSettings(max_on_time=2.0, thermal_window=20.0, thermal_budget=5.0)
    rig = make_rig(settings=HardwareSettings(motor=s))
    motor = rig.hw.motor
    motor.forward()
    rig.wait(2.0)           # runs 0..2: stopped by its max on-time
    rig.wait(s.rest_time)
    motor.forward()
    rig.wait(1.0)
    motor.stop()            # runs 2.1..3.1: 3 s used, 2 s left: a whole 2 s run just fits
    rig.wait(s.rest_time)
    motor.forward()
    rig.wait(1.0)
    motor.stop()            # runs 3.2..4.2: 4 s used; a 2 s run no longer fits until 1 s slides out
    t = rig.clock.now()
    assert motor.ready_in() == pytest.approx(1.0 + s.thermal_window - t)   # at 21.0: [0, 1] has left
    rig.wait(5.0)
    with pytest.raises(MotorRestingError):
        motor.forward()
    rig.wait(motor.ready_in())
    motor.forward()
    assert rig.motor_pins_on()


def test_motor_on_seconds_in_any_window_never_exceed_the_thermal_budget(make_rig):
    s = MotorSettings(max_on_time=2.0, thermal_window=20.0, thermal_budget=6.0)
    rig = make_rig(settings=HardwareSettings(motor=s))
    motor = rig.hw.motor
    while rig.clock.now() < 120.0:  # a greedy caller: starts whenever allowed, runs until cut
        rig.wait(max(motor.ready_in(), 0.001))
        if motor.ready_in() == 0.0:
            motor.forward()
            rig.wait(0.7)
            motor.stop()
    runs = on_intervals(rig)
    worst = max(sum(max(0.0, min(b, end) - max(a, end - s.thermal_window)) for a, b in runs)
                for _, end in runs)
    assert worst <= s.thermal_budget + 1e-9
    assert worst > s.thermal_budget - s.max_on_time   # the budget is used, not just avoided


def test_max_on_time_has_a_hard_ceiling_in_hal():
    with pytest.raises(InvalidValueError) as caught:
        MotorSettings(max_on_time=1e300)
    assert caught.value.key == "max_on_time" and isinstance(caught.value, HalError)
    MotorSettings(max_on_time=MAX_ON_TIME_CEILING)


@pytest.mark.parametrize("field, value", [("rest_time", 0.0), ("rest_time", 0.001),
                                          ("thermal_budget", 2.0), ("thermal_budget", 100.0),
                                          ("thermal_window", float("nan")), ("max_on_time", 0)])
def test_motor_settings_out_of_their_hard_limits_are_refused_naming_the_field(field, value):
    with pytest.raises(InvalidValueError, match=f"^{field}: "):
        MotorSettings(**{field: value})


def test_a_run_after_an_emergency_stop_gets_its_whole_on_time(rig):
    # The lid's GPIO thread cuts the motor with emergency_stop, which cannot touch the loop's timers: the
    # next run must not be stopped by the guard the first run armed, nor report a max-on-time it never had.
    motor, faults = rig.hw.motor, []
    motor.on_fault = faults.append
    max_on = rig.hw.settings.motor.max_on_time
    motor.forward()
    rig.wait(max_on / 2)
    motor.emergency_stop()
    rig.wait(rig.hw.settings.motor.rest_time)
    motor.forward()
    rig.wait(max_on * 0.9)
    assert motor.direction == "forward" and faults == []
    rig.wait(max_on * 0.2)
    assert motor.direction is None and faults == ["max-on-time"]  # this run's own guard still acts


def test_the_thermal_budget_holds_when_run_lengths_do_not_add_up_exactly():
    # 1.9 s then 3.0 s of runs: as the second ends the first slides out of the window, and the float
    # running total is left a hair above the second run's own length. The window must still slide past
    # the whole second run before a start (this fell through and allowed a start after the rest alone).
    class ShutLid:
        is_open = False

    s = MotorSettings(max_on_time=3.0, rest_time=0.1, thermal_window=10.0, thermal_budget=3.0)
    clock = VirtualClock()
    pins = SimFactory(clock)
    motor = GpioMotor(23, 24, lid=ShutLid(), clock=clock, settings=s, pin_factory=pins)
    for start, end in ((1.0, 2.9), (13.2, 16.2)):
        clock.advance_to(start)
        motor.forward()
        clock.advance_to(end)
        motor.stop()
    assert motor.ready_in() == pytest.approx(s.thermal_window)
    clock.advance_to(17.08)
    with pytest.raises(MotorRestingError):
        motor.forward()
    assert pins.sim_pin(23).state == 0.0
    motor.close()


def test_no_start_is_allowed_without_room_for_a_whole_run_in_random_histories():
    # 300 seeded histories of starts and stops at decimal times (float sums that do not add up exactly):
    # every start the motor accepts must leave room for a whole max_on_time run in the thermal window.
    class ShutLid:
        is_open = False

    for seed in range(300):
        r = random.Random(seed)
        on = r.choice([1.0, 2.0, 3.0])
        window = r.choice([10.0, 20.0])
        s = MotorSettings(max_on_time=on, rest_time=0.1, thermal_window=window, thermal_budget=r.choice([on, on + 1]))
        clock = VirtualClock()
        motor = GpioMotor(23, 24, lid=ShutLid(), clock=clock, settings=s, pin_factory=SimFactory(clock))
        runs: list[tuple[float, float]] = []
        t = 0.0
        for _ in range(40):
            t = round(t + r.choice([0.1, 0.3, 1.0, 2.5, window / 4, r.random() * window]), r.choice([1, 2]))
            clock.advance_to(t)
            try:
                motor.forward()
            except MotorRestingError:
                continue
            used = sum(min(b, t) - max(a, t - window) for a, b in runs if b > t - window)
            assert used + on <= s.thermal_budget + 1e-6, (seed, t, used)
            length = round(r.choice([0.2, 0.5, on * r.random(), on]), r.choice([1, 3]))
            t += length
            clock.advance_to(t)
            motor.stop()
            runs.append((t - length, t))
        motor.close()


def test_closing_the_motor_shuts_out_a_cut_from_another_thread(rig):
    # The lid's GPIO thread cuts through emergency_stop, which checks "closed" under the motor's lock: the close
    # must take the same lock, or a cut could pass the check and then write to a released device.
    motor = rig.hw.motor
    held = []
    release = motor.device.close
    def close_device():
        held.append(motor._lock._is_owned())
        release()
    motor.device.close = close_device
    motor.close()
    motor.close()
    motor.emergency_stop()  # after close: touches nothing
    assert held == [True]
