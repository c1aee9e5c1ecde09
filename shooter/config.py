"""The config file: one TOML file, validated at start.

Every key has a default that fits the reference hardware (docs/design.md), so an empty
file (or none) is a valid config. Every problem is a :class:`ConfigError` whose
message is one line naming the key (the one the file got wrong: a thermal_window
too short for the default thermal_budget is the window's fault) and what is wrong
with it, the value shortened and escaped (:mod:`shooter.shown`); unknown keys are
refused (a typo must not silently fall back to a default). The file itself must be
a regular file of at most :data:`MAX_CONFIG_BYTES` (a FIFO or /dev/zero is refused,
never read).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from hal import BeeperSettings, HardwareSettings, InputSettings, InvalidValueError, MotorSettings, PinMap, ServoSettings

from .camera.words import SIM_SCENES, SimScene
from .errors import ConfigError
from .files import NotAFile, read_regular
from .launcher import LauncherSettings
from .shown import one_line, value as _shown
from .table.args import MAX_SEATS, MIN_SEATS, whole_in

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

DEFAULT_PATH = Path("/etc/uno-shooter/config.toml")
MAX_CONFIG_BYTES = 1024 * 1024          # a real config is a few kB
PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "pigpio", "native")
SERVO_BACKENDS = ("gpiozero", "sysfs")
_BARE = re.compile(r"[A-Za-z0-9_-]{1,40}")
# hal's ranges that a key of the file can move: (section, key) -> the keys of its lower and upper bound
RANGE_BOUNDS = {("motor", "thermal_budget"): ("max_on_time", "thermal_window")}
RESERVED_PINS = {2: "GPIO2 has a fixed pull-up (I2C)", 3: "GPIO3 has a fixed pull-up (I2C)",
                 14: "GPIO14 is the UART's TX", 15: "GPIO15 is the UART's RX"}


@dataclass(frozen=True)
class ConsoleConfig:
    stdio: bool = False
    tcp_port: int = 0                      # 0 = no TCP console; listens on 127.0.0.1 only
    serial: tuple[str, ...] = ()           # e.g. ("/dev/rfcomm0", "/dev/ttyGS0")
    baudrate: int = 115200
    reopen_interval: float = 2.0           # seconds between tries to reopen a lost serial port
    max_clients: int = 8                   # TCP connections at once; more get a one-line refusal


@dataclass(frozen=True)
class WebConfig:
    listen: str = "off"                    # "HOST:PORT" (e.g. "0.0.0.0:8080") or "off"
    max_connections: int = 16              # WebSockets at once (phones, tabs)


def parse_listen(key: str, value: object) -> tuple[str, int] | None:
    """``"HOST:PORT"`` as (host, port); None for ``"off"``."""
    if not isinstance(value, str):
        raise _err(key, f"must be \"HOST:PORT\" or \"off\", got {_shown(value)}")
    if value == "off":
        return None
    host, sep, port = value.rpartition(":")
    number = _whole(port, 0, 65535)
    if not sep or not host or number is None:
        raise _err(key, f"must be \"HOST:PORT\" (e.g. \"0.0.0.0:8080\") or \"off\", got {_shown(value)}")
    return host.strip("[]"), number


def _whole(text: str, lo: int, hi: int) -> int | None:
    """``text`` as a whole number lo..hi by the console's own check (ASCII digits: "²" is a digit to
    ``isdigit()``, not to ``int()``), or None."""
    try:
        return whole_in(text, lo, hi)
    except ValueError:
        return None


CAMERA_BACKENDS = ("picamera2", "opencv", "sim")   # hal.camera.BACKENDS (not imported: it is loaded with a camera)
CAMERA_REPORTS = ("off", "ask", "auto")


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: the camera over the discard pile (docs/vision.md). ``pile`` is the region of the frame the
    pile lies in (x, y, w, h pixels; None: the whole frame); ``report`` what a read does: nothing (off), ask the
    phones to confirm it (ask), or play it when sure (auto): at least ``threshold`` sure."""

    backend: str = "picamera2"
    device: int | str = 0
    resolution: tuple[int, int] = (640, 480)
    pile: tuple[int, int, int, int] | None = None
    report: str = "off"
    threshold: float = 0.9   # how sure a read must be to be played in auto (shooter.camera.pile_reports.PileSettings)


