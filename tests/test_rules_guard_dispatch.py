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
