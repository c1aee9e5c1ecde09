"""`round start` in a counting edition shoots the deal at once, so it is refused as a press is with the lid open,
a jam or a fault (EDITIONS, `round start`: "lid, jam, fault: as a press"), and changes nothing: no phase, no deck,
nothing queued for the shooter. An empty magazine is no reason: the round declares the deck just loaded."""

from __future__ import annotations

import pytest

from tests.dealer_rig import DealerRig


@pytest.fixture
def rig():
    r = DealerRig()
    yield r
    r.close()


def _unchanged(rig: DealerRig, before: dict) -> None:
    assert rig.table.to_dict()["game"] == before
    assert list(rig.controller.launcher.queue) == []


@pytest.mark.parametrize("variant", ["classic", "all-wild", "flip"])
def test_a_round_started_with_the_lid_open_is_refused_and_deals_nothing(rig, variant):
    assert rig.send(f"game new players=3 dealer=1 variant={variant}")["ok"]
    assert rig.send("sim lid open")["ok"]
    rig.quiet()   # the lid switch's edge reaches the loop
    before = rig.table.to_dict()["game"]
    reply = rig.send("round start")
    assert (reply["ok"], reply["error"]) == (False, "lid-open")
    rig.quiet()
    _unchanged(rig, before)
    assert rig.send("sim lid close")["ok"]
    rig.quiet()
    assert rig.send("round start")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7} and rig.card_problem() is None


def test_a_round_started_on_a_jam_is_refused_until_the_jam_is_cleared(rig):
    assert rig.send("game new players=3 dealer=1 variant=classic")["ok"]
    assert rig.send("sim jam")["ok"]
    assert rig.send("round start")["ok"]
    rig.quiet()
    assert rig.controller.launcher.state == "jammed"
    assert rig.send("game new players=3 dealer=1 variant=classic force")["ok"]
    before = rig.table.to_dict()["game"]
    reply = rig.send("round start")
    assert (reply["ok"], reply["error"]) == (False, "jammed")
    rig.quiet()
    _unchanged(rig, before)
    assert rig.send("sim lid open")["ok"] and rig.send("sim lid close")["ok"]
    rig.quiet()
    assert rig.send("round start")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7}


def test_a_round_started_after_a_fault_is_refused_until_the_lid_resets_it(rig):
    assert rig.send("game new players=3 dealer=1 variant=flip")["ok"]
    rig.app.hw.motor.on_fault("max-on-time")   # as the motor's backstop reports it
    rig.quiet()
    assert rig.controller.launcher.state == "fault"
    before = rig.table.to_dict()["game"]
    reply = rig.send("round start")
    assert (reply["ok"], reply["error"]) == (False, "fault")
    rig.quiet()
    _unchanged(rig, before)
    assert rig.send("sim lid open")["ok"] and rig.send("sim lid close")["ok"]
    rig.quiet()
    assert rig.send("round start")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7}


def test_an_extreme_round_needs_no_shot_so_the_lid_does_not_stop_it(rig):
    assert rig.send("game new players=3 dealer=1")["ok"]
    assert rig.send("sim lid open")["ok"]
    rig.quiet()
    assert rig.send("round start first=5")["ok"]
