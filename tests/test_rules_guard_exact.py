"""Guards of the exact rules' details (shooter/table/exact.py; docs/rules.md): where a caught Uno's and a
``give``'s cards queue, the ``hands`` event of a Forced Swap and a Wild Shuffle (docs/protocol.md: ``hands``,
``reason``), a Reverse's way back to clockwise, a Wild Shuffle dealt clockwise whatever the direction, a void first
card's one more card, a rejected draw-until-the-colour's 2 more, who may call Uno with 2 cards, what the exit
sensor's counts announce (the ``deal`` event, a short shot's ``owed``), and that nothing queues ahead of an entry
being shot.

Written for the mutants mutation testing found alive (docs/mutation.md, the sixth run). Tables are
``tests/test_editions_engine.py``'s: four seats, seat 1 deals, the deal and a ``5`` shot, seat 2 to play, every
hand 7.
"""

from __future__ import annotations

import pytest

from shooter.errors import CommandError
from shooter.table import Table
from tests.test_editions_engine import deal, press, shoot, table


def refusal(call) -> tuple[str, str]:
    with pytest.raises(CommandError) as info:
        call()
    return info.value.code, info.value.message


def queue(t) -> list[tuple[int, str, int | None]]:
    return [(o.seat, o.reason, o.cards) for o in t.game.queue]


# --- where the cards queue (CL-UNO, D-GIVE; option penalty_queue) ------------------------------------------

def test_CL_UNO_a_caught_unos_cards_go_to_the_front_of_the_queue_and_are_announced():
    t = table()
    t.set(seat=2, hand=2)
    t.play("draw-two")                               # seat 2 holds 1, did not call; seat 3 owes 2
    assert t.catch(seat=2) == [{"event": "owed", "seat": 2, "presses": 1, "reason": "uno", "cards": 2}]
    assert queue(t) == [(2, "uno", 2), (3, "draw-two", 2)]


def test_CL_UNO_with_penalty_queue_back_a_caught_unos_cards_wait_behind():
    t = table(options={"penalty_queue": "back"})
    t.set(seat=2, hand=2)
    t.play("draw-two")
    assert t.catch(seat=2) == []                     # the head is still seat 3's: nothing new to announce
    assert queue(t) == [(3, "draw-two", 2), (2, "uno", 2)]


def test_D_GIVE_given_cards_go_to_the_front_of_the_queue():
    t = table()
    t.play("draw-two")
    assert t.give(seat=4, cards=3) == [{"event": "owed", "seat": 4, "presses": 1, "reason": "give", "cards": 3}]
    assert queue(t) == [(4, "give", 3), (3, "draw-two", 2)]


# --- hands events (AW-SWAP, CL-SHUF) ------------------------------------------------------------------------

def test_AW_SWAP_a_forced_swap_announces_the_hands_it_swapped():
    t = table("all-wild")
    assert t.play("forced-swap", target=4) == [
        {"event": "hands", "hands": {"1": 7, "2": 7, "3": 7, "4": 6}, "reason": "forced-swap"},
        {"event": "turn", "seat": 3, "direction": "cw"},
    ]


def test_CL_SHUF_a_wild_shuffle_deals_clockwise_from_the_players_left_even_counter_clockwise():
    t = table()
    t.play("reverse")                                # seat 2: 6 cards; seat 1 plays next, counter-clockwise
    # the pool of 6 + 6 + 7 + 7 = 26 dealt from seat 1's left clockwise: 2, 3, 4, 1, ...; seats 2 and 3 get one more
    assert t.play("wild-shuffle") == [
        {"event": "hands", "hands": {"1": 6, "2": 7, "3": 7, "4": 6}, "reason": "wild-shuffle"},
        {"event": "turn", "seat": 4, "direction": "ccw"},
    ]


# --- a last draw card (D-LAST; option last_hit_counts) ----------------------------------------------------------

def test_D_LAST_without_last_hit_counts_a_draw_card_still_owes_its_cards_unless_it_is_the_last():
    t = table(options={"last_hit_counts": False})
    assert t.play("draw-two") == [{"event": "owed", "seat": 3, "presses": 1, "reason": "draw-two", "cards": 2}]
    t2 = table(options={"last_hit_counts": False})
    t2.set(seat=2, hand=1)
    assert t2.play("draw-two", last=True) == [{"event": "round-over", "winner": 2}]
    assert t2.game.queue == []


