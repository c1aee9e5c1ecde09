"""Commands that owe cards while the counting dealer's shots are in flight (issue 15, item 2).

Every owed entry is served and credited in one defined order: the dealer's own shots (the deal, the first card)
first, then an entry whose shot is out; a `give`, a caught Uno, a challenge's cards queue behind them. No count
goes negative, and a command that would break a count is refused and rolled back (``bad-count``), never an
internal error or a motor fault. Each test lands its command while a shot is coming out (``DealerRig.send``
lets no time pass) and checks the cards' books: magazine + hands + pile + laid aside + in flight = the deck.
"""

from __future__ import annotations

import json

import pytest

from shooter.table import Table
from shooter.table.loader import load_snapshot
from shooter.table.state import Owed
from tests.dealer_rig import DealerRig


@pytest.fixture
def rig():
    r = DealerRig()
    yield r
    r.close()


def _faults(r: DealerRig) -> list[dict]:
    return [e for e in r.events if e.get("event") == "fault"]


def _start(r: DealerRig, variant: str, players: int = 3) -> None:
    assert r.send(f"game new players={players} dealer=1 variant={variant}")["ok"]
    assert r.send("round start")["ok"]


@pytest.mark.parametrize("variant", ["classic", "all-wild", "flip"])
def test_a_give_while_the_deal_is_shot_waits_for_the_dealers_shots(rig, variant):
    _start(rig, variant)
    rig.wait(0.5)                                # seat 2's seven cards are coming out
    assert rig.send("give seat=2 cards=3")["ok"]
    assert rig.card_problem() is None
    rig.quiet()
    assert rig.card_problem() is None and _faults(rig) == []
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7}
    assert [(o.seat, o.reason, o.cards) for o in rig.table.game.queue] == [(2, "give", 3)]
    assert rig.send("press")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 10, 3: 7} and rig.card_problem() is None
    assert rig.controller.launcher.state == "ready"


def test_a_give_while_a_void_first_cards_redraw_is_shot_credits_no_seat_that_card(rig):
    _start(rig, "classic")
    rig.quiet()
    assert rig.send("first skip")["ok"]          # void: one more card to the dealer, shot now
    assert rig.send("give seat=2 cards=3")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7} and rig.card_problem() is None
    assert [(o.seat, o.reason, o.cards) for o in rig.table.game.queue] == [(2, "give", 3)]


def test_an_undo_of_a_give_while_the_deal_is_shot_leaves_the_deal_whole(rig):
    _start(rig, "classic")
    rig.wait(0.5)
    assert rig.send("give seat=2 cards=3")["ok"] and rig.send("undo")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7} and rig.table.game.queue == []
    assert rig.card_problem() is None and _faults(rig) == []


def test_a_catch_while_a_targets_cards_are_shot_queues_behind_them(rig):
    # All Wild: seat 2 keeps 1 card after its targeted draw two at seat 4, whose two cards are coming out
    _start(rig, "all-wild", players=4)
    rig.quiet()
    for line in ("set seat=2 hand=2", "play targeted-draw-two target=4", "press"):
        assert rig.send(line)["ok"], line
    assert rig.send("catch seat=2")["ok"]
    rig.quiet()
    game = rig.table.game
    assert game.hands[4] == 9 and game.hands[2] == 1 and rig.card_problem() is None
    assert [(o.seat, o.reason, o.cards) for o in game.queue] == [(2, "uno", 2)]


def test_colour_found_while_a_card_of_that_draw_is_shot_is_busy(rig):
    _start(rig, "flip")
    rig.quiet()
    for line in ("first 5", "set side=dark", "play wild-draw-colour", "press"):
        assert rig.send(line)["ok"], line
    rig.quiet()
    assert rig.send("press")["ok"]               # the victim's second card is coming out
    answer = rig.send("colour-found")
    assert answer["ok"] is False and answer["error"] == "busy"
    rig.quiet()
    assert rig.table.game.hands[3] == 9 and rig.card_problem() is None
    assert rig.send("colour-found")["ok"]


def test_round_start_while_a_shot_of_the_game_before_is_out_is_busy(rig):
    _start(rig, "classic")
    rig.wait(0.5)
    assert rig.send("game new players=3 dealer=1 variant=classic force")["ok"]
    answer = rig.send("round start")
    assert answer["ok"] is False and answer["error"] == "busy"
    rig.quiet()
    assert rig.send("round start")["ok"]
    rig.quiet()
    assert rig.table.game.hands == {1: 7, 2: 7, 3: 7} and rig.card_problem() is None


def test_a_command_that_would_break_a_count_is_refused_and_changes_nothing(rig, monkeypatch):
    _start(rig, "classic")
    rig.quiet()
    assert rig.send("first 5")["ok"]
    before = rig.table.to_dict()

    def broken_owe(self, seat, cards, reason, front=False):  # a rule's bug: the count goes below zero
        self._game.counted[seat] -= 10
    monkeypatch.setattr(Table, "_owe_cards", broken_owe)
    answer = rig.send("give seat=2 cards=3")
    assert answer["ok"] is False and answer["error"] == "bad-count" and "-3" in answer["message"]
    assert rig.table.to_dict() == before and _faults(rig) == []


def test_cards_shot_for_an_entry_that_is_no_longer_the_head_are_reported_not_credited_elsewhere(rig):
    _start(rig, "classic")
    rig.quiet()
    assert rig.send("first 5")["ok"] and rig.send("draw")["ok"]   # seat 2's card is coming out
    rig.table.game.queue.insert(0, Owed(3, 1, "give", 3, cards=2, exact=True))  # a rule's bug, by hand
    rig.quiet()
    uncounted = [e for e in rig.events if e.get("event") == "uncounted"]
    assert [(e["seat"], e["cards"], e["reason"]) for e in uncounted] == [(2, 1, "draw")]
    game = rig.table.game
    assert game.hands == {1: 7, 2: 7, 3: 7} and game.queue[0].cards == 2 and _faults(rig) == []
    assert rig.controller.launcher.state == "ready"


def test_a_give_during_the_deal_leaves_a_saved_game_that_passes_its_own_check(tmp_path):
    # (an exact game is kept aside at a restart, by design; what is on disk must still be a sound game)
    rig = DealerRig(state_dir=tmp_path)
    try:
        _start(rig, "classic")
        rig.wait(0.5)
        assert rig.send("give seat=2 cards=3")["ok"]
        rig.quiet()
    finally:
        rig.close()
    saved = json.loads((tmp_path / "game.json").read_text())
    game, phase = load_snapshot(saved["game"])
    assert phase == "first" and game.hands == {1: 7, 2: 7, 3: 7} and game.queue[0].cards == 3
