"""Fail loud: a closed part raises the project's DeviceClosedError, a bad value an InvalidValueError
(both HalError), whatever gpiozero would have raised (issue 7, item 14)."""

import pytest

from hal import DeviceClosedError, HalError, InvalidValueError
from hal.backends import choose_pin_factory
from hal.beeper import GpioBeeper

USES = {
    "motor": lambda hw: hw.motor.forward(),
    "servo": lambda hw: hw.servo.move_to(0.0),
    "beeper": lambda hw: hw.beeper.play([(440, 0.1)]),
    "button": lambda hw: hw.button.is_pressed,
    "lid": lambda hw: hw.lid.is_open,
    "exit_sensor": lambda hw: hw.exit_sensor.is_blocked,
}


@pytest.mark.parametrize("part", USES)
def test_every_part_raises_device_closed_error_after_close(rig, part):
    rig.hw.close()
    with pytest.raises(DeviceClosedError):
        USES[part](rig.hw)


@pytest.mark.parametrize("part", ["motor", "servo", "beeper", "button", "lid", "exit_sensor"])
def test_closing_a_part_twice_is_safe(rig, part):
    getattr(rig.hw, part).close()
    getattr(rig.hw, part).close()


def test_stopping_after_close_stays_quiet(rig):
    rig.hw.close()
    rig.hw.motor.stop()
    rig.hw.beeper.stop()


@pytest.mark.parametrize("use", [
    lambda hw: hw.servo.move_to(120.0),
    lambda hw: hw.servo.move_to(float("nan")),
    lambda hw: hw.motor.forward(1.5),
    lambda hw: GpioBeeper(hw.settings.pins.beeper + 1, clock=hw.clock, kind="siren"),
    lambda hw: choose_pin_factory("pigpio-typo"),
], ids=["angle", "nan-angle", "duty", "beeper-kind", "pin-factory"])
def test_a_bad_value_raises_a_hal_error_naming_it(rig, use):
    with pytest.raises(InvalidValueError) as caught:
        use(rig.hw)
    assert isinstance(caught.value, HalError) and caught.value.key
