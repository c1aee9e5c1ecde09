"""The scheduler's exact mode (the exact variants): planned = the owed count, in bursts within the motor's on-time."""

from __future__ import annotations

import random

import pytest

from hal import HardwareSettings
from shooter.launcher import LauncherSettings
from shooter.scheduler import PROFILES, Scheduler
from shooter.scheduler.pattern import EXACT_BURST_MAX


class CountingRandom(random.Random):
    def __init__(self, seed):
        super().__init__(seed)
        self.draws = 0

    def random(self):
        self.draws += 1
        return super().random()


@pytest.mark.parametrize("cards, planned", [(1, 1), (4, 4), (7, 7), (12, EXACT_BURST_MAX)])
def test_exact_plans_the_owed_count_up_to_one_burst(cards, planned):
    assert Scheduler.exact(cards) == planned


def test_exact_draws_nothing_and_leaves_the_random_pattern_alone():
    rng = CountingRandom(3)
    scheduler = Scheduler(PROFILES["original"], rng)
    scheduler.next_press()
    before = (rng.draws, scheduler.blank_run, scheduler.shot_run)
    scheduler.exact(4)
    assert (rng.draws, scheduler.blank_run, scheduler.shot_run) == before


@pytest.mark.parametrize("cards", [0, -1, 2.0])
def test_exact_refuses_a_count_that_is_no_burst(cards):
    with pytest.raises(ValueError):
        Scheduler.exact(cards)


def test_an_exact_burst_fits_the_motors_maximum_on_time():
    timing = LauncherSettings()
    run = timing.spin_up + timing.seconds_per_card * EXACT_BURST_MAX
    assert run < HardwareSettings().motor.max_on_time
