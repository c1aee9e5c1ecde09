"""The launcher on the motor's limits and on stale or wrong knowledge (issue 7: items 1, 3, 13)."""

import pytest

from shooter.app import App
from shooter.config import parse_config
from shooter.launcher import LauncherSettings, Shot
from tests.test_launcher import Bench, bench  # noqa: F401 (the fixture)

ALWAYS_FIRE = {"motor": {"max_on_time": 3.0}, "sim": {"cards": 500},
               "scheduler": {"profile": "always",
                             "profiles": {"always": {"fire_probability": 1.0, "max_blank_run": 0,
                                                     "burst_weights": {"3": 1, "4": 1, "5": 1}}}}}


def serve_back_to_back(config: dict, penalties: int = 20):
    """Owed presses served back to back: penalties of 4 presses each, all pressed at once."""
    app = App(parse_config(config), sim=True, virtual=True, seed=5, log=lambda m: None)
    out = []
    app.controller.add_sink(out.append)

    def send(text):
        app.loop.post(lambda: app.controller.handle_line(text, out.append))
        app.loop.run_for(0.001)
    send("game new players=4 dealer=1")
    send("round start first=5")
    for _ in range(penalties):
        send("penalty advice seat=2")
        for _ in range(4):
            send("press")
    app.loop.run_until_quiet()
    return app, out


@pytest.mark.parametrize("profile", ["always", "original"])
def test_back_to_back_owed_bursts_never_run_the_motor_past_its_max_on_time(profile):
    config = dict(ALWAYS_FIRE, scheduler=dict(ALWAYS_FIRE["scheduler"], profile=profile))
    app, out = serve_back_to_back(config)
    with app:
        accepted = [r for r in out if r.get("ok") is True and "reason" in r]
        shots = [e for e in out if e.get("event") == "shot"]
        assert len(accepted) == 80                       # every owed press was taken...
        assert len(shots) == 80 and not app.controller.launcher.queue   # ...and served
        assert not [e for e in out if e.get("event") == "fault"]
        assert 0 < app.world.longest_motor_run <= 3.0
        assert app.world.unsafe_time() == 0.0


def test_a_shot_ready_during_the_motors_rest_waits_for_it_and_is_served(bench):
    rest = bench.rig.hw.settings.motor.rest_time
    bench.launcher.enqueue(Shot(seat=None, reason="hit2", planned=2))
    bench.launcher.enqueue(Shot(seat=None, reason="hit2", planned=3))
    bench.rig.settle()
    assert [s.ejected for s in bench.shots] == [2, 3]
    forward_on = [t for t, level in bench.rig.pin("motor_forward").history if level > 0]
    backward_off = [t for t, level in bench.rig.pin("motor_backward").history if level == 0]
    first_run_end = min(t for t in backward_off if t > forward_on[0])
    assert forward_on[1] - first_run_end == pytest.approx(rest)


def test_a_seat_that_no_longer_exists_never_faults_the_shooter(console):
    out = console(["game new players=6 dealer=4", "sim lid open", "round start first=5",
                   "game new players=3", "sim lid close", "sim wait seconds=1", "status",
                   "sim lid open", "sim lid close", "sim wait seconds=1", "status"])
    assert not [e for e in out if e.get("event") == "fault"]
    states = [r["shooter"]["state"] for r in out if "shooter" in r]
    assert states == ["ready", "ready"]


def test_a_queued_shot_for_a_seat_that_no_longer_exists_fires_where_the_shooter_points(bench):
    bench.launcher.seats = lambda: 3
    shot = bench.shoot(2, seat=5, reason="hit2")
    assert shot.ejected == 2 and shot.interrupted is None
    assert bench.launcher.aimed_seat is None and bench.launcher.state == "ready"


def test_the_exit_sensor_outvotes_a_typed_magazine_count(rig):
    bench = Bench(rig, cards=2)   # typed 2; the magazine really holds 50
    shot = bench.shoot(5)
    assert shot.ejected == 5
    assert bench.launcher.cards is None      # the count was wrong: unknown, not 0
    assert bench.launcher.state == "ready"
    assert "empty" not in bench.names()


def test_a_typed_count_that_runs_out_with_the_cards_still_says_empty(rig):
    rig.world.launcher.unload()
    rig.world.load(2)
    bench = Bench(rig, cards=2)
    bench.shoot(5)
    assert bench.launcher.cards == 0 and bench.launcher.state == "empty"


def test_typing_a_count_of_zero_says_empty_and_a_refill_says_cleared(bench):
    bench.launcher.set_count(0)
    assert bench.launcher.state == "empty" and bench.names()[-1] == "empty"
    bench.launcher.set_count(12)
    bench.rig.settle()
    assert bench.launcher.state == "ready" and bench.names()[-1] == "cleared"


def test_the_pull_back_after_a_burst_is_part_of_the_same_run(bench):
    s: LauncherSettings = bench.launcher.settings
    bench.shoot(3)
    run = bench.rig.world.longest_motor_run
    forward = [t for t, level in bench.rig.pin("motor_forward").history]
    assert run == pytest.approx(forward[-1] - forward[-2] + s.retract_time)
