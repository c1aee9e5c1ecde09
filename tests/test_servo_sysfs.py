"""The servo on the kernel's hardware PWM, against a fake /sys/class/pwm tree in a temp dir.

The fake kernel behaves as the real one does where the order of writes matters: exporting a channel
makes its directory appear, a duty cycle longer than the period is refused (EINVAL), and so is a
polarity change while the channel is enabled (EBUSY)."""

import errno
from pathlib import Path

import pytest

from hal import ServoSettings, VirtualClock
from hal.backends import choose_pin_factory, servo_maker
from hal.errors import HalError
from hal.servo_sysfs import SysfsServo, find_pwm_chip, pwm_channel
from hal.settings import HardwareSettings


class FakeKernel:
    """/sys/class/pwm with one chip of ``npwm`` channels; records every write as (file, text)."""

    def __init__(self, root: Path, chip: int = 0, npwm: int = 4):
        self.root = root
        self.chip = root / f"pwmchip{chip}"
        self.chip.mkdir(parents=True)
        (self.chip / "npwm").write_text(f"{npwm}\n")
        for name in ("export", "unexport"):
            (self.chip / name).write_text("")
        self.writes: list[tuple[str, str]] = []

    def value(self, channel: int, name: str) -> str:
        return (self.chip / f"pwm{channel}" / name).read_text()

    def write(self, path: Path, text: str) -> None:
        rel = str(path.relative_to(self.chip))
        self.writes.append((rel, text))
        if rel == "export":
            d = self.chip / f"pwm{text}"
            if d.exists():
                raise OSError(errno.EBUSY, "Device or resource busy")
            d.mkdir()
            for name, initial in (("period", "0"), ("duty_cycle", "0"), ("enable", "0"), ("polarity", "normal")):
                (d / name).write_text(initial)
            return
        if rel == "unexport":
            d = self.chip / f"pwm{text}"
            for f in d.iterdir():
                f.unlink()
            d.rmdir()
            return
        channel, name = rel.split("/")
        if name == "duty_cycle" and int(text) > int(self.value(int(channel[3:]), "period")):
            raise OSError(errno.EINVAL, "Invalid argument")
        if name == "period" and int(text) < int(self.value(int(channel[3:]), "duty_cycle")):
            raise OSError(errno.EINVAL, "Invalid argument")
        if name == "polarity" and self.value(int(channel[3:]), "enable") == "1":
            raise OSError(errno.EBUSY, "Device or resource busy")
        path.write_text(text)


@pytest.fixture
def kernel(tmp_path):
    return FakeKernel(tmp_path / "class" / "pwm")


def test_the_sysfs_servo_exports_sets_up_and_enables_in_the_kernels_order(kernel):
    servo = SysfsServo(18, clock=VirtualClock(), settings=ServoSettings(), chip=kernel.chip, write=kernel.write)
    assert kernel.writes == [("export", "2"), ("pwm2/enable", "0"), ("pwm2/polarity", "normal"),
                             ("pwm2/duty_cycle", "0"), ("pwm2/period", "20000000")]
    servo.move_to(0.0)
    servo.move_to(90.0)
    servo.move_to(-90.0)
    assert kernel.writes[5:] == [("pwm2/duty_cycle", "1500000"), ("pwm2/enable", "1"),
                                 ("pwm2/duty_cycle", "2500000"), ("pwm2/duty_cycle", "500000")]
    assert kernel.value(2, "enable") == "1" and kernel.value(2, "duty_cycle") == "500000"


def test_closing_the_sysfs_servo_disables_and_unexports_once(kernel):
    servo = SysfsServo(18, clock=VirtualClock(), chip=kernel.chip, write=kernel.write)
    servo.move_to(10.0)
    servo.close()
    servo.close()
    assert kernel.writes[-2:] == [("pwm2/enable", "0"), ("unexport", "2")]
    assert not (kernel.chip / "pwm2").exists()


def test_a_channel_left_enabled_by_a_crashed_run_is_disabled_before_its_polarity_is_set(kernel):
    SysfsServo(19, clock=VirtualClock(), chip=kernel.chip, write=kernel.write)  # never closed
    kernel.writes.clear()
    SysfsServo(19, clock=VirtualClock(), chip=kernel.chip, write=kernel.write).move_to(0.0)
    # already exported: no second export (EBUSY), and disabled before the polarity write
    assert kernel.writes[:2] == [("pwm3/enable", "0"), ("pwm3/polarity", "normal")]


