"""The turntable servo. A hobby servo gives no feedback, so the move time is
computed from the configured speed and the distance from where it was sent last."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpiozero.pins import Factory

from .clock import Clock, Timer
from .errors import DeviceClosedError, InvalidValueError
from .gpio import ServoPulses
from .settings import ServoSettings


class GpioServo:
    """Turns the shooter to an angle; ``on_arrived(angle)`` once it is there.

    The move time comes from the configured speed (no feedback), on the one clock::

        >>> from hal import ServoSettings, VirtualClock
        >>> from hal.servo import GpioServo
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> servo = GpioServo(18, clock=clock, settings=ServoSettings(speed=300.0, settle_time=0.05),
        ...                   pin_factory=SimFactory(clock))
        >>> servo.on_arrived = lambda angle: print("at", angle)
        >>> servo.move_to(30.0)           # from where it was at power-up (unknown): the full travel
        0.65
        >>> servo.moving
        True
        >>> clock.advance_to(0.65)
        >>> clock.run_due()
        at 30.0
        1
        >>> servo.move_to(-30.0)          # 60 degrees at 300 degrees a second, then settling
        0.25
        >>> servo.move_to(120)
        Traceback (most recent call last):
        hal.errors.InvalidValueError: angle: 120 is outside -90.0..90.0
        >>> servo.close()
    """

    def __init__(self, pin: int, *, clock: Clock, settings: ServoSettings = ServoSettings(),
                 pin_factory: Factory | None = None, device: Any = None):
        self._clock = clock
        self._settings = settings
        self._timer: Timer | None = None
        self._angle: float | None = None
        self._closed = False
        self.on_arrived: Callable[[float], object] | None = None
        # ``device``: anything with ``send(angle)`` and ``close()`` (hal.servo_sysfs's kernel PWM)
        self.device = device
        if device is None:
            self.device = ServoPulses(pin, settings, pin_factory=pin_factory)

    @property
    def angle(self) -> float | None:
        """The last commanded angle (None before the first move)."""
        return self._angle

    @property
    def moving(self) -> bool:
        return self._timer is not None

    def move_time(self, target: float) -> float:
        """Seconds a move from the last commanded angle to ``target`` takes, settling included.
        From an unknown position (just powered) assume the full travel."""
        s = self._settings
        distance = s.max_angle - s.min_angle if self._angle is None else abs(target - self._angle)
        if distance == 0:
            return 0.0
        return distance / s.speed + s.settle_time

    def move_to(self, angle: float) -> float:
        """Start turning to ``angle``; returns how long until ``on_arrived``."""
        s = self._settings
        if self._closed:
            raise DeviceClosedError("the servo is closed")
        if not (isinstance(angle, (int, float)) and s.min_angle <= angle <= s.max_angle):
            raise InvalidValueError("angle", f"{angle!r} is outside {s.min_angle}..{s.max_angle}")
        # A move that interrupts another starts from an unknown point between: be safe
        # and count from the farther of the two ends.
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._angle = None
        duration = self.move_time(angle)
        self.device.send(angle)
        self._angle = angle
        self._timer = self._clock.call_later(duration, self._arrived, name="servo-arrive")
        return duration

    def _arrived(self) -> None:
        self._timer = None
        if self.on_arrived is not None and self._angle is not None:
            self.on_arrived(self._angle)

    def close(self) -> None:
        """Stop the pulses; safe twice. A closed servo raises :class:`DeviceClosedError` when moved."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._closed = True
        self.device.close()
