"""The hardware abstraction: one small interface per part and its gpiozero implementation.

``shooter`` uses these interfaces and never imports gpiozero. The pin factory
decides whether the parts drive real pins (lgpio / RPi.GPIO on the Pi) or the
simulator's (``sim``).

Importing ``hal`` (or ``hal.clock``, ``hal.interfaces``, ``hal.errors``,
``hal.settings``) loads no GPIO library: gpiozero is imported only where devices
are built, when :class:`Hardware` (``hal.hardware``) is first asked for. So a
process that only needs the clock or the settings starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .clock import Clock, MonotonicClock, Timer, VirtualClock
from .errors import DeviceClosedError, HalError, InvalidValueError, LidOpenError, MotorRestingError
from .interfaces import Beeper, Button, ExitSensor, HardwareParts, Lid, Motor, Servo
from .settings import BeeperSettings, HardwareSettings, InputSettings, MotorSettings, PinMap, ServoSettings

if TYPE_CHECKING:
    from .hardware import Hardware

__all__ = [
    "Clock", "MonotonicClock", "VirtualClock", "Timer",
    "HalError", "LidOpenError", "MotorRestingError", "DeviceClosedError", "InvalidValueError",
    "Hardware", "HardwareSettings", "PinMap", "MotorSettings", "ServoSettings",
    "InputSettings", "BeeperSettings",
    "HardwareParts", "Motor", "Button", "Lid", "ExitSensor", "Servo", "Beeper",
]


def __getattr__(name: str) -> Any:
    # The gpiozero-backed parts load on first use (PEP 562), not with the package.
    if name == "Hardware":
        from .hardware import Hardware
        return Hardware
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
