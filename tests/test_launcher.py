"""The shooter's state machine on the simulated hardware (issue: the shooter)."""

from dataclasses import replace

import pytest

from hal import HardwareSettings, PinMap
from shooter.launcher import STATES, TRANSITIONS, Launcher, LauncherSettings, Shot, launcher_diagram


class Bench:
    """A launcher on a rig, recording its shots and events."""

    def __init__(self, rig, settings=LauncherSettings(), cards=None):
        self.rig = rig
        self.shots: list[Shot] = []
        self.events: list[tuple] = []
        self.launcher = Launcher(rig.hw, rig.clock, settings, angle_of=lambda seat: -90 + 30 * (seat - 1),
                                 on_shot=self.shots.append, emit=lambda name, **f: self.events.append((name, f)),
                                 cards=cards)
        self.launcher.start()
        rig.settle()

    def shoot(self, planned, seat=None, reason="draw"):
        self.launcher.enqueue(Shot(seat=seat, reason=reason, planned=planned))
        self.rig.settle()
        return self.shots[-1]

    def names(self):
        return [name for name, _ in self.events]


@pytest.fixture
def bench(rig):
    return Bench(rig, cards=rig.world.cards_in_shooter)


def test_starts_ready_with_the_motor_off(bench):
    assert bench.launcher.state == "ready"
    assert not bench.rig.motor_pins_on()


def test_starts_in_lid_open_when_the_lid_is_open(rig):
    rig.world.open_lid()
    rig.settle()
    assert Bench(rig).launcher.state == "lid_open"


@pytest.mark.parametrize("planned", [1, 3, 8, 12])
def test_a_burst_is_counted_card_by_card_and_stops_at_n(bench, planned):
    shot = bench.shoot(planned)
    assert shot.ejected == planned
    assert bench.rig.world.cards_out == planned
    assert bench.launcher.state == "ready"
    assert bench.launcher.cards == 50 - planned


def test_a_burst_of_nothing_does_not_run_the_motor(bench):
    shot = bench.shoot(0)
    assert shot.ejected == 0
    assert bench.rig.world.longest_motor_run == 0.0


def test_after_every_burst_the_motor_pulls_the_next_card_back(bench):
    bench.shoot(3)
    backward = bench.rig.pin("motor_backward").history
    assert any(level > 0 for _, level in backward)
    assert bench.rig.world.launcher.feed == 0.0
    assert not bench.rig.motor_pins_on()


def test_aims_at_the_seat_before_firing(bench):
    bench.shoot(2, seat=3)
    assert bench.launcher.aimed_seat == 3
    assert bench.rig.world.servo_angle() == pytest.approx(-30.0)
    assert bench.events[-2:] == [("aim", {"seat": 3, "angle": -30.0}), ("ready", {})]   # aimed, shot, ready again
    fired_at = next(t for t, level in bench.rig.pin("motor_forward").history if level > 0)
    assert fired_at >= bench.rig.world.servo_arrival()


def test_without_the_exit_sensor_a_burst_is_a_calibrated_motor_time(make_rig):
    rig = make_rig(settings=HardwareSettings(pins=replace(PinMap(), exit_sensor=None)))
    settings = LauncherSettings()
    b = Bench(rig, settings, cards=50)
    shot = b.shoot(5)
    assert shot.ejected is None
    on = next(t for t, level in rig.pin("motor_forward").history if level > 0)
    off = [t for t, level in rig.pin("motor_forward").history if level == 0][-1]
    assert off - on == pytest.approx(settings.spin_up + 5 * settings.seconds_per_card)
    assert abs(rig.world.cards_out - 5) <= 1   # calibrated, not counted
    assert b.launcher.cards == 45


def test_a_jam_is_detected_within_the_jam_timeout(bench):
    bench.rig.world.arm_jam()
    shot = bench.shoot(5)
    assert bench.launcher.state == "jammed"
    assert shot.interrupted == "jam"
    assert "jam" in bench.names()
    run = bench.rig.world.longest_motor_run  # the jam's pull-back reverses the motor: the same run
    s = bench.launcher.settings
    assert run <= 0.06 + 0.09 + s.jam_timeout + s.retract_time + 1e-6
    assert not bench.rig.motor_pins_on()


def test_a_card_wedged_in_the_beam_is_not_counted_out(bench):
    bench.rig.world.arm_jam()
    shot = bench.shoot(5)
    assert shot.ejected == 0
    assert bench.launcher.cards == bench.rig.world.cards_in_shooter == 50