def _camera(data: object) -> CameraConfig | None:
    if data is None:
        return None
    table = _table("camera", data)
    _only("camera", table, {f.name for f in fields(CameraConfig)})
    backend = _str("camera.backend", table.get("backend", "picamera2"), CAMERA_BACKENDS)
    device = table.get("device", 0)
    if isinstance(device, bool) or not isinstance(device, (int, str)) or (isinstance(device, int) and device < 0):
        raise _err("camera.device", f"must be a camera number (0, 1, ...) or a device path, got {_shown(device)}")
    if isinstance(device, str):
        _path("camera.device", device)
    size = table.get("resolution", [640, 480])
    if not (isinstance(size, list) and len(size) == 2):
        raise _err("camera.resolution", f"must be [width, height], got {_shown(size)}")
    width = _number("camera.resolution[0]", size[0], 160, 4096, integer=True)
    height = _number("camera.resolution[1]", size[1], 120, 4096, integer=True)
    pile = table.get("pile")
    if pile is not None:
        if not (isinstance(pile, list) and len(pile) == 4):
            raise _err("camera.pile", f"must be [x, y, w, h] (pixels of the frame), got {_shown(pile)}")
        x, y = (_number(f"camera.pile[{i}]", pile[i], 0, None, integer=True) for i in (0, 1))
        w, h = (_number(f"camera.pile[{i}]", pile[i], 32, None, integer=True) for i in (2, 3))
        if x + w > width or y + h > height:
            raise _err("camera.pile", f"[{x}, {y}, {w}, {h}] reaches outside the {width}x{height} frame")
        pile = (x, y, w, h)
    report = _str("camera.report", table.get("report", "off"), CAMERA_REPORTS)
    threshold = _number("camera.threshold", table.get("threshold", 0.9), 0.01, 1.0)
    return CameraConfig(backend, device, (width, height), pile, report, threshold)


@dataclass(frozen=True)
class Config:
    hardware: HardwareSettings = field(default_factory=HardwareSettings)
    launcher: LauncherSettings = field(default_factory=LauncherSettings)
    seat_angles: dict[int, tuple[float, ...]] = field(default_factory=dict)
    default_seats: int = 4
    scheduler_profile: str = "original"
    scheduler_profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules: dict[str, Any] = field(default_factory=dict)
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    state_dir: Path = Path("/var/lib/uno-shooter")
    pin_factory: str = "auto"
    sim_cards: int = 83                    # 112 cards - 4 hands of 7 - the first card
    sim_scene: str = SimScene.HELD_OUT     # the simulated camera's light, pose and hands (camera/words.py)
    watchdog: bool = True
    servo_backend: str = "gpiozero"        # or "sysfs": the kernel's hardware PWM (hal.servo_sysfs)
    pwm_chip: int | None = None            # /sys/class/pwm/pwmchipN for the sysfs servo; None = the only one
    given: frozenset[str] = frozenset()    # the dotted keys the file set (status: config or default)
    web: WebConfig = field(default_factory=WebConfig)
    camera: CameraConfig | None = None     # no [camera]: no camera, nothing of it loaded


def _err(key: str, problem: str) -> ConfigError:
    return ConfigError(f"{key}: {problem}")


def _key(section: str, key: object) -> str:
    """A dotted key as the file writes it: a key that is not bare is quoted, its control characters escaped."""
    text = str(key)
    shown = text if _BARE.fullmatch(text) else json.dumps(text, ensure_ascii=False)
    return f"{section}.{shown}" if section else shown


# A check of one value as the TOML file gave it: (dotted key, value) -> the value to keep; raises ConfigError.
Check = Callable[[str, Any], Any]
Settings = TypeVar("Settings", bound="DataclassInstance")


def _type_name(v: object) -> str:
    return type(v).__name__


