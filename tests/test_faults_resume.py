"""The fault suite's SIGKILL runs for the counting dealer's editions (classic, All Wild, Flip): the real
command killed at random points of a whole game (a round played and scored, the next dealt and begun), while
commands are carried out and while the deal and the owed cards are being shot; each restart must resume the
game after the last answered command (or the one in flight, saved before its reply). A restart that finds
shots cut short reports them (``interrupted``) and a press finishes them: then it must be that game.

Data lost: a restart whose game was not one of those (``_kill_runs`` fails the test on the first).
"""

import pytest

from tests.fault_runners import FaultResult
from tests.test_faults import record
from tests.test_persistence import _kill_runs
from tests.test_resume import EXACT_GAMES

pytestmark = pytest.mark.faults

KILLS = 100   # per edition: about 20 s each on this machine


@pytest.mark.parametrize("edition", sorted(EXACT_GAMES))
def test_100_sigkills_of_a_counting_dealer_s_game_resume_from_the_last_answered_command(tmp_path, edition):
    script = EXACT_GAMES[edition]
    kills, ahead, unanswered, resumed, cut_short = _kill_runs(KILLS, tmp_path, seed=11, script=script)
    record(FaultResult(f"SIGKILL, {edition} game", KILLS, kills, 0,
                       {"killed before the reply": unanswered, "saved but unanswered": ahead,
                        "shots cut short, finished by a press": cut_short,
                        "restarts that resumed a saved game": len(resumed)}))
    # kills landed before, during and after lines all through the game, and while cards were coming out
    assert unanswered > 0 and cut_short > 0 and len(resumed) >= len(script) // 3, (unanswered, sorted(resumed))
