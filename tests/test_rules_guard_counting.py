"""Guards of the counting family's commands (D-*, CL-CHAL, FL-WDC, FL-SIDE): what each command refuses, with
which code and sentence, what it announces, and the name it leaves for ``undo`` (and the state file).

Written for the mutants mutation testing found alive (docs/mutation.md): each test asserts a behaviour no other
test looked at. Tables are the engine's of ``tests/test_editions_engine.py``: four seats, seat 1 deals, the deal
and a ``5`` shot, seat 2 to play, every hand 7.
"""

from __future__ import annotations

import pytest

from shooter.errors import CommandError
from shooter.table import Table
from tests.test_editions_engine import deal, shoot, table


def refusal(call) -> tuple[str, str]:
    """(code, message) of a refused command."""
    with pytest.raises(CommandError) as info:
        call()
    return info.value.code, info.value.message


def resumed(t: Table) -> Table:
    """The table as a restart reads it back from its state file (its undo history included)."""
    back = Table.from_dict(t.to_dict())
    assert back.history == t.history
    return back


def undoes(t: Table) -> str:
    """What ``undo`` takes back (the web console's ``undoes``), after the state file kept it."""
    return resumed(t).history[-1]["command"]


# --- the Extreme family refuses the counting family's commands -------------------------------------

@pytest.mark.parametrize(("command", "doing"), [
    (lambda t: t.draw(), "draw"),
    (lambda t: t.pass_turn(), "pass"),
    (lambda t: t.challenge(seat=3, result="upheld"), "challenge"),
    (lambda t: t.colour_found(), "end a draw"),
    (lambda t: t.give(seat=3, cards=2), "give cards"),
])
def test_D_PEN_an_extreme_game_refuses_each_counting_command_by_name_where_the_counting_family_would_take_it(
        command, doing):
    t = Table()
    t.new_game(4, dealer=1)
    t.start_round("5")
    assert refusal(lambda: command(t)) == ("bad-argument", f"variant extreme cannot {doing} this way.")
    t2 = Table()
    t2.new_game(4, dealer=1)   # phase deal: the counting family would not take it either
    assert refusal(lambda: command(t2))[0] == "wrong-phase"
    assert refusal(lambda: command(Table())) == ("no-game", "There is no game; start one with game new.")


def test_D_PEN_an_extreme_game_refuses_a_first_card_as_the_wrong_phase():
    t = Table()
    t.new_game(4, dealer=1)
    assert refusal(lambda: t.first_card("5")) == ("wrong-phase", "Cannot report the first card in phase deal.")
    t.start_round("5")
    assert refusal(lambda: t.first_card("5")) == ("wrong-phase", "Cannot report the first card in phase play.")


def test_D_PEN_the_counting_family_has_no_penalty_command_and_says_so():
    assert refusal(lambda: table().penalty("advice", seat=3)) == (
        "bad-argument", "variant classic has no penalty command.")


# --- set (D-HANDS, FL-SIDE) ----------------------------------------------------------------------------

def test_D_HANDS_set_corrects_the_turn_and_the_direction_and_announces_the_turn():
    t = table()
    assert t.set(direction="ccw") == [{"event": "turn", "seat": 2, "direction": "ccw"}]
    assert t.game.direction == "ccw"
    assert t.set(current=4) == [{"event": "turn", "seat": 4, "direction": "ccw"}]
    assert t.game.current == 4
    assert undoes(t) == "set"


