"""A saved game is resumed only if it is a possible game of its edition (issue 31, item 3).

A game.json can pass every field check of the loader and still describe a game that cannot happen; the one
validator (shooter/table/possible.py, derived from the edition record) tells them apart, and the one game loader
sets an impossible game aside with one line, as a corrupt one: the six examples of the issue, each made from a
real saved game; a controller started on such a file (set aside, the box runs); and mutants of real saved games
of every edition (hypothesis): each is set aside, or resumed and played on with the game possible after every
step, never an exception. The bots (shooter/bots/checks.py) and tests/test_table_properties.py ask the
validator after every line too.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.editions import Side, lookup, records, register, unregister
from shooter.errors import StateFileError
from shooter.persist import STATE_FILE, Store
from shooter.table import Table
from shooter.table.possible import impossible, owed_reasons, table_impossible
from tests.conftest import run_console
from tests.possible_games import drive, mutant, saves
from tests.state_files import kept_aside, start
from tests.test_resume import MID


def saved(tmp_path: Path, edition: str) -> dict:
    """The game.json a controller writes after MID[edition] (a classic, All Wild or Flip game in play)."""
    state = tmp_path / f"saved-{edition}"
    state.mkdir()
    run_console(MID[edition], seed=5, state_dir=state)
    return json.loads((state / STATE_FILE).read_text())


def set_aside_line(tmp_path: Path, data: dict) -> str:
    """The one line the loader logs for ``data`` as game.json (which it must set aside, bytes kept)."""
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    text = json.dumps(data)
    (state / STATE_FILE).write_text(text)
    logged: list[str] = []
    table = Store(state, name=STATE_FILE).load_or_set_aside(Table.from_dict, log=logged.append,
                                                             fresh="started without a game")
    assert table is None and len(logged) == 1, logged
    [kept] = kept_aside(state, STATE_FILE)
    assert kept.read_text() == text and not (state / STATE_FILE).exists()
    kept.unlink()
    return logged[0].split(": ", 2)[2]


def reason(line: str) -> str:
    return line.split(": ", 1)[1].rsplit("; kept it as", 1)[0]


# --- the six examples, each a real saved game with one change -------------------------------------------
def test_FL_SIDE_a_flip_game_with_no_side_up_is_set_aside(tmp_path):
    data = saved(tmp_path, "flip")
    data["game"]["counting"]["side"] = None
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno Flip: no side of its deck (light, dark) is up in phase play.")


def test_a_classic_game_on_flips_dark_side_is_set_aside(tmp_path):
    data = saved(tmp_path, "classic")
    data["game"]["counting"]["side"] = "dark"
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno (classic): its deck has one side, and the dark side is up.")


def test_a_classic_game_owing_flips_wild_draw_colour_is_set_aside(tmp_path):
    data = saved(tmp_path, "classic")
    data["game"]["queue"] = [{"seat": 2, "presses": 1, "reason": "wild-draw-colour", "by": 2, "cards": None,
                              "served": 0}]
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno (classic): seat 2 is owed for wild-draw-colour, which Uno (classic) "
        "never owes.")


def test_D_HANDS_400_cards_in_every_hand_of_a_112_card_deck_is_set_aside(tmp_path):
    data = saved(tmp_path, "classic")
    data["game"]["counting"]["hands"] = {"1": 400, "2": 400, "3": 400}
    assert reason(set_aside_line(tmp_path, data)) == (
        "game.hands is broken: the hands would hold 1200 cards together, more than the 112 there are.")


def test_D_DEAL_the_deals_entry_owed_in_the_play_phase_is_set_aside(tmp_path):
    data = saved(tmp_path, "classic")
    data["game"]["queue"] = [{"seat": 3, "presses": 1, "reason": "deal", "by": 3, "cards": 7, "served": 0}]
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno (classic): the dealer's shot (deal) is owed in phase play, after the "
        "first card.")


def test_CL_CHAL_a_challenge_pending_on_a_skip_is_set_aside(tmp_path):
    data = saved(tmp_path, "classic")
    current = data["game"]["current"]
    victim = current % 3 + 1
    data["game"]["queue"] = [{"seat": victim, "presses": 1, "reason": "skip", "by": victim, "cards": 4,
                              "served": 0}]
    data["game"]["counting"]["challenge"] = {"seat": victim, "by": current, "card": "skip"}
    line = reason(set_aside_line(tmp_path, data))
    assert line.startswith("game is not a possible game of Uno (classic): ")   # the entry or the challenge
    data["game"]["queue"][0]["reason"] = "wild-draw-four"   # the entry a wild draw four owes: the challenge left
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno (classic): a challenge waits on skip, and the cards that can be "
        "challenged are wild-draw-four.")


def test_CL_CHAL_a_challenge_waiting_without_its_victims_cards_is_set_aside(tmp_path):
    # the press that serves a wild draw four's cards ends its challenge: a saved game with the challenge still
    # waiting and the cards gone would fail the challenge with an internal error
    data = saved(tmp_path, "classic")
    current = data["game"]["current"]
    victim = current % 3 + 1
    data["game"]["queue"] = []
    data["game"]["counting"]["challenge"] = {"seat": victim, "by": current, "card": "wild-draw-four"}
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno (classic): a challenge waits on wild-draw-four, and seat "
        f"{victim} is owed no wild-draw-four cards.")
    data["game"]["queue"] = [{"seat": victim, "presses": 1, "reason": "wild-draw-four", "by": victim, "cards": 4,
                              "served": 0}]
    back = Table.from_dict(data)   # with its cards owed it is a possible game, and the challenge is decided
    assert back.game.challenge is not None
    back.challenge(seat=victim, result="rejected")
    assert back.game.challenge is None and back.game.queue[0].cards == 6


def test_an_undo_level_of_an_impossible_game_is_set_aside_too(tmp_path):   # undo would resume it
    data = saved(tmp_path, "flip")
    assert data["history"], "the saved game has undo levels"
    data["history"][-1]["game"]["counting"]["side"] = None
    assert reason(set_aside_line(tmp_path, data)) == (
        f"history[{len(data['history']) - 1}].game is not a possible game of Uno Flip: no side of its deck "
        f"(light, dark) is up in phase play.")


@pytest.mark.parametrize("edition", sorted(MID))
def test_the_saved_games_themselves_are_possible_and_resumed(tmp_path, edition):
    table = Table.from_dict(saved(tmp_path, edition))
    assert table.game is not None and table_impossible(table) is None


# --- at the controller's start -----------------------------------------------------------------------------
def test_a_controller_started_on_an_impossible_game_sets_it_aside_and_the_box_runs(tmp_path):
    data = saved(tmp_path, "flip")
    data["game"]["counting"]["side"] = None
    state = tmp_path / "box"
    state.mkdir()
    (state / STATE_FILE).write_text(json.dumps(data))
    logged: list[str] = []
    took = start(state, logged.append, web=False)
    assert took[STATE_FILE] is False
    [line] = [m for m in logged if STATE_FILE in m]
    assert "is not a possible game of Uno Flip: no side of its deck (light, dark) is up in phase play" in line
    assert line.endswith("; started without a game") and "\n" not in line
    assert len(kept_aside(state, STATE_FILE)) == 1
    # the box runs: a new game is played and saved, and the next start resumes it (no crash loop)
    out = run_console(["game new players=3 variant=flip", "round start", "status"], seed=5, state_dir=state)
    assert [o["ok"] for o in out if "reply" in o] == [True, True, True]
    again: list[str] = []
    assert start(state, again.append, web=False)[STATE_FILE] is True
    assert not [m for m in again if "kept it as" in m]


# --- derived from the registry: a record registered later is covered as it is ----------------------------------
def test_the_validator_reads_a_new_records_data_with_no_edit():
    classic = lookup("classic")
    cards = tuple(c for c in classic.side().cards.values() if c.name != "wild-draw-four")
    plain = register(replace(classic, variant="classic-plain", challenges=False, start_rules=(),
                             sides=(Side.of(None, cards, classic.side().digits, classic.side().pad),)))
    try:
        t = Table()
        t.new_game(3, dealer=1, variant="classic-plain")
        t.start_round()
        game = t.game
        assert game is not None and impossible(game, t.phase) is None
        assert "wild-draw-four" not in owed_reasons(plain) and "challenge" not in owed_reasons(plain)
        game.challenge = {"seat": 2, "by": 1, "card": "wild-draw-four"}
        assert impossible(game, t.phase) == ("a challenge waits on wild-draw-four, and the cards that can be "
                                             "challenged are none")
    finally:
        unregister(plain)


# --- mutants of real saved games of every edition ------------------------------------------------------------
SAVES = saves()


def test_the_saves_cover_every_registered_edition():
    assert {key for key, _ in SAVES} >= {r.key for r in records()}


@pytest.mark.parametrize("index", range(0, len(SAVES), 7))
def test_every_real_save_resumes_and_plays_on_possibly(index):
    key, data = SAVES[index]
    table = Table.from_dict(data)
    assert table_impossible(table) is None, key
    drive(table, random.Random(index), 20)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(SAVES) - 1), seed=st.integers(0, 2 ** 32), changes=st.integers(1, 3))
def test_a_mutant_of_a_real_save_is_set_aside_or_resumed_and_plays_on_possibly(index, seed, changes):
    key, data = SAVES[index]
    rng = random.Random(seed)
    bad, said = mutant(rng, data, changes)
    try:
        table = Table.from_dict(bad)
    except StateFileError as exc:   # set aside: one line, naming what is wrong
        assert "\n" not in str(exc) and str(exc).startswith("Saved table state")
        return
    assert table_impossible(table) is None, (key, said)
    drive(table, rng, 12)


# --- the count rule the table and the loader share (state.count_problem) ----------------------------------------
def test_D_HANDS_a_correction_beyond_the_cards_there_are_is_refused_and_changes_nothing():
    from shooter.errors import BadCount
    from shooter.i18n import Messages
    from tests.test_editions_engine import table

    t = table("classic", players=3)   # 7 cards in every hand
    before = t.to_dict()
    with pytest.raises(BadCount) as info:
        t.set(seat=1, hand=99)   # 99 + 7 + 7 of the 112
    message = info.value.message
    assert message == "Refused, nothing changed: the hands would hold 113 cards together, more than the 112 there are."
    assert t.to_dict() == before
    assert Messages("nl").detail("bad-count", message) == (
        "Geweigerd, er is niets veranderd: de handen zouden samen 113 kaarten houden, meer dan de 112 die er zijn.")
    t.set(seat=1, hand=98)   # at the bound: accepted, and a save of it is resumed
    assert Table.from_dict(json.loads(json.dumps(t.to_dict()))).game.hands[1] == 98
