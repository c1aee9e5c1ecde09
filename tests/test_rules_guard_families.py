"""Guards of the Extreme family's commands (shooter/table/families.py ExtremeFamily) that the tenth mutation run
found unguarded (docs/mutation.md, "The tenth run"): each refusal's code and exact sentence (the phase's, the
argument a bad value is named by, `set`'s usage in Uno Extreme and Uno Attack) and the name each command leaves for
`undo` and the state file ("Who may run what" and the refusals of docs/rules.md)."""

from __future__ import annotations

import shutil

import pytest

from shooter.errors import CommandError
from shooter.persist import STATE_FILE
from shooter.table import Table
from tests.conftest import run_console
from tests.test_editions_engine import shoot, table as counting_table


def refused(call, code: str, message: str) -> None:
    with pytest.raises(CommandError) as info:
        call()
    assert (info.value.code, info.value.message) == (code, message)


def extreme(dealt: bool = True, variant: str = "extreme") -> Table:
    t = Table()
    t.new_game(3, dealer=1, variant=variant)
    if dealt:
        t.start_round(first="5")
    return t


def test_the_extreme_familys_calls_are_refused_outside_play_naming_what_they_do():
    t = extreme(dealt=False)
    refused(lambda: t.uno(1), "wrong-phase", "Cannot call Uno in phase deal.")
    refused(lambda: t.catch(1), "wrong-phase", "Cannot catch a player in phase deal.")
    refused(lambda: t.set(current=2), "wrong-phase", "Cannot correct the turn in phase deal.")
    refused(lambda: t.penalty("advice", 1), "wrong-phase", "Cannot give an advice penalty in phase deal.")


def test_a_seat_out_of_range_is_named_by_its_argument():
    t = extreme()
    refused(lambda: t.uno(9), "bad-argument", "seat= must be 1..3, got 9")
    refused(lambda: t.catch(9), "bad-argument", "seat= must be 1..3, got 9")
    refused(lambda: t.penalty("advice", 9), "bad-argument", "seat= must be 1..3, got 9")
    refused(lambda: t.penalty("nonsense", 1), "bad-argument",
            "penalty= must be one of advice, wrong-card, got 'nonsense'")
    refused(lambda: t.set(current=9), "bad-argument", "current= must be 1..3, got 9")
    refused(lambda: t.set(direction="up"), "bad-argument", "direction= must be one of cw, ccw, got 'up'")


def test_set_in_uno_extreme_takes_the_turn_alone_and_says_so():
    t = extreme()
    refused(lambda: t.set(), "bad-argument", "set needs current= or direction=.")
    for half in ({"seat": 2}, {"hand": 3}, {"seat": 2, "hand": 3}):
        refused(lambda half=half: t.set(**half), "bad-argument", "variant extreme cannot correct the table this way.")


def test_set_in_uno_attack_takes_a_hand_count_too_and_says_so():
    t = extreme(variant="attack")
    refused(lambda: t.set(), "bad-argument", "set needs current= or direction= or seat= and hand=.")
    refused(lambda: t.set(seat=2), "bad-argument", "seat= and hand= go together.")
    refused(lambda: t.set(seat=9, hand=1), "bad-argument", "seat= must be 1..3, got 9")
    refused(lambda: t.set(seat=2, hand=-1), "bad-argument", "hand= must be 0..500, got -1")


def test_each_command_leaves_its_own_name_for_undo():
    t = extreme()
    t.set(current=2, direction="cw")
    assert t.history[-1]["command"] == "set"
    t.play("5")                             # seat 2
    t.uno(3)
    assert t.history[-1]["command"] == "uno"
    t = extreme()
    t.set(current=2)
    t.play("5")
    t.catch(2)
    assert t.history[-1]["command"] == "catch"


def test_a_round_and_a_play_are_refused_in_the_wrong_phase_naming_what_they_do():
    t = extreme(dealt=False)
    refused(lambda: t.play("5"), "wrong-phase", "Cannot play a card in phase deal.")
    refused(lambda: t.start_round(first="5", cards=10), "bad-argument", "cards= goes only with the exact variants.")
    t.start_round(first="5")
    refused(lambda: t.start_round(first="5"), "wrong-phase", "Cannot start a round in phase play.")


def test_P_WRONG_and_P_ADVICE_refusals_in_their_words_and_the_name_left_for_undo():
    t = extreme(dealt=False)
    refused(lambda: t.penalty("wrong-card", 1), "wrong-phase", "Cannot take back a wrong card in phase deal.")
    t.start_round(first="5")
    refused(lambda: t.penalty("wrong-card", 9), "bad-argument", "seat= must be 1..3, got 9")
    refused(lambda: t.penalty("wrong-card", 1), "too-late",
            "Seat 1's play can no longer be taken back: it is not the last thing that happened.")
    t.play("5")                             # seat 2
    t.penalty("wrong-card", 2)
    assert t.history[-1]["command"] == "penalty"
    t = extreme()
    t.penalty("advice", 1)
    assert t.history[-1]["command"] == "penalty"


