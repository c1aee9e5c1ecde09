"""The servo on the kernel's hardware PWM, through sysfs (``/sys/class/pwm/pwmchipN/pwmM``).

lgpio's PWM on a Pi 5 is timed in software and a servo jitters on it; the RP1's PWM block is not.
With ``dtoverlay=pwm-2chan`` in ``/boot/firmware/config.txt`` (``pin=18 func=2 pin2=19 func2=2``
for GPIO18/19, the defaults) the kernel exposes a PWM chip; exporting a channel makes its
``period``, ``duty_cycle``, ``polarity`` and ``enable`` files appear. The kernel refuses a duty
cycle longer than the period and a polarity change while enabled, so the order of the writes
matters: ``enable 0``, ``polarity normal``, ``duty_cycle 0``, ``period``, then for every move
``duty_cycle`` (and ``enable 1`` after the first). Closing disables and unexports the channel.

The move timing (speed, settle time, ``on_arrived``) is :class:`~hal.servo.GpioServo`'s; only the
output differs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .clock import Clock
from .errors import DeviceClosedError, HalError
from .servo import GpioServo
from .settings import ServoSettings

Write = Callable[[Path, str], None]


# ---- the kernel's hardware PWM ----
# BCM pin -> PWM channel, by the number of channels the chip has: the Pi 5's RP1 has 4
# (dtoverlay=pwm-2chan maps GPIO12/13/18/19 to channels 0/1/2/3); a Pi 1-4 has 2 (GPIO12 and 18
# are PWM0, GPIO13 and 19 are PWM1).
PWM_CHANNELS = {4: {12: 0, 13: 1, 18: 2, 19: 3}, 2: {12: 0, 18: 0, 13: 1, 19: 1}}


def pwm_channel(pin: int, npwm: int) -> int:
    """The hardware PWM channel that drives BCM ``pin`` on a chip with ``npwm`` channels."""
    table = PWM_CHANNELS.get(npwm)
    if table is None:
        raise HalError(f"a PWM chip with {npwm} channels is not a Raspberry Pi's (2 on a Pi 1-4, 4 on a Pi 5)")
    if pin not in table:
        raise HalError(f"GPIO{pin} has no hardware PWM: use GPIO{', GPIO'.join(map(str, sorted(table)))} "
                       f"for the servo with servo_backend = \"sysfs\"")
    return table[pin]


def find_pwm_chip(root: Path = Path("/sys/class/pwm"), chip: int | None = None) -> Path:
    """``root/pwmchipN``: the given chip, or the only one there is (else say which exist)."""
    if chip is not None:
        path = root / f"pwmchip{chip}"
        if not path.is_dir():
            raise HalError(f"{path} does not exist: add dtoverlay=pwm-2chan to /boot/firmware/config.txt "
                           f"and reboot, or set hardware.pwm_chip (ls {root})")
        return path
    chips = sorted(root.glob("pwmchip*")) if root.is_dir() else []
    if len(chips) != 1:
        found = ", ".join(p.name for p in chips) or "none"
        raise HalError(f"cannot tell which PWM chip drives the servo (in {root}: {found}): "
                       f"add dtoverlay=pwm-2chan and set hardware.pwm_chip")
    return chips[0]


def write_file(path: Path, text: str) -> None:
    """One write to a sysfs attribute, as the kernel wants it (one write call, no buffering games)."""
    with open(path, "w") as f:
        f.write(text)


class SysfsPwm:
    """One channel of a kernel PWM chip: period and duty cycle in nanoseconds."""

    def __init__(self, chip: Path, channel: int, *, period_ns: int, write: Write = write_file):
        self.chip = Path(chip)
        self.channel = channel
        self.path = self.chip / f"pwm{channel}"
        self._write = write
        self._enabled = False
        self._closed = False
        self.period_ns = period_ns
        if not self.path.is_dir():
            self._set(self.chip / "export", str(channel))
            if not self.path.is_dir():
                raise HalError(f"exporting channel {channel} of {self.chip} made no {self.path.name}")
        self._set(self.path / "enable", "0")
        self._set(self.path / "polarity", "normal")  # only while disabled
        self._set(self.path / "duty_cycle", "0")     # never longer than the period, old or new
        self._set(self.path / "period", str(period_ns))

    def _set(self, path: Path, text: str) -> None:
        try:
            self._write(path, text)
        except OSError as exc:
            raise HalError(f"cannot write {text!r} to {path}: {exc.strerror or exc} (the user needs the "
                           f"gpio group's udev rule for /sys/class/pwm; see docs/bringup.md, step 3)") from None

    def set_duty(self, duty_ns: int) -> None:
        """Pulses of ``duty_ns`` from now on (enabling the output on the first)."""
        if self._closed:
            raise DeviceClosedError("the PWM channel is closed")
        if not 0 <= duty_ns <= self.period_ns:
            raise ValueError(f"duty cycle {duty_ns} ns is outside 0..{self.period_ns} ns")
        self._set(self.path / "duty_cycle", str(duty_ns))
        if not self._enabled:
            self._set(self.path / "enable", "1")
            self._enabled = True

    def close(self) -> None:
        """No more pulses, channel unexported; safe twice."""
        if self._closed:
            return
        self._closed = True
        try:
            self._set(self.path / "enable", "0")
        finally:
            self._set(self.chip / "unexport", str(self.channel))


class SysfsServoOutput:
    """Angles to pulse widths on a :class:`SysfsPwm` (what gpiozero's AngularServo does on a pin)."""

    def __init__(self, pwm: SysfsPwm, settings: ServoSettings):
        self.pwm = pwm
        self._s = settings

    def send(self, angle: float) -> None:
        """Pulse for ``angle`` from now on."""
        self.pwm.set_duty(round(self._s.pulse_width(angle) * 1e9))

    def close(self) -> None:
        self.pwm.close()


class SysfsServo(GpioServo):
    """The turntable servo on a hardware PWM channel of ``chip`` (the one wired to ``pin``)."""

    def __init__(self, pin: int, *, clock: Clock, settings: ServoSettings = ServoSettings(), chip: Path,
                 write: Write = write_file):
        npwm = int((Path(chip) / "npwm").read_text())
        pwm = SysfsPwm(chip, pwm_channel(pin, npwm), period_ns=round(settings.frame_width * 1e9), write=write)
        super().__init__(pin, clock=clock, settings=settings, device=SysfsServoOutput(pwm, settings))
