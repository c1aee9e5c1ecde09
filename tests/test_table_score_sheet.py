"""The score sheet: the table keeps one row per settled round (its number, winner, each seat's points and,
in elimination, who went out), saved with the game and taken back by undo with its scoring."""

import copy
import json
import random
from pathlib import Path

import pytest

from shooter.errors import StateFileError
from shooter.table import Table


def new_game(players=3, **game):
    t = Table(rng=random.Random(3))
    t.new_game(players, dealer=1, **game)
    return t


def play_round(t, winner, points):
    """A round `winner` wins on their first turn; the others report {seat: points} with `score`."""
    t.start_round("5")
    t.set(current=winner)
    t.play("5", last=True)
    for seat, p in points.items():
        t.score(seat, p)


def test_winner_scoring_rows_give_the_round_winner_the_points_and_the_others_zero():
    t = new_game(3, limit=500)
    play_round(t, 2, {1: 10, 3: 20})
    play_round(t, 1, {2: 5, 3: 7})
    assert t.status()["rounds"] == [
        {"round": 1, "winner": 2, "points": {"1": 0, "2": 30, "3": 0}},
        {"round": 2, "winner": 1, "points": {"1": 12, "2": 0, "3": 0}},
    ]


def test_lowest_scoring_rows_give_each_seat_its_own_hand_and_the_winner_zero():
    t = new_game(3, scoring="lowest", limit=500)
    play_round(t, 3, {1: 14, 2: 9})
    assert t.status()["rounds"] == [{"round": 1, "winner": 3, "points": {"1": 14, "2": 9, "3": 0}}]


def test_elimination_rows_name_who_went_out_and_leave_out_seats_already_out():
    t = new_game(4, scoring="elimination", limit=50)
    play_round(t, 1, {2: 60, 3: 10, 4: 5})
    play_round(t, 3, {1: 8, 4: 45})
    assert t.status()["rounds"] == [
        {"round": 1, "winner": 1, "points": {"1": 0, "2": 60, "3": 10, "4": 5}, "out": [2]},
        {"round": 2, "winner": 3, "points": {"1": 8, "3": 0, "4": 45}, "out": [4]},
    ]


def test_the_rows_add_up_to_the_totals():
    t = new_game(3, scoring="lowest", limit=500)
    for winner, points in [(1, {2: 4, 3: 9}), (2, {1: 30, 3: 1}), (3, {1: 2, 2: 17})]:
        play_round(t, winner, points)
    status = t.status()
    sums = {s: sum(row["points"][s] for row in status["rounds"]) for s in status["totals"]}
    assert sums == status["totals"] and [row["round"] for row in status["rounds"]] == [1, 2, 3]


def test_the_round_that_decides_the_game_gets_its_row():
    t = new_game(2, limit=20)
    play_round(t, 1, {2: 25})
    assert t.phase == "over" and t.status()["rounds"] == [{"round": 1, "winner": 1, "points": {"1": 25, "2": 0}}]


def test_undo_takes_the_scoring_back_together_with_its_row():
    t = new_game(3)
    play_round(t, 2, {1: 10, 3: 20})
    assert len(t.status()["rounds"]) == 1
    t.undo()
    status = t.status()
    assert (status["phase"], status["rounds"], status["totals"]["2"]) == ("scoring", [], 0)
    t.score(3, 4)
    assert t.status()["rounds"] == [{"round": 1, "winner": 2, "points": {"1": 0, "2": 14, "3": 0}}]


def test_a_new_game_starts_an_empty_score_sheet():
    t = new_game(3)
    play_round(t, 2, {1: 10, 3: 20})
    t.new_game(3)
    assert t.status()["rounds"] == []


def test_the_rows_survive_a_save_and_a_restart():
    t = new_game(4, scoring="elimination", limit=50)
    play_round(t, 1, {2: 60, 3: 10, 4: 5})
    play_round(t, 3, {1: 8, 4: 4})
    again = Table.from_dict(json.loads(json.dumps(t.to_dict())), rng=random.Random(0))
    assert again.status()["rounds"] == t.status()["rounds"] and len(again.status()["rounds"]) == 2
    again.undo()   # the undo levels hold the sheet too
    assert again.status()["rounds"] == t.status()["rounds"][:1]


def test_the_status_rows_are_a_copy_a_console_cannot_change_the_sheet_through():
    t = new_game(3)
    play_round(t, 2, {1: 10, 3: 20})
    t.status()["rounds"][0]["points"]["2"] = 999
    assert t.status()["rounds"][0]["points"]["2"] == 30


def saved(scoring="winner"):
    t = new_game(3, scoring=scoring, limit=500)
    play_round(t, 2, {1: 10, 3: 20})
    return t, copy.deepcopy(t.to_dict())


