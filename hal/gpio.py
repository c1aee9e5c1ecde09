"""Thin gpiozero devices: the pin factory and pin reservation, without the per-edge machinery.

The parts in ``hal`` are built from these instead of gpiozero's ``DigitalInputDevice``, ``Motor``,
``DigitalOutputDevice`` and ``AngularServo``. They are gpiozero devices all the same (subclasses of
its ``InputDevice`` / ``OutputDevice`` / ``PWMOutputDevice``, on any pin factory: lgpio, RPi.GPIO,
pigpio, the mock pins and the simulator's), so pins are reserved, ``close()`` is safe twice and
``value`` reads the pin. What they leave out is what a program with one control loop never uses
and pays for on every button press:

- gpiozero's event-driven inputs set and clear a ``threading.Event`` (two lock round trips) and
  look ``when_activated`` up through a descriptor on every edge, so that a thread may
  ``wait_for_active()``. :class:`EdgeInput` hands the pin library's edge straight to one callback.
- its output devices stop a blink thread and convert the value on every write, and a ``Motor``
  writes both pins through them. :class:`PwmOutput.write` sets the pin's duty cycle and nothing else.

On the simulator's pins (``python benchmarks/run.py``): a button edge through
``DigitalInputDevice.when_activated`` costs about 2.9 µs, through :class:`EdgeInput` 0.4 µs;
``Motor.forward()`` then ``stop()`` 5.1 µs, the same four pin writes through :class:`HBridge` 0.9 µs.
"""

from __future__ import annotations

from collections.abc import Callable

from gpiozero import InputDevice, OutputDevice, PWMOutputDevice
from gpiozero.pins import Factory

from .settings import ServoSettings


class EdgeInput(InputDevice):  # type: ignore[misc]  # gpiozero is untyped
    """An input pin that calls ``when_edge(active)`` on every edge, on the pin library's thread.

    ``active`` is the level as the device sees it (with ``pull_up`` a low pin is active, as in
    gpiozero). The callback must only hand the edge on (to the control loop)::

        >>> from hal import VirtualClock
        >>> from hal.gpio import EdgeInput
        >>> from sim import SimFactory
        >>> pins = SimFactory(VirtualClock())
        >>> pins.sim_pin(17).drive(True)               # a button with a pull-up, not pressed
        >>> button = EdgeInput(17, pull_up=True, pin_factory=pins)
        >>> button.when_edge = lambda active: print("pressed" if active else "released")
        >>> pins.sim_pin(17).drive(False)
        pressed
        >>> button.is_active
        True
        >>> button.close(); button.close()             # safe twice
    """

    def __init__(self, pin: int, *, pull_up: bool, pin_factory: Factory | None = None):
        self.when_edge: Callable[[bool], object] | None = None
        super().__init__(pin, pull_up=pull_up, pin_factory=pin_factory)
        try:
            self._active_level: bool = bool(self._active_state)
            self._in = self.pin
            self.pin.edges = "both"
            # the pin keeps a weak reference to this bound method: the device's life decides
            self.pin.when_changed = self._pin_changed
        except BaseException:
            self.close()
            raise

    def reads_active(self) -> bool:
        """The level on the pin right now (``is_active`` without gpiozero's layers: safety checks
        read it on the press path)."""
        return bool(self._in.state) == self._active_level

    def _pin_changed(self, ticks: object, state: object) -> None:
        callback = self.when_edge
        if callback is not None:
            callback(bool(state) == self._active_level)

    def close(self) -> None:
        """Stop the edges and release the pin; safe twice."""
        pin = getattr(self, "_pin", None)
        if pin is not None:
            pin.when_changed = None
        super().close()


class PinOutput(OutputDevice):  # type: ignore[misc]
    """An on/off output (active high) with a bare :meth:`write`; off when made and when closed."""

    def __init__(self, pin: int, *, pin_factory: Factory | None = None):
        super().__init__(pin, initial_value=False, pin_factory=pin_factory)
        self._out = self.pin

    def write(self, level: float) -> None:
        """Set the pin high (1) or low (0)."""
        self._out.state = level


