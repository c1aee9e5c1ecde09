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


MUTANTS = 3_000   # about 30 s on this machine
WHOLE_START_EVERY = 30   # every this many a whole controller's start (the rest: the one loader, in process)


def test_impossible_saved_games_of_every_edition_are_set_aside_and_possible_ones_play_on(tmp_path):
    """Issue 31 item 3: mutants of real saved games of every edition (tests/possible_games.py), each written as
    game.json and read by the one loader as the controller does. Survived: the start raised nothing; the file
    was set aside with its bytes and one line, or resumed and played on with the game possible after every
    step. Data lost: an unchanged save (the controls, one of each kept) that was not resumed, or a bad file
    whose bytes were not kept."""
    import json
    import random

    from shooter.persist import STATE_FILE, Store
    from shooter.table import Table
    from shooter.table.possible import table_impossible
    from tests.possible_games import drive, mutant, saves
    from tests.state_files import kept_aside, start

    rng = random.Random(31)
    found = saves()
    survived = lost = aside = impossible = resumed = steps = whole = 0
    trials = [(key, data, None) for key, data in found] + [
        (key, *mutant(rng, data, rng.randint(1, 3))) for key, data in (rng.choice(found) for _ in range(MUTANTS))]
    for i, (key, data, said) in enumerate(trials):
        state = tmp_path / f"t{i}"
        state.mkdir()
        text = json.dumps(data)
        (state / STATE_FILE).write_text(text)
        logged: list[str] = []
        try:
            if i % WHOLE_START_EVERY == 0:
                whole += 1
                took = start(state, logged.append, web=False)[STATE_FILE]
                table = Table.from_dict(data) if took else None
            else:
                table = Store(state, name=STATE_FILE).load_or_set_aside(Table.from_dict, log=logged.append,
                                                                         fresh="started without a game")
            kept = kept_aside(state, STATE_FILE)
            if table is None:
                lines = [m for m in logged if "kept it as" in m]
                ok = len(lines) == 1 and len(kept) == 1 and kept[0].read_text() == text
                lost += said is None or not ok
                aside += 1
                impossible += any("is not a possible game" in m or "hands is broken" in m for m in lines)
            else:
                assert table_impossible(table) is None, (key, said)
                steps += drive(table, rng, 12)
                resumed += 1
                ok = not kept
            survived += ok
        except Exception as exc:   # never: an exception at start, or an impossible game played on
            print(f"{key} {said}: {type(exc).__name__}: {exc}"[:300])
        finally:
            for path in state.iterdir():
                path.unlink()
            state.rmdir()
    record(FaultResult("impossible saved games", len(trials), survived, lost,
                       {"editions": len({key for key, _, _ in trials}), "controls": len(found),
                        "set aside": aside, "of them impossible (the validator)": impossible,
                        "resumed and played on": resumed, "steps played": steps, "whole starts": whole}))
    assert survived == len(trials) and lost == 0 and impossible > 0 and resumed > len(found)