def test_a_state_saved_before_the_score_sheet_loads_with_an_empty_one():
    # a game file written by the code of that time (tests/saved_games/README.md): version 1 without "rounds"
    saved_file = Path(__file__).parent / "saved_games" / "v1-before-score-sheet-extreme-between.json"
    data = json.loads(saved_file.read_text())
    assert "rounds" not in data["game"]
    old = Table.from_dict(data)
    assert old.status()["rounds"] == [] and old.status()["totals"] == {"1": 12, "2": 40, "3": 7, "4": 0}
    play_round(old, 1, {3: 3, 4: 3})   # elimination to 30: seat 2 went out in round 1
    assert old.status()["rounds"] == [{"round": 2, "winner": 1, "points": {"1": 0, "3": 3, "4": 3}, "out": []}]


BAD_ROWS = {
    "not a list": ({"rounds": {"1": 2}}, "game.rounds must be a list"),
    "more rows than rounds": ({"rounds": [{"round": 1, "winner": 2, "points": {"2": 1}}] * 3}, "game.rounds must"),
    "row not an object": ({"rounds": [[1, 2]]}, "game.rounds[0] must be an object with points, round, winner"),
    "row missing its winner": ({"rounds": [{"round": 1, "points": {"2": 1}}]}, "game.rounds[0] must be"),
    "row with an unknown field": ({"rounds": [{"round": 1, "winner": 2, "points": {}, "colour": "red"}]},
                                  "game.rounds[0] must be"),
    "round after the current one": ({"rounds": [{"round": 3, "winner": 2, "points": {"2": 1}}]},
                                    "game.rounds[0].round must be a whole number from 1 to 2"),
    "rounds out of order": ({"rounds": [{"round": 1, "winner": 2, "points": {"2": 1}},
                                        {"round": 1, "winner": 2, "points": {"2": 1}}]},
                            "game.rounds[1].round must come after round 1"),
    "winner not a seat": ({"rounds": [{"round": 1, "winner": 4, "points": {"2": 1}}]},
                          "game.rounds[0].winner must be a whole number from 1 to 3"),
    "winner not in the points": ({"rounds": [{"round": 1, "winner": 1, "points": {"2": 1}}]},
                                 "game.rounds[0].winner must be one of the seats in points"),
    "points of a seat not at the table": ({"rounds": [{"round": 1, "winner": 2, "points": {"2": 1, "7": 0}}]},
                                          "game.rounds[0].points must map the seats 1..3"),
    "negative points": ({"rounds": [{"round": 1, "winner": 2, "points": {"2": -4}}]},
                        "game.rounds[0].points.2 must be whole points"),
    "out in winner scoring": ({"rounds": [{"round": 1, "winner": 2, "points": {"2": 1}, "out": []}]},
                              "game.rounds[0] must be an object with points, round, winner."),
}


@pytest.mark.parametrize("name", sorted(BAD_ROWS))
def test_a_malformed_score_sheet_is_refused_naming_the_field(name):
    fields, message = BAD_ROWS[name]
    _, data = saved()
    data["game"].update(fields)
    with pytest.raises(StateFileError) as info:
        Table.from_dict(data)
    assert message in str(info.value)


@pytest.mark.parametrize("out", [KeyError, [9], "2"])
def test_an_elimination_row_must_list_who_went_out(out):
    _, data = saved("elimination")
    if out is KeyError:
        del data["game"]["rounds"][0]["out"]
    else:
        data["game"]["rounds"][0]["out"] = out
    with pytest.raises(StateFileError) as info:
        Table.from_dict(data)
    assert "game.rounds[0]" in str(info.value)


def test_a_malformed_row_in_an_undo_level_is_refused_naming_the_level():
    t = new_game(3)
    play_round(t, 2, {1: 10, 3: 20})
    t.start_round("5")     # an undo level holding the sheet
    data = t.to_dict()
    data["history"][-1]["game"]["rounds"][0]["winner"] = "two"
    with pytest.raises(StateFileError) as info:
        Table.from_dict(data)
    assert "history[" in str(info.value) and ".game.rounds[0].winner" in str(info.value)


def test_a_row_for_the_round_not_yet_settled_is_refused_so_settling_it_cannot_add_a_second():
    _, data = saved()      # between rounds: round 1 settled, round 2 to come
    data["game"]["rounds"].append({"round": 2, "winner": 1, "points": {"1": 5, "2": 0, "3": 0}})
    with pytest.raises(StateFileError) as info:
        Table.from_dict(data)
    assert "game.rounds[1].round" in str(info.value)


def test_the_round_that_ended_the_game_keeps_its_row_through_a_restart():
    t = new_game(3, limit=10)
    play_round(t, 2, {1: 10, 3: 20})     # the game is over in round 1
    again = Table.from_dict(json.loads(json.dumps(t.to_dict())), rng=random.Random(0))
    assert again.status()["rounds"] == t.status()["rounds"] and len(t.status()["rounds"]) == 1
