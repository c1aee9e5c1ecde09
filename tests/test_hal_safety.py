"""Safety rules of the motor, enforced in hal below every caller (docs/design.md "Safety, always")."""

import pytest

from hal import DeviceClosedError, LidOpenError


def test_motor_is_off_when_the_hardware_is_created(rig):
    assert not rig.motor_pins_on()
    assert rig.hw.motor.direction is None


def test_motor_refuses_to_start_with_the_lid_open(rig):
    rig.world.open_lid()
    rig.settle()
    with pytest.raises(LidOpenError):
        rig.hw.motor.forward()
    assert not rig.motor_pins_on()


def test_motor_refuses_to_start_the_instant_the_lid_opens_before_the_loop_has_seen_it(rig):
    # The raw pin already reads open; the posted edge has not been handled yet.
    rig.world.open_lid()
    with pytest.raises(LidOpenError):
        rig.hw.motor.backward()
    assert not rig.motor_pins_on()


def test_lid_opening_stops_a_running_motor_at_the_same_instant(rig):
    rig.hw.motor.forward()
    rig.wait(0.05)
    assert rig.motor_pins_on()
    t = rig.clock.now()
    rig.world.open_lid()
    rig.settle()
    assert not rig.motor_pins_on()
    assert rig.world.unsafe_time() == 0.0
    assert rig.pin("motor_forward").history[-1] == (t, 0.0)


def test_motor_stops_itself_after_its_maximum_on_time(rig):
    faults = []
    rig.hw.motor.on_fault = faults.append
    rig.world.arm_jam()  # a wedged card: nobody stops the motor
    rig.hw.motor.forward()
    rig.settle()
    assert not rig.motor_pins_on()
    assert faults == ["max-on-time"]
    assert rig.world.longest_motor_run == pytest.approx(rig.hw.settings.motor.max_on_time)


def test_maximum_on_time_counts_across_a_change_of_direction(rig):
    rig.hw.motor.forward()
    rig.wait(2.0)
    rig.hw.motor.backward()
    rig.wait(1.5)
    assert not rig.motor_pins_on()


def test_stopping_for_the_rest_time_resets_the_on_time(rig):
    faults = []
    rig.hw.motor.on_fault = faults.append
    for _ in range(3):
        rig.hw.motor.forward()
        rig.wait(2.0)
        rig.hw.motor.stop()
        rig.wait(rig.hw.settings.motor.rest_time)
    rig.settle()
    assert faults == []


def test_close_switches_the_motor_off_and_is_safe_twice(rig):
    rig.hw.motor.forward()
    rig.wait(0.02)
    rig.hw.close()
    assert not rig.motor_pins_on()
    rig.hw.close()
    assert rig.hw.closed


def test_a_closed_motor_refuses_to_start_but_stops_quietly(rig):
    rig.hw.close()
    with pytest.raises(DeviceClosedError):
        rig.hw.motor.forward()
    rig.hw.motor.stop()


def test_context_manager_closes_the_hardware(make_rig):
    r = make_rig()
    with r.hw as hw:
        hw.motor.forward()
    assert not r.motor_pins_on()
    assert r.hw.closed


@pytest.mark.parametrize("duty", [0, -0.5, 1.5, float("nan")])
def test_motor_refuses_a_duty_outside_0_to_1(rig, duty):
    with pytest.raises(ValueError):
        rig.hw.motor.forward(duty)
    assert not rig.motor_pins_on()
