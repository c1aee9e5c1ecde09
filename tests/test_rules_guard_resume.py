"""Guards of the interrupted shot's arithmetic (shooter/table/resume.py; docs/mutation.md, the fifth run).

A shot out when the power went: ``set seat=S hand=N`` of that seat counts to its entry the cards N holds beyond
the saved count, at most the planned ones, and nothing for another seat, another entry or the dealer's first
card; the entry is still owed only while the queue holds it."""

from __future__ import annotations

import pytest

from shooter.table.resume import cards_to_count, shot_record, still_owed
from shooter.table.state import GameState, Owed, ShotOut
from shooter.vocabulary import Reason


def _game(*entries: Owed) -> GameState:
    game = GameState(players=3, variant="classic")
    game.hands = {1: 7, 2: 7, 3: 7}
    game.queue = list(entries)
    return game


def _shot(seat: int = 2, reason: str = Reason.GIVE, planned: int = 3) -> ShotOut:
    return {"seat": seat, "reason": reason, "planned": planned, "counted": 0, "hand": 7}


def _give(seat: int = 2) -> Owed:
    return Owed(seat=seat, presses=1, reason=Reason.GIVE, by=seat, cards=3)


def test_the_entry_is_still_owed_only_while_the_queue_holds_it() -> None:
    assert still_owed(_game(_give()), _shot())
    assert not still_owed(_game(), _shot())  # served or taken back: nothing to resolve
    assert not still_owed(_game(_give(seat=3)), _shot())  # another seat's entry
    assert not still_owed(None, _shot())  # no game


def test_a_hand_reported_counts_the_cards_beyond_the_saved_count_at_most_the_planned() -> None:
    game = _game(_give())
    assert cards_to_count(game, _shot(), 2, 9) == 2
    assert cards_to_count(game, _shot(), 2, 7) == 0  # none of the shot reached the hand
    assert cards_to_count(game, _shot(), 2, 5) == 0  # below what was counted: nothing, not a negative count
    assert cards_to_count(game, _shot(), 2, 20) == 3  # at most the shot's planned cards


def test_another_seat_another_head_or_an_empty_queue_counts_nothing() -> None:
    assert cards_to_count(_game(_give()), _shot(), 3, 9) == 0  # another seat's hand
    assert cards_to_count(_game(), _shot(), 2, 9) == 0  # the entry is gone: no head
    assert cards_to_count(_game(_give(seat=3)), _shot(seat=2), 2, 9) == 0  # the head is another seat's
    other = Owed(seat=2, presses=1, reason=Reason.CHALLENGE, by=2, cards=4)
    assert cards_to_count(_game(other), _shot(), 2, 9) == 0  # the seat's other entry, not the shot's


def test_the_dealers_first_card_is_counted_to_no_hand() -> None:
    first = Owed(seat=1, presses=1, reason=Reason.FIRST, by=1, cards=1)
    assert cards_to_count(_game(first), _shot(seat=1, reason=Reason.FIRST, planned=1), 1, 8) == 0


def test_the_shot_record_holds_the_head_entrys_counts() -> None:
    entry = _give()
    entry.served = 1
    game = _game(entry)
    game.hands = {1: 7, 2: 8, 3: 7}
    assert shot_record(game, 2, Reason.GIVE, 2) == {"seat": 2, "reason": "give", "planned": 2, "counted": 1,
                                                      "hand": 8}


def test_a_shot_is_recorded_for_the_head_entry_only() -> None:
    """The record is what a resumed table counts the interrupted cards to: one for another seat, another entry
    of the seat or an empty queue is a bug of its caller, stopped there (the contract's sentence)."""
    for game, seat, reason in ((_game(_give()), 3, Reason.GIVE), (_game(_give()), 2, Reason.CHALLENGE),
                               (_game(_give(seat=3), _give()), 2, Reason.GIVE), (_game(), 2, Reason.GIVE)):
        with pytest.raises(AssertionError, match=r"^a shot is for the head entry$"):
            shot_record(game, seat, reason, 2)
