"""`check-config` agrees with `run`, and `simulate` without an exit sensor (issue 7, items 11 and 15)."""

import subprocess
import sys

import pytest

CMD = [sys.executable, "-m", "shooter"]


def run(args, stdin=b""):
    return subprocess.run(CMD + args, input=stdin, capture_output=True, timeout=120)


@pytest.mark.parametrize("text", ["", "[console]\nserial = []\n", "[console]\nstdio = false\ntcp_port = 0\n"])
def test_check_config_fails_a_config_that_run_refuses_for_lack_of_a_console(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    check = run(["check-config", str(path)])
    started = run(["run", "--sim", "--config", str(path)])
    assert started.returncode == 2 and b"no console" in started.stderr
    assert check.returncode == 2 and b"no console" in check.stderr


def test_check_config_passes_a_config_with_a_console(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[console]\nserial = ['/dev/rfcomm0']\n")
    check = run(["check-config", str(path)])
    assert check.returncode == 0 and b"is valid" in check.stdout and b"warning" not in check.stderr


@pytest.mark.parametrize("pin, warned", [(18, False), (12, False), (13, False), (19, False), (16, True), (6, True)])
def test_a_servo_on_a_pin_without_hardware_pwm_gets_a_warning(tmp_path, pin, warned):
    path = tmp_path / "config.toml"
    path.write_text(f"[console]\nstdio = true\n[pins]\nservo = {pin}\n")
    check = run(["check-config", str(path)])
    assert check.returncode == 0, check.stderr
    assert (b"warning: pins.servo" in check.stderr) == warned
    if warned:
        assert f"GPIO{pin}".encode() in check.stderr


def test_run_warns_about_the_servo_pin_as_check_config_does(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[pins]\nservo = 16\n")
    out = run(["run", "--sim", "--config", str(path), "--console", "stdio", "--clock", "virtual"], b"status\n")
    assert out.returncode == 0 and b"warning: pins.servo: GPIO16" in out.stderr


def test_simulate_without_the_exit_sensor_says_why_instead_of_a_traceback(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[pins]\nexit_sensor = false\n")
    out = run(["simulate", "--games", "1", "--config", str(path)])
    assert out.returncode == 2 and b"Traceback" not in out.stderr
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and "pins.exit_sensor" in lines[0]
