"""Bring-up on the console: raw servo angles (``aim angle=A``), storing a seat's angle
(``calibrate seat=S``) and what ``status`` adds about the hardware in use and where each
setting comes from. The part they run on is :class:`Bringup`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..commands.dispatch import Reply
from ..errors import BadArgument, Busy
from ..vocabulary import EventName

if TYPE_CHECKING:
    from hal.interfaces import Servo
    from hal.settings import ServoSettings

    from ..config import Config
    from ..launcher import Launcher
    from ..seats import Seats
    from .calibration import Calibration


@dataclass(kw_only=True)
class Bringup:
    """What bring-up reaches: the servo (moved only through the launcher), the seats, the calibration, the config
    as the file gave it (before the calibration) and the pin factory and servo backend in use."""

    servo: Servo
    limits: ServoSettings
    launcher: Launcher
    seating: Seats
    emit: Callable[..., None]
    calibration: Calibration | None = None
    config: Config | None = None
    hardware: dict[str, str] = field(default_factory=dict)

    def status(self) -> dict[str, Any]:
        status: dict[str, Any] = {}
        if self.hardware:
            status["hardware"] = dict(self.hardware)
        if self.calibration is not None and self.config is not None:
            status["sources"] = self.calibration.sources(self.config, self.seating.count())
        return status

    def aim_angle(self, angle: float) -> Reply:
        """``aim angle=A``: the raw angle, turned to by the launcher's machine (in the states that take it)."""
        s = self.limits
        if not s.min_angle <= angle <= s.max_angle:
            raise BadArgument(f"angle= must be between {s.min_angle:g} and {s.max_angle:g}, "
                                               f"got {angle:g}")
        seconds = self.launcher.turn_to(angle)
        if seconds is None:
            raise Busy("the shooter is turning or firing; aim when it is done")
        return {"angle": angle, "seconds": round(seconds, 3)}


def calibrate_seat(bringup: Bringup, seat: int) -> Reply:
    seats = bringup.seating.count()
    if seat > seats:
        raise BadArgument(f"seat= must be 1..{seats}, got {seat}")
    angle = bringup.servo.angle
    calibration = bringup.calibration
    if angle is None or calibration is None:
        raise BadArgument("the servo has not been moved yet: aim angle=A first")
    calibration.store_seat(seats, seat, angle, bringup.seating.angles())
    bringup.seating.forget()
    bringup.launcher.forget_seat()
    store = calibration.store  # save() writes only with a store: an OSError means there is one
    try:
        path = calibration.save()
    except OSError as exc:
        bringup.emit(EventName.SAVE_FAILED, path=None if store is None else str(store.path), message=str(exc))
        path = None
    return {"seat": seat, "players": seats, "angle": angle, "file": None if path is None else str(path)}
