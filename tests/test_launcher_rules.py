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


def test_the_servo_moves_only_through_the_launchers_machine():
    """Where the controller runs (everything but the bring-up tools on the bare bench, which have no launcher),
    only the launcher's state callbacks move the servo: a raw aim (aim angle=A) too, by its ``turn`` trigger."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "shooter"
    bench_tools = {root / "bringup" / "selftest.py", root / "bringup" / "calibrate.py"}
    moves = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "move_to" and path not in bench_tools:
                moves.append(f"{path.relative_to(root)}:{node.lineno}")
    assert moves and all(m.startswith("launcher.py:") for m in moves), moves


@pytest.mark.parametrize("state", STATES)
def test_a_raw_aim_is_the_machines_turn_and_leaves_the_state_as_it_was(state):
    with App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        app.loop.run_until_quiet()
        launcher = app.controller.launcher
        launcher.machine.set_state(state)
        pulled = []
        real = launcher.turn   # the trigger the machine bound on the launcher
        launcher.turn = lambda **kw: pulled.append("turn") or real(**kw)
        replies = []
        app.controller.handle_line("aim angle=10", replies.append)
        assert launcher.state == state
        if state in BUSY_FOR_AIM | {"aiming"}:
            assert replies[0]["error"] == "busy" and pulled == []
        else:
            assert replies[0]["ok"] and pulled == ["turn"] and launcher.aimed_seat is None
            assert app.hw.servo.angle is not None
