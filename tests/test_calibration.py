"""Calibration: the file in the state directory that overrides the config, the console commands that fill it
(``aim angle=A``, ``calibrate seat=S``), where status says each value comes from, and ``uno-shooter calibrate``."""

import json

import pytest

from shooter.bringup.calibration import Calibration
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


def test_a_seat_calibrated_while_running_is_served_at_its_new_angle_at_once(console, tmp_path):
    # the seats' angles are worked out once per number of seats: calibrating one must be seen by the next aim
    out = console(["aim seat=3", "aim angle=12", "calibrate seat=3", "aim seat=1", "aim seat=3"], state_dir=tmp_path)
    assert [r["angle"] for r in reply(out, "aim")] == [30.0, 12, -90.0, 12.0]


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


def test_aim_angle_is_taken_with_the_lid_open_after_a_jam(console):
    # "clearing" (the lid open on a jam) lets aim seat=S through; aim angle=A kept a list of its own and
    # refused it as busy there: both now read the launcher's state table
    out = console(["sim jam", "press", "sim wait seconds=2", "sim lid open", "status", "aim angle=30", "aim seat=2"])
    assert reply(out, "status")[0]["shooter"]["state"] == "lid-open"
    assert reply(out, "aim")[0]["ok"] is True and reply(out, "aim")[0]["angle"] == 30
    assert reply(out, "aim")[1]["ok"] is True


def test_a_bad_calibration_file_names_the_file_and_the_problem(tmp_path):
    (tmp_path / "calibration.json").write_text('{"seat_angles": {"3": [1, 2]}}')
    logged: list[str] = []
    assert Calibration.load(tmp_path, logged.append).seat_angles == {}
    assert len(logged) == 1 and "calibration.json: seat_angles.3: must be a list of 3 angles" in logged[0]


def test_a_bad_calibration_file_is_set_aside_with_a_message_like_every_bad_state_file(tmp_path):
    from shooter.app import App
    (tmp_path / "calibration.json").write_text('{"motor": {"seconds_per_card": "fast"}}')
    logged = []
    with App(parse_config({}), sim=True, virtual=True, seed=1, state_dir=tmp_path, log=logged.append) as app:
        assert app.controller.launcher.settings.seconds_per_card == 0.09
    assert any("calibration ignored" in m and "motor.seconds_per_card" in m for m in logged)
    kept = list(tmp_path.glob("calibration.json.bad-*"))
    assert not (tmp_path / "calibration.json").exists()
    assert [p.read_text() for p in kept] == ['{"motor": {"seconds_per_card": "fast"}}']


# ---- uno-shooter calibrate ----
import io  # noqa: E402
import os  # noqa: E402
import select  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from shooter.bringup.bench import Bench  # noqa: E402
from shooter.bringup.calibrate import fit_line, parse_players, run_calibration  # noqa: E402
from sim import SimParams  # noqa: E402


def test_the_least_squares_line_recovers_slope_and_intercept():
    noise = [0.004, -0.004, 0.003, -0.003, 0, 0]
    points = [(k, 0.07 + 0.11 * k + e) for k, e in zip([1, 1, 2, 2, 3, 3], noise, strict=True)]
    a, b = fit_line(points)
    assert a == pytest.approx(0.07, abs=1e-9) and b == pytest.approx(0.11, abs=1e-9)


def test_calibration_fits_the_simulated_worlds_true_seconds_per_card_not_the_configs(tmp_path):
    true = SimParams(feed_time=0.12, pass_time=0.05, spin_up=0.08)   # the config still says 0.09 and 0.06
    with Bench(parse_config({}), sim=True, state_dir=tmp_path, sim_params=true, log=lambda m: None) as bench:
        status = run_calibration(bench, io.StringIO("\n"), io.StringIO(), players=[4], seats=False,
                                 servo_speed=False)
    assert status == 0
    motor = json.loads((tmp_path / "calibration.json").read_text())["motor"]
    assert abs(motor["seconds_per_card"] - true.feed_time) / true.feed_time < 0.05
    assert motor["spin_up"] == pytest.approx(true.spin_up, abs=0.01)


def test_calibration_with_the_lid_open_runs_no_motor_and_stores_nothing(tmp_path):
    with Bench(parse_config({}), sim=True, state_dir=tmp_path, log=lambda m: None) as bench:
        bench.world.open_lid()
        bench.wait(0.1)
        out = io.StringIO()
        status = run_calibration(bench, io.StringIO("\n"), out, players=[4], seats=False)
        assert bench.world.longest_motor_run == 0.0
    assert status == 1 and "the lid is open" in out.getvalue()
    assert not (tmp_path / "calibration.json").exists()


