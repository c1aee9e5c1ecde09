"""Scoring and rounds: G-WIN, G-LOW, G-ELIM, G-DEALER, S-DEALER between rounds (docs/rules.md)."""

import random

import pytest

from shooter.errors import CommandError
from shooter.table import RuleOptions, Table


def new_game(players=3, options=None, **game):
    t = Table(options=options or RuleOptions(), rng=random.Random(3))
    t.new_game(players, **game)
    return t


def refused(call, code):
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == code, info.value.message


def go_out(t, winner):
    """Play a round in which `winner` goes out on their first turn."""
    t.start_round("5")
    t.set(current=winner)
    return t.play("5", last=True)


def report_all(t, points):
    """Report {seat: points} with `score`; returns the events of the last report."""
    events = []
    for seat, p in points.items():
        events = t.score(seat, p)
    return events


@pytest.fixture
def scoring():
    """Three seats, winner-takes scoring, seat 2 went out in round 1."""
    t = new_game(3, limit=100)
    go_out(t, 2)
    return t


# --- G-WIN -----------------------------------------------------------------------------


def test_G_WIN_winner_scores_the_cards_left_in_the_other_hands(scoring):
    assert scoring.hand(1, ["wild", "3", "HIT4"]) == []  # 50 + 3 + 40
    events = scoring.hand(3, ["skip", "9"])  # 20 + 9
    assert events == [{"event": "round-scored", "winner": 2, "points": 122, "totals": {"1": 0, "2": 122, "3": 0}},
                      {"event": "game-over", "winner": 2, "totals": {"1": 0, "2": 122, "3": 0}}]
    assert (scoring.status()["phase"], scoring.status()["winner"]) == ("over", 2)


def test_G_WIN_below_the_limit_the_next_round_is_dealt(scoring):
    events = report_all(scoring, {1: 10, 3: 20})
    assert events == [{"event": "round-scored", "winner": 2, "points": 30, "totals": {"1": 0, "2": 30, "3": 0}}]
    status = scoring.status()
    assert (status["phase"], status["round"], status["winner"]) == ("deal", 2, None)


def test_G_WIN_the_round_winner_does_not_report(scoring):
    refused(lambda: scoring.score(2, 0), "bad-argument")


def test_G_WIN_reaching_exactly_the_limit_wins():
    t = new_game(2, limit=50)
    go_out(t, 1)
    assert t.score(2, 50)[-1] == {"event": "game-over", "winner": 1, "totals": {"1": 50, "2": 0}}


def test_G_WIN_a_second_report_for_a_seat_replaces_the_first(scoring):
    scoring.score(1, 90)
    scoring.score(1, 5)
    assert scoring.status()["reported"] == {"1": 5}
    assert scoring.score(3, 5)[0]["points"] == 10


def test_G_WIN_waiting_for_lists_the_seats_still_to_report(scoring):
    scoring.score(3, 1)
    assert scoring.status()["waiting_for"] == [1]


@pytest.mark.parametrize("cards", [["number"], ["hit4", "hit4"], ["5"] * 9, ["joker"]])
def test_G_WIN_impossible_hands_are_bad_arguments(scoring, cards):
    refused(lambda: scoring.hand(1, cards), "bad-argument")


@pytest.mark.parametrize("points", [-1, 1591, "ten", 2.5])
def test_G_WIN_impossible_points_are_bad_arguments(scoring, points):
    refused(lambda: scoring.score(1, points), "bad-argument")


def test_G_WIN_hand_points_follow_the_2010_deck():
    t = new_game(2, edition="2010")
    go_out(t, 1)
    refused(lambda: t.hand(2, ["blank"]), "bad-argument")
    assert t.hand(2, "reverse,discard-all")[0]["points"] == 50


# --- G-LOW -----------------------------------------------------------------------------


def test_G_LOW_everyone_adds_their_own_hand():
    t = new_game(3, scoring="lowest", limit=100)
    go_out(t, 2)
    events = report_all(t, {1: 30, 3: 12})
    assert events[0]["totals"] == {"1": 30, "2": 0, "3": 12}


def test_G_LOW_when_someone_reaches_the_limit_the_lowest_total_wins():
    t = new_game(3, scoring="lowest", limit=100)
    go_out(t, 2)
    report_all(t, {1: 40, 3: 10})
    go_out(t, 1)
    events = report_all(t, {2: 70, 3: 95})  # 3 reaches 105; totals 40, 70, 105
    assert events[-1] == {"event": "game-over", "winner": 1, "totals": {"1": 40, "2": 70, "3": 105}}


def test_G_LOW_the_round_winner_can_be_lowest_and_win():
    t = new_game(3, scoring="lowest", limit=100)
    go_out(t, 2)
    report_all(t, {1: 20, 3: 100})  # totals 20, 0, 100: seat 2 lowest alone
    assert (t.status()["phase"], t.status()["winner"]) == ("over", 2)


