"""Guards of the turn rules (shooter/table/turns.py) that the tenth mutation run found unguarded (docs/mutation.md,
"The tenth run"): the dealer's rotation after a round played counter-clockwise, a second Reverse, who presses for
a Wild All Hit and a Wild Hit-Fire, and the hand counts of Uno Attack at their edges (a hand of one card played, a
Trade Hands by a seat whose count is not known, a shot's count taking a hand to 0, a press filling the deck)."""

from __future__ import annotations

import random

from shooter.editions import lookup
from shooter.table import RuleOptions, Table


def extreme(players: int = 4) -> Table:
    t = Table(options=RuleOptions(), rng=random.Random(3))
    t.new_game(players, dealer=1)
    t.start_round(first="5")
    return t


def attack(players: int = 3) -> Table:
    t = Table()
    t.new_game(players, dealer=1, variant="attack")
    t.start_round(first="5")
    return t


def hands(t: Table) -> dict[str, int | None]:
    status = t.status()
    assert status is not None
    return status["hands"]


def queue(t: Table) -> list[dict]:
    status = t.status()
    assert status is not None
    return status["queue"]


# --- S-DEALER, C-REV ------------------------------------------------------------------------------------------

def test_S_DEALER_the_dealer_moves_clockwise_even_after_a_round_that_ended_counter_clockwise():
    t = extreme()
    t.play("reverse")                      # seat 2: counter-clockwise, seat 1 plays
    assert t.status()["direction"] == "ccw"
    t.play("5", last=True)                 # seat 1 goes out
    for seat in (2, 3, 4):
        t.score(seat, 1)
    assert t.status()["dealer"] == 2       # clockwise from seat 1, not seat 4


def test_C_REV_a_second_reverse_turns_play_back_clockwise():
    t = extreme()
    t.play("reverse")                      # seat 2: ccw, seat 1 up
    events = t.play("reverse")             # seat 1: cw again, seat 2 up
    turns = [e for e in events if e["event"] == "turn"]
    assert [(e["seat"], e["direction"]) for e in turns] == [(2, "cw")]
    assert t.status()["direction"] == "cw" and t.game.current == 2


# --- AT-ALLHIT, AT-HITFIRE: the card's player is the one who presses ---------------------------------------------

def test_AT_ALLHIT_every_other_seat_is_owed_a_press_by_the_cards_player():
    t = attack(players=4)
    t.play("wild-all-hit")                 # seat 2
    assert [(o["seat"], o["by"]) for o in queue(t)] == [(3, 2), (4, 2), (1, 2)]


def test_AT_HITFIRE_the_next_seat_is_owed_presses_by_the_cards_player():
    t = attack()
    t.play("wild-hit-fire")                # seat 2: seat 3 presses until a card comes out
    assert [(o["seat"], o["reason"], o["by"]) for o in queue(t)] == [(3, "wild-hit-fire", 2)]


# --- AT-HANDS: the counts at their edges -----------------------------------------------------------------------

def test_AT_HANDS_PLAY_the_one_card_of_a_hand_played_without_last_leaves_it_empty_not_unknown():
    t = attack()
    t.set(seat=2, hand=1)
    t.play("5")                            # seat 2, its last card, not said
    assert hands(t)["2"] == 0


def test_AT_HANDS_DALL_every_other_card_of_the_colour_discarded_without_last_leaves_the_hand_empty():
    t = attack()
    t.set(seat=2, hand=4)
    t.play("discard-all", discarded=3)
    assert hands(t)["2"] == 0


def test_AT_HANDS_TRADE_a_player_whose_count_is_unknown_takes_the_targets_count_and_gives_an_unknown_one():
    t = attack()
    t.play("discard-all")                  # seat 2: not known
    t.play("5")                            # seat 3
    t.play("5")                            # seat 1
    events = t.play("trade-hands", target=3)   # seat 2 (unknown) trades with seat 3 (6)
    assert hands(t) == {"1": 6, "2": 6, "3": None}
    assert [e["hands"] for e in events if e["event"] == "hands"] == [{"1": 6, "2": 6, "3": None}]


def test_AT_HANDS_PRESS_a_shot_counted_short_can_take_a_hand_back_to_0_and_it_stays_known():
    t = attack()
    t.set(seat=2, hand=0)
    t.press(fired=True, cards=2)                   # seat 2's draw: 2 planned
    t.count_shot(2, 0, seat=2, reason="draw")      # none came out
    assert hands(t)["2"] == 0


def test_AT_HANDS_PRESS_a_press_that_puts_every_card_of_the_deck_in_the_hands_is_still_counted():
    t = attack()
    deck = lookup("attack").cards_there_are(None)
    t.press(fired=True, cards=deck - 21)           # seat 2's draw: the hands hold the whole deck
    assert hands(t) == {"1": 7, "2": deck - 14, "3": 7}
    t.press(fired=True, cards=1)                   # one card more than the deck: seat 3's count not known
    assert hands(t) == {"1": 7, "2": deck - 14, "3": None}