def test_jogging_fine_and_coarse_stores_the_seat_angles(tmp_path):
    keys = ">\n>>\n<\n\n" "=-5\n\n" "<<\n<<\n\n"     # seat 1: -90+1+10-1; seat 2: -5; seat 3: 90-20
    with Bench(parse_config({}), sim=True, state_dir=tmp_path, log=lambda m: None) as bench:
        assert run_calibration(bench, io.StringIO(keys), io.StringIO(), players=[3], motor=False,
                               servo_speed=False) == 0
        assert bench.world.servo_angle() == pytest.approx(70.0)
    assert json.loads((tmp_path / "calibration.json").read_text())["seat_angles"] == {"3": [-80.0, -5.0, 70.0]}


def test_without_players_every_number_the_table_uses_is_pointed(tmp_path):
    config = parse_config({"servo": {"seat_angles": {"2": [-45, 45]}}, "table": {"default_seats": 3}})
    (tmp_path / "calibration.json").write_text('{"seat_angles": {"5": [-90, -45, 0, 45, 90]}}')
    out = io.StringIO()
    with Bench(config, sim=True, state_dir=tmp_path, log=lambda m: None) as bench:
        run_calibration(bench, io.StringIO("\n" * 10), out, motor=False, servo_speed=False)
    import re
    asked = [int(n) for n in re.findall(r"(\d+) players, seat \d+:", out.getvalue())]
    assert asked == [2] * 2 + [3] * 3 + [5] * 5


def test_the_servo_speed_is_timed_by_the_person(tmp_path):
    with Bench(parse_config({}), sim=True, state_dir=tmp_path, log=lambda m: None) as bench:
        run_calibration(bench, io.StringIO("\n0.5\n"), io.StringIO(), players=[4], seats=False, motor=False)
    assert json.loads((tmp_path / "calibration.json").read_text())["servo_speed"] == 324.0   # 180/0.5 less 10%


@pytest.mark.parametrize("text", ["1", "3,x", "11", ""])
def test_bad_player_counts_are_refused(text):
    with pytest.raises(ConfigError, match="--players"):
        parse_players(text)


def _expect(master: int, text: str, seen: bytearray) -> None:
    while text.encode() not in seen:
        ready, _, _ = select.select([master], [], [], 60)
        assert ready, f"waited for {text!r}; the screen shows {seen.decode()[-400:]!r}"
        try:
            seen += os.read(master, 4096)
        except OSError:
            pytest.fail(f"ended before {text!r}: {seen.decode()[-400:]!r}")
    del seen[:seen.index(text.encode()) + len(text)]


def test_calibrate_on_a_terminal_stores_angles_and_a_fitted_seconds_per_card_within_5_percent(tmp_path):
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "shooter", "calibrate", "--sim", "--state-dir", str(tmp_path),
                             "--players", "2"], stdin=slave, stdout=slave, stderr=slave)
    os.close(slave)
    seen = bytearray()
    try:
        for prompt, key in [("2 players, seat 1: -90° > ", ">>"), ("2 players, seat 1: -80° > ", ">"),
                            ("2 players, seat 1: -79° > ", ""), ("2 players, seat 2: 90° > ", "<<"),
                            ("2 players, seat 2: 80° > ", ""), ("then Enter (q skips) ", ""),
                            ("(q skips) ", ""), ("seconds it took (Enter keeps the configured speed): ", "")]:
            _expect(master, prompt, seen)
            os.write(master, key.encode() + b"\r")
        _expect(master, "Calibration saved in", seen)
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        os.close(master)
    saved = json.loads((tmp_path / "calibration.json").read_text())
    assert saved["seat_angles"] == {"2": [-79.0, 80.0]}
    true = SimParams().feed_time
    assert abs(saved["motor"]["seconds_per_card"] - true) / true < 0.05
    # the next start uses them, and says so
    from tests.conftest import run_console
    status = next(o for o in run_console(["game new players=2", "status"], state_dir=tmp_path)
                  if o.get("reply") == "status")
    assert status["sources"]["servo.seat_angles.2"] == "calibration"
    assert status["sources"]["motor.seconds_per_card"] == "calibration"


def test_calibrate_players_out_of_the_tables_seat_range_are_refused_naming_it():
    from shooter.bringup.calibrate import parse_players
    from shooter.table.args import MAX_SEATS, MIN_SEATS
    assert parse_players(f"{MIN_SEATS},{MAX_SEATS}") == [MIN_SEATS, MAX_SEATS]
    with pytest.raises(ConfigError, match=f"must be {MIN_SEATS}..{MAX_SEATS}"):
        parse_players(f"3,{MAX_SEATS + 1}")