def test_G_LOW_a_tie_for_lowest_plays_another_round():
    t = new_game(3, scoring="lowest", limit=100)
    go_out(t, 2)
    report_all(t, {1: 0, 3: 100})  # totals 0, 0, 100: seats 1 and 2 tie
    assert (t.status()["phase"], t.status()["winner"]) == ("deal", None)


# --- G-ELIM ----------------------------------------------------------------------------


@pytest.fixture
def elim():
    """Four seats, elimination at 100; after round 1 seat 3 is out."""
    t = new_game(4, scoring="elimination", limit=100)
    go_out(t, 1)
    report_all(t, {2: 10, 3: 100, 4: 10})
    return t


def test_G_ELIM_reaching_the_limit_puts_the_seat_out(elim):
    assert elim.status()["out"] == [3]
    assert elim.status()["phase"] == "deal"


def test_G_ELIM_out_seats_are_skipped_in_turn_order_and_cannot_report(elim):
    seen = [elim.start_round("5")[0]["seat"]]  # dealer 2; seat 3 is out, so seat 4 starts
    for _ in range(3):
        seen.append(elim.play("5")[0]["seat"])
    assert seen == [4, 1, 2, 4]
    refused(lambda: elim.set(current=3), "bad-argument")
    elim.play("5", last=True)
    refused(lambda: elim.score(3, 1), "bad-argument")


def test_G_ELIM_out_seats_cannot_be_targeted(elim):
    elim.start_round("5")
    refused(lambda: elim.play("extreme-hit", target=3), "bad-argument")


def test_G_ELIM_last_two_play_under_the_two_player_rules(elim):
    go_out(elim, 2)
    report_all(elim, {1: 100, 4: 0})
    assert elim.status()["out"] == [1, 3]
    elim.start_round("5")
    player = elim.status()["current"]
    assert elim.play("reverse")[0]["seat"] == player  # C-2P-REV: reverse acts as skip


def test_G_ELIM_last_one_left_wins(elim):
    go_out(elim, 2)
    events = report_all(elim, {1: 100, 4: 100})
    assert events[-1] == {"event": "game-over", "winner": 2, "totals": {"1": 100, "2": 10, "3": 100, "4": 110}}


# --- S-DEALER between rounds, G-DEALER ---------------------------------------------------


def test_S_DEALER_dealer_moves_one_seat_clockwise_each_round(scoring):
    report_all(scoring, {1: 1, 3: 1})
    assert scoring.status()["dealer"] == 2
    assert scoring.start_round("5")[0]["seat"] == 3


def test_S_DEALER_dealer_rotation_skips_eliminated_seats():
    t = new_game(4, scoring="elimination", limit=100, dealer=1)
    go_out(t, 1)
    report_all(t, {2: 100, 3: 1, 4: 1})
    assert t.status()["dealer"] == 3


def test_S_DEALER_the_round_winner_can_deal_next():
    t = new_game(4, options=RuleOptions(dealer_rotation="winner"))
    go_out(t, 3)
    report_all(t, {1: 1, 2: 1, 4: 1})
    assert t.status()["dealer"] == 3


def test_G_DEALER_random_dealer_comes_from_the_injected_rng():
    picks = []
    for seed in range(20):
        t = Table(rng=random.Random(seed))
        t.new_game(10, dealer="RANDOM")
        picks.append(t.status()["dealer"])
        assert picks[-1] == random.Random(seed).randint(1, 10)
    assert len(set(picks)) > 3


def test_G_DEALER_configured_default_dealer_can_be_random():
    t = Table(options=RuleOptions(default_dealer="random"), rng=random.Random(5))
    t.new_game(10)
    assert t.status()["dealer"] == random.Random(5).randint(1, 10)


def test_G_DEALER_dealer_must_be_a_seat_at_the_table():
    refused(lambda: Table().new_game(4, dealer=5), "bad-argument")
    refused(lambda: Table().new_game(4, dealer="someone"), "bad-argument")


def test_G_DEALER_configured_default_dealer_must_fit_the_table():
    t = Table(options=RuleOptions(default_dealer=5))
    refused(lambda: t.new_game(4), "bad-argument")
    t.new_game(5)
    assert t.status()["dealer"] == 5


def test_game_new_refuses_unknown_variants():
    refused(lambda: Table().new_game(4, scoring="highest"), "bad-argument")
    refused(lambda: Table().new_game(4, edition="2020"), "bad-argument")
    refused(lambda: Table().new_game(4, limit=0), "bad-argument")


def test_game_new_over_a_finished_game_starts_fresh(scoring):
    report_all(scoring, {1: 100, 3: 0})
    refused(lambda: scoring.start_round("5"), "wrong-phase")
    scoring.new_game(3)
    assert (scoring.status()["phase"], scoring.status()["totals"]["2"]) == ("deal", 0)
