"""Physical constants of the simulated shooter (seconds, degrees, cards)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SimParams:
    spin_up: float = 0.06        # roller from rest until it grips (dead time)
    feed_time: float = 0.09      # at full speed: a resting card's front edge to the exit beam
    pass_time: float = 0.04      # at full speed: a card through the beam (beam broken)
    take_delay: float = 0.8      # a player pulls a card left sticking out (T-STUCK)
    servo_speed: float = 360.0   # the real servo's speed, deg/s (the HAL assumes a slower one)
    servo_min_pulse: float = 0.0005
    servo_max_pulse: float = 0.0025
    servo_min_angle: float = -90.0
    servo_max_angle: float = 90.0
    press_time: float = 0.12     # how long a finger holds the button
    bounce_max: int = 4          # contact bounces on a press or a release
    bounce_gap: float = 0.0015   # seconds between bounce edges at most
    lid_bounces: int = 3         # bounces when the lid is shut

    def __post_init__(self) -> None:
        if self.pass_time >= self.feed_time:
            raise ValueError("pass_time must be shorter than feed_time: one card in the beam at a time")
