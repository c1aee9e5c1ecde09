"""Presses that arrive while the shooter is busy, and the sounds it makes, in virtual time
without running to quiescence between lines (as on the real table)."""

import pytest

from shooter import beeps
from shooter.app import App
from shooter.config import parse_config


@pytest.fixture
def app():
    with App(parse_config({}), sim=True, virtual=True, seed=11, log=lambda m: None) as a:
        a.out = []
        a.controller.add_sink(a.out.append)
        a.loop.run_until_quiet()
        yield a


def send(app, line, settle=True):
    replies = []
    app.loop.post(lambda: app.controller.handle_line(line, replies.append))
    if settle:
        app.loop.run_until_quiet()
    else:
        app.loop.run_pending()
    return replies[0]


def events(app, name):
    return [e for e in app.out if e.get("event") == name]


def fire_until_busy(app) -> int:
    """Press until a burst is running (the scheduler shoots on at least one press in four);
    returns the number of presses accepted."""
    for n in range(1, 5):
        assert send(app, "press", settle=False)["ok"]
        app.loop.run_for(0.05)
        if app.controller.launcher.state == "firing":
            return n
        app.loop.run_until_quiet()
    raise AssertionError("no burst in four presses")


ALWAYS_3 = {"scheduler": {"profile": "always3",
                          "profiles": {"always3": {"fire_probability": 1.0, "burst_weights": {"3": 1}}}}}


def test_owed_presses_while_firing_are_queued_and_served_next():
    with App(parse_config(ALWAYS_3), sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        app.out = []
        app.controller.add_sink(app.out.append)
        send(app, "game new players=3 dealer=3")
        send(app, "round start first=hit4")          # F-HIT: seat 1 owes 4 presses
        assert send(app, "press", settle=False)["ok"]
        app.loop.run_for(0.1)
        assert app.controller.launcher.state == "firing"
        for _ in range(3):  # the victim keeps pressing while the first burst runs: all owed, all queued
            assert send(app, "press", settle=False) == {"reply": "press", "ok": True, "seat": 1, "reason": "start"}
        assert len(app.controller.launcher.queue) == 3
        assert send(app, "press", settle=False)["error"] == "busy"  # a fifth press is owed by no one
        app.loop.run_until_quiet()
        shots = events(app, "shot")
        assert [(s["seat"], s["ejected"]) for s in shots] == [(1, 3)] * 4


def test_a_draw_press_while_firing_is_refused_with_a_beep_and_an_event(app):
    accepted = fire_until_busy(app)
    answer = send(app, "press", settle=False)
    assert answer["ok"] is False and answer["error"] == "busy"
    assert events(app, "refused")[-1]["error"] == "busy"
    assert app.hw.beeper.played[-1] == beeps.PRESS_REFUSED
    app.loop.run_until_quiet()
    assert len(events(app, "shot")) == accepted  # the refused press shot nothing


def test_the_lid_closing_is_heard_as_the_lid_closed_beep(app):
    send(app, "sim lid open")
    before = len(app.world.beeps)
    send(app, "sim lid close")
    start, seconds = app.world.beeps[before]
    assert seconds == pytest.approx(beeps.duration(beeps.LID_CLOSED))
    assert start == pytest.approx(events(app, "lid")[-1]["t"])


def test_a_jam_is_heard_as_three_long_beeps(app):
    send(app, "sim jam")
    while not events(app, "jam"):
        send(app, "press")
    t = events(app, "jam")[0]["t"]
    heard = [b for b in app.world.beeps if b[0] >= t - 1e-9]
    assert [round(d, 6) for _, d in heard[:3]] == [0.3, 0.3, 0.3]


def test_the_last_owed_press_is_heard(app):
    send(app, "game new players=3 dealer=3")
    send(app, "round start first=hit2")
    send(app, "press")
    send(app, "press")
    assert beeps.OWED_DONE in app.hw.beeper.played


def test_T_STUCK_a_card_in_the_slot_when_the_lid_opens_is_the_pressers(app):
    send(app, "game new players=3 dealer=3")
    send(app, "round start first=5")
    while True:  # press until a burst is under way with a card in the exit slot
        send(app, "press", settle=False)
        for _ in range(400):
            app.loop.run_for(0.002)
            if app.controller.launcher.state == "firing" and app.hw.exit_sensor.is_blocked:
                break
        if app.controller.launcher.state == "firing":
            break
        app.loop.run_until_quiet()
    seat = app.controller.launcher.current.seat
    counted = app.controller.launcher.current.ejected
    send(app, "sim lid open")
    shot = events(app, "shot")[-1]
    assert shot["interrupted"] == "lid" and shot["seat"] == seat and shot["ejected"] == counted
    app.loop.run_until_quiet()
    # the card that stuck out was pulled by the player: it is out, and counted for the presser
    assert app.world.launcher.in_beam is None
    assert app.world.cards_out == sum(s["ejected"] for s in events(app, "shot"))
