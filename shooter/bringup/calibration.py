"""Values measured on this shooter, kept in the state directory, overriding the config.

``uno-shooter calibrate`` and the console command ``calibrate seat=S`` write them to
``calibration.json`` next to the saved game (atomically, like the game). At start they are laid
over the config: seat angles per number of players, ``motor.seconds_per_card``, ``motor.spin_up``
and ``servo.speed``. ``status`` says for each of these where its value comes from: ``calibration``,
``config`` (the file sets it) or ``default``.

A calibration file that cannot be read (bad JSON, a wrong type, an angle out of range, ...) is set aside
like every bad state file (:meth:`~shooter.persist.Store.load_or_set_aside`: one log line naming the file
and the key); one that reads but does not fit the config's limits is ignored and kept. Either way the
controller runs on the config alone and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hal import InvalidValueError

from .. import shown
from ..config import Config, _number, check_measured
from ..errors import ConfigError, InstallError
from ..persist import Store
from ..table.args import MAX_SEATS, MIN_SEATS, whole_in

CALIBRATION_FILE = "calibration.json"
MOTOR_KEYS = ("seconds_per_card", "spin_up")


def _object(key: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{key}: must be an object, got {shown.value(value)}")
    return value


@dataclass
class Calibration:
    """Seat angles (players -> one angle per seat) and measured motor and servo values."""

    seat_angles: dict[int, list[float]] = field(default_factory=dict)
    motor: dict[str, float] = field(default_factory=dict)     # seconds_per_card, spin_up
    servo_speed: float | None = None
    store: Store | None = None                                # None: kept in memory only

    @classmethod
    def load(cls, state_dir: Path | None, log: Callable[[str], None]) -> Calibration:
        """The calibration in ``state_dir``: an empty one if there is none yet, or if the file is bad (then
        it is set aside, said in the log, and the next calibration writes a good one); an empty one kept in
        memory if the directory cannot be used."""
        if state_dir is None:
            return cls()
        try:
            store = Store(state_dir, CALIBRATION_FILE)
        except InstallError:
            raise
        except OSError as exc:
            log(f"uno-shooter: calibration ignored: cannot use the state directory {state_dir}: "
                f"{exc.strerror or exc}")
            return cls()
        calibration = store.load_or_set_aside(lambda data: cls.from_dict(data, where=str(store.path)), log=log,
                                              fresh="calibration ignored: the config alone") or cls()
        calibration.store = store
        return calibration

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = CALIBRATION_FILE) -> Calibration:
        """The calibration in ``data`` (the file's JSON object); a ConfigError naming the file and the key."""
        try:
            unknown = set(data) - {"seat_angles", "motor", "servo_speed"}
            if unknown:
                raise ConfigError(f"unknown key {sorted(unknown)[0]!r}")
            angles = {}
            for players, values in _object("seat_angles", data.get("seat_angles", {})).items():
                try:   # the config's rule for a number typed as text ("²" is a digit to isdigit(), not to int())
                    seats = whole_in(players, MIN_SEATS, MAX_SEATS)
                except ValueError:
                    raise ConfigError(f"seat_angles.{players}: the key must be a number of players, "
                                      f"{MIN_SEATS}..{MAX_SEATS}") from None
                if not isinstance(values, list) or len(values) != seats:
                    raise ConfigError(f"seat_angles.{players}: must be a list of {seats} angles")
                angles[seats] = [float(_number(f"seat_angles.{players}", v, -360, 360)) for v in values]
            motor = _object("motor", data.get("motor", {}))
            for key, value in motor.items():
                if key not in MOTOR_KEYS:
                    raise ConfigError(f"motor.{key}: unknown key")
                _number(f"motor.{key}", value, 0, 5)
            speed = data.get("servo_speed")
            if speed is not None:
                _number("servo_speed", speed, positive=True)
        except (ConfigError, TypeError, ValueError, OverflowError) as exc:
            raise ConfigError(f"{where}: {exc}") from None
        return cls(seat_angles=angles, motor={k: float(v) for k, v in motor.items()},
                   servo_speed=None if speed is None else float(speed))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat_angles": {str(n): a for n, a in sorted(self.seat_angles.items())},
                      "motor": dict(self.motor)}
        if self.servo_speed is not None:
            data["servo_speed"] = self.servo_speed
        return data

    def save(self) -> Path | None:
        """Write the file (atomically); the path, or None when kept in memory only."""
        if self.store is None:
            return None
        self.store.save(self.to_dict())
        return self.store.path

    # ---- laid over the config ----
    def apply(self, config: Config) -> Config:
        """The config with the calibrated values in place of the file's or the defaults. The result must pass
        the config's own checks (the servo's range and speed, the longest burst in one motor run): a
        calibration that does not is a ConfigError naming the value, and the config is used alone."""
        where = str(self.store.path) if self.store is not None else CALIBRATION_FILE
        try:
            hardware = config.hardware
            if self.servo_speed is not None:
                hardware = replace(hardware, servo=replace(hardware.servo, speed=self.servo_speed))
            seat_angles = {**config.seat_angles, **{n: tuple(a) for n, a in self.seat_angles.items()}}
            calibrated = replace(config, hardware=hardware, launcher=replace(config.launcher, **self.motor),
                                 seat_angles=seat_angles)
            check_measured(calibrated)
        except InvalidValueError as exc:  # a hard limit of hal's settings (servo.speed)
            raise ConfigError(f"{where}: servo.{exc.key}: {exc.problem}") from None
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        return calibrated

    @classmethod
    def applied(cls, state_dir: Path | None, config: Config, log: Callable[[str], None]) -> tuple[Calibration, Config]:
        """The calibration in ``state_dir`` and the config with it laid over; a calibration that cannot be read
        or does not pass the config's checks is ignored (said in the log): the config alone; the next
        calibration (``uno-shooter calibrate``, ``calibrate seat=S``) writes a good file in its place."""
        calibration = cls.load(state_dir, log)
        try:
            return calibration, calibration.apply(config)
        except ConfigError as exc:
            log(f"uno-shooter: calibration ignored: {exc}; the next calibration replaces it")
            return cls(store=calibration.store), config

    def sources(self, config: Config, players: int) -> dict[str, str]:
        """Where each calibratable value in use comes from: calibration, config or default."""
        def source(key: str, calibrated: bool) -> str:
            return "calibration" if calibrated else ("config" if key in config.given else "default")
        keys = {f"motor.{k}": source(f"motor.{k}", k in self.motor) for k in MOTOR_KEYS}
        keys["servo.speed"] = source("servo.speed", self.servo_speed is not None)
        for n in sorted({players, *config.seat_angles, *self.seat_angles}):
            keys[f"servo.seat_angles.{n}"] = source(f"servo.seat_angles.{n}", n in self.seat_angles)
        return keys

    def store_seat(self, players: int, seat: int, angle: float, current: list[float]) -> None:
        """Seat ``seat`` of ``players`` points at ``angle``; the other seats keep ``current``."""
        angles = list(self.seat_angles.get(players, current))
        angles[seat - 1] = round(float(angle), 3)
        self.seat_angles[players] = angles
