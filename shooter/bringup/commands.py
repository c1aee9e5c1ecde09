"""Bring-up on the console: raw servo angles (``aim angle=A``), storing a seat's angle
(``calibrate seat=S``) and what ``status`` adds about the hardware in use and where each
setting comes from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dispatch import Reply
from ..errors import CommandError

if TYPE_CHECKING:
    from ..controller import Controller


def bringup_status(ctl: Controller) -> dict[str, Any]:
    status: dict[str, Any] = {}
    if ctl.hardware_info:
        status["hardware"] = dict(ctl.hardware_info)
    if ctl.calibration is not None and ctl.config is not None:
        status["sources"] = ctl.calibration.sources(ctl.config, ctl.seats)
    return status


def aim_angle(ctl: Controller, angle: float) -> Reply:
    s = ctl.hw.settings.servo
    if not s.min_angle <= angle <= s.max_angle:
        raise CommandError("bad-argument", f"angle= must be between {s.min_angle:g} and {s.max_angle:g}, "
                                           f"got {angle:g}")
    if not ctl.launcher.rules.aim_angle:
        raise CommandError("busy", "the shooter is turning or firing; aim when it is done")
    ctl.launcher.aimed_seat = None  # at no seat now: the next shot turns first
    seconds = ctl.hw.servo.move_to(angle)
    return {"angle": angle, "seconds": round(seconds, 3)}


def calibrate_seat(ctl: Controller, seat: int) -> Reply:
    if seat > ctl.seats:
        raise CommandError("bad-argument", f"seat= must be 1..{ctl.seats}, got {seat}")
    angle = ctl.hw.servo.angle
    if angle is None or ctl.calibration is None:
        raise CommandError("bad-argument", "the servo has not been moved yet: aim angle=A first")
    ctl.calibration.store_seat(ctl.seats, seat, angle, ctl.seating.angles())
    ctl.seating.forget()
    ctl.launcher.aimed_seat = None
    store = ctl.calibration.store  # save() writes only with a store: an OSError means there is one
    try:
        path = ctl.calibration.save()
    except OSError as exc:
        ctl.emit("save-failed", path=None if store is None else str(store.path), message=str(exc))
        path = None
    return {"seat": seat, "players": ctl.seats, "angle": angle, "file": None if path is None else str(path)}
