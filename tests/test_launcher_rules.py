"""What each shooter state lets through (launcher.STATE_RULES), and the lid cycle that clears a stop."""

import pytest

from shooter.app import App
from shooter.config import parse_config
from shooter.launcher import STATES
from tests.test_launcher import Bench

BUSY_FOR_AIM = {"booting", "firing", "retracting", "fault"}


@pytest.mark.parametrize("state", STATES)
def test_aim_is_refused_only_while_starting_firing_or_faulted(state):
    with App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        app.loop.run_until_quiet()
        app.controller.launcher.machine.set_state(state)
        replies = []
        app.controller.handle_line("aim seat=2", replies.append)
    if state in BUSY_FOR_AIM:
        assert replies[0]["error"] == "busy", replies
    else:
        assert replies[0]["ok"] is True and replies[0]["seat"] == 2, replies


@pytest.fixture
def bench(rig):
    return Bench(rig, cards=rig.world.cards_in_shooter)


def test_a_lid_cycle_after_a_fault_resets_without_announcing_cleared(bench):
    bench.launcher.fail("max-on-time")
    bench.rig.world.open_lid()
    bench.rig.settle()
    assert bench.launcher.protocol_state == "lid-open"
    bench.rig.world.close_lid()
    bench.rig.settle()
    assert bench.launcher.state == "ready"
    assert "cleared" not in bench.names()


def test_a_lid_cycle_after_an_empty_magazine_announces_cleared_and_forgets_the_count(bench):
    bench.launcher.set_count(0)
    bench.rig.world.open_lid()
    bench.rig.settle()
    assert bench.launcher.protocol_state == "lid-open"
    bench.rig.world.close_lid()
    bench.rig.settle()
    assert bench.events[-2:] == [("lid", {"state": "closed"}), ("cleared", {"seat": None})]
    assert bench.launcher.state == "ready" and bench.launcher.cards is None


def test_a_report_from_the_hardware_in_a_state_that_does_not_expect_it_changes_nothing(bench):
    bench.launcher.card_seen()        # a card through the beam while nothing fires (a hand in the slot)
    bench.launcher.lid_closed()       # a close while the lid is shut
    assert bench.launcher.state == "ready" and bench.events == []