def test_round_start_needs_its_first_card_and_a_dealer_at_the_table():
    t = extreme(dealt=False)
    refused(lambda: t.start_round(first=None), "bad-argument",
            "round start needs first=CARD, the card the dealer turned up.")
    refused(lambda: t.start_round(first="5", dealer=9), "bad-argument", "dealer= must be 1..3, got 9")


def test_the_extreme_family_deals_nothing_so_the_shooter_never_shoots_a_deal():
    for variant in ("extreme", "attack"):
        t = extreme(dealt=False, variant=variant)
        assert not t.dealt_next()
        t.start_round(first="5")
        assert not t.dealt_next()


def test_AT_HANDS_DALL_discarded_n_in_a_game_saved_before_hands_were_counted_is_taken_and_counts_nothing(tmp_path):
    shutil.copy("tests/saved_games/v2-attack-mid.json", tmp_path / STATE_FILE)
    out = run_console(["play discard-all discarded=1", "status"], state_dir=tmp_path)
    played = [o for o in out if o.get("reply") == "play"]
    assert played and all(o.get("ok") for o in played), out
    assert [o["game"]["hands"] for o in out if o.get("reply") == "status"] == [None]


# --- the counting family's draw, pass and challenge (D-DRAW, D-CHALLENGE) -------------------------------------

def test_D_DRAW_a_pass_before_the_draw_is_refused_and_a_pass_after_it_announces_the_next_turn():
    t = counting_table()
    refused(lambda: t.pass_turn(), "must-draw", "Seat 2 must draw a card before passing.")
    t.draw()
    shoot(t)
    assert [e for e in t.pass_turn() if e["event"] == "turn"] == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_D_CHALLENGE_is_refused_before_the_round_and_in_an_edition_without_challenges():
    early = Table()
    early.new_game(4, dealer=1, variant="classic")
    refused(lambda: early.challenge(2, "upheld"), "wrong-phase", "Cannot challenge in phase deal.")
    t = counting_table("all-wild")
    refused(lambda: t.challenge(2, "upheld"), "bad-argument", "Uno All Wild has no challenge.")


# --- the counting family's count of a shot (D-SERVE; the eleventh run) -----------------------------------------

def test_D_SERVE_cards_counted_for_an_entry_that_is_not_the_head_are_refused_naming_what_is_owed():
    # cards shot for an entry that is not the head are never credited to another entry (Table.count_shot)
    t = counting_table("classic", players=3)
    refused(lambda: t.count_shot(planned=1, ejected=1, seat=2, reason="draw"), "bad-count",
            "1 cards shot to seat 2 (draw) are not counted: nothing is owed; correct the hand with set seat=2 "
            "hand=N.")
    t.give(seat=3, cards=2)
    refused(lambda: t.count_shot(planned=1, ejected=1, seat=2, reason="draw"), "bad-count",
            "1 cards shot to seat 2 (draw) are not counted: seat 3 is owed (give); correct the hand with set "
            "seat=2 hand=N.")
    assert [(o.seat, o.reason, o.cards) for o in t.game.queue] == [(3, "give", 2)]


def test_D_SERVE_a_count_once_the_round_is_over_changes_nothing():
    # a count arriving in phase scoring (nothing is shot there) is taken as nothing, not refused
    t = counting_table("classic", players=3)
    t.set(seat=2, hand=1)
    t.play("5", last=True)
    before = t.to_dict()
    assert t.phase == "scoring"
    assert t.count_shot(planned=1, ejected=1, seat=2, reason="draw") == []
    assert t.to_dict() == before


def test_D_SERVE_a_counted_shot_of_the_deal_blocks_undo_as_the_deal_and_of_a_draw_as_a_press():
    # docs/rules.md: the cards of a shot are out; undo names what put them out (the deal's, or a press's)
    t = Table()
    t.new_game(3, dealer=1, variant="classic")
    t.start_round()
    t.press()
    shoot(t)                                 # seat 2's seven cards of the deal
    refused(t.undo, "cannot-undo", "The last thing was the deal; its cards are out and cannot be taken back.")
    t = counting_table("classic", players=3)
    t.play("5")
    t.draw()
    shoot(t)                                 # seat 3's draw
    refused(t.undo, "cannot-undo", "The last thing was a press; its cards are out and cannot be taken back.")