def test_D_HANDS_set_refuses_what_it_cannot_take_naming_the_argument():
    t = table()
    assert refusal(lambda: t.set()) == ("bad-argument", "set needs current= or direction=.")
    assert refusal(lambda: t.set(seat=2)) == ("bad-argument", "seat= and hand= go together.")
    assert refusal(lambda: t.set(hand=2)) == ("bad-argument", "seat= and hand= go together.")
    assert refusal(lambda: t.set(side="dark")) == ("bad-argument", "side= goes only with variant=flip.")
    assert refusal(lambda: t.set(current=9)) == ("bad-argument", "current= must be 1..4, got 9")
    assert refusal(lambda: t.set(direction="up")) == (
        "bad-argument", "direction= must be one of cw, ccw, got 'up'")
    assert refusal(lambda: t.set(seat=9, hand=1)) == ("bad-argument", "seat= must be 1..4, got 9")
    assert refusal(lambda: t.set(seat=2, hand=-1))[1].startswith("hand= must be 0..")
    assert refusal(lambda: table("flip").set(side="up")) == (
        "bad-argument", "side= must be one of light, dark, got 'up'")
    assert refusal(lambda: Table().set(current=2))[0] == "no-game"


def test_D_HANDS_a_hand_may_be_set_to_none_and_the_count_is_the_tables():
    t = table()
    assert t.set(seat=3, hand=0) == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert t.game.hands[3] == 0
    assert undoes(t) == "set"


def test_D_HANDS_the_turn_is_corrected_only_while_a_round_is_played():
    t = Table()
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    deal(t)   # phase first: the first card is not reported yet
    assert t.phase == "first"
    assert refusal(lambda: t.set(current=3)) == ("wrong-phase", "Cannot correct the turn in phase first.")
    assert refusal(lambda: t.set(direction="ccw")) == ("wrong-phase", "Cannot correct the turn in phase first.")
    assert t.set(seat=3, hand=6) == []   # a hand count may be corrected; no turn to announce yet
    assert t.game.hands[3] == 6


# --- give (D-GIVE) -----------------------------------------------------------------------------------

def test_D_GIVE_is_announced_undoable_and_checks_its_arguments():
    t = table()
    assert t.give(seat=3, cards=2)[0] == {"event": "owed", "seat": 3, "presses": 1, "reason": "give", "cards": 2}
    assert undoes(t) == "give"
    assert refusal(lambda: t.give(seat=9, cards=2)) == ("bad-argument", "seat= must be 1..4, got 9")
    assert refusal(lambda: t.give(seat=3, cards=21)) == ("bad-argument", "cards= must be 1..20, got 21")
    early = Table()
    early.new_game(4, dealer=1, variant="classic")
    assert refusal(lambda: early.give(seat=3, cards=2)) == ("wrong-phase", "Cannot give cards in phase deal.")


# --- draw and pass (D-DRAW) -----------------------------------------------------------------------------

def test_D_DRAW_a_draw_or_a_pass_by_another_seat_is_not_your_turn():
    t = table()
    assert refusal(lambda: t.draw(seat=3)) == ("not-your-turn", "It is seat 2's turn, not seat 3's.")
    assert refusal(lambda: t.pass_turn(seat=4)) == ("not-your-turn", "It is seat 2's turn, not seat 4's.")
    assert refusal(lambda: t.draw(seat=9)) == ("bad-argument", "seat= must be 1..4, got 9")
    assert refusal(lambda: t.pass_turn(seat=9)) == ("bad-argument", "seat= must be 1..4, got 9")
    early = Table()
    early.new_game(4, dealer=1, variant="classic")
    assert refusal(lambda: early.draw()) == ("wrong-phase", "Cannot draw in phase deal.")
    assert refusal(lambda: early.pass_turn()) == ("wrong-phase", "Cannot pass in phase deal.")
    t.draw(seat=2)
    shoot(t)
    t.pass_turn(seat=2)
    assert undoes(t) == "pass"


# --- uno and catch (D-UNO) ------------------------------------------------------------------------------

