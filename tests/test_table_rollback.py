"""All or nothing: a command whose rule fails midway leaves the table exactly as it was.

``Table._run`` rolls back to a copy of the game (``GameState.clone``) taken before the trigger; these
tests make a rule raise after it has already changed the game (the turn moved, an owed press paid, a
hand counted, a window opened) and check that nothing of it is left, and that the table plays on as
a twin that never failed does.
"""

import random

import pytest

from shooter.errors import CommandError
from shooter.table import Table
from shooter.table.state import GameState, Owed


class Boom(Exception):
    """A rule that breaks halfway."""


def boom(*args, **kwargs):
    raise Boom("a rule broke halfway")


def extreme(*commands):
    """Four seats, seat 1 deals, a 5 turned up (seat 2 to play), then `commands` (name, args)."""
    t = Table(rng=random.Random(1))
    t.new_game(4, dealer=1)
    t.start_round("5")
    for name, *args in commands:
        getattr(t, name)(*args)
    return t


def classic():
    """Four seats of classic Uno, dealt and a number card turned up: seat 2 may draw."""
    t = Table(rng=random.Random(1))
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    while t.game.queue:
        head = t.game.queue[0]
        t.count_shot(head.cards, head.cards)
    t.first_card("5")
    return t


def fails_and_changes_nothing(table, command, *args):
    before = table.to_dict()
    with pytest.raises(Boom):
        command(*args)
    assert table.to_dict() == before


def test_a_draw_press_that_fails_after_moving_the_turn_changes_nothing(monkeypatch):
    table = extreme()
    monkeypatch.setattr(table, "_announce_turn", boom)   # _draw has moved the turn on by then
    fails_and_changes_nothing(table, table.press)
    assert table.press_owner() == (2, "draw")


def test_a_press_that_fails_after_paying_an_owed_press_leaves_it_owed(monkeypatch):
    table = extreme(("play", "hit2"))                 # seat 3 owes 2 presses
    monkeypatch.setattr(table, "_emit", boom)         # raised once the head's presses went down
    fails_and_changes_nothing(table, table.press)
    assert table.status()["owed"] == {"seat": 3, "presses": 2, "reason": "hit2", "by": 3}


def test_a_failed_press_leaves_a_table_that_plays_on_like_one_that_never_failed(monkeypatch):
    table, twin = extreme(("play", "hit2")), extreme(("play", "hit2"))
    with monkeypatch.context() as patched:
        patched.setattr(table, "_emit", boom)
        with pytest.raises(Boom):
            table.press()
    for _ in range(3):
        assert table.press() == twin.press()
    assert table.to_dict() == twin.to_dict()


def test_a_play_that_fails_after_opening_its_windows_pushes_no_undo_level(monkeypatch):
    table = extreme(("uno", 2), ("play", "5"), ("play", "7"))   # seat 4 to play; seat 3 may be caught
    monkeypatch.setattr(table, "end_round", boom)             # after the windows moved
    fails_and_changes_nothing(table, table.play, "hit4", None, None, True)
    monkeypatch.undo()
    assert table.undo()                                      # the level on top is still seat 3's 7
    assert table.status()["current"] == 3


def test_a_play_after_a_failed_one_is_undone_to_the_game_before_it(monkeypatch):
    table = extreme(("play", "5"))
    with monkeypatch.context() as patched:
        patched.setattr(table, "_announce", boom)
        with pytest.raises(Boom):
            table.play("skip")
    before = table.to_dict()
    table.play("skip")
    table.penalty("wrong-card", 3)                           # takes the skip back from its snapshot
    table.undo()
    table.undo()
    assert table.to_dict()["game"] == before["game"]


def test_an_interrupt_midway_through_a_press_changes_nothing(monkeypatch):
    table = extreme()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(table, "_announce_turn", interrupted)
    before = table.to_dict()
    with pytest.raises(KeyboardInterrupt):
        table.press()
    assert table.to_dict() == before


def test_an_exact_press_that_fails_after_queueing_the_draw_changes_nothing(monkeypatch):
    table = classic()
    monkeypatch.setattr(table, "_move_exact_windows", boom)   # the draw is queued and `drawn` set by then
    fails_and_changes_nothing(table, table.press)
    assert table.game.queue == [] and table.game.drawn is None


