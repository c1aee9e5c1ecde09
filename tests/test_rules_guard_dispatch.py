"""Guards written for the mutants that survived in shooter/commands/dispatch.py (docs/mutation.md, the eleventh
run): each test is named by the rule of docs/protocol.md it guards."""

from __future__ import annotations

from tests.conftest import run_console


def replies(out):
    return [o for o in out if "reply" in o]


def test_a_flag_on_the_line_reaches_its_command_game_new_force_ends_the_running_game():
    # a flag (`force`, `last`) is a word the command's shape allows after its arguments: on the line, it is set
    # for the command; `game new` while a game runs is refused without `force` and starts the new game with it
    out = run_console(["game new players=3", "game new players=4", "game new players=4 force", "status"])
    first, refused, forced, status = replies(out)
    assert first["ok"] and forced["ok"], (first, forced)
    assert (refused["ok"], refused["error"]) == (False, "wrong-phase")
    assert refused["message"].startswith("a game is running (round 1, totals 1: 0, 2: 0, 3: 0)")
    assert status["game"]["players"] == 4


def test_a_lines_positional_words_reach_its_command_play_CARD_plays_that_card():
    # `play CARD`: the card is the word after the command's (its Spec's args); the twelfth run found no test of
    # this selection running such a command through the dispatcher (the words dropped went unnoticed)
    out = run_console(["game new players=3 variant=extreme", "round start first=5", "play skip", "status"])
    new, start, play, status = replies(out)
    assert new["ok"] and start["ok"] and play["ok"], (new, start, play)
    assert status["game"]["current"] == 1    # seat 2's skip: seat 3 loses its turn