def test_D_UNO_a_call_and_a_catch_are_announced_undoable_and_name_the_seat_argument():
    t = table()
    t.set(seat=2, hand=2)
    t.uno(seat=2)
    assert undoes(t) == "uno"
    assert refusal(lambda: t.uno(seat=9)) == ("bad-argument", "seat= must be 1..4, got 9")
    assert refusal(lambda: t.catch(seat=9)) == ("bad-argument", "seat= must be 1..4, got 9")
    t2 = table()
    t2.set(seat=2, hand=2)
    t2.play("5")                     # seat 2 holds 1 and did not call
    events = t2.catch(seat=2)
    assert {"event": "owed", "seat": 2, "presses": 1, "reason": "uno", "cards": 2} in events
    assert undoes(t2) == "catch"
    early = Table()
    early.new_game(4, dealer=1, variant="classic")
    assert refusal(lambda: early.uno(seat=2)) == ("wrong-phase", "Cannot uno a seat in phase deal.")
    assert refusal(lambda: early.catch(seat=2)) == ("wrong-phase", "Cannot catch a seat in phase deal.")


# --- challenges (CL-CHAL) -------------------------------------------------------------------------------

def test_CL_CHAL_only_the_victim_challenges_with_a_result_of_the_two():
    t = table()
    assert refusal(lambda: t.challenge(seat=3, result="upheld")) == (
        "too-late", "No wild draw card can be challenged now.")
    t.play("wild-draw-four")
    assert refusal(lambda: t.challenge(seat=4, result="upheld")) == (
        "not-your-turn", "Only seat 3, the victim, may challenge.")
    assert refusal(lambda: t.challenge(seat=3, result="maybe")) == (
        "bad-argument", "result= must be one of upheld, rejected, got 'maybe'")
    assert refusal(lambda: t.challenge(seat=9, result="upheld")) == ("bad-argument", "seat= must be 1..4, got 9")
    events = t.challenge(seat=3, result="upheld")
    assert events[0] == {"event": "owed", "seat": 2, "presses": 1, "reason": "challenge", "cards": 4}
    assert undoes(t) == "challenge"


def test_CL_CHAL_the_challenge_takes_the_victims_wild_draw_entry_not_another_of_its_entries():
    t = table()
    t.play("wild-draw-four")          # seat 3 owes 4
    t.give(seat=3, cards=1)           # ... and a correction, queued ahead of it
    t.challenge(seat=3, result="upheld")
    assert [(o.seat, o.reason, o.cards) for o in t.game.queue] == [(3, "give", 1), (2, "challenge", 4)]


def test_D_LAST_a_last_wild_draw_card_cannot_be_upheld():
    t = table()
    t.set(seat=2, hand=1)
    t.play("wild-draw-four", last=True)
    assert refusal(lambda: t.challenge(seat=3, result="upheld")) == (
        "bad-argument", "A last card cannot be an illegal wild draw card.")


# --- draw until the colour (FL-WDC) ---------------------------------------------------------------------

def test_FL_WDC_colour_found_is_refused_until_a_card_of_the_draw_is_counted_then_ends_it():
    t = table("flip")
    assert refusal(lambda: t.colour_found()) == ("wrong-phase", "No draw-until-the-colour is being served.")
    t.set(side="dark")
    t.play("wild-draw-colour")        # seat 3 draws until the colour
    assert refusal(lambda: t.colour_found()) == ("bad-argument", "No card has been shot for this draw yet.")
    t.press()
    shoot(t)                          # one card counted to seat 3
    t.press()                         # the next is on its way
    assert refusal(lambda: t.colour_found(seat=3)) == (
        "busy", "A card of this draw is still being shot; send colour-found once it is counted.")
    shoot(t)
    assert refusal(lambda: t.colour_found(seat=2)) == ("not-your-turn", "Seat 3 is drawing, not seat 2.")
    assert refusal(lambda: t.colour_found(seat=9)) == ("bad-argument", "seat= must be 1..4, got 9")
    assert t.colour_found(seat=3) == [{"event": "turn", "seat": 4, "direction": "cw"}]
    assert undoes(t) == "colour-found"
    early = Table()
    early.new_game(4, dealer=1, variant="flip")
    assert refusal(lambda: early.colour_found()) == ("wrong-phase", "Cannot end a draw in phase deal.")