def test_a_counted_shot_that_fails_after_growing_the_hand_changes_nothing(monkeypatch):
    table = classic()
    table.press()
    monkeypatch.setattr(table, "_move_exact_windows", boom)   # the hand has grown by then
    fails_and_changes_nothing(table, table.count_shot, 1, 1)
    assert table.game.head.served == 0 and table.shot is not None   # the shot is still out, to be counted


def test_a_refused_count_ends_the_shot_all_the_same():
    # the cards are out whatever the table says of them (the dealer says `uncounted`): no shot is left open
    table = classic()
    table.press()
    assert table.shot is not None
    with pytest.raises(CommandError) as refused:
        table.count_shot(1, 1, seat=3, reason="draw")   # seat 2's draw, not seat 3's
    assert refused.value.code == "bad-count" and table.shot is None


def test_a_game_new_that_fails_leaves_no_game(monkeypatch):
    table = Table()
    monkeypatch.setattr(table, "_move_windows", boom)
    with pytest.raises(Boom):
        table.new_game(4)
    assert table.game is None and table.phase == "none" and table.status() is None


def test_a_game_new_that_fails_keeps_the_game_that_was_on(monkeypatch):
    table = extreme(("play", "hit2"))
    monkeypatch.setattr(table, "_move_windows", boom)
    fails_and_changes_nothing(table, table.new_game, 3)
    assert table.phase == "play"


def busy_game():
    """A game with every container a rule may change in place filled in."""
    return GameState(
        players=4, current=2, queue=[Owed(3, 2, "hit2", 3), Owed(1, 1, "deal", 1, cards=7, exact=True)],
        totals={1: 10, 2: 0, 3: 5, 4: 0}, out=[4], uno_window={"seat": 1, "called": False}, reports={1: 3},
        hands={1: 2, 2: 1, 3: 7, 4: 0}, challenge={"seat": 3, "by": 2, "card": "wild-draw-four"},
        uno_windows=[{"seat": 2, "called": True}],
        last_play={"seat": 1, "before": {"players": 4}},
        rounds=[{"round": 1, "winner": 2, "points": {"1": 0, "2": 15, "3": 0, "4": 0}, "out": [4]}],
    )


def test_a_clone_equals_its_game():
    game = busy_game()
    assert game.clone() == game
    assert game.clone().to_dict() == game.to_dict()


def test_a_clone_shares_no_container_a_rule_changes_in_place():
    game = busy_game()
    twin = game.clone()
    for name in GameState.__dataclass_fields__:
        value = getattr(game, name)
        if isinstance(value, (list, dict)) and name != "last_play":   # last_play is only ever replaced
            assert getattr(twin, name) is not value, name
    for ours, theirs in [*zip(game.queue, twin.queue, strict=True),
                          *zip(game.uno_windows, twin.uno_windows, strict=True)]:
        assert ours is not theirs


# Every kind of Uno Extreme press a game can see here, failing once all its rules have run (the round's end
# included): the game is as it was, whatever the press changed in place (the owed queue, the windows, totals).
PRESSES = {
    "a draw press closing an Uno window": [("play", "5")],
    "a draw press after an Uno call ahead": [("uno", 2)],
    "the victim paying a hit 2": [("play", "hit2")],
    "the card's player paying an extreme hit": [("play", "extreme-hit", None, 4)],
    "an advice penalty paid": [("penalty", "advice", 3)],
    "the last press of a last card's hit 2 ending the round": [("play", "hit2", None, None, True), ("press",)],
}


@pytest.mark.parametrize("name", sorted(PRESSES))
def test_an_extreme_press_that_fails_after_all_its_rules_changes_nothing(name, monkeypatch):
    table = extreme(*PRESSES[name])
    end_round_if_out = table._end_round_if_out

    def then_boom():
        end_round_if_out()
        raise Boom("a rule broke after the press was served")
    monkeypatch.setattr(table, "_end_round_if_out", then_boom)
    fails_and_changes_nothing(table, table.press)


def test_a_press_that_fails_after_ending_the_round_changes_nothing(monkeypatch):
    table = extreme(("play", "5"), ("play", "hit2", None, None, True), ("press",))   # seat 4 owes 1 more
    real_emit = table._emit

    def emit(event, **fields):
        if event == "round-over":
            raise Boom("a rule broke halfway")
        real_emit(event, **fields)

    monkeypatch.setattr(table, "_emit", emit)
    fails_and_changes_nothing(table, table.press)
    assert table.phase == "play" and table.game.going_out == 3
