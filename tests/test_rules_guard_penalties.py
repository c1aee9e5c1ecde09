"""Guards written for the mutants that survived in shooter/table/penalties.py (docs/mutation.md, the eleventh
run): each test is named by the rule of docs/rules.md it guards."""

from __future__ import annotations

from shooter.table import Table


def extreme(players: int) -> Table:
    t = Table()
    t.new_game(players, dealer=1)
    t.start_round(first="5")  # seat 2 is up
    return t


def test_P_UNO_a_call_in_the_window_of_a_hit_covers_that_card_not_the_players_next_one():
    # two players: seat 2's Hit 2 leaves it up again behind seat 1's presses; its call then is for the Hit 2's
    # window, not ahead for its coming card (a call ahead is from the current seat with nothing owed)
    t = extreme(2)
    t.play("hit2")
    assert t.uno(2) == []
    t.press(fired=True)
    t.press(fired=True)
    t.play("7")  # seat 2's next card: a window of its own, not called
    status = t.status()
    assert status is not None and status["uno_window"] == {"seat": 2, "called": False}
    assert t.catch(2) == [{"event": "owed", "seat": 2, "presses": 2, "reason": "uno"}]


def test_P_UNO_a_call_ahead_lapses_once_the_caller_draws_and_the_game_saves_and_resumes():
    # seat 2 calls before its card, then draws instead: the call covers nothing any more, and the table as it
    # is then is saved and read back (the call ahead saved as no seat)
    t = extreme(3)
    assert t.uno(2) == []
    t.press(fired=True)  # seat 2 draws; seat 3 is up
    assert t.game is not None and t.game.uno_ahead is None
    data = t.to_dict()
    resumed = Table.from_dict(data)
    assert resumed.to_dict() == data and resumed.status() == t.status()
