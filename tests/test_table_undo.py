"""Undo: snapshots of the table taken back level by level; presses cannot be undone."""

import random

import pytest

from shooter.errors import CommandError
from shooter.table import Table
from shooter.table.base import UNDO_LEVELS
from tests.test_table_rollback import classic


@pytest.fixture
def table():
    """Four seats, seat 1 deals, a number turned up: seat 2 to play."""
    t = Table(rng=random.Random(1))
    t.new_game(4)
    t.start_round("5")
    return t


def refused(call, code):
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == code, info.value.message
    return info.value.message


def test_undo_takes_back_a_play_and_announces_the_turn(table):
    before = table.to_dict()
    table.play("reverse")
    assert table.undo() == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert table.to_dict() == before


def test_undo_takes_back_a_hit_and_its_owed_presses(table):
    table.play("5")
    table.play("hit4")
    assert table.undo() == [{"event": "turn", "seat": 3, "direction": "cw"}]
    assert table.status()["queue"] == []


def test_undo_announces_the_owed_head_when_presses_are_owed_again(table):
    table.play("hit2")
    table.penalty("advice", 4)
    assert table.undo() == [{"event": "owed", "seat": 3, "presses": 2, "reason": "hit2"}]


def test_undo_goes_back_several_levels(table):
    start = table.to_dict()
    table.play("5")
    table.uno(2)
    table.set(direction="ccw")
    table.play("skip")
    for _ in range(4):
        table.undo()
    assert table.to_dict()["game"] == start["game"]


def test_undo_after_a_press_is_refused(table):
    table.play("hit2")
    table.press()
    assert "press" in refused(table.undo, "cannot-undo")


def test_undo_after_a_press_reaches_back_only_to_the_press(table):
    table.press()
    table.play("5")
    table.undo()
    assert "press" in refused(table.undo, "cannot-undo")
    assert table.status()["current"] == 3


def test_undo_with_nothing_to_undo_after_game_new():
    t = Table()
    t.new_game(3)
    assert "nothing" in refused(t.undo, "cannot-undo")


def test_undo_takes_back_a_round_start():
    t = Table()
    t.new_game(3)
    t.start_round("hit2")
    assert t.undo() == []
    assert (t.status()["phase"], t.status()["current"], t.status()["queue"]) == ("deal", None, [])


def test_undo_takes_back_an_uno_call_so_the_catch_works_again(table):
    table.play("5")
    table.uno(2)
    table.undo()
    assert table.catch(2)[0]["reason"] == "uno"


def test_undo_takes_back_a_catch(table):
    table.play("5")
    table.catch(2)
    table.undo()
    assert table.status()["queue"] == [] and table.status()["uno_window"] == {"seat": 2, "called": False}


def test_undo_takes_back_a_wrong_card_penalty(table):
    table.play("reverse")
    after_play = table.to_dict()["game"]
    table.penalty("wrong-card", 2)
    table.undo()
    assert table.to_dict()["game"] == after_play


def test_undo_takes_back_a_last_card_and_the_round_goes_on(table):
    table.play("5", last=True)
    assert table.undo() == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert table.status()["phase"] == "play"


def test_undo_takes_back_the_report_that_ended_the_game():
    t = Table()
    t.new_game(2, limit=10)
    t.start_round("5")
    t.play("5", last=True)
    t.score(1, 40)
    assert t.status()["phase"] == "over"
    t.undo()
    assert (t.status()["phase"], t.status()["reported"], t.status()["totals"]) == ("scoring", {}, {"1": 0, "2": 0})


def test_undo_keeps_a_limited_number_of_levels(table):
    for _ in range(UNDO_LEVELS + 5):
        table.set(direction="cw")
    for _ in range(UNDO_LEVELS):
        table.undo()
    refused(table.undo, "cannot-undo")


def test_undo_without_a_game_is_no_game():
    refused(Table().undo, "no-game")


def test_rejected_commands_push_no_undo_level(table):
    refused(lambda: table.play("joker"), "bad-argument")
    assert table.status()["undo"] == 1  # the round start only


def test_undo_takes_back_a_give_made_while_a_press_draw_is_owed():
    # D-DRAW: a press's 1-card draw stays owed (reason "draw") until the exit sensor counted it; an undo
    # level taken meanwhile holds it and must load back
    t = classic()
    t.press()
    before = t.to_dict()
    t.give(3, 2)
    assert t.undo() == [{"event": "owed", "seat": 2, "presses": 1, "reason": "draw", "cards": 1}]
    assert t.to_dict() == before


def flip_deal_shot():
    """Three seats of Flip, seat 1 deals: round start and every card of the deal counted out (phase first)."""
    t = Table(rng=random.Random(1))
    t.new_game(3, dealer=1, variant="flip")
    t.start_round()
    while t.dealt_next():
        _seat, _reason, cards = t.due()
        t.count_shot(min(cards, 7), min(cards, 7))
    return t


def test_undo_after_a_flip_deal_names_the_deal_not_a_press():
    t = Table(rng=random.Random(1))
    t.new_game(3, dealer=1, variant="flip")
    t.start_round()
    assert "the deal" in refused(t.undo, "cannot-undo")      # round start: the deal is being shot
    t = flip_deal_shot()
    message = refused(t.undo, "cannot-undo")
    assert "the deal" in message and "press" not in message


def test_undo_after_a_void_first_card_names_the_deal():
    t = flip_deal_shot()
    t.first_card("wild-draw-two")                           # FL-FIRST: void, one more card to the dealer
    assert "the deal" in refused(t.undo, "cannot-undo")
    _seat, _reason, cards = t.due()
    t.count_shot(cards, cards)
    assert "the deal" in refused(t.undo, "cannot-undo")


def test_undo_of_a_standing_first_card_then_names_the_deal_and_a_draw_names_the_press():
    t = flip_deal_shot()
    t.first_card("5")
    t.undo()                                                # the first card report is undoable
    assert t.phase == "first"
    assert "the deal" in refused(t.undo, "cannot-undo")
    t.first_card("5")
    t.press()                                               # seat 2 draws: its card is a press's
    assert "press" in refused(t.undo, "cannot-undo")
    _seat, _reason, cards = t.due()
    t.count_shot(cards, cards)
    assert "press" in refused(t.undo, "cannot-undo")
