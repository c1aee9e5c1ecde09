"""The Uno window closes when the player whose turn it actually is begins (issue 15, item 1).

Seed 000: penalty cards for a forgotten Uno "terwijl de volgende speler al aan zijn beurt begonnen is" are too
late. The next player is the one the last card left the turn to, whatever it did to the order: after a skip, a
skip two, a skip everyone, a reverse with two players it is not the seat after the card's player. Each test plays
the case through the console on the simulated shooter and catches after that player began: `too-late`.
"""

from __future__ import annotations

from tests.conftest import run_console
from tests.test_editions_console import error, play


def test_D_UNO_a_catch_right_after_a_skip_is_still_in_time():
    p = play("classic", ["set seat=2 hand=2", "play skip", "catch seat=2"], players=3)
    assert p.reply()["ok"] and p.game["owed"]["reason"] == "uno"


def test_D_UNO_after_a_skip_the_skipped_seats_next_one_drawing_and_passing_closes_the_window():
    # the sequence: seat 3 is skipped, seat 1 begins with a draw and a pass
    p = play("classic", ["set seat=2 hand=2", "play skip", "draw", "pass", "catch seat=2"], players=3)
    assert error(p) == "too-late" and p.game["queue"] == [] and p.hands["2"] == 1


def test_D_UNO_after_a_skip_the_next_players_draw_alone_closes_the_window():
    p = play("classic", ["set seat=2 hand=2", "play skip", "draw", "catch seat=2"], players=3)
    assert error(p) == "too-late"


def test_D_UNO_after_a_skip_two_the_seat_that_plays_next_drawing_closes_the_window():
    # All Wild, four seats: seat 2's skip two skips 3 and 4; seat 1 begins
    p = play("all-wild", ["set seat=2 hand=2", "play skip-two", "draw", "catch seat=2"], players=4)
    assert error(p) == "too-late"


# After a card that gives its player the turn again, that player's own draw is the next turn begun. Its card
# usually changes the hand (which closes the window too); here it jams (`sim jam`: the wedged card stays in the
# shooter, 0 counted), so only the draw press itself can close the window.

def test_D_UNO_after_a_skip_everyone_the_card_players_own_draw_closes_its_window():
    # Flip, dark side: Skip Everyone gives seat 2 the turn again
    p = play("flip", ["set side=dark", "set seat=2 hand=2", "play skip-everyone", "sim jam", "draw",
                      "catch seat=2"], players=3)
    assert error(p) == "too-late" and p.hands["2"] == 1


def test_D_UNO_after_a_reverse_with_two_players_the_card_players_own_draw_closes_its_window():
    p = play("classic", ["set seat=2 hand=2", "play reverse", "sim jam", "draw", "catch seat=2"], players=2)
    assert error(p) == "too-late" and p.hands["2"] == 1


def test_D_UNO_after_a_skip_with_two_players_the_card_players_own_draw_closes_its_window():
    p = play("all-wild", ["set seat=2 hand=2", "play skip", "sim jam", "draw", "catch seat=2"], players=2)
    assert error(p) == "too-late" and p.hands["2"] == 1


def test_D_UNO_a_draw_cards_victim_taking_its_cards_closes_the_window():
    p = play("classic", ["set seat=2 hand=2", "play draw-two", "press", "catch seat=2"], players=3)
    assert error(p) == "too-late" and p.hands["3"] == 9


def test_D_UNO_a_targeted_draws_target_taking_its_cards_is_not_the_next_turn():
    # All Wild: the target keeps its turn; seat 3 plays next, so seat 4's press leaves seat 2's window open
    p = play("all-wild", ["set seat=2 hand=2", "play targeted-draw-two target=4", "press", "catch seat=2"],
             players=4)
    assert p.reply()["ok"] and p.game["owed"] == {**p.game["owed"], "seat": 2, "reason": "uno"}


def test_D_UNO_a_forced_swap_targets_window_closes_when_the_next_player_draws():
    # seat 2 swaps its last-but-one card's hand (1 card) with seat 4 (6 cards): seat 4's window opens; seat 3 plays
    # next (not seat 4's left neighbour, seat 1) and its draw closes the window
    p = play("all-wild", ["set seat=2 hand=2", "set seat=4 hand=6", "play forced-swap target=4", "draw",
                          "catch seat=4"], players=4)
    assert error(p) == "too-late" and p.hands["4"] == 1


def test_P_UNO_the_current_seats_own_penalty_press_ahead_of_a_hit_victim_is_not_the_next_turn():
    # Uno Extreme: seat 1's Hit 2 costs seat 2 its turn; seat 3 (current) gets an advice penalty, served first
    # (penalty_queue front). Seat 3 pressing for it is no turn begun: seat 2, the next player, has not pressed.
    out = run_console(["game new players=3 dealer=3", "round start first=5", "play hit2", "penalty advice seat=3",
                       "press", "catch seat=1"])
    replies = [o for o in out if "reply" in o]
    assert replies[-1] == {"reply": "catch", "ok": True}