def test_a_jam_is_cleared_by_opening_and_closing_the_lid(bench):
    bench.rig.world.arm_jam()
    bench.shoot(5)
    bench.rig.world.open_lid()
    bench.rig.settle()
    assert bench.launcher.state == "clearing" and bench.launcher.protocol_state == "lid-open"
    bench.rig.world.close_lid()
    bench.rig.settle()
    assert bench.launcher.state == "ready"
    assert "cleared" in bench.names()
    assert bench.rig.world.accounted()


def test_an_empty_magazine_is_noticed_and_reported(make_rig):
    rig = make_rig(cards=3)
    b = Bench(rig, cards=3)
    shot = b.shoot(6)
    assert shot.ejected == 3 and shot.interrupted == "empty"
    assert b.launcher.state == "empty"
    assert "empty" in b.names()


def test_the_last_card_out_leaves_the_shooter_empty(make_rig):
    rig = make_rig(cards=4)
    b = Bench(rig, cards=4)
    b.shoot(4)
    assert b.launcher.state == "empty"
    b.launcher.load(10)
    rig.world.load(10)
    assert b.launcher.state == "ready"


def test_the_lid_opened_mid_burst_stops_the_motor_at_once(bench):
    bench.launcher.enqueue(Shot(seat=None, reason="draw", planned=10))
    bench.rig.wait(0.3)
    assert bench.launcher.state == "firing"
    bench.rig.world.open_lid()
    bench.rig.settle()
    assert bench.rig.world.unsafe_time() == 0.0
    assert bench.launcher.state == "lid_open"
    assert bench.shots[-1].interrupted == "lid"
    assert ("lid", {"state": "open"}) in bench.events


def test_the_maximum_on_time_is_a_fault(bench):
    bench.rig.hw.motor.on_fault("max-on-time")
    assert bench.launcher.state == "fault"
    assert ("fault", {"reason": "max-on-time"}) in bench.events


@pytest.mark.parametrize("state", ["lid_open", "jammed", "empty", "fault"])
def test_presses_are_refused_in_blocked_states(bench, state):
    bench.launcher.machine.set_state(state)
    assert bench.launcher.refusal(owed=True)[0] == state.replace("_", "-")


def test_owed_presses_queue_while_firing_and_draws_are_refused(bench):
    bench.launcher.enqueue(Shot(seat=None, reason="hit2", planned=4))
    bench.rig.loop.run_pending()
    assert bench.launcher.state == "firing"
    assert bench.launcher.refusal(owed=True) is None
    assert bench.launcher.refusal(owed=False)[0] == "busy"


def test_the_transition_table_names_only_declared_states():
    for t in TRANSITIONS:
        sources = t["source"] if isinstance(t["source"], list) else [t["source"]]
        assert set(sources) <= set(STATES) and t["dest"] in STATES + [None]


def test_the_state_diagram_in_the_docs_matches_the_code():
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "shooter.md").read_text()
    assert launcher_diagram().strip() in doc


def test_a_lid_opened_just_before_firing_takes_the_shooter_to_lid_open_and_keeps_the_shot(bench):
    bench.rig.world.open_lid()            # the edge is posted, not yet handled
    bench.launcher.enqueue(Shot(seat=None, reason="draw", planned=3))
    assert bench.launcher.state == "lid_open" and len(bench.launcher.queue) == 1
    assert not bench.rig.motor_pins_on()
    bench.rig.settle()
    bench.rig.world.close_lid()
    bench.rig.settle()
    assert bench.shots[-1].ejected == 3   # served once the lid was shut


def test_a_count_of_zero_becomes_unknown_when_the_lid_is_cycled(make_rig):
    rig = make_rig(cards=3)
    b = Bench(rig, cards=3)
    b.launcher.enqueue(Shot(seat=None, reason="draw", planned=8))
    rig.wait(0.4)                          # three cards out, the count is 0, still firing
    assert b.launcher.cards == 0 and b.launcher.state == "firing"
    rig.world.open_lid()
    rig.settle()
    rig.world.load(20)                     # refilled by hand
    rig.world.close_lid()
    rig.settle()
    assert b.launcher.cards is None and b.launcher.refusal(owed=False) is None


def test_without_the_exit_sensor_nothing_is_reported_as_counted(make_rig):
    rig = make_rig(settings=HardwareSettings(pins=replace(PinMap(), exit_sensor=None)))
    b = Bench(rig, cards=50)
    assert b.shoot(0).ejected is None
    b.launcher.enqueue(Shot(seat=None, reason="draw", planned=10))
    rig.wait(0.06 + 0.09 * 4 + 0.01)       # spin-up and four cards' worth of motor time
    rig.world.open_lid()
    rig.settle()
    assert b.shots[-1].ejected is None and b.shots[-1].interrupted == "lid"
    assert b.launcher.cards == 46          # the calibrated estimate of what came out