def test_a_longer_old_duty_cycle_never_breaks_a_shorter_new_period(kernel):
    settings = ServoSettings(frame_width=0.004, min_pulse_width=0.0005, max_pulse_width=0.0025)
    SysfsServo(18, clock=VirtualClock(), chip=kernel.chip, write=kernel.write).move_to(90.0)  # 2.5 ms
    SysfsServo(18, clock=VirtualClock(), settings=settings, chip=kernel.chip, write=kernel.write).move_to(0.0)
    assert kernel.value(2, "period") == "4000000" and kernel.value(2, "duty_cycle") == "1500000"


def test_the_servo_pin_picks_the_channel_of_a_pi_5_and_of_a_pi_4():
    assert [pwm_channel(p, 4) for p in (12, 13, 18, 19)] == [0, 1, 2, 3]
    assert [pwm_channel(p, 2) for p in (12, 13, 18, 19)] == [0, 1, 0, 1]


def test_a_pin_without_hardware_pwm_is_refused_naming_the_pins_that_have_it():
    with pytest.raises(HalError, match="GPIO17 has no hardware PWM: use GPIO12, GPIO13, GPIO18, GPIO19"):
        pwm_channel(17, 4)


def test_a_write_the_kernel_refuses_is_a_hal_error_naming_the_file(kernel):
    def refuse(path, text):
        raise PermissionError(errno.EACCES, "Permission denied")
    with pytest.raises(HalError, match=r"cannot write '2' to .*pwmchip0/export: Permission denied"):
        SysfsServo(18, clock=VirtualClock(), chip=kernel.chip, write=refuse)


def test_the_pwm_chip_is_the_only_one_or_the_configured_one(kernel, tmp_path):
    root = kernel.root
    assert find_pwm_chip(root) == kernel.chip
    (root / "pwmchip2").mkdir()
    with pytest.raises(HalError, match="pwmchip0, pwmchip2"):
        find_pwm_chip(root)
    assert find_pwm_chip(root, 2) == root / "pwmchip2"
    with pytest.raises(HalError, match="dtoverlay=pwm-2chan"):
        find_pwm_chip(root, 5)


def test_hardware_builds_its_servo_with_the_configured_backend(kernel):
    from hal import Hardware
    from sim import SimFactory
    clock = VirtualClock()
    make = servo_maker("sysfs", root=kernel.root, write=kernel.write)
    with Hardware(HardwareSettings(), clock=clock, post=lambda fn: fn(), pin_factory=SimFactory(clock),
                  servo=make) as hw:
        assert isinstance(hw.servo, SysfsServo) and hw.servo.device.pwm.path == kernel.chip / "pwm2"
        hw.servo.move_to(45.0)
        assert kernel.value(2, "duty_cycle") == "2000000"
    assert kernel.writes[-1] == ("unexport", "2")


def test_an_unknown_servo_backend_is_refused():
    with pytest.raises(HalError, match="unknown servo backend 'pigpio'"):
        servo_maker("pigpio")


def test_gpiozero_pin_factory_is_respected_and_named():
    factory, name = choose_pin_factory("auto", environ={"GPIOZERO_PIN_FACTORY": "mock"})
    assert name == "mock" and type(factory).__name__ == "MockFactory"
    factory.close()


def test_no_pin_factory_is_one_message_with_every_reason_and_the_hint(recwarn):
    from hal.backends import NoPinFactoryError
    with pytest.raises(NoPinFactoryError) as error:
        choose_pin_factory("auto", environ={})
    message = str(error.value)
    for name in ("lgpio:", "rpigpio:", "pigpio:", "native:", "--sim"):
        assert name in message
    assert not [w for w in recwarn if "gpiozero" in str(w.category.__module__)]


def test_the_log_and_status_say_which_pin_factory_and_servo_backend_run_the_parts(monkeypatch):
    from shooter.app import App
    from shooter.config import parse_config
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")            # gpiozero's mock pins stand in for a Pi's
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    logged = []
    with App(parse_config({}), sim=False, seed=1, log=logged.append) as app:
        replies = []
        app.controller.handle_line("status", replies.append)
    assert logged == ["uno-shooter: pin factory mock, servo backend gpiozero"]
    assert replies[0]["hardware"] == {"pin_factory": "mock", "servo_backend": "gpiozero"}