def _number(key: str, v: Any, lo: float | None = None, hi: float | None = None, integer: bool = False,
            positive: bool = False) -> Any:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (integer and not isinstance(v, int)):
        raise _err(key, f"must be {'a whole number' if integer else 'a number'}, got {_shown(v)} ({_type_name(v)})")
    if isinstance(v, float) and not math.isfinite(v):
        raise _err(key, f"must be a finite number, got {_shown(v)}")
    if positive and v <= 0:
        raise _err(key, f"must be greater than 0, got {_shown(v)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise _err(key, f"must be between {lo} and {hi}, got {_shown(v)}")
    return v


def _bool(key: str, v: object) -> bool:
    if not isinstance(v, bool):
        raise _err(key, f"must be true or false, got {_shown(v)}")
    return v


def _str(key: str, v: object, choices: Iterable[str] | None = None) -> str:
    if not isinstance(v, str):
        raise _err(key, f"must be a string, got {_shown(v)}")
    if choices is not None and v not in choices:
        raise _err(key, f"must be one of {', '.join(choices)}, got {_shown(v)}")
    return v


def _path(key: str, v: object) -> str:
    """A file or directory name: text that the system takes (not empty, no NUL byte)."""
    if not isinstance(v, str) or not v or "\0" in v:
        raise _err(key, f"must be a path (text without NUL bytes), got {_shown(v)}")
    return v


def _table(key: str, v: object) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _err(key, f"must be a table, got {_shown(v)}")
    return v


def _only(section: str, table: Mapping[str, object], allowed: Iterable[str]) -> None:
    for k in table:
        if k not in allowed:
            raise _err(_key(section, k), f"unknown key (known: {', '.join(sorted(allowed))})")


def _settings(section: str, table: object, cls: type[Settings], checks: Mapping[str, Check]) -> Settings:
    """Fill dataclass ``cls`` from ``table``; ``checks`` maps field -> validator(key, value)."""
    table = _table(section, table)
    names = {f.name for f in fields(cls)}
    _only(section, table, names)
    values = {}
    for name, value in table.items():
        check = checks.get(name)
        values[name] = check(f"{section}.{name}", value) if check else value
    try:
        return cls(**values)
    except InvalidValueError as exc:  # a hard limit of the hardware layer (hal/settings.py)
        raise _culprit(section, table, cls, exc) from None


def _culprit(section: str, table: dict[str, Any], cls: type[DataclassInstance], exc: InvalidValueError) -> ConfigError:
    """hal's error, named by the key the file got wrong: a key the file leaves out keeps its default, so if
    that default is out of its range, the bound the file moved is at fault (``motor.thermal_window = 10``
    is shorter than the default ``thermal_budget``: the window is named, not the budget)."""
    bounds = RANGE_BOUNDS.get((section, exc.key))
    if bounds is not None and exc.key not in table:
        default = getattr(cls(), exc.key)
        low, high = bounds
        if high in table and default > table[high]:
            return _err(f"{section}.{high}", f"must be at least {section}.{exc.key} ({default}, its default; set "
                                             f"{section}.{exc.key} too), got {_shown(table[high])}")
        if low in table and default < table[low]:
            return _err(f"{section}.{low}", f"must be at most {section}.{exc.key} ({default}, its default; set "
                                            f"{section}.{exc.key} too), got {_shown(table[low])}")
    return _err(f"{section}.{exc.key}", exc.problem)


def _pin(key: str, v: Any) -> int | None:
    if v is False and key.endswith("exit_sensor"):
        return None
    pin: int = _number(key, v, 0, 27, integer=True)
    if pin in RESERVED_PINS:
        raise _err(key, f"GPIO{pin} is not free: {RESERVED_PINS[pin]}")
    return pin


def _positive(key: str, v: Any) -> Any:
    return _number(key, v, positive=True)


def _duty(key: str, v: Any) -> float:
    _number(key, v, 0, 1)
    if v == 0:
        raise _err(key, "must be greater than 0")
    return float(v)


def _tcp_port(key: str, v: Any) -> int:
    port: int = _number(key, v, 0, 65535, integer=True)
    if 0 < port < 1024:
        raise _err(key, f"port {port} is a privileged port (below 1024): use 1024..65535, or 0 for none")
    return port


def parse_config(data: dict[str, Any]) -> Config:
    """Validate a parsed TOML document and build the :class:`Config`."""
    _only("", data, {"pins", "motor", "servo", "inputs", "beeper", "scheduler", "rules", "table",
                     "console", "state", "hardware", "sim", "service", "web", "camera"})
    pins = _settings("pins", data.get("pins", {}), PinMap, {f.name: _pin for f in fields(PinMap)})
    used: dict[int, str] = {}
    for part, pin in pins.used().items():
        if pin in used:
            raise _err(f"pins.{part}", f"GPIO{pin} is already used by pins.{used[pin]}")
        used[pin] = part
    motor_t = dict(_table("motor", data.get("motor", {})))
    hal_keys = {f.name for f in fields(MotorSettings)}
    launcher_keys = {f.name for f in fields(LauncherSettings)}
    _only("motor", motor_t, hal_keys | launcher_keys)
    motor = _settings("motor", {k: v for k, v in motor_t.items() if k in hal_keys}, MotorSettings,
                      {"max_on_time": _number, "rest_time": _number, "thermal_window": _number,
                       "thermal_budget": _number,  # ranges: hal/settings.py's hard limits
                       "pwm_frequency": lambda k, v: _number(k, v, 1, 100000, integer=True)})
    launcher = _settings("motor", {k: v for k, v in motor_t.items() if k in launcher_keys}, LauncherSettings,
                         {"duty": _duty, "retract_duty": _duty, "jam_timeout": _positive,
                          "retract_time": lambda k, v: _number(k, v, 0, 5),
                          "seconds_per_card": _positive, "spin_up": lambda k, v: _number(k, v, 0, 5)})
    if launcher.jam_timeout >= motor.max_on_time:
        raise _err("motor.jam_timeout", f"must be shorter than motor.max_on_time ({motor.max_on_time})")
    if launcher.retract_time >= motor.max_on_time:
        raise _err("motor.retract_time", f"must be shorter than motor.max_on_time ({motor.max_on_time})")

    servo_t = dict(_table("servo", data.get("servo", {})))
    seat_angles_t = servo_t.pop("seat_angles", {})
    servo = _settings("servo", servo_t, ServoSettings,
                      {"min_angle": lambda k, v: float(_number(k, v, -360, 360)),
                       "max_angle": lambda k, v: float(_number(k, v, -360, 360)),
                       "min_pulse_width": lambda k, v: float(_number(k, v, 0.0001, 0.01)),
                       "max_pulse_width": lambda k, v: float(_number(k, v, 0.0001, 0.01)),
                       "frame_width": lambda k, v: float(_number(k, v, 0.002, 0.1)),
                       "speed": _number, "settle_time": lambda k, v: _number(k, v, 0, 5)})
    if servo.min_angle >= servo.max_angle:
        raise _err("servo.max_angle", "must be greater than servo.min_angle")
    if servo.min_pulse_width >= servo.max_pulse_width:
        raise _err("servo.max_pulse_width", "must be greater than servo.min_pulse_width")
    seat_angles = {}
    for players, angles in _table("servo.seat_angles", seat_angles_t).items():
        key = _key("servo.seat_angles", players)
        seats = _whole(players, MIN_SEATS, MAX_SEATS)
        if seats is None:
            raise _err(key, f"the key must be a number of players, {MIN_SEATS}..{MAX_SEATS}")
        if not isinstance(angles, list) or len(angles) != seats:
            raise _err(key, f"must be a list of {seats} angles, one per seat")
        for i, a in enumerate(angles):
            _number(f"{key}[{i}]", a, servo.min_angle, servo.max_angle)
        seat_angles[seats] = tuple(float(a) for a in angles)

    inputs = _settings("inputs", data.get("inputs", {}), InputSettings,
                       {"button_debounce": lambda k, v: _number(k, v, 0, 1),
                        "lid_close_debounce": lambda k, v: _number(k, v, 0, 5),
                        "exit_active_low": _bool})
    beeper = _settings("beeper", data.get("beeper", {}), BeeperSettings,
                       {"kind": lambda k, v: _str(k, v, ("active", "piezo"))})

    sched = _table("scheduler", data.get("scheduler", {}))
    _only("scheduler", sched, {"profile", "profiles"})
    profiles = _table("scheduler.profiles", sched.get("profiles", {}))
    from .scheduler import PROFILES, profile_from_config
    for name, table in profiles.items():
        profile_from_config(name, _table(f"scheduler.profiles.{name}", table))  # raises ConfigError
    profile = _str("scheduler.profile", sched.get("profile", "original"))
    if profile not in PROFILES and profile not in profiles:
        raise _err("scheduler.profile", f"no profile {_shown(profile)} (built in: {', '.join(PROFILES)}; "
                                        f"defined: {', '.join(profiles) or 'none'})")
    _check_longest_burst(launcher, motor, profile, dict(profiles))

    rules = _table("rules", data.get("rules", {}))
    from .table import RuleOptions
    rule_names = {f.name for f in fields(RuleOptions)}
    _only("rules", rules, rule_names)
    for name, value in rules.items():   # one at a time: the error names the key
        try:
            RuleOptions(**{name: value})
        except (TypeError, ValueError):
            raise _err(f"rules.{name}", f"not a valid value: {_shown(value)}") from None

    table_t = _table("table", data.get("table", {}))
    _only("table", table_t, {"default_seats"})
    default_seats = _number("table.default_seats", table_t.get("default_seats", 4), MIN_SEATS, MAX_SEATS,
                            integer=True)

    console_t = dict(_table("console", data.get("console", {})))
    if "serial" in console_t:
        ports = console_t["serial"]
        if not isinstance(ports, list) or not all(isinstance(p, str) and p and "\0" not in p for p in ports):
            raise _err("console.serial", f"must be a list of device paths, got {_shown(ports)}")
        console_t["serial"] = tuple(ports)
    console = _settings("console", console_t, ConsoleConfig,
                        {"stdio": _bool, "tcp_port": _tcp_port,
                         "max_clients": lambda k, v: _number(k, v, 1, 256, integer=True),
                         "baudrate": lambda k, v: _number(k, v, 300, 4000000, integer=True),
                         "reopen_interval": _positive})

    state_t = _table("state", data.get("state", {}))
    _only("state", state_t, {"dir"})
    state_dir = Path(_path("state.dir", state_t.get("dir", "/var/lib/uno-shooter")))

    hardware_t = _table("hardware", data.get("hardware", {}))
    _only("hardware", hardware_t, {"pin_factory", "servo_backend", "pwm_chip"})
    pin_factory = _str("hardware.pin_factory", hardware_t.get("pin_factory", "auto"), PIN_FACTORIES)
    servo_backend = _str("hardware.servo_backend", hardware_t.get("servo_backend", "gpiozero"), SERVO_BACKENDS)
    pwm_chip = hardware_t.get("pwm_chip")
    if pwm_chip is not None:
        _number("hardware.pwm_chip", pwm_chip, 0, 63, integer=True)

    sim_t = _table("sim", data.get("sim", {}))
    _only("sim", sim_t, {"cards", "scene"})
    sim_cards = _number("sim.cards", sim_t.get("cards", 83), 0, 500, integer=True)
    sim_scene = _str("sim.scene", sim_t.get("scene", SimScene.HELD_OUT.value), SIM_SCENES)

    service_t = _table("service", data.get("service", {}))
    _only("service", service_t, {"watchdog"})
    watchdog = _bool("service.watchdog", service_t.get("watchdog", True))

    web = _settings("web", data.get("web", {}), WebConfig,
                    {"listen": lambda k, v: (parse_listen(k, v), v)[1],
                     "max_connections": lambda k, v: _number(k, v, 1, 256, integer=True)})

    return Config(hardware=HardwareSettings(pins=pins, motor=motor, servo=servo, inputs=inputs, beeper=beeper),
                  launcher=launcher, seat_angles=seat_angles, default_seats=default_seats,
                  scheduler_profile=profile, scheduler_profiles=dict(profiles), rules=dict(rules),
                  console=console, state_dir=state_dir, pin_factory=pin_factory, sim_cards=sim_cards,
                  sim_scene=sim_scene, watchdog=watchdog, servo_backend=servo_backend, pwm_chip=pwm_chip,
                  given=_given(data), web=web, camera=_camera(data.get("camera")))


def _check_longest_burst(launcher: LauncherSettings, motor: MotorSettings, profile: str,
                         profiles: dict[str, Any]) -> None:
    """The longest burst of the chosen profile, with its spin-up and pull-back, fits in one motor run."""
    from .scheduler import PROFILES, profile_from_config
    chosen = PROFILES.get(profile) or profile_from_config(profile, profiles[profile])
    # The pull-back reverses the motor at the end of a burst: one run, bounded by max_on_time.
    longest = launcher.spin_up + chosen.max_burst * launcher.seconds_per_card + launcher.retract_time
    if longest >= motor.max_on_time:
        raise _err("motor.max_on_time", f"must be longer than the longest burst of profile {_shown(profile)} "
                                        f"({chosen.max_burst} cards = {longest:.2f} s by motor.spin_up, "
                                        f"motor.seconds_per_card and motor.retract_time), got {motor.max_on_time}")


def check_measured(config: Config) -> None:
    """The checks of :func:`parse_config` that involve the values a calibration lays over the config (seat
    angles within the servo's range, the longest burst within one motor run); raises ConfigError."""
    servo = config.hardware.servo
    for players, angles in config.seat_angles.items():
        for i, a in enumerate(angles):
            _number(f"servo.seat_angles.{players}[{i}]", a, servo.min_angle, servo.max_angle)
    _check_longest_burst(config.launcher, config.hardware.motor, config.scheduler_profile,
                         config.scheduler_profiles)


def _given(data: dict[str, Any], prefix: str = "") -> frozenset[str]:
    """Every dotted key a parsed file sets (``servo.seat_angles.4``, ``motor.spin_up``, ...)."""
    keys: set[str] = set()
    for key, value in data.items():
        if isinstance(value, dict):
            keys |= _given(value, f"{prefix}{key}.")
        else:
            keys.add(f"{prefix}{key}")
    return frozenset(keys)


def load_config(path: Path | None) -> Config:
    """Read and validate the config file; a missing default file means all defaults."""
    if path is None:
        if not DEFAULT_PATH.exists():
            return parse_config({})
        path = DEFAULT_PATH
    try:
        text = read_regular(path, MAX_CONFIG_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise _file_error(path, "no such file") from None
    except OSError as exc:
        raise _file_error(path, f"cannot be read: {exc.strerror or exc}") from None
    except (NotAFile, UnicodeDecodeError) as exc:
        raise _file_error(path, f"cannot be read: {exc}") from None
    import tomllib  # only when there is a file to read: the built-in defaults start without it
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(path, f"not valid TOML: {exc}") from None
    except RecursionError:
        raise _file_error(path, "not valid TOML: arrays or tables nested too deeply") from None
    try:
        return parse_config(data)
    except ConfigError as exc:
        raise _file_error(path, str(exc)) from None


def _file_error(path: Path | str, problem: str) -> ConfigError:
    """The one line a bad config file gets: its path, the key and the problem, printable and short."""
    return ConfigError(one_line(f"{path}: {problem}"))


HARDWARE_PWM_PINS = (12, 13, 18, 19)   # the Pi's PWM0/PWM1 channels


def config_warnings(config: Config) -> list[str]:
    """Things a config allows that will probably not work well; each names the key."""
    warnings = []
    servo = config.hardware.pins.servo
    if servo not in HARDWARE_PWM_PINS:
        warnings.append(f"pins.servo: GPIO{servo} has no hardware PWM (GPIO12, 13, 18 or 19 have): the servo "
                        f"gets software PWM and may jitter")
    return warnings
