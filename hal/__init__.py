"""The hardware abstraction: one small interface per part and its gpiozero implementation.

``shooter`` uses these interfaces and never imports gpiozero. The pin factory
decides whether the parts drive real pins (lgpio / RPi.GPIO on the Pi) or the
simulator's (``sim``).
"""

from .clock import Clock, MonotonicClock, Timer, VirtualClock
from .errors import DeviceClosedError, HalError, InvalidValueError, LidOpenError, MotorRestingError
from .hardware import Hardware
from .settings import (BeeperSettings, HardwareSettings, InputSettings, MotorSettings, PinMap,
                       ServoSettings)

__all__ = [
    "Clock", "MonotonicClock", "VirtualClock", "Timer",
    "HalError", "LidOpenError", "MotorRestingError", "DeviceClosedError", "InvalidValueError",
    "Hardware", "HardwareSettings", "PinMap", "MotorSettings", "ServoSettings",
    "InputSettings", "BeeperSettings",
]
