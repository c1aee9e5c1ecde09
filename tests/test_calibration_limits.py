"""A calibration file is held to the config's own limits: a value the config would refuse is ignored, with a
message naming it, and the controller starts on the config alone (never a crash loop under systemd)."""

import json

import pytest

from shooter.app import App
from shooter.bringup.calibration import CALIBRATION_FILE, Calibration
from shooter.config import parse_config
from shooter.errors import ConfigError


@pytest.mark.parametrize("data, named", [
    ({"servo_speed": 5}, "servo.speed"),                                   # below hal's slowest servo
    ({"seat_angles": {"2": [0.0, 300.0]}}, "servo.seat_angles.2[1]"),     # beyond the servo's travel
    ({"motor": {"seconds_per_card": 4.0}}, "motor.max_on_time"),           # a burst longer than one run
])
def test_a_calibration_the_config_would_refuse_is_a_config_error_naming_the_value(data, named):
    with pytest.raises(ConfigError) as error:
        Calibration.from_dict(data).apply(parse_config({}))
    assert named in str(error.value)


@pytest.mark.parametrize("data", [{"servo_speed": 5}, {"seat_angles": {"2": [0.0, 300.0]}},
                                  {"motor": {"seconds_per_card": 4.0}}])
def test_the_controller_starts_on_the_config_alone_beside_a_bad_calibration(tmp_path, data):
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(data))
    said = []
    with App(parse_config({}), sim=True, virtual=True, state_dir=tmp_path, log=said.append) as app:
        status = app.controller.cmd_status()
    assert any("calibration ignored" in line for line in said), said
    assert set(status["sources"].values()) <= {"default", "config"}     # nothing came from the bad file
    assert json.loads((tmp_path / CALIBRATION_FILE).read_text()) == data  # kept until a calibration replaces it


def test_a_good_calibration_is_still_laid_over_the_config():
    config = Calibration.from_dict({"servo_speed": 120.0, "seat_angles": {"2": [-45.0, 45.0]}}).apply(
        parse_config({}))
    assert config.hardware.servo.speed == 120.0 and config.seat_angles[2] == (-45.0, 45.0)
