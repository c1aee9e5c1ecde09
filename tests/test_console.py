"""The console protocol end to end, in-process, on the simulator in virtual time."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from shooter.protocol import ERROR_CODES, MAX_LINE_BYTES
from tests.conftest import run_console


def replies(out):
    return [o for o in out if "reply" in o]


def events(out, name=None):
    return [o for o in out if "event" in o and (name is None or o["event"] == name)]


def test_every_line_gets_exactly_one_reply_and_it_comes_before_its_events():
    out = run_console(["sim load cards=10", "press", "press", "press", "status"])
    assert len(replies(out)) == 5
    first_shot = out.index(events(out, "shot")[0])
    assert out[first_shot - 1]["reply"] == "press"


def test_a_press_with_no_game_fires_wherever_the_shooter_points():
    out = run_console(["aim seat=2", "press", "press", "press"])
    shots = events(out, "shot")
    assert len(shots) == 3 and all(s["seat"] == 2 and s["reason"] == "draw" for s in shots)


def test_H_LID_a_press_with_the_lid_open_is_refused_and_not_counted():
    out = run_console(["sim lid open", "press", "status"])
    assert replies(out)[1] == {"reply": "press", "ok": False, "error": "lid-open",
                               "message": replies(out)[1]["message"]}
    assert events(out, "shot") == []
    assert replies(out)[2]["shooter"]["state"] == "lid-open"
    assert events(out, "lid") == [{"event": "lid", "t": 0.0, "state": "open"}]


def test_H_BEEP_closing_the_lid_beeps_and_is_announced_after_it_settles():
    out = run_console(["sim lid open", "sim lid close", "status"])
    closed = events(out, "lid")[-1]
    assert closed["state"] == "closed" and closed["t"] >= 0.3
    assert replies(out)[-1]["shooter"]["state"] == "ready"


def test_a_jam_is_reported_and_presses_are_refused_until_the_lid_is_cycled():
    out = run_console(["sim jam"] + ["press"] * 6 + ["press", "sim lid open", "sim lid close", "press"])
    assert len(events(out, "jam")) == 1
    refused = [r for r in replies(out) if r["reply"] == "press" and not r["ok"]]
    assert refused and all(r["error"] == "jammed" for r in refused)
    assert len(events(out, "cleared")) == 1
    assert replies(out)[-1]["ok"] is True


def test_the_physical_button_is_one_press_through_the_simulated_pin():
    out = run_console(["sim button"])
    assert replies(out) == [{"reply": "sim", "ok": True}]
    assert [e["source"] for e in events(out, "press")] == ["button"]
    assert len(events(out, "shot")) == 1


def test_the_physical_button_with_the_lid_open_is_refused_with_an_event():
    out = run_console(["sim lid open", "sim button"])
    refused = events(out, "refused")
    assert refused and refused[0]["error"] == "lid-open" and refused[0]["source"] == "button"
    assert events(out, "shot") == []


def test_an_empty_magazine_is_announced():
    from shooter.config import parse_config
    out = run_console(["press"] * 40, config=parse_config({"sim": {"cards": 5}}))
    assert len(events(out, "empty")) == 1
    assert replies(out)[-1]["error"] == "empty"
    assert sum(s["ejected"] for s in events(out, "shot")) == 5


def test_sim_load_refills_an_empty_shooter():
    from shooter.config import parse_config
    out = run_console(["press"] * 40 + ["sim load cards=30", "status"], config=parse_config({"sim": {"cards": 5}}))
    assert replies(out)[-1]["shooter"]["state"] == "ready"
    assert replies(out)[-1]["shooter"]["cards"] == 30


def test_sim_wait_lets_virtual_time_pass():
    out = run_console(["sim wait seconds=12.5", "sim lid open"])
    assert events(out, "lid")[0]["t"] == 12.5


def test_a_line_too_long_is_refused():
    out = run_console(["status " + "x" * MAX_LINE_BYTES])
    assert replies(out)[0]["error"] == "line-too-long"


@pytest.mark.parametrize("line, code", [
    ("frobnicate", "unknown-command"),
    ("sim", "bad-argument"),
    ("sim lid", "bad-argument"),
    ("sim lid ajar", "bad-argument"),
    ("sim load", "bad-argument"),
    ("sim load cards=0", "bad-argument"),
    ("sim load cards=ten", "bad-argument"),
    ("sim load cards=5 cards=6", "bad-argument"),
    ("sim wait seconds=-1", "bad-argument"),
    ("sim wait seconds=nan", "bad-argument"),
    ("aim", "bad-argument"),
    ("aim seat=11", "bad-argument"),
    ("aim seat=5", "bad-argument"),
    ("status now", "bad-argument"),
    ("press hard", "bad-argument"),
    ("play", "bad-argument"),
    ("catch seat=1", "no-game"),
    ("=", "bad-argument"),
])
def test_malformed_lines_get_one_error_reply(line, code):
    out = run_console([line])
    assert len(out) == 1 and out[0]["ok"] is False and out[0]["error"] == code
    assert out[0]["message"]


def test_keywords_are_case_insensitive():
    out = run_console(["STATUS", "Sim Lid OPEN"])
    assert [r["ok"] for r in replies(out)] == [True, True]
    assert replies(out)[0]["reply"] == "status"


def test_invalid_utf8_is_refused():
    out = run_console([b"status \xff\xfe"])
    assert out[0]["error"] == "bad-argument"


LINES = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(["sim", "lid", "load", "wait", "aim", "press", "status", "game", "new", "play",
                              "cards=", "seat=", "seconds=", "x=1", "=", "open", "close", "11", "-1", "nan",
                              "seat=0", "cards=501", "help", "version", "penalty", "advice", "round", "start"]),
             max_size=5).map(" ".join),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, max_size=6))
def test_fuzz_rejected_lines_change_nothing(lines):
    script = ["sim load cards=5"]
    for line in lines:
        script += ["status", line, "status"]
    out = run_console(script)
    rs = replies(out)[1:]
    for before, answer, after in zip(rs[0::3], rs[1::3], rs[2::3], strict=False):
        assert answer["ok"] in (True, False)
        if not answer["ok"]:
            assert answer["error"] in ERROR_CODES
            assert json.dumps(before, sort_keys=True) == json.dumps(after, sort_keys=True)


def test_H_RANDOM_the_pattern_restarts_when_the_lid_is_cycled():
    # after a restart the original profile fires with its fresh-state chance; its run counters
    # are back at zero, so three blanks before the cycle and three after are allowed
    from shooter.app import App
    from shooter.config import parse_config
    with App(parse_config({}), sim=True, virtual=True, seed=9, log=lambda m: None) as app:
        app.loop.run_until_quiet()
        for _ in range(3):
            app.controller.scheduler.next_press()
        assert app.controller.scheduler.blank_run + app.controller.scheduler.shot_run > 0
        app.world.open_lid()
        app.loop.run_until_quiet()
        app.world.close_lid()
        app.loop.run_until_quiet()
        assert app.controller.scheduler.blank_run == app.controller.scheduler.shot_run == 0


def test_magazine_sets_the_card_count_and_an_empty_shooter_is_ready_again():
    from shooter.config import parse_config
    out = run_console(["press"] * 40 + ["magazine cards=50", "status", "magazine cards=-1"],
                      config=parse_config({"sim": {"cards": 5}}))
    assert replies(out)[-3] == {"reply": "magazine", "ok": True, "cards": 50}
    assert replies(out)[-2]["shooter"]["state"] == "ready" and replies(out)[-2]["shooter"]["cards"] == 50
    assert replies(out)[-1]["error"] == "bad-argument"
