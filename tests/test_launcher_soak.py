"""Soak runs in virtual time (issue: the shooter, "Must show"): the lid opened at random
instants during 10,000 bursts, and 1,000 injected jams."""

import random

from shooter.launcher import Shot
from tests.conftest import Rig
from tests.test_launcher import Bench


def test_the_lid_opened_at_random_instants_during_10000_bursts_never_leaves_the_motor_on():
    rng = random.Random(7)
    rig = Rig(cards=0)
    bench = Bench(rig, cards=None)
    interrupted = 0
    for _ in range(10_000):
        rig.world.load(12)
        bench.launcher.load(12)
        bench.launcher.enqueue(Shot(seat=None, reason="draw", planned=rng.randint(1, 12)))
        # open the lid at a random instant of the burst (or not at all, now and then)
        rig.wait(rng.uniform(0.0, 1.2))
        if bench.launcher.state != "ready":
            interrupted += 1
        rig.world.open_lid()
        rig.settle()
        assert not rig.motor_pins_on()
        rig.world.close_lid()
        rig.settle()
        assert bench.launcher.state in ("ready", "empty")
    assert rig.world.unsafe_time() == 0.0
    assert rig.world.motor_with_lid_open == [] or all(a == b for a, b in rig.world.motor_with_lid_open)
    assert interrupted > 3000  # the lid really did open mid-burst, many times
    assert rig.world.accounted()
    rig.hw.close()


def test_1000_injected_jams_are_all_detected_within_the_jam_timeout():
    rig = Rig(cards=0)
    bench = Bench(rig, cards=None)
    timeout = bench.launcher.settings.jam_timeout
    max_on = rig.hw.settings.motor.max_on_time
    p = rig.world.params
    rng = random.Random(3)
    for i in range(1000):
        rig.world.load(12)
        bench.launcher.load(12)
        rig.world.arm_jam()
        bench.launcher.enqueue(Shot(seat=None, reason="draw", planned=rng.randint(1, 12)))
        rig.settle()
        jam_events = [e for e in bench.events if e[0] == "jam"]
        assert len(jam_events) == i + 1
        assert bench.launcher.state == "jammed"
        # first card reaches the beam after spin-up + feed; it wedges; the watch fires jam_timeout later
        # and the motor reverses at once to pull back (the same run)
        assert bench.shots[-1].interrupted == "jam"
        retract = bench.launcher.settings.retract_time
        assert rig.world.longest_motor_run <= p.spin_up + p.feed_time + timeout + retract + 1e-9
        rig.world.open_lid()
        rig.settle()
        rig.world.close_lid()
        rig.settle()
        assert bench.launcher.state == "ready"
    assert rig.world.longest_motor_run < max_on
    assert rig.world.accounted()
    rig.hw.close()
