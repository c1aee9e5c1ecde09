"""Guards of the counting family's round: ``round start``, ``first``, ``press``, ``play`` and ``set`` (D-DEAL,
D-FIRST, AW-FIRST, D-DRAW, D-LAST, D-HANDS; docs/rules.md): what each refuses, with which code and sentence, and
what it leaves behind (the deck, the undo history, the shot in flight, an interrupted shot).

Written for the mutants mutation testing found alive (docs/mutation.md, the sixth and the twelfth run): each
test asserts a behaviour no other test looked at. Tables are ``tests/test_editions_engine.py``'s: four seats, seat 1
deals, the deal and a ``5`` shot, seat 2 to play, every hand 7.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shooter.editions import lookup, register, unregister
from shooter.errors import CommandError
from shooter.table import Table
from tests.test_editions_engine import deal, shoot, table


def refusal(call) -> tuple[str, str]:
    """(code, message) of a refused command."""
    with pytest.raises(CommandError) as info:
        call()
    return info.value.code, info.value.message


def new(variant: str = "classic", players: int = 4, dealer: int = 1) -> Table:
    """A counting game of `players` seats, no round started (phase deal)."""
    t = Table()
    t.new_game(players, dealer=dealer, variant=variant)
    return t


def dealt(variant: str = "classic") -> Table:
    """The deal shot, the first card not reported yet (phase first; all-wild plays at once)."""
    t = new(variant)
    t.start_round()
    deal(t)
    return t


# --- round start (D-DEAL) --------------------------------------------------------------------------------

def test_D_DEAL_round_start_refuses_first_with_a_counting_edition_and_says_how_to_report_it():
    t = new()
    assert refusal(lambda: t.start_round(first="5")) == (
        "bad-argument", "first= goes only with variant=extreme; here send first CARD once the first card is "
                        "turned up.")
    assert t.phase == "deal" and t.game.queue == []   # nothing changed


def test_D_DEAL_round_start_names_dealer_and_cards_out_of_range():
    t = new()
    assert refusal(lambda: t.start_round(dealer=9)) == ("bad-argument", "dealer= must be 1..4, got 9")
    assert refusal(lambda: t.start_round(dealer=0)) == ("bad-argument", "dealer= must be 1..4, got 0")
    # the least deck is one card more than the hands dealt: 4 x 7 + the first card
    assert refusal(lambda: t.start_round(cards=28)) == ("bad-argument", "cards= must be 29..500, got 28")
    assert refusal(lambda: t.start_round(cards=501)) == ("bad-argument", "cards= must be 29..500, got 501")
    assert refusal(lambda: new(players=3).start_round(cards=21)) == (
        "bad-argument", "cards= must be 22..500, got 21")
    assert t.phase == "deal" and t.game.queue == []


@pytest.mark.parametrize(("players", "least"), [(4, 29), (3, 22)])
def test_D_DEAL_the_least_deck_deals_and_the_most_is_taken(players, least):
    t = new(players=players)
    assert t.start_round(cards=least) == []
    assert t.game.deck == least and t.phase == "first"
    t2 = new(players=players)
    t2.start_round(cards=500)
    assert t2.game.deck == 500


def test_D_DEAL_the_deck_is_the_editions_without_cards_and_the_dealer_the_games_without_dealer():
    t = new(dealer=2)
    t.start_round()
    assert (t.game.deck, t.game.dealer) == (112, 2)   # docs/rules.md: classic, 112 cards
    assert [(o.seat, o.reason, o.cards) for o in t.game.queue[:2]] == [(3, "deal", 7), (4, "deal", 7)]
    t2 = new(dealer=2)
    t2.start_round(dealer=4)
    assert t2.game.dealer == 4
    assert [o.seat for o in t2.game.queue] == [1, 2, 3, 4, 4]   # from the dealer's left, the dealer last, then first


def test_D_DEAL_the_deal_cannot_be_undone_and_is_not_an_undo_level():
    t = new()
    t.start_round()
    assert t.history == [] and t.undo_blocker == "deal"
    assert refusal(lambda: t.undo()) == (
        "cannot-undo", "The last thing was the deal; its cards are out and cannot be taken back.")


def test_D_DEAL_a_round_cannot_start_while_one_is_dealt():
    t = dealt()
    assert refusal(lambda: t.start_round()) == ("wrong-phase", "Cannot start a round in phase first.")
    assert refusal(lambda: Table().start_round()) == ("no-game", "There is no game; start one with game new.")


# --- first (D-FIRST, AW-FIRST, FL-SIDE) ---------------------------------------------------------------------

def test_AW_FIRST_all_wild_refuses_a_first_card_by_its_title():
    t = dealt("all-wild")
    assert refusal(lambda: t.first_card("wild")) == (
        "bad-argument", "Uno All Wild ignores its first card: there is nothing to report.")
    assert refusal(lambda: new("all-wild").first_card("wild")) == (
        "bad-argument", "Uno All Wild ignores its first card: there is nothing to report.")


def test_D_FIRST_a_first_card_is_refused_before_the_deal_is_shot_and_once_play_began():
    t = new()
    assert refusal(lambda: t.first_card("5")) == ("wrong-phase", "Cannot report the first card in phase deal.")
    t.start_round()
    assert refusal(lambda: t.first_card("5")) == ("presses-owed", "Seat 2 is still owed cards (deal).")
    deal(t)
    t.first_card("5")
    assert refusal(lambda: t.first_card("5")) == ("wrong-phase", "Cannot report the first card in phase play.")


def test_D_FIRST_a_standing_first_card_is_the_undo_level_first_a_void_one_is_more_of_the_deal():
    t = dealt()
    assert t.first_card("skip") == []               # start=redraw: a skip is void, one more card to the dealer
    assert t.history == [] and t.undo_blocker == "deal"
    assert t.game.first == "skip" and [(o.seat, o.reason) for o in t.game.queue] == [(1, "first")]
    deal(t)
    assert t.first_card("5") == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert [h["command"] for h in t.history] == ["first"]


def test_D_FIRST_a_void_first_card_forgets_a_correction_made_during_the_deal():
    t = dealt()
    t.set(seat=3, hand=6)                           # a count corrected before the first card: an undo level
    assert [h["command"] for h in t.history] == ["set"]
    t.first_card("skip")                            # void: the deal goes on, nothing before it can be undone
    assert t.history == [] and t.undo_blocker == "deal"
    assert refusal(lambda: t.undo()) == (
        "cannot-undo", "The last thing was the deal; its cards are out and cannot be taken back.")


def test_FL_SIDE_the_first_card_is_read_on_the_side_that_is_up():
    t = dealt("flip")
    assert refusal(lambda: t.first_card("wild-draw-colour")) == (
        "bad-argument", "wild-draw-colour is a card of the other side; the light side is up.")
    t.set(side="dark")
    t.first_card("skip-everyone")                   # a dark card, read on the dark side: it stands
    assert t.game.first == "skip-everyone" and t.phase == "play"


# --- press (D-DRAW, D-REFILL) -----------------------------------------------------------------------------------

def test_D_DRAW_a_press_with_nothing_due_before_the_first_card_says_to_report_it():
    t = dealt()
    assert t.game.queue == []
    assert refusal(lambda: t.press()) == ("wrong-phase", "Nothing is due: report the first card with first CARD.")
    assert refusal(lambda: new().press()) == ("wrong-phase", "Cannot press in phase deal.")


def test_D_DRAW_a_press_is_the_draw_once_and_then_already_drawn():
    t = table()
    assert t.press() == []
    assert t.shot is not None                       # the draw's card is on its way: nothing goes ahead of it
    assert [(o.seat, o.reason, o.cards) for o in t.game.queue] == [(2, "draw", 1)]
    assert t.undo_blocker == "press" and t.history == []
    shoot(t)
    assert t.shot is None and t.game.drawn == 2
    assert refusal(lambda: t.press()) == ("already-drawn", "Seat 2 drew already; play that card or pass.")
    assert refusal(lambda: t.draw()) == ("already-drawn", "Seat 2 drew already; play that card or pass.")


def test_D_SERVE_a_press_finishes_the_interrupted_entry():
    t = table()
    t.play("draw-two")                              # seat 3 owes 2
    t.press()
    t.shot_out(3, "draw-two", 2)
    back = Table.from_dict(t.to_dict())             # the power went while the shot was out
    assert back.interrupted == {"seat": 3, "reason": "draw-two", "planned": 2, "counted": 0, "hand": 7}
    back.press()                                    # the shooter shoots the entry again
    assert back.interrupted is None and back.shot is not None


# --- play (D-LAST, AW-TD2, AW-SWAP) ---------------------------------------------------------------------------

def test_D_LAST_a_play_from_no_hand_or_last_from_more_than_one_names_the_count():
    t = table()
    assert refusal(lambda: t.play("5", last=True)) == (
        "bad-argument", "Seat 2 holds 7 cards; last is for a hand of 1.")
    t.set(seat=2, hand=0)
    assert refusal(lambda: t.play("5")) == ("bad-argument", "Seat 2 holds 0 cards.")
    assert refusal(lambda: t.play("5", last=True)) == (
        "bad-argument", "Seat 2 holds 0 cards; last is for a hand of 1.")
    t.set(seat=2, hand=1)
    assert t.play("5", last=True) == [{"event": "round-over", "winner": 2}]


def test_D_LAST_a_play_from_a_hand_of_one_without_last_goes_out_too():
    t = table()
    t.set(seat=2, hand=1)
    assert t.play("5") == [{"event": "round-over", "winner": 2}]


def test_a_play_names_the_seat_whose_turn_it_is():
    t = table()
    assert refusal(lambda: t.play("5", seat=3)) == ("not-your-turn", "It is seat 2's turn, not seat 3's.")
    assert refusal(lambda: t.play("5", seat=9)) == ("bad-argument", "seat= must be 1..4, got 9")
    assert t.play("5", seat=2) == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_a_play_is_refused_before_the_first_card_and_while_cards_are_owed():
    t = dealt()
    assert refusal(lambda: t.play("5")) == ("wrong-phase", "Cannot play a card in phase first.")
    t2 = table()
    t2.play("draw-two")
    assert refusal(lambda: t2.play("5")) == ("presses-owed", "Seat 3 is still owed cards (draw-two).")


TARGET = ("target= (another seat still in the game) goes with targeted-draw-two and forced-swap only, and they "
          "need it; not with {}.")


def test_AW_TD2_a_targeted_card_needs_another_seat_still_in_the_game_and_no_other_card_takes_one():
    t = table("all-wild")
    assert refusal(lambda: t.play("targeted-draw-two")) == ("bad-argument", TARGET.format("targeted-draw-two"))
    assert refusal(lambda: t.play("forced-swap", target=2)) == ("bad-argument", TARGET.format("forced-swap"))
    assert refusal(lambda: t.play("wild", target=3)) == ("bad-argument", TARGET.format("wild"))
    assert refusal(lambda: table().play("5", target=3)) == ("bad-argument", TARGET.format("5"))
    assert t.play("targeted-draw-two", target=4) == [
        {"event": "owed", "seat": 4, "presses": 1, "reason": "targeted-draw-two", "cards": 2}]
    assert [h["command"] for h in t.history] == ["play"]


# --- set (D-HANDS) while a shot is interrupted --------------------------------------------------------------------

def interrupted() -> Table:
    """A classic table restarted while a Draw Two's 2 cards were out to seat 3 (hand 7): none counted."""
    t = table()
    t.play("draw-two")
    t.press()
    t.shot_out(3, "draw-two", 2)
    back = Table.from_dict(t.to_dict())
    assert back.interrupted is not None
    return back


