"""Fail loud when the table breaks its own promise to the controller in an exact variant.

The table promises a deck count after an exact deal and an owed entry after an accepted press; the
controller feeds both to the launcher. These tests break the promise on purpose (the table's method
wrapped on the instance) and check the shooter stops before any card: motor off, launcher failed,
the console told why, nothing queued, instead of shooting on an unknown count.
"""

from __future__ import annotations

import io
import json

from shooter.app import App
from shooter.config import parse_config
from shooter.consoles import stream_sink


def _session(monkeypatch, lines, *, break_table) -> tuple[App, list[dict]]:
    out = io.BytesIO()
    app = App(parse_config({}), sim=True, virtual=True, seed=1, exit_sensor=True, log=lambda m: None)
    sink = stream_sink(out)
    app.controller.add_sink(sink)
    app.loop.run_until_quiet()
    for i, line in enumerate(lines):
        if i == len(lines) - 1:
            break_table(monkeypatch, app.controller)
        app.loop.post(lambda line=line: app.controller.handle_line(line, sink))
        app.loop.run_until_quiet()
    return app, [json.loads(x) for x in out.getvalue().decode("utf-8").splitlines()]


def _no_deck_after_the_deal(monkeypatch, controller):
    # as on the real shooter: no simulated magazine to fill, the count goes to the launcher alone
    monkeypatch.setattr(controller.dealer, "sim", None)
    table = controller.table
    real = table.start_round

    def start_round(*args, **kwargs):
        events = real(*args, **kwargs)
        table.game.deck = None
        return events
    monkeypatch.setattr(table, "start_round", start_round)


def _nothing_due(monkeypatch, controller):
    monkeypatch.setattr(controller.table, "due", lambda: None)


def _stopped(app: App, out: list[dict]) -> dict:
    """Motor off, launcher in fault with nothing queued; the last reply (an internal error)."""
    with app:
        assert app.controller.launcher.state == "fault"
        assert app.hw.motor.direction is None
        assert not app.controller.launcher.queue and app.controller.launcher.current is None
    answer = [o for o in out if "reply" in o][-1]
    assert answer["ok"] is False and answer["error"] == "internal"
    return answer


def test_an_exact_deal_without_a_deck_count_stops_before_any_card(monkeypatch):
    app, out = _session(monkeypatch, ["game new players=4 dealer=1 variant=classic", "round start"],
                        break_table=_no_deck_after_the_deal)
    assert "no deck count" in _stopped(app, out)["message"]
    assert not [o for o in out if o.get("event") == "shot"]


def test_an_exact_press_with_nothing_due_stops_and_queues_nothing(monkeypatch):
    lines = ["game new players=4 dealer=1 variant=classic", "round start", "first 5", "press"]
    app, out = _session(monkeypatch, lines, break_table=_nothing_due)
    assert "owes no shot" in _stopped(app, out)["message"]
