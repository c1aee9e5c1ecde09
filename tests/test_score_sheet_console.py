"""The score sheet over the console: `status` gives the table's rows, a restart keeps them, `undo` takes a
scoring back with its row (docs/protocol.md, status `rounds`)."""

from tests.conftest import run_console

TWO_ROUNDS = [
    "game new players=3 dealer=1",
    "round start first=5", "play 5 last", "score seat=1 points=10", "score seat=3 points=20",
    "round start first=5", "play 5 last", "score seat=1 points=4", "score seat=2 points=7",
]
ROWS = [{"round": 1, "winner": 2, "points": {"1": 0, "2": 30, "3": 0}},
        {"round": 2, "winner": 3, "points": {"1": 0, "2": 0, "3": 11}}]


def last_status(out):
    return [o for o in out if o.get("reply") == "status"][-1]


def test_status_gives_every_scored_round_of_the_game():
    out = run_console([*TWO_ROUNDS, "status"], seed=5)
    assert all(o["ok"] for o in out if "reply" in o), [o for o in out if "reply" in o and not o["ok"]]
    assert last_status(out)["game"]["rounds"] == ROWS


def test_a_restarted_controller_still_has_every_row(tmp_path):
    run_console(TWO_ROUNDS, seed=5, state_dir=tmp_path)
    again = last_status(run_console(["status"], seed=5, state_dir=tmp_path))
    assert again["game"]["rounds"] == ROWS


def test_undo_over_the_console_takes_the_last_row_back():
    status = last_status(run_console([*TWO_ROUNDS, "undo", "status"], seed=5))
    assert status["game"]["rounds"] == ROWS[:1] and status["game"]["phase"] == "scoring"