class PwmOutput(PWMOutputDevice):  # type: ignore[misc]
    """A PWM output (active high) with a bare :meth:`write` of the duty cycle; 0 when made.

        >>> from hal import VirtualClock
        >>> from hal.gpio import PwmOutput
        >>> from sim import SimFactory
        >>> pins = SimFactory(VirtualClock())
        >>> out = PwmOutput(23, frequency=1000, pin_factory=pins)
        >>> out.write(0.25)
        >>> out.value, pins.sim_pin(23).frequency
        (0.25, 1000)
        >>> out.close()
    """

    def __init__(self, pin: int, *, frequency: float, pin_factory: Factory | None = None):
        super().__init__(pin, initial_value=0, frequency=frequency, pin_factory=pin_factory)
        self._out = self.pin

    def write(self, duty: float) -> None:
        """Set the duty cycle, 0..1 (the caller checks the range)."""
        self._out.state = duty


class HBridge:
    """The motor driver's two PWM inputs: forward, backward, never both (as gpiozero's ``Motor``).

        >>> from hal import VirtualClock
        >>> from hal.gpio import HBridge
        >>> from sim import SimFactory
        >>> pins = SimFactory(VirtualClock())
        >>> bridge = HBridge(23, 24, frequency=1000, pin_factory=pins)
        >>> bridge.forward(0.8); bridge.value
        0.8
        >>> bridge.backward(0.5); (pins.sim_pin(23).state, pins.sim_pin(24).state)
        (0.0, 0.5)
        >>> bridge.stop(); bridge.close(); bridge.close()
        >>> bridge.closed
        True
    """

    def __init__(self, forward_pin: int, backward_pin: int, *, frequency: float,
                 pin_factory: Factory | None = None):
        self.forward_device = PwmOutput(forward_pin, frequency=frequency, pin_factory=pin_factory)
        try:
            self.backward_device = PwmOutput(backward_pin, frequency=frequency, pin_factory=pin_factory)
        except BaseException:
            self.forward_device.close()
            raise
        self._forward, self._backward = self.forward_device.write, self.backward_device.write

    def forward(self, duty: float = 1.0) -> None:
        self._backward(0.0)
        self._forward(duty)

    def backward(self, duty: float = 1.0) -> None:
        self._forward(0.0)
        self._backward(duty)

    def stop(self) -> None:
        self._forward(0.0)
        self._backward(0.0)

    @property
    def value(self) -> float:
        """Forward duty minus backward duty (-1..1), as gpiozero's ``Motor.value``."""
        return float(self.forward_device.value - self.backward_device.value)

    @property
    def closed(self) -> bool:
        return bool(self.forward_device.closed and self.backward_device.closed)

    def close(self) -> None:
        """Both pins off and released; safe twice."""
        self.forward_device.close()
        self.backward_device.close()


class ServoPulses(PwmOutput):
    """A hobby servo's control pin: one pulse every ``settings.frame_width`` seconds, as wide as
    ``settings.pulse_width(angle)`` (as gpiozero's ``AngularServo``); no pulses until the first
    angle is set (the servo stays where it is at power-up).

        >>> from hal import ServoSettings, VirtualClock
        >>> from hal.gpio import ServoPulses
        >>> from sim import SimFactory
        >>> pins = SimFactory(VirtualClock())
        >>> servo = ServoPulses(18, ServoSettings(), pin_factory=pins)
        >>> servo.send(0.0)
        >>> round(pins.sim_pin(18).state * 0.02, 6)     # a 1.5 ms pulse every 20 ms
        0.0015
        >>> servo.close()
    """

    def __init__(self, pin: int, settings: ServoSettings, *, pin_factory: Factory | None = None):
        # int(), as AngularServo: its duty cycle is pulse / frame_width at that pin frequency
        super().__init__(pin, frequency=int(1 / settings.frame_width), pin_factory=pin_factory)
        self._pulse_width = settings.pulse_width
        self._frames_per_second = 1 / settings.frame_width

    def send(self, angle: float) -> None:
        """Pulse for ``angle`` from now on (the caller checks the travel and keeps the angle)."""
        self._out.state = self._pulse_width(angle) * self._frames_per_second
