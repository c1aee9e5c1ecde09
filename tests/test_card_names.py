"""Card names of another side, variant or edition never reach a look-up that raises (issue 15, item 7), and the
`first` reply says whether another card must be turned (item 11).

Every card name any deck knows (Extreme's, each exact variant's, both Flip sides, All Wild's ``wild-`` spellings)
is sent to every command that takes one, in each variant and with each Flip side up: the answer is a refusal
(a CommandError with a code the protocol lists) or an accepted command, never another exception.
"""

from __future__ import annotations

import copy
import random

import pytest

from shooter.errors import CommandError
from shooter.table import Table
from shooter.table.cards import CARDS
from shooter.table.editions import ALL_WILD, CLASSIC, FLIP_DARK, FLIP_LIGHT
from tests.test_editions_console import error, play

NAMES = sorted({*CARDS, *CLASSIC, *ALL_WILD, *FLIP_LIGHT, *FLIP_DARK, *(f"wild-{n}" for n in ALL_WILD),
                "0", "1", "9", "10", "number", "", "wild_draw_four", "SKIP", "draw two"})


def test_flip_first_card_of_the_side_that_is_down_is_bad_argument_not_internal():
    # the case: the dark side up in phase first, a light-only card reported
    p = play("flip", ["set side=dark", "first skip"], first=None)
    assert error(p) == "bad-argument" and "other side" in p.reply()["message"]
    assert p.shooter["state"] == "ready" and p.game["phase"] == "first"


def test_flip_first_card_of_the_side_that_is_up_is_carried_out_on_that_side():
    p = play("flip", ["set side=dark", "first draw-five"], first=None)
    assert p.reply() == {"reply": "first", "ok": True, "again": False}
    assert p.game["owed"]["reason"] == "start" and p.game["owed"]["cards"] == 5


def _dealt(variant: str, side: str | None = None) -> Table:
    """A table in phase first (classic, flip) or play (all-wild), the deal counted."""
    table = Table(rng=random.Random(1))
    table.new_game(3, dealer=1, variant=variant)
    table.start_round()
    while table.dealt_next():
        due = table.due()
        table.count_shot(due[2], due[2])
    if side is not None:
        table.set(side=side)
    return table


@pytest.mark.parametrize("variant,side", [("classic", None), ("all-wild", None), ("flip", "light"),
                                          ("flip", "dark")])
def test_every_card_name_to_every_command_is_answered_never_a_failed_look_up(variant, side):
    dealt = _dealt(variant, side)
    if variant != "all-wild":
        started = copy.deepcopy(dealt)
        started.first_card("5")
    else:
        started = dealt
    tried = 0
    for name in NAMES:
        for table, command in ((dealt, "first"), (started, "play"), (started, "play-last")):
            t = copy.deepcopy(table)
            try:
                if command == "first":
                    t.first_card(name)
                elif command == "play":
                    t.play(name, target=3)
                    t.play(name)
                else:
                    t.set(seat=t.game.current, hand=1)
                    t.play(name, last=True)
            except CommandError as refused:
                assert refused.code in ("bad-argument", "wrong-phase", "presses-owed", "not-your-turn"), refused
            tried += 1
    assert tried == 3 * len(NAMES)


def test_every_card_name_in_a_hand_report_is_answered_never_a_failed_look_up():
    for variant, side in (("classic", None), ("all-wild", None), ("flip", "light"), ("flip", "dark")):
        table = _dealt(variant, side)
        if variant != "all-wild":
            table.first_card("5")
        table.set(seat=table.game.current, hand=1)
        table.play("5" if variant != "all-wild" else "wild", last=True)
        assert table.phase == "scoring"
        for name in NAMES:
            t = copy.deepcopy(table)
            try:
                t.hand(3 if table.game.round_winner != 3 else 2, [name, "wild"])
            except CommandError as refused:
                assert refused.code == "bad-argument", refused


def test_first_reply_says_again_true_for_a_void_card_and_false_once_a_card_stands():
    p = play("classic", ["first skip", "first wild", "first 7"], first=None)
    assert [p.reply(i) for i in (-4, -3, -2)] == [{"reply": "first", "ok": True, "again": True},
                                                  {"reply": "first", "ok": True, "again": True},
                                                  {"reply": "first", "ok": True, "again": False}]
    assert p.game["phase"] == "play"


def test_first_reply_in_flip_a_wild_draw_two_goes_back_again_true_a_flip_stands_again_false():
    p = play("flip", ["first wild-draw-two", "first flip"], first=None)
    assert p.reply(-3)["again"] is True and p.reply(-2)["again"] is False and p.game["side"] == "dark"
