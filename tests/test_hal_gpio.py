"""hal.gpio's thin devices against the gpiozero devices they replace, on gpiozero's own mock pins."""

import pytest
from gpiozero import AngularServo
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal import ServoSettings
from hal.gpio import ServoPulses


@pytest.mark.parametrize("frame_width", [0.020, 0.015, 0.007, 0.03])
def test_servo_pulses_are_angular_servos_pulses_over_the_whole_travel(frame_width):
    # Same settings, same pin frequency and duty cycle, so the same pulse width at every angle (a frame
    # width whose rate is not a whole number of hertz included: gpiozero truncates it).
    s = ServoSettings(min_angle=-80.0, max_angle=95.0, min_pulse_width=0.0006, max_pulse_width=0.0024,
                      frame_width=frame_width)
    pins = MockFactory(pin_class=MockPWMPin)
    theirs = AngularServo(5, initial_angle=None, min_angle=s.min_angle, max_angle=s.max_angle,
                          min_pulse_width=s.min_pulse_width, max_pulse_width=s.max_pulse_width,
                          frame_width=s.frame_width, pin_factory=pins)
    ours = ServoPulses(6, s, pin_factory=pins)
    for i in range(201):
        angle = s.min_angle + (s.max_angle - s.min_angle) * i / 200
        theirs.angle = angle
        ours.send(angle)
        assert pins.pin(6).frequency == pins.pin(5).frequency
        assert pins.pin(6).state == pytest.approx(pins.pin(5).state, abs=1e-12)
    theirs.close()
    ours.close()
