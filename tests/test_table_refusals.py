"""A refusal says what is wrong in words a player can act on: which argument, which seat, what is owed. The codes
and the messages of the table's refusals of seats and targets (T-XHIT, G-ELIM, T-OWED), pinned: a message that
lost its seat or named the wrong argument would still refuse, and only these tests would see it."""

import random

import pytest

from shooter.errors import CommandError
from shooter.table import RuleOptions, Table
from tests.test_table_scoring import go_out, new_game, report_all


def refusal(call, code: str) -> str:
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == code, info.value.message
    return info.value.message


@pytest.fixture
def elim():
    """G-ELIM: four seats, elimination at 100; after round 1 seat 3 is out and round 2 has begun (seat 4 first)."""
    t = new_game(4, scoring="elimination", limit=100)
    go_out(t, 1)
    report_all(t, {2: 10, 3: 100, 4: 10})
    t.start_round("5")
    assert t.status()["current"] == 4
    return t


def test_a_play_named_for_a_seat_out_of_the_game_is_refused_as_not_its_turn(elim):
    # the seat= of a play asks whose turn it is: a seat out of the game is answered like any other seat
    assert refusal(lambda: elim.play("5", seat=3), "not-your-turn") == "It is seat 4's turn, not seat 3's."
    assert refusal(lambda: elim.play("5", seat=2), "not-your-turn") == "It is seat 4's turn, not seat 2's."


def test_an_extreme_hit_at_a_seat_out_of_the_game_says_to_pick_another(elim):  # T-XHIT, G-ELIM
    message = refusal(lambda: elim.play("extreme-hit", target=3), "bad-argument")
    assert message == "Seat 3 cannot be the target: pick another seat still in the game."
    assert refusal(lambda: elim.play("extreme-hit"), "bad-argument") == \
        "An extreme-hit needs target=S, the seat to aim at."
    assert refusal(lambda: elim.play("5", target=1), "bad-argument") == \
        "target= goes only with an extreme-hit, not with 5."   # the card as named, not its kind ("number")
    assert refusal(lambda: elim.play("skip", target=1), "bad-argument") == \
        "target= goes only with an extreme-hit, not with skip."


@pytest.mark.parametrize("argument", ["seat", "target"])
def test_a_bad_seat_number_names_the_argument_it_came_in(elim, argument):
    message = refusal(lambda: elim.play("extreme-hit", **{argument: "9"}), "bad-argument")
    assert message == f"{argument}= must be 1..4, got 9"


def test_a_seat_out_of_the_game_cannot_report_a_hand_and_the_message_says_why(elim):  # G-ELIM
    elim.play("5", last=True)   # seat 4 goes out: the round is over, the others report
    assert refusal(lambda: elim.score(3, 1), "bad-argument") == "Seat 3 is out of the game."
    assert refusal(lambda: elim.score(4, 1), "bad-argument") == "Seat 4 won the round; their hand counts 0."
    assert refusal(lambda: elim.score("x", 1), "bad-argument") == "seat= must be a whole number, got 'x'"


def test_an_extreme_play_while_presses_are_owed_names_the_seat_the_presses_and_why():  # T-OWED
    t = new_game(3)
    t.start_round("5")
    t.play("hit2")
    owed = t.status()["owed"]
    assert refusal(lambda: t.play("5"), "presses-owed") == \
        f"Seat {owed['seat']} still has {owed['presses']} presses owed ({owed['reason']})."


def test_a_counting_dealer_asked_for_the_first_card_while_dealing_names_the_seat_still_owed():  # D-DEAL
    t = Table(options=RuleOptions(), rng=random.Random(3))
    t.new_game(3, variant="classic")
    t.start_round()
    owed = t.status()["owed"]
    assert owed["reason"] == "deal"
    assert refusal(lambda: t.first_card("5"), "presses-owed") == f"Seat {owed['seat']} is still owed cards (deal)."


def test_a_command_with_no_game_says_how_to_start_one():
    t = Table()
    assert refusal(lambda: t.start_round("5"), "no-game") == "There is no game; start one with game new."
    assert refusal(lambda: t.play("5"), "no-game") == "There is no game; start one with game new."


def test_last_is_a_flag_and_anything_else_is_refused_in_words(elim):
    assert refusal(lambda: elim.play("5", last="maybe"), "bad-argument") == "last must be true or false."


def test_a_saved_play_holds_the_game_before_it_one_level_deep_only():
    """The last play a game keeps (undo and a catch look back one play): its ``before`` holds no last play of
    its own, so a state file cannot nest games without end."""
    import copy
    import json

    from shooter.errors import StateFileError
    from shooter.table.loader import load_snapshot
    from shooter.table.state import snapshot
    t = Table()
    t.new_game(3, dealer=1)
    t.start_round("5")
    t.play("7")
    t.play("8")
    data = json.loads(json.dumps(snapshot(t.game, t.phase)))
    assert load_snapshot(data)[1] == "play"
    deeper = copy.deepcopy(data)
    deeper["extreme"]["last_play"]["before"]["extreme"]["last_play"] = copy.deepcopy(data["extreme"]["last_play"])
    with pytest.raises(StateFileError) as info:
        load_snapshot(deeper)
    assert str(info.value) == ("Saved table state: game.extreme.last_play.before.extreme.last_play must be null "
                               "or an object with seat and before (one level only).")
