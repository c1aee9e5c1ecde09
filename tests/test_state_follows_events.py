"""A console that asks `status` on every event, as the phone page does, always ends up with the shooter's true
state: every change of the shooter's state that no other event reports ends with one (`ready` once a burst is
over and the motor has pulled back). Before it, a classic draw left the page showing "Shooting" (the status it
last asked was taken while the motor retracted) until something else happened at the table."""

from __future__ import annotations

from typing import Any

import pytest

from shooter.app import App
from shooter.config import parse_config


class StatusOnEveryEvent:
    """A sink that asks for `status` after every event it gets, on the control loop, like the page."""

    def __init__(self, app: App):
        self.app = app
        self.events: list[dict[str, Any]] = []
        self.last_status: dict[str, Any] | None = None

    def __call__(self, obj: dict[str, Any]) -> None:
        if obj.get("reply") == "status":
            self.last_status = obj
        elif "event" in obj:
            self.events.append(obj)
            self.app.loop.post(lambda: self.app.controller.handle_line("status", self))

    def send(self, *lines: str) -> None:
        for line in lines:
            self.app.loop.post(lambda line=line: self.app.controller.handle_line(line, self))
            self.app.loop.run_until_quiet()


@pytest.fixture
def table():
    with App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        sink = StatusOnEveryEvent(app)
        app.controller.add_sink(sink)
        app.loop.run_until_quiet()
        yield sink


def shooter_state(sink: StatusOnEveryEvent) -> str:
    assert sink.last_status is not None
    return sink.last_status["shooter"]["state"]


def test_after_a_classic_draw_the_last_status_asked_says_ready(table):
    table.send("game new players=3 variant=classic", "round start")
    table.send("sim wait seconds=30")   # the deal: 7 cards to each seat, then the dealer's card
    table.send("first 5", "sim wait seconds=5")
    assert table.last_status["game"]["phase"] == "play"
    shots = sum(e["event"] == "shot" for e in table.events)
    table.send("draw", "sim wait seconds=5")
    assert sum(e["event"] == "shot" for e in table.events) == shots + 1
    after = table.events[[e["event"] for e in table.events].index("shot", len(table.events) - 3):]
    assert after[-1]["event"] == "ready", after
    assert shooter_state(table) == "ready"


def test_after_the_last_owed_press_of_a_hit_the_last_status_asked_says_ready(table):
    table.send("game new players=3", "round start first=5", "sim wait seconds=2", "play hit2")
    table.send("press", "sim wait seconds=2", "press", "sim wait seconds=5")
    assert shooter_state(table) == "ready"
    assert table.last_status["game"]["owed"] is None


def test_a_burst_with_more_queued_says_ready_only_once_it_all_is_served(table):
    table.send("game new players=3", "round start first=5", "sim wait seconds=2", "play hit4")
    for _ in range(4):
        table.app.loop.post(lambda: table.app.controller.handle_line("press", table))   # pressed in a row
    table.app.loop.run_until_quiet()
    table.send("sim wait seconds=10")
    start = next(i for i, e in enumerate(table.events) if e["event"] == "owed" and e["presses"] == 4)
    served = [e["event"] for e in table.events[start:] if e["event"] in ("shot", "ready")]
    assert served == ["shot"] * 4 + ["ready"]   # not between the queued shots: the shooter never stood still
    assert shooter_state(table) == "ready"
