"""Guards of the game state's count rule (shooter/table/state.py ``count_problem``; the mutants mutmut left,
docs/mutation.md, "The eleventh run").

The rule is the one the table holds every command to and the validator of a game read back (``possible.py``)
asks: each problem is named by its field (``hands``, ``queue``) in the validator's one line, and the cards there
are are those of the game's own edition (Uno Attack's two printings hold 112 and 106 cards).
"""

from __future__ import annotations

import copy

import pytest

from shooter.errors import BadCount
from shooter.table import Table
from shooter.table.possible import impossible
from shooter.table.state import GameState, Owed
from tests.test_editions_engine import table as counting_table


def _classic() -> tuple[GameState, str]:
    """A three-seat classic game in play, 7 cards in every hand, nothing owed: a copy to break."""
    t = counting_table("classic", players=3)
    assert t.game is not None and t.game.hands == {1: 7, 2: 7, 3: 7} and not t.game.queue
    return copy.deepcopy(t.game), t.phase


def test_a_hand_beyond_the_cards_one_hand_can_hold_is_named_by_the_field_hands():
    game, phase = _classic()
    game.hands = {1: 501, 2: 0, 3: 0}
    assert impossible(game, phase) == "hands: seat 1 would hold 501 cards"
    game.hands = {1: 0, 2: 0, 3: 0}
    game.hands[2] = -1
    assert impossible(game, phase) == "hands: seat 2 would hold -1 cards"
    game.hands = {1: 500, 2: 0, 3: 0}  # the bound of one hand, but more than the deck: the other rule
    assert impossible(game, phase) == "hands: the hands would hold 500 cards together, more than the 112 there are"


def test_an_entry_owed_no_cards_or_shot_too_many_is_named_by_the_field_queue():
    game, phase = _classic()
    game.queue = [Owed(2, 1, "draw-two", 2, cards=0, exact=True)]
    assert impossible(game, phase) == "queue: seat 2 would be owed 0 cards (draw-two)"
    game.queue = [Owed(2, 1, "draw-two", 2, cards=2, served=501, exact=True)]
    assert impossible(game, phase) == "queue: seat 2's entry (draw-two) would have 501 cards shot"
    game.queue = [Owed(2, 1, "draw-two", 2, cards=2, served=500, exact=True)]  # at the bound: sound
    assert impossible(game, phase) is None


@pytest.mark.parametrize("edition, there_are", [("106", 106), ("1998", 112)])
def test_at_hands_set_the_hands_are_held_to_the_cards_of_the_games_own_printing(edition, there_are):
    t = Table()
    t.new_game(3, dealer=1, variant="attack", edition=edition)
    t.start_round(first="5")
    assert t.game is not None and t.game.hands == {1: 7, 2: 7, 3: 7}
    t.set(seat=1, hand=there_are - 14)  # the whole printing in the three hands
    assert t.game.hands[1] == there_are - 14
    before = t.to_dict()
    with pytest.raises(BadCount) as refused:
        t.set(seat=1, hand=there_are - 13)
    assert refused.value.message == (
        f"Refused, nothing changed: the hands would hold {there_are + 1} cards "
        f"together, more than the {there_are} there are."
    )
    assert t.to_dict() == before
