"""What the hardware layer needs to know about the wiring and the parts.

Defaults are the reference hardware of docs/design.md (BCM pin numbers). The controller's
config file fills these in; the hardware layer never reads files itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .errors import InvalidValueError

# Hard limits the hardware layer holds whatever a config file says.
MAX_ON_TIME_CEILING = 10.0       # s: no burst of a card shooter needs longer; a stalled roller must not burn
MIN_REST_TIME = 0.05             # s: shorter stops do not let the motor cool; they must not restart the count
SERVO_SPEED_RANGE = (10.0, 3000.0)   # deg/s: slower than any hobby servo or faster than any


def _in_range(key: str, value: object, lo: float, hi: float, *, lo_open: bool = False) -> None:
    """Raise :class:`InvalidValueError` naming ``key`` unless ``lo <(=) value <= hi``."""
    ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
          and (value > lo if lo_open else value >= lo) and value <= hi)
    if not ok:
        low = f"greater than {lo}" if lo_open else f"at least {lo}"
        raise InvalidValueError(key, f"must be {low} and at most {hi}, got {value!r}")


@dataclass(frozen=True)
class PinMap:
    """BCM pin numbers of every part. ``exit_sensor`` is None when not fitted."""

    motor_forward: int = 23
    motor_backward: int = 24
    button: int = 17
    lid: int = 27
    beeper: int = 5
    servo: int = 18
    exit_sensor: int | None = 22

    def used(self) -> dict[str, int]:
        """Part name -> pin, for the parts that are fitted."""
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class MotorSettings:
    """The launcher motor behind its H-bridge."""

    max_on_time: float = 3.0       # seconds of one continuous run; a jammed roller must not burn
    pwm_frequency: int = 1000      # Hz on the H-bridge inputs
    rest_time: float = 0.1         # seconds off after every run before the motor may start again
    thermal_window: float = 60.0   # seconds: the sliding window of the thermal budget...
    thermal_budget: float = 30.0   # ...and the motor-on seconds allowed within it

    def __post_init__(self) -> None:
        _in_range("max_on_time", self.max_on_time, 0.0, MAX_ON_TIME_CEILING, lo_open=True)
        _in_range("rest_time", self.rest_time, MIN_REST_TIME, 60.0)
        _in_range("thermal_window", self.thermal_window, 1.0, 3600.0)
        _in_range("thermal_budget", self.thermal_budget, self.max_on_time, self.thermal_window)


@dataclass(frozen=True)
class ServoSettings:
    """The turntable servo: its pulse range, its travel and how fast it turns."""

    min_angle: float = -90.0
    max_angle: float = 90.0
    min_pulse_width: float = 0.0005   # seconds, at min_angle
    max_pulse_width: float = 0.0025   # seconds, at max_angle
    frame_width: float = 0.020        # 50 Hz
    speed: float = 300.0              # degrees per second under the load of the shooter
    settle_time: float = 0.05         # after the computed travel, before firing

    def __post_init__(self) -> None:
        _in_range("speed", self.speed, *SERVO_SPEED_RANGE)

    def pulse_width(self, angle: float) -> float:
        """Seconds of pulse for ``angle``: linear from min_angle to max_angle (as gpiozero's AngularServo).

            >>> ServoSettings().pulse_width(0.0)
            0.0015
        """
        fraction = (angle - self.min_angle) / (self.max_angle - self.min_angle)
        return self.min_pulse_width + fraction * (self.max_pulse_width - self.min_pulse_width)


@dataclass(frozen=True)
class InputSettings:
    """Debounce times and polarities of the inputs."""

    button_debounce: float = 0.020    # a press counts once the contact is stable this long
    lid_close_debounce: float = 0.300 # closing must settle; opening acts at once
    exit_active_low: bool = True      # IR receiver pulls low while the beam is broken


@dataclass(frozen=True)
class BeeperSettings:
    """``active`` buzzer (on/off) or ``piezo`` (PWM tones)."""

    kind: str = "active"


@dataclass(frozen=True)
class HardwareSettings:
    pins: PinMap = field(default_factory=PinMap)
    motor: MotorSettings = field(default_factory=MotorSettings)
    servo: ServoSettings = field(default_factory=ServoSettings)
    inputs: InputSettings = field(default_factory=InputSettings)
    beeper: BeeperSettings = field(default_factory=BeeperSettings)
