"""The hardware layer on real pins, the way gpiozero tests itself (its tests/test_real_pins.py).

On a Pi: put a jumper wire between two free pins and run

    UNO_SHOOTER_TEST_PINS=20,21 python -m pytest -m real_pins

(the first pin drives, the second reads). Every test runs once per pin factory installed (lgpio, RPi.GPIO,
pigpio). The motor's lid interlock also needs two pins for the motor: UNO_SHOOTER_TEST_MOTOR_PINS=23,24 drives
the H-bridge inputs (the roller turns for a moment). Anywhere else these tests are skipped, saying why.
UNO_SHOOTER_TEST_MOCK=1 adds gpiozero's mock pins with a simulated jumper, to check the tests themselves.
"""

from __future__ import annotations

import os

import pytest

from hal import MonotonicClock, MotorSettings
from hal.backends import choose_pin_factory
from shooter.loop import ControlLoop

pytestmark = pytest.mark.real_pins

PINS = os.environ.get("UNO_SHOOTER_TEST_PINS")
FACTORIES = ["lgpio", "rpigpio", "pigpio"] + (["mock"] if os.environ.get("UNO_SHOOTER_TEST_MOCK") else [])
NO_PINS = ("no jumper configured: set UNO_SHOOTER_TEST_PINS=OUT,IN (two BCM pins joined by a jumper wire, e.g. 20,21) "
           "on a Raspberry Pi; see docs/bringup.md, step 5")


def _pins(variable: str) -> tuple[int, int]:
    out, inp = (int(p) for p in os.environ[variable].split(","))
    return out, inp


def _jumpered_mock(out: int, inp: int):
    """gpiozero's mock pins (PWM capable) with pin ``out`` wired to pin ``inp``."""
    from gpiozero.pins.mock import MockConnectedPin, MockFactory, MockPWMPin

    class Jumpered(MockFactory):
        def pin(self, name, pin_class=None, **kwargs):
            if name in (out, str(out), f"GPIO{out}"):
                return super().pin(name, pin_class=MockConnectedPin, input_pin=super().pin(inp))
            return super().pin(name, pin_class=pin_class, **kwargs)
    return Jumpered(pin_class=MockPWMPin)


@pytest.fixture(params=FACTORIES)
def factory(request):
    if PINS is None:
        pytest.skip(NO_PINS)
    if request.param == "mock":
        made = _jumpered_mock(*_pins("UNO_SHOOTER_TEST_PINS"))
    else:
        try:
            made, _name = choose_pin_factory(request.param, environ={})
        except Exception as exc:
            pytest.skip(f"pin factory {request.param} is not available here: {exc}")
    yield made
    made.close()


@pytest.fixture
def loop():
    return ControlLoop(MonotonicClock())


@pytest.fixture
def jumper(factory):
    from gpiozero import DigitalOutputDevice
    out, inp = _pins("UNO_SHOOTER_TEST_PINS")
    device = DigitalOutputDevice(out, initial_value=False, pin_factory=factory)
    yield device, inp
    device.close()


def test_an_edge_on_the_jumper_reaches_the_loop_as_a_debounced_change(factory, loop, jumper):
    from hal.inputs import DebouncedInput
    out, inp = jumper
    changes = []
    sensor = DebouncedInput(inp, pull_up=False, clock=loop.clock, post=loop.post, settle_active=0.01,
                            settle_inactive=0.01, pin_factory=factory)
    sensor.on_change = changes.append
    try:
        out.on()
        assert loop.run_until(lambda: changes == [True], 1.0)
        out.off()
        assert loop.run_until(lambda: changes == [True, False], 1.0)
    finally:
        sensor.close()


def test_a_bouncing_contact_counts_once(factory, loop, jumper):
    from hal.inputs import DebouncedInput
    out, inp = jumper
    changes = []
    sensor = DebouncedInput(inp, pull_up=False, clock=loop.clock, post=loop.post, settle_active=0.02,
                            settle_inactive=0.02, pin_factory=factory)
    sensor.on_change = changes.append
    try:
        for _ in range(5):   # edges microseconds apart, like a contact bouncing
            out.on()
            out.off()
        out.on()
        loop.run_until(lambda: False, 0.2)
        assert changes == [True]
    finally:
        sensor.close()


def test_pwm_duty_reads_back_through_the_jumper(factory, loop):
    from gpiozero import DigitalInputDevice, PWMOutputDevice
    from gpiozero.pins.mock import MockFactory
    if isinstance(factory, MockFactory):
        pytest.skip("gpiozero's connected mock pins carry levels, not PWM")
    out, inp = _pins("UNO_SHOOTER_TEST_PINS")
    pwm = PWMOutputDevice(out, frequency=50, initial_value=0.25, pin_factory=factory)
    reader = DigitalInputDevice(inp, pin_factory=factory)
    samples = []

    def sample():
        samples.append(reader.value)
        if len(samples) < 2000:
            loop.clock.call_later(0.0005, sample)
    try:
        sample()
        loop.run_until(lambda: len(samples) >= 2000, 5.0)
        assert sum(samples) / len(samples) == pytest.approx(0.25, abs=0.08)
    finally:
        reader.close()
        pwm.close()


def test_the_lid_opening_on_the_jumper_cuts_the_motor(factory, loop, jumper):
    from hal.inputs import GpioLid
    from hal.motor import GpioMotor
    if "UNO_SHOOTER_TEST_MOTOR_PINS" not in os.environ:
        pytest.skip("no motor pins: set UNO_SHOOTER_TEST_MOTOR_PINS=FORWARD,BACKWARD (the roller turns briefly)")
    out, inp = jumper
    forward, backward = _pins("UNO_SHOOTER_TEST_MOTOR_PINS")
    lid = GpioLid(inp, clock=loop.clock, post=loop.post, close_debounce=0.05, pin_factory=factory)
    out.on()
    out.off()  # the lid pin pulled low through the jumper: closed
    motor = GpioMotor(forward, backward, lid=lid, clock=loop.clock, settings=MotorSettings(), pin_factory=factory)
    lid.on_raw_open = motor.emergency_stop
    try:
        assert loop.run_until(lambda: not lid.is_open, 1.0)
        motor.forward(0.5)
        assert motor.device.forward_device.value > 0
        out.on()  # the lid opens
        assert loop.run_until(lambda: motor.device.value == 0, 0.5)
        with pytest.raises(Exception, match="lid is open"):
            motor.forward(0.5)
    finally:
        motor.close()
        lid.close()
