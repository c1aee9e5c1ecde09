"""The fault runs of shooter.faults_hw: what they report on a sound shooter, and that they see a broken one."""

from hal.hardware import Hardware
from hal.motor import GpioMotor
from shooter.launcher import Launcher
from tests.faults_hw import jams, lid_openings


def test_lid_openings_during_back_to_back_bursts_never_leave_the_motor_on_and_are_all_survived():
    report = lid_openings(300, seed=4)
    assert report.tried == report.survived == 300
    assert report.while_running > 100          # the openings did hit running bursts
    assert report.unsafe_seconds == 0.0
    assert 0 < report.longest_run <= report.max_on_time
    assert report.shots > 300


def test_the_lid_run_sees_a_motor_left_running_with_the_lid_open(mocker):
    # Sabotage: the lid no longer cuts the motor (neither the GPIO-thread cut nor the loop's stop).
    mocker.patch.object(GpioMotor, "emergency_stop", lambda self: None)
    mocker.patch.object(Hardware, "_lid_opened", lambda self: self.on_lid_open())
    report = lid_openings(30, seed=4)
    assert report.unsafe_seconds > 0.0


def test_injected_jams_are_all_detected_within_the_max_on_time():
    report = jams(100, seed=4)
    assert report.tried == report.detected == 100
    assert 0 < report.longest_run <= report.max_on_time


def test_the_jam_run_sees_a_jam_the_launcher_missed(mocker):
    mocker.patch.object(Launcher, "_stall", lambda self: None)   # the jam watch is blind
    report = jams(5, seed=4)
    assert report.detected == 0
    assert report.longest_run <= report.max_on_time + 1e-9      # hal's max on-time still cut the motor
