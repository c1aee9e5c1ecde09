"""The launcher motor, with the safety rules enforced where it is switched on.

Whoever calls it, the motor
- is off when created and when closed (close is safe twice),
- refuses to start while the lid is open (H-LID), and
- stops itself after ``max_on_time`` seconds of continuous running, then
  reports ``on_fault("max-on-time")``: a jammed roller must not burn.
Stopping never fails.

Switching on and the emergency stop share one lock, so the lid check and the
switch-on happen as one step against a lid opening on the GPIO thread. With a
real clock a backstop thread also cuts the motor shortly after the maximum
on-time, in case the control loop itself is stuck (the loop's own timer is the
one that reports the fault).
"""

from __future__ import annotations

import threading
from typing import Callable

from gpiozero import Motor as GpioMotorDevice

from .clock import Clock, Timer
from .errors import DeviceClosedError, LidOpenError
from .interfaces import Lid
from .settings import MotorSettings


class GpioMotor:
    """A DC motor on a friction roller behind an H-bridge (forward / backward pins)."""

    BACKSTOP_MARGIN = 0.25  # seconds after max_on_time that the backstop thread acts

    def __init__(self, forward_pin: int, backward_pin: int, *, lid: Lid, clock: Clock,
                 settings: MotorSettings = MotorSettings(), pin_factory=None, backstop: bool = False):
        self._lid = lid
        self._clock = clock
        self._settings = settings
        self._lock = threading.RLock()
        self._backstop_enabled = backstop
        self._backstop: threading.Timer | None = None
        self._guard: Timer | None = None
        self._direction: str | None = None
        self._closed = False
        self.on_fault: Callable[[str], None] | None = None
        self.device = GpioMotorDevice(forward_pin, backward_pin, pwm=True, pin_factory=pin_factory)
        for pin in (self.device.forward_device.pin, self.device.backward_device.pin):
            pin.frequency = settings.pwm_frequency
        self.stop()

    @property
    def direction(self) -> str | None:
        return self._direction

    def forward(self, duty: float = 1.0) -> None:
        """Shoot: run the roller forward at ``duty`` (0..1]."""
        self._start("forward", duty)

    def backward(self, duty: float = 1.0) -> None:
        """Pull the next card back in."""
        self._start("backward", duty)

    def _start(self, direction: str, duty: float) -> None:
        if self._closed:
            raise DeviceClosedError("the motor is closed")
        if not 0.0 < duty <= 1.0:
            raise ValueError(f"duty must be in (0, 1], got {duty!r}")
        with self._lock:  # the lid may open on the GPIO thread between the check and the switch-on
            if self._lid.is_open:
                self.stop()
                raise LidOpenError("the lid is open: the motor stays off")
            if self._guard is None:
                # The on-time counts from switching on, across direction changes.
                self._guard = self._clock.call_later(self._settings.max_on_time, self._over_time,
                                                     name="motor-max-on-time")
                if self._backstop_enabled:
                    self._backstop = threading.Timer(self._settings.max_on_time + self.BACKSTOP_MARGIN,
                                                     self.emergency_stop)
                    self._backstop.daemon = True
                    self._backstop.start()
            if direction == "forward":
                self.device.forward(duty)
            else:
                self.device.backward(duty)
            self._direction = direction

    def stop(self) -> None:
        """Switch the motor off. Never raises, also after close."""
        with self._lock:
            if self._guard is not None:
                self._guard.cancel()
                self._guard = None
            if self._backstop is not None:
                self._backstop.cancel()
                self._backstop = None
            self._direction = None
            if not self._closed:
                self.device.stop()

    def emergency_stop(self) -> None:
        """Cut the motor pins from any thread (the lid's GPIO callback, the backstop, a signal
        handler). Touches nothing but the pins; the loop's own handling follows."""
        with self._lock:
            if not self._closed:
                self.device.stop()

    def _over_time(self) -> None:
        self._guard = None
        self.stop()
        if self.on_fault is not None:
            self.on_fault("max-on-time")

    def close(self) -> None:
        if self._closed:
            return
        self.stop()
        self._closed = True
        self.device.close()
