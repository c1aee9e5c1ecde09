"""Guards written for the mutants that survived in shooter/table/scoring.py (docs/mutation.md, the eleventh run):
each test is named by the rule of docs/rules.md it guards."""

from __future__ import annotations

import random

from shooter.table import Table


def new_game(players: int = 3, **game: object) -> Table:
    t = Table(rng=random.Random(3))
    t.new_game(players, **game)
    return t


def go_out(t: Table, winner: int) -> None:
    """A round in which `winner` goes out on their first turn."""
    t.start_round("5")
    t.set(current=winner)
    t.play("5", last=True)


def report_all(t: Table, points: dict[int, int]) -> list[dict]:
    events: list[dict] = []
    for seat, p in points.items():
        events = t.score(seat, p)
    return events


def test_G_WIN_the_winner_adds_each_rounds_points_to_what_it_has():
    t = new_game(3, limit=500)
    go_out(t, 2)
    report_all(t, {1: 10, 3: 20})
    go_out(t, 2)
    events = report_all(t, {1: 5, 3: 7})
    assert events == [{"event": "round-scored", "winner": 2, "points": 12, "totals": {"1": 0, "2": 42, "3": 0}}]


def test_G_LOW_the_round_scored_event_counts_the_points_of_every_reported_hand():
    t = new_game(3, scoring="lowest", limit=100)
    go_out(t, 2)
    events = report_all(t, {1: 10, 3: 25})
    assert events == [{"event": "round-scored", "winner": 2, "points": 35, "totals": {"1": 10, "2": 0, "3": 25}}]


def test_G_ELIM_the_round_scored_event_counts_the_points_and_names_the_seats_out():
    t = new_game(4, scoring="elimination", limit=100)
    go_out(t, 2)
    events = report_all(t, {1: 120, 3: 20, 4: 30})
    assert events == [
        {
            "event": "round-scored",
            "winner": 2,
            "points": 170,
            "totals": {"1": 120, "2": 0, "3": 20, "4": 30},
            "out": [1],
        }
    ]
    go_out(t, 3)
    events = report_all(t, {2: 10, 4: 10})  # nobody reaches the limit: out is said, empty
    assert events == [
        {"event": "round-scored", "winner": 3, "points": 20, "totals": {"1": 120, "2": 10, "3": 20, "4": 40}, "out": []}
    ]


def test_AT_HANDS_a_score_report_says_nothing_of_the_cards_the_hand_count_is_kept():
    # `score seat=S points=P` gives the points, not the cards: the hand counts of a game that keeps them stand
    t = Table()
    t.new_game(3, dealer=1, variant="attack")
    t.start_round(first="5")
    t.play("9", last=True)  # seat 2 goes out
    t.score(1, 25)
    status = t.status()
    assert status is not None
    assert (status["phase"], status["hands"]) == ("scoring", {"1": 7, "2": 0, "3": 7})
