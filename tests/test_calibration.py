"""Calibration: the file in the state directory that overrides the config, the console commands that fill it
(``aim angle=A``, ``calibrate seat=S``), where status says each value comes from, and ``uno-shooter calibrate``."""

import json

import pytest

from shooter.calibration import Calibration
from shooter.config import parse_config
from shooter.errors import ConfigError


def reply(out, name):
    return [o for o in out if o.get("reply") == name]


def test_calibrate_seat_stores_the_current_angle_in_the_state_directory(console, tmp_path):
    out = console(["aim angle=-31.5", "calibrate seat=2"], state_dir=tmp_path)
    assert reply(out, "calibrate")[0] == {"reply": "calibrate", "ok": True, "seat": 2, "players": 4,
                                          "angle": -31.5, "file": str(tmp_path / "calibration.json")}
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert saved["seat_angles"] == {"4": [-90.0, -31.5, 30.0, 90.0]}


def test_a_calibrated_seat_is_served_at_its_angle_after_a_restart(console, tmp_path):
    console(["aim angle=12", "calibrate seat=3"], state_dir=tmp_path)
    out = console(["aim seat=3", "status"], state_dir=tmp_path)
    assert reply(out, "aim")[0]["angle"] == 12.0
    status = reply(out, "status")[0]
    assert status["shooter"]["angle"] == 12.0
    assert status["sources"]["servo.seat_angles.4"] == "calibration"


def test_status_says_where_each_value_comes_from(console, tmp_path):
    (tmp_path / "calibration.json").write_text('{"motor": {"seconds_per_card": 0.1}}')
    config = parse_config({"motor": {"spin_up": 0.07}, "servo": {"seat_angles": {"3": [-60, 0, 60]}}})
    status = reply(console(["status"], state_dir=tmp_path, config=config), "status")[0]
    assert status["sources"] == {"motor.seconds_per_card": "calibration", "motor.spin_up": "config",
                                 "servo.speed": "default", "servo.seat_angles.3": "config",
                                 "servo.seat_angles.4": "default"}
    assert status["hardware"] == {"pin_factory": "sim", "servo_backend": "gpiozero"}


def test_calibrate_before_any_move_is_refused(console):
    out = console(["calibrate seat=1"])
    assert reply(out, "calibrate")[0]["error"] == "bad-argument"
    assert "aim angle=A first" in reply(out, "calibrate")[0]["message"]


@pytest.mark.parametrize("line, words", [
    ("aim angle=95", "between -90 and 90"),
    ("aim", "one of the two"),
    ("aim seat=1 angle=3", "one of the two"),
    ("aim angle=abc", "must be a number"),
])
def test_a_bad_aim_is_refused_and_moves_nothing(console, line, words):
    out = console([line, "status"])
    assert reply(out, "aim")[0]["ok"] is False and words in reply(out, "aim")[0]["message"]
    assert reply(out, "status")[0]["shooter"]["angle"] is None


def test_aim_angle_while_the_shooter_turns_to_fire_is_busy():
    from shooter.app import App
    config = parse_config({"scheduler": {"profile": "all", "profiles": {"all": {"fire_probability": 1.0,
                                                                                 "burst_weights": {"3": 1}}}}})
    with App(config, sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        app.loop.run_until_quiet()
        replies = []
        app.controller.handle_line("aim seat=2", replies.append)
        app.controller.handle_line("press", replies.append)     # queued: the shooter turns, then fires
        app.controller.handle_line("aim angle=0", replies.append)
        assert replies[-1]["error"] == "busy"
        app.loop.run_until_quiet()
        app.controller.handle_line("aim angle=0", replies.append)
        assert replies[-1]["ok"] is True


def test_a_bad_calibration_file_names_the_file_and_the_problem(tmp_path):
    (tmp_path / "calibration.json").write_text('{"seat_angles": {"3": [1, 2]}}')
    with pytest.raises(ConfigError, match=r"calibration.json: seat_angles.3: must be a list of 3 angles"):
        Calibration.load(tmp_path)


def test_a_bad_calibration_file_is_ignored_with_a_message_and_left_alone(tmp_path):
    from shooter.app import App
    (tmp_path / "calibration.json").write_text('{"motor": {"seconds_per_card": "fast"}}')
    logged = []
    with App(parse_config({}), sim=True, virtual=True, seed=1, state_dir=tmp_path, log=logged.append) as app:
        assert app.controller.launcher.settings.seconds_per_card == 0.09
    assert any("calibration ignored" in m and "motor.seconds_per_card" in m for m in logged)
    assert (tmp_path / "calibration.json").read_text() == '{"motor": {"seconds_per_card": "fast"}}'