def test_D_HANDS_a_hand_showing_the_whole_interrupted_shot_serves_the_entry_and_announces_the_turn_once():
    t = interrupted()
    assert t.set(seat=3, hand=9) == [{"event": "turn", "seat": 4, "direction": "cw"}]
    assert t.interrupted is None and t.game.queue == [] and t.game.hands[3] == 9
    assert [h["command"] for h in t.history] == ["set"]   # the press before the stop cleared the history


def test_D_HANDS_a_hand_showing_part_of_the_interrupted_shot_leaves_the_rest_owed_and_says_so():
    t = interrupted()
    assert t.set(seat=3, hand=8) == [{"event": "owed", "seat": 3, "presses": 1, "reason": "draw-two", "cards": 1}]
    assert t.interrupted is None and [(o.seat, o.cards, o.served) for o in t.game.queue] == [(3, 1, 1)]


def test_D_HANDS_a_hand_showing_none_of_the_shot_resolves_it_and_another_seats_leaves_it_open():
    t = interrupted()
    assert t.set(seat=4, hand=6) == []               # the head is still seat 3's: no turn to announce
    assert t.interrupted == {"seat": 3, "reason": "draw-two", "planned": 2, "counted": 0, "hand": 7}
    assert t.game.hands[4] == 6
    assert t.set(seat=3, hand=7) == []
    assert t.interrupted is None and [(o.seat, o.cards) for o in t.game.queue] == [(3, 2)]


