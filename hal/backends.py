"""Choosing the pin factory and the servo backend, and saying which one was chosen.

gpiozero's own default tries lgpio, RPi.GPIO, pigpio and native in turn and warns at every
fallback; on a laptop that is four warnings before the real message. :func:`choose_pin_factory`
tries the same list quietly, honours ``GPIOZERO_PIN_FACTORY`` like gpiozero does, and either
returns the factory with its name or raises one :class:`NoPinFactoryError` that lists why each
one failed and what to do.

The servo has two backends: ``gpiozero`` (gpiozero's AngularServo on the pin factory's PWM; the
default) and ``sysfs`` (the kernel's hardware PWM, :mod:`hal.servo_sysfs`: no jitter on a Pi 5,
where lgpio's PWM is software-timed). pigpio is a pin factory, not a servo backend: on a Pi 1-4
its PWM is hardware-timed, so gpiozero's servo on it is steady too.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import HalError, InvalidValueError

if TYPE_CHECKING:
    from gpiozero.pins import Factory

FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
    "mock": ("gpiozero.pins.mock", "MockFactory"),
}
AUTO_ORDER = ("lgpio", "rpigpio", "pigpio", "native")
SERVO_BACKENDS = ("gpiozero", "sysfs")
HINT = ("on a laptop, --sim runs the simulator; on a Pi 5 install the [pi5] extra (lgpio), "
        "on a Pi 1-4 [pi4] (RPi.GPIO) or [pigpio] with the pigpiod daemon running")


class NoPinFactoryError(HalError):
    """No GPIO pin factory could be loaded here."""


def _load(name: str) -> Factory:
    if name not in FACTORIES:
        raise InvalidValueError("pin_factory", f"unknown pin factory {name!r} (known: {', '.join(FACTORIES)})")
    module, cls = FACTORIES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # native's "use a proper library" warning: we say it ourselves
        return getattr(__import__(module, fromlist=(cls,)), cls)()


def choose_pin_factory(name: str = "auto", *, environ: Mapping[str, str] = os.environ) -> tuple[Factory, str]:
    """The pin factory for real pins and its name.

    ``auto``: ``GPIOZERO_PIN_FACTORY`` if set, else the first of lgpio, rpigpio, pigpio, native
    that loads. Any other name: exactly that one. Raises :class:`NoPinFactoryError` (one message)."""
    if name == "auto" and environ.get("GPIOZERO_PIN_FACTORY"):
        name = environ["GPIOZERO_PIN_FACTORY"].lower()
        origin = " (from GPIOZERO_PIN_FACTORY)"
    else:
        origin = ""
    candidates = AUTO_ORDER if name == "auto" else (name,)
    reasons = []
    for candidate in candidates:
        try:
            return _load(candidate), candidate
        except (NoPinFactoryError, InvalidValueError):
            raise
        except Exception as exc:  # an import error, no /dev/gpiochip, not a Pi, no pigpiod ...
            reasons.append(f"{candidate}: {str(exc).strip() or type(exc).__name__}")
    raise NoPinFactoryError(f"no GPIO pin factory works here{origin} ({'; '.join(reasons)}); {HINT}")


def servo_maker(backend: str = "gpiozero", *, pwm_chip: int | None = None, root: Path = Path("/sys/class/pwm"),
                write: Callable[[Path, str], None] | None = None) -> Callable[..., Any]:
    """A function building the servo for :class:`~hal.hardware.Hardware` with the chosen backend."""
    if backend == "gpiozero":
        from .servo import GpioServo
        return GpioServo
    if backend == "sysfs":
        from .servo_sysfs import SysfsServo, find_pwm_chip, write_file

        def make(pin: int, *, clock: Any, settings: Any, pin_factory: Any = None) -> SysfsServo:
            return SysfsServo(pin, clock=clock, settings=settings, chip=find_pwm_chip(root, pwm_chip),
                              write=write or write_file)
        return make
    raise HalError(f"unknown servo backend {backend!r} (known: {', '.join(SERVO_BACKENDS)})")


def choose_backends(pin_factory: str = "auto", servo_backend: str = "gpiozero",
                    pwm_chip: int | None = None) -> tuple[Factory, Callable[..., Any], dict[str, str]]:
    """The pin factory, the servo maker and what they are (for status and the log), for real pins."""
    factory, name = choose_pin_factory(pin_factory)
    try:
        servo = servo_maker(servo_backend, pwm_chip=pwm_chip)
    except BaseException:
        factory.close()
        raise
    return factory, servo, {"pin_factory": name, "servo_backend": servo_backend}
