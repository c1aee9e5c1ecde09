"""hal.gpio's thin devices against the gpiozero devices they replace, on gpiozero's own mock pins."""

import pytest
from gpiozero import AngularServo, DigitalInputDevice
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal import ServoSettings
from hal.gpio import EdgeInput, ServoPulses

LEVELS = [True, False, True, True, False, False, True]   # driven one after another, repeats included


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


@pytest.mark.parametrize("pull_up", [True, False])
def test_edge_input_reports_the_edges_digital_input_device_reports_with_its_polarity(pull_up):
    pins = MockFactory()
    ours, theirs = [], []
    edge = EdgeInput(5, pull_up=pull_up, pin_factory=pins)
    edge.when_edge = ours.append
    for level in LEVELS:
        pins.pin(5).drive_high() if level else pins.pin(5).drive_low()
        assert edge.reads_active() == edge.is_active
    edge.close()
    device = DigitalInputDevice(5, pull_up=pull_up, pin_factory=pins)   # the pin is free again
    device.when_activated, device.when_deactivated = (lambda: theirs.append(True)), (lambda: theirs.append(False))
    pins.pin(5).drive_high() if pull_up else pins.pin(5).drive_low()     # back to where the first run began
    theirs.clear()
    for level in LEVELS:
        pins.pin(5).drive_high() if level else pins.pin(5).drive_low()
    device.close()
    assert ours == theirs and ours


def test_a_closed_edge_input_reports_no_more_edges():
    pins = MockFactory()
    seen = []
    edge = EdgeInput(5, pull_up=True, pin_factory=pins)
    edge.when_edge = seen.append
    edge.close()
    edge.close()
    pins.pin(5).drive_low()
    pins.pin(5).drive_high()
    assert seen == [] and edge.closed
