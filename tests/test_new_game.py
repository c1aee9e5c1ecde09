"""`game new` during a game, and the config's [rules] for every new game (issue 7, items 10 and 12)."""

from shooter.config import parse_config
from tests.conftest import run_console


def replies(out):
    return [o for o in out if "reply" in o]


def test_game_new_during_a_game_is_refused_without_force_and_changes_nothing():
    out = replies(run_console(["game new players=2 dealer=2", "round start first=7", "play 9 last",
                               "score seat=2 points=50", "status", "game new players=3", "status"]))
    refused = out[5]
    assert refused["ok"] is False and refused["error"] == "wrong-phase" and "force" in refused["message"]
    assert "1: 50" in refused["message"]   # it says what would be wiped
    assert out[6]["game"] == out[4]["game"] and out[6]["game"]["totals"] == {"1": 50, "2": 0}


def test_game_new_force_ends_the_running_game():
    out = replies(run_console(["game new players=2 dealer=2", "round start first=7", "play 9 last",
                               "score seat=2 points=50", "game new players=3 force", "status"]))
    assert out[4]["ok"] and out[5]["game"]["totals"] == {"1": 0, "2": 0, "3": 0}


def test_game_new_after_game_over_needs_no_force():
    out = replies(run_console(["game new players=2 dealer=2 limit=10", "round start first=7", "play 9 last",
                               "score seat=2 points=50", "status", "game new players=2"]))
    assert out[4]["game"]["phase"] == "over" and out[5]["ok"]


def test_rules_in_the_config_apply_to_every_new_game_even_after_a_saved_game(tmp_path):
    wild = parse_config({})
    skip = parse_config({"rules": {"blank_as": "skip"}})
    run_console(["game new players=3 dealer=3"], config=wild, state_dir=tmp_path)   # saved with blank = wild
    # restart with blank_as = "skip": the resumed game keeps its own rule, a new game takes the config's
    resumed = run_console(["status"], config=skip, state_dir=tmp_path)
    assert replies(resumed)[0]["game"]["players"] == 3
    out = replies(run_console(["game new players=3 dealer=3 force", "round start first=7", "play blank", "status"],
                              config=skip, state_dir=tmp_path))
    assert out[2]["ok"] and out[3]["game"]["current"] == 3   # seat 1 played a skip: seat 2 skipped


def test_a_resumed_game_keeps_its_own_rules(tmp_path):
    run_console(["game new players=3 dealer=3"], config=parse_config({}), state_dir=tmp_path)
    skip = parse_config({"rules": {"blank_as": "skip"}})
    out = replies(run_console(["round start first=7", "play blank", "status"], config=skip, state_dir=tmp_path))
    assert out[1]["ok"] and out[2]["game"]["current"] != 3   # still a wild blank: no one skipped
