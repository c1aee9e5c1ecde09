"""The card counts a saved game may hold, at their bounds (``state.count_problem``, ``MAX_CARDS``), and the undo
levels a reported hand leaves, through a save and a load (guards mutants of shooter/table/state.py and core.py:
a bound moved by one, the dealer's order check turned off, a hand's undo level named what no saved file allows)."""

import copy
import json

import pytest

from shooter.errors import StateFileError
from shooter.table import Table
from shooter.table.loader import load_snapshot
from shooter.table.persist import table_from_dict, table_to_dict
from shooter.table.state import MAX_CARDS, snapshot
from tests.test_editions_engine import finish_round, table


@pytest.fixture
def owed():
    """A classic game of three in play, seat 2 owed the one card of its draw (D-DRAW)."""
    t = table("classic", players=3)
    t.press()
    data = snapshot(t.game, t.phase)
    assert data["queue"] == [{"seat": 2, "presses": 1, "reason": "draw", "by": 2, "cards": 1, "served": 0}]
    return data


def loads(data) -> str:
    return load_snapshot(json.loads(json.dumps(data)))[1]


@pytest.mark.parametrize("change", [
    # a hand of every card there can be (decks put together: declared at round start)
    lambda d: d["counting"].update(deck=MAX_CARDS, hands={"1": MAX_CARDS, "2": 0, "3": 0}),
    lambda d: d["queue"][0].update(cards=MAX_CARDS),                  # an entry owing all of them
    lambda d: d["queue"][0].update(cards=MAX_CARDS, served=MAX_CARDS),  # and all of them shot
], ids=["hand", "owed", "served"])
def test_a_count_at_its_bound_is_a_game_that_loads(owed, change):
    data = copy.deepcopy(owed)
    change(data)
    assert loads(data) == "play"


@pytest.mark.parametrize("deck", [None, 112, 150])
def test_the_hands_hold_together_at_most_the_cards_there_are(owed, deck):   # the edition's deck, or more declared
    there_are = max(112, deck or 0)
    at_bound = copy.deepcopy(owed)
    at_bound["counting"].update(deck=deck, hands={"1": there_are - 14, "2": 7, "3": 7})
    assert loads(at_bound) == "play"
    beyond = copy.deepcopy(at_bound)
    beyond["counting"]["hands"]["3"] = 8
    with pytest.raises(StateFileError) as info:
        loads(beyond)
    assert str(info.value) == (f"Saved table state: game.hands is broken: the hands would hold {there_are + 1} "
                               f"cards together, more than the {there_are} there are.")


def test_the_dealers_shot_behind_another_entry_is_a_broken_queue_named_in_one_line(owed):  # D-DEAL: dealer first
    deal = {"seat": 3, "presses": 1, "reason": "deal", "by": 1, "cards": 7, "served": 0}
    ahead = copy.deepcopy(owed)
    ahead["queue"].insert(0, deal)
    assert loads(ahead) == "play"   # the dealer's shot ahead of the draw: as the table serves them
    behind = copy.deepcopy(owed)
    behind["queue"].append(deal)
    with pytest.raises(StateFileError) as info:
        loads(behind)
    assert str(info.value) == ("Saved table state: game.queue is broken: the dealer's shot (deal) would wait "
                               "behind another entry.")


@pytest.mark.parametrize("variant", ["extreme", "classic"])
def test_a_reported_hand_is_an_undo_level_a_saved_table_keeps(variant):
    if variant == "extreme":
        t = Table()
        t.new_game(3, dealer=1)
        t.start_round("5")
        t.set(current=1)
        t.play("5", last=True)   # seat 1 goes out: the others report
        t.score(2, 10)
    else:
        t = table("classic", players=3)
        finish_round(t, 2)
        t.hand(1, ["5"])
    assert [entry["command"] for entry in t.history][-1:] == ["score" if variant == "extreme" else "hand"]
    again = table_from_dict(lambda options: Table(options=options), json.loads(json.dumps(table_to_dict(t))))
    assert [entry["command"] for entry in again.history] == [entry["command"] for entry in t.history]
    again.undo()   # the report taken back after the restart, as before it
    assert again.game.reports == {}


def test_a_new_game_begun_while_a_shot_is_out_owes_that_shot_nothing():
    """A shot of the game before is no shot of the new one: its cards are counted to no entry of the new game
    (they are the old game's), and nothing of the new queue waits behind it."""
    t = table("classic", players=3)
    t.press()   # seat 2's draw: the shooter is shooting its card
    assert t.shot is not None
    t.new_game(3, dealer=1, variant="classic")
    assert t.shot is None
    t.start_round()
    assert t.status()["owed"]["reason"] == "deal" and t.shot is None


def test_the_score_sheet_a_status_gives_is_a_copy_the_reader_cannot_change_the_game_through():  # G-ELIM
    from tests.test_table_scoring import go_out, new_game as extreme_game
    t = extreme_game(4, scoring="elimination", limit=100)
    go_out(t, 1)
    for seat, points in {2: 10, 3: 100, 4: 10}.items():
        t.score(seat, points)
    rows = t.status()["rounds"]
    assert rows[0]["out"] == [3]
    rows[0]["out"].append(4)
    rows[0]["points"]["2"] = 0
    assert t.status()["rounds"][0]["out"] == [3] and t.status()["rounds"][0]["points"]["2"] == 10