# --- Reverse (CL-REV) ---------------------------------------------------------------------------------------

def test_CL_REV_a_second_reverse_turns_play_back_clockwise():
    t = table()
    assert t.play("reverse") == [{"event": "turn", "seat": 1, "direction": "ccw"}]
    assert t.play("reverse") == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert t.game.direction == "cw"


# --- the first card (CL-FIRST) ------------------------------------------------------------------------------

def test_CL_FIRST_a_void_first_card_is_kept_and_the_dealer_gets_one_more_card():
    t = table(first="skip")                          # start=redraw: void
    assert t.game.first == "skip"
    assert t.game.queue == [] and t.phase == "first"  # the one more card was shot by deal()
    t2 = table(first="skip")
    assert t2.game.hands[1] == 7                      # the first cards went to the pile, not to the dealer


# --- challenges (FL-CHAL) -----------------------------------------------------------------------------------

def test_FL_CHAL_a_rejected_draw_until_the_colour_costs_the_victim_2_more_after_the_colour():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")                       # seat 3 draws until the colour
    assert t.challenge(seat=3, result="rejected") == []
    assert queue(t) == [(3, "wild-draw-colour", None), (3, "challenge", 2)]
    press(t)
    t.colour_found(seat=3)
    assert queue(t) == [(3, "challenge", 2)]


# --- uno (D-UNO) --------------------------------------------------------------------------------------------

def test_D_UNO_only_the_player_up_with_2_cards_and_nothing_owed_calls_ahead():
    t = table()
    t.set(seat=3, hand=2)
    assert refusal(lambda: t.uno(seat=3)) == ("bad-argument", "Seat 3 holds 2 cards: nothing to call Uno for.")
    assert refusal(lambda: t.uno(seat=2)) == ("bad-argument", "Seat 2 holds 7 cards: nothing to call Uno for.")
    t.set(seat=2, hand=2)
    t.give(seat=4, cards=1)                          # something owed: no call ahead
    assert refusal(lambda: t.uno(seat=2)) == ("bad-argument", "Seat 2 holds 2 cards: nothing to call Uno for.")
    press(t)
    assert t.uno(seat=2) == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert t.game.uno_ahead == 2
    t.play("5")
    assert t.game.uno_windows == [{"seat": 2, "called": True}]
    assert refusal(lambda: t.catch(seat=2)) == ("too-late", "Seat 2 called Uno and cannot be caught for that card.")


def test_D_UNO_a_hand_of_1_whose_window_closed_is_too_late_a_catch_of_more_is_a_bad_argument():
    t = table()
    t.set(seat=3, hand=1)
    assert refusal(lambda: t.uno(seat=3)) == ("too-late", "Seat 3's Uno window is closed.")
    assert refusal(lambda: t.catch(seat=4)) == ("bad-argument", "Seat 4 holds 7 cards, not 1.")
    assert refusal(lambda: t.catch(seat=3)) == (
        "too-late", "Seat 3's Uno window is closed: the next player has begun its turn.")


def test_D_UNO_a_seat_not_up_holding_2_cannot_call_even_with_nothing_owed():
    t = table()
    t.set(seat=4, hand=2)
    assert t.game.queue == []
    assert refusal(lambda: t.uno(seat=4)) == ("bad-argument", "Seat 4 holds 2 cards: nothing to call Uno for.")


# --- the exit sensor's counts (D-SERVE, D-DEAL) ----------------------------------------------------------------

def test_D_DEAL_the_deal_event_comes_once_the_last_hand_is_dealt_and_not_for_the_first_card():
    t = Table()
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    assert [shoot(t) for _ in range(3)] == [[], [], []]
    assert shoot(t) == [{"event": "deal", "dealer": 1, "hand": 7, "hands": {"1": 7, "2": 7, "3": 7, "4": 7}}]
    assert t.due() == (1, "first", 1)
    assert shoot(t) == []                            # the first card goes to the pile: no deal event again
    assert t.game.queue == [] and t.game.hands[1] == 7