def test_D_HANDS_the_turn_alone_is_corrected_only_in_play_and_a_count_not_before_the_deal():
    t = new()
    assert refusal(lambda: t.set(current=2)) == ("wrong-phase", "Cannot correct the turn in phase deal.")
    assert refusal(lambda: t.set(seat=2, hand=3)) == ("wrong-phase", "Cannot correct the table in phase deal.")
    assert refusal(lambda: Table().set(seat=2, hand=3)) == ("no-game", "There is no game; start one with game new.")


# --- the twelfth run's (docs/mutation.md) ------------------------------------------------------------------------

def test_D_HANDS_a_play_with_discarded_is_refused_in_its_sentence_the_shooter_counts_every_card():
    t = table()
    assert refusal(lambda: t.play("5", discarded=1)) == (
        "bad-argument", "variant classic counts its hands itself: discarded= goes not with it.")
    assert t.game.counted[2] == 7 and [h["command"] for h in t.history] == ["first"]   # nothing changed


def test_D_HANDS_a_turn_corrected_with_a_hand_before_play_is_refused_as_the_turn():
    t = dealt()
    assert refusal(lambda: t.set(current=2, seat=2, hand=6)) == (
        "wrong-phase", "Cannot correct the turn in phase first.")
    assert t.game.counted[2] == 7 and t.history == []   # the hand is not corrected either


def test_FL_SIDE_side_names_every_edition_with_two_sides_when_more_than_one_is_registered():
    flip = lookup("flip")
    house = register(replace(flip, variant="guard"))    # a house deck of two sides, as an edition may be
    try:
        assert refusal(lambda: table().set(side="dark")) == (
            "bad-argument", "side= goes only with variant=flip, guard.")
    finally:
        unregister(house)
    assert refusal(lambda: table().set(side="dark")) == ("bad-argument", "side= goes only with variant=flip.")