def test_D_SERVE_a_short_deal_shot_announces_nothing_and_an_empty_shot_changes_nothing():
    t = Table()
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    assert shoot(t, ejected=3) == []                 # the dealer's own shots are not owed entries
    assert queue(t)[0] == (2, "deal", 4) and t.game.hands[2] == 3
    t2 = table()
    t2.play("draw-two")
    t2.press()
    assert t2.count_shot(2, 0) == []                 # nothing came out: the entry is owed as it was
    assert [(o.seat, o.cards, o.served) for o in t2.game.queue] == [(3, 2, 0)] and t2.game.hands[3] == 7
    assert t2.count_shot(2, 1) == [{"event": "owed", "seat": 3, "presses": 1, "reason": "draw-two", "cards": 1}]
    assert [(o.seat, o.cards, o.served) for o in t2.game.queue] == [(3, 1, 1)] and t2.game.hands[3] == 8


def test_FL_WDC_each_card_of_a_draw_until_the_colour_is_counted_to_it_without_an_owed_event():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")
    for served in (1, 2):
        t.press()
        assert shoot(t) == []
        assert [(o.seat, o.cards, o.served) for o in t.game.queue] == [(3, None, served)]
    assert t.game.hands[3] == 9


# --- nothing goes ahead of an entry being shot (D-GIVE, CL-UNO) ------------------------------------------------

def test_D_GIVE_given_cards_queue_behind_a_shot_in_flight_or_a_head_shot_in_part():
    t = table()
    t.play("draw-two")
    t.press()                                        # seat 3's cards are on their way
    t.give(seat=4, cards=1)
    assert queue(t) == [(3, "draw-two", 2), (4, "give", 1)]
    t2 = table()
    t2.play("draw-two")
    t2.press()
    t2.count_shot(2, 1)                              # one of the two came out
    assert t2.shot is None
    t2.give(seat=4, cards=1)
    assert queue(t2) == [(3, "draw-two", 1), (4, "give", 1)]


def test_D_GIVE_given_cards_go_ahead_of_the_entries_behind_the_head_being_shot():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")
    t.challenge(seat=3, result="rejected")
    t.press()
    t.give(seat=4, cards=1)
    assert queue(t) == [(3, "wild-draw-colour", None), (4, "give", 1), (3, "challenge", 2)]


def test_D_GIVE_in_phase_first_given_cards_wait_behind_the_dealers_one_more_card():
    t = Table()
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    deal(t)
    t.first_card("skip")                             # void: one more card to the dealer
    t.give(seat=2, cards=1)
    assert queue(t) == [(1, "first", 1), (2, "give", 1)]


# --- the Uno windows (D-UNO) ------------------------------------------------------------------------------------

def four_windows():
    """A Wild Shuffle that leaves every hand at 1 (from 0, 2, 0, 3): four Uno windows open, none called."""
    t = table()
    for seat, hand in ((1, 0), (2, 2), (3, 0), (4, 3)):
        t.set(seat=seat, hand=hand)                  # a correction opens no window
    t.play("wild-shuffle")
    assert t.game.uno_windows == [{"seat": s, "called": False} for s in (1, 2, 3, 4)]
    return t


def test_D_UNO_a_hand_that_changes_closes_its_window_only():
    t = four_windows()
    t.set(seat=1, hand=2)
    assert t.game.uno_windows == [{"seat": s, "called": False} for s in (2, 3, 4)]
    assert t.catch(seat=4)[0] == {"event": "owed", "seat": 4, "presses": 1, "reason": "uno", "cards": 2}


def test_D_UNO_a_catch_uses_up_the_caught_seats_window_only():
    t = four_windows()
    t.catch(seat=1)
    assert t.game.uno_windows == [{"seat": s, "called": False} for s in (2, 3, 4)]
    t.catch(seat=3)
    assert t.game.uno_windows == [{"seat": s, "called": False} for s in (2, 4)]


def test_D_UNO_a_call_with_1_card_marks_the_window_and_calls_nothing_ahead():
    t = table(players=2)
    t.set(seat=2, hand=2)
    t.play("skip")                                   # two players: a skip gives seat 2 the turn again, holding 1
    assert t.game.current == 2 and t.game.uno_windows == [{"seat": 2, "called": False}]
    t.uno(seat=2)
    assert t.game.uno_windows == [{"seat": 2, "called": True}]
    assert t.game.uno_ahead is None                  # saved with the game: only a hand of 2 calls ahead


def test_D_UNO_a_round_starts_with_every_window_closed():
    t = Table()
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    assert t.game.uno_windows == [] and t.game.uno_window is None
    deal(t)
    assert t.game.uno_windows == []
