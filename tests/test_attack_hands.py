"""Uno Attack's hand counts (docs/rules.md AT-HANDS and its parts): the deal, a play, a press's cards, Discard All's
``discarded=N``, Trade Hands, the table's correction; shown, saved, resumed after a pulled plug, undone, checked by
the one validator of a loaded game; bad input refused in one line with nothing changed. Uno Extreme keeps none."""

from __future__ import annotations

import json
import shutil

import pytest

from shooter.editions import lookup
from shooter.errors import CommandError, StateFileError
from shooter.persist import STATE_FILE
from shooter.table import Table
from shooter.table.possible import impossible
from tests.conftest import run_console
from tests.test_resume import app, played, resumed

SAVED_V2 = "tests/saved_games/v2-attack-mid.json"


def attack(players: int = 3, first: str = "5", edition: str | None = None) -> Table:
    t = Table()
    t.new_game(players, dealer=1, variant="attack", edition=edition)
    t.start_round(first=first)
    return t


def hands(t: Table) -> dict[str, int | None]:
    status = t.status()
    assert status is not None
    return status["hands"]


def strip(events: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


# --- AT-HANDS-DEAL, AT-HANDS-PLAY, AT-HANDS-PRESS -----------------------------------------------------------------

def test_at_hands_deal_every_seat_in_the_game_holds_the_records_hand_once_the_round_starts():
    t = Table()
    t.new_game(3, dealer=1, variant="attack")
    assert hands(t) is None   # nothing dealt yet
    t.start_round(first="7")
    assert hands(t) == {"1": 7, "2": 7, "3": 7} == {str(s): lookup("attack").hand_size for s in (1, 2, 3)}
    assert lookup("attack", "106").hand_counts and lookup("attack", "1998").keeps_hands


def test_at_hands_play_a_card_leaves_the_hand_and_a_last_card_empties_it():
    t = attack()
    t.play("5")            # seat 2
    t.play("skip")         # seat 3 skips seat 1
    assert hands(t) == {"1": 7, "2": 6, "3": 6}
    t.play("9", last=True)  # seat 2 says it is its last card: the hand is empty, whatever the count said
    assert hands(t)["2"] == 0 and t.game.round_winner == 2


def test_at_hands_press_a_press_credits_what_it_shoots_to_the_seat_that_receives_it():
    t = attack(players=4)
    t.press(fired=True, cards=3)           # seat 2's draw: three cards came out
    assert hands(t)["2"] == 10
    t.play("hit2")                         # seat 3: seat 4 presses twice
    t.press(fired=False, cards=0)
    t.press(fired=True, cards=4)
    assert hands(t) == {"1": 7, "2": 10, "3": 6, "4": 11}
    t.play("wild-all-hit")                 # seat 1: seats 2, 3, 4 press once each
    t.press(fired=True, cards=1)
    t.press(fired=True, cards=2)
    t.press(fired=True, cards=5)
    assert hands(t) == {"1": 6, "2": 11, "3": 8, "4": 16}


def test_at_hands_press_the_exit_beams_count_corrects_what_the_press_credited():
    t = attack()
    t.press(fired=True, cards=5)                     # planned 5 ...
    t.count_shot(5, 2, seat=2, reason="draw")        # ... a jam let 2 out
    assert hands(t)["2"] == 9
    t.press(fired=True, cards=1)                     # seat 3's draw: 1 planned, a stuck card came along
    t.count_shot(1, 2, seat=3, reason="draw")
    assert hands(t)["3"] == 9
    t.count_shot(3, None, seat=1, reason="draw")     # without the sensor the plan stands
    assert hands(t)["1"] == 7


def test_at_hands_press_a_credit_past_what_the_deck_holds_leaves_that_count_unknown_not_the_press_refused():
    t = attack()
    t.press(fired=True, cards=100)   # 21 in the hands + 100 > 112: a count the table cannot trust
    assert hands(t) == {"1": 7, "2": None, "3": 7} and t.game.current == 3


# --- AT-HANDS-DALL ---------------------------------------------------------------------------------------------

def test_at_hands_dall_discarded_n_takes_n_more_cards_and_says_so_in_a_hands_event():
    t = attack()
    events = strip(t.play("discard-all", discarded=3))
    assert hands(t) == {"1": 7, "2": 3, "3": 7}
    assert {"event": "hands", "hands": {"1": 7, "2": 3, "3": 7}, "reason": "discard-all"} in events


def test_at_hands_dall_without_discarded_the_players_count_is_not_known_until_set_or_the_next_deal():
    t = attack()
    events = strip(t.play("discard-all"))
    assert hands(t) == {"1": 7, "2": None, "3": 7}
    assert {"event": "hands", "hands": {"1": 7, "2": None, "3": 7}, "reason": "discard-all"} in events
    t.press(fired=True, cards=2)   # seat 3 draws; seat 2's count stays unknown
    t.set(seat=2, hand=4)          # the table counted it
    assert hands(t) == {"1": 7, "2": 4, "3": 9}


def test_at_hands_dall_with_every_card_of_the_colour_and_last_the_hand_is_empty():
    t = attack()
    t.play("discard-all", discarded=6, last=True)
    assert hands(t)["2"] == 0 and t.game.round_winner == 2


# --- AT-HANDS-TRADE --------------------------------------------------------------------------------------------

def test_at_hands_trade_the_player_and_the_target_swap_counts_after_the_card_left_the_hand():
    t = attack()
    t.play("discard-all", discarded=2)      # seat 2: 4
    t.press(fired=True, cards=3)            # seat 3: 10
    events = strip(t.play("trade-hands", target=2))   # seat 1 (7 -> 6) trades with seat 2 (4)
    assert hands(t) == {"1": 4, "2": 6, "3": 10}
    assert {"event": "hands", "hands": {"1": 4, "2": 6, "3": 10}, "reason": "trade-hands"} in events


def test_at_hands_trade_an_unknown_count_changes_hands_with_the_cards():
    t = attack()
    t.play("discard-all")                   # seat 2: not known
    t.play("trade-hands", target=2)         # seat 3 (6) trades with seat 2
    assert hands(t) == {"1": 7, "2": 6, "3": None}


def test_at_hands_trade_a_last_trade_hands_swaps_nothing_the_player_is_out():
    t = attack()
    t.play("trade-hands", target=3, last=True)
    assert hands(t) == {"1": 7, "2": 0, "3": 7}


# --- AT-HANDS-SET, AT-HANDS-REFUSE ------------------------------------------------------------------------------

def test_at_hands_set_the_table_corrects_a_count_and_the_hands_are_held_to_the_deck():
    t = attack()
    t.set(seat=3, hand=12)
    assert hands(t)["3"] == 12
    before = t.to_dict()
    with pytest.raises(CommandError) as refused:
        t.set(seat=1, hand=100)   # 100 + 7 + 12 > 112
    assert refused.value.code == "bad-count" and t.to_dict() == before
    with pytest.raises(CommandError, match="seat= and hand= go together"):
        t.set(seat=1)
    extreme = Table()
    extreme.new_game(3, dealer=1)
    extreme.start_round(first="5")
    with pytest.raises(CommandError, match="cannot correct the table this way"):
        extreme.set(seat=1, hand=3)   # Uno Extreme keeps no counts to correct


def test_at_hands_report_the_reported_cards_replace_the_count_a_score_leaves_it():
    t = attack()
    t.play("5")
    t.play("9", last=True)   # seat 3 wins the round; seats 1 and 2 hold 7 and 6 by the count
    assert hands(t) == {"1": 7, "2": 6, "3": 0}
    t.hand(seat=1, cards="5,skip")   # the cards on the table are the truth: 2, not 7
    assert hands(t) == {"1": 2, "2": 6, "3": 0} and t.game.reports[1] == 25
    t.undo()
    assert hands(t) == {"1": 7, "2": 6, "3": 0}   # taken back with the report
    t.score(seat=2, points=30)   # points only: no cards to count, the count stands
    assert hands(t)["2"] == 6
    extreme = Table()
    extreme.new_game(3, dealer=1)
    extreme.start_round(first="5")
    extreme.play("5")
    extreme.play("9", last=True)
    extreme.hand(seat=1, cards="5")
    assert hands(extreme) is None   # Uno Extreme keeps no counts to replace


@pytest.mark.parametrize("card, discarded, code, message", [
    ("discard-all", -1, "bad-argument", "discarded= must be 0..500, got -1"),
    ("discard-all", "x", "bad-argument", "discarded= must be a whole number, got 'x'"),
    ("discard-all", 7, "bad-count", "Seat 2 holds 7 cards: a discard-all and 7 more are more than that; "
                                    "correct the count with set seat=2 hand=N."),
    ("5", 1, "bad-argument", "discarded= goes only with a discard-all of variant=attack, not with 5."),
])
def test_at_hands_refuse_bad_discarded_changes_nothing(card, discarded, code, message):
    t = attack()
    before = t.to_dict()
    with pytest.raises(CommandError) as refused:
        t.play(card, discarded=discarded)
    assert (refused.value.code, refused.value.message) == (code, message)
    assert t.to_dict() == before


def test_at_hands_refuse_discarded_in_a_game_that_keeps_no_counts_or_counts_them_itself():
    extreme = Table()
    extreme.new_game(3, dealer=1)
    extreme.start_round(first="5")
    with pytest.raises(CommandError, match="discarded= goes only with a discard-all of variant=attack"):
        extreme.play("discard-all", discarded=1)   # Uno Extreme's Discard All is an ordinary play
    extreme.play("discard-all")
    assert extreme.status()["hands"] is None       # Uno Extreme keeps no counts (C-DALL)
    classic = Table()
    classic.new_game(3, dealer=1, variant="classic")
    with pytest.raises(CommandError, match="counts its hands itself"):
        classic.play("5", discarded=1)


def test_at_hands_refuse_through_the_console_one_line_and_nothing_changed():
    lines = ["game new players=3 dealer=1 variant=attack", "round start first=5", "status",
             "play discard-all discarded=-1", "play discard-all discarded=x", "play discard-all discarded=9",
             "status"]
    out = run_console(lines)
    replies = [o for o in out if "reply" in o]
    refusals = [r for r in replies if r["reply"] == "play"]
    assert [r["error"] for r in refusals] == ["bad-argument", "bad-argument", "bad-count"]
    assert all("\n" not in r["message"] and r["message"] for r in refusals)
    assert replies[2]["game"] == replies[-1]["game"]
    assert not [o for o in out if o.get("event") == "hands"]


# --- AT-HANDS-UNDO ---------------------------------------------------------------------------------------------

def test_at_hands_undo_restores_the_counts_a_discard_all_and_a_trade_hands_changed():
    t = attack()
    t.play("discard-all", discarded=2)
    after_discard = hands(t)
    t.play("trade-hands", target=1)
    assert hands(t) == {"1": 6, "2": 4, "3": 7}
    t.undo()
    assert hands(t) == after_discard == {"1": 7, "2": 4, "3": 7}
    t.undo()
    assert hands(t) == {"1": 7, "2": 7, "3": 7}
    t.undo()   # the round start: nothing dealt
    assert hands(t) is None


def test_at_hands_a_wrong_card_penalty_gives_the_card_and_what_it_discarded_back():
    t = attack()
    t.play("discard-all", discarded=3)
    t.penalty("wrong-card", 2)
    assert hands(t)["2"] == 7 and t.game.head.seat == 2   # then its 2 presses at seat 2 are credited to it


# --- AT-HANDS-ROUND: through the console, as the shooter counts ----------------------------------------------------

def test_at_hands_round_through_the_console_discard_all_and_trade_hands_change_the_counts():
    lines = ["game new players=3 dealer=3 variant=attack", "round start first=7",
             "play discard-all discarded=2",   # seat 1: 7 - 1 - 2
             "press",                          # seat 2 draws what comes out
             "play trade-hands target=1",      # seat 3 (7 - 1) trades with seat 1
             "press",                          # seat 1 draws
             "status"]
    out = run_console(lines, seed=4)
    replies = [o for o in out if "reply" in o]
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    shots = [o for o in out if o.get("event") == "shot"]
    got = {shot["seat"]: shot["ejected"] for shot in shots}
    assert set(got) == {1, 2} and got[2] > 0   # (seed 4: seat 2's press fires, so the counts can fail)
    assert replies[-1]["game"]["hands"] == {"1": 6 + got[1], "2": 7 + got[2], "3": 4}
    events = [o for o in out if o.get("event") == "hands"]
    assert [e["reason"] for e in events] == ["discard-all", "trade-hands"]
    assert events[1]["hands"] == {"1": 6, "2": 7 + got[2], "3": 4}


def test_at_hands_round_the_terminal_says_the_counts_in_english_and_dutch():
    from shooter.consoles.terminal import Renderer
    from shooter.i18n import Messages
    status = {"reply": "status", "ok": True,
              "shooter": {"state": "ready", "aim": 1, "angle": 0.0, "lid": "closed", "cards": 80},
              "game": {"round": 1, "phase": "play", "current": 1, "direction": "cw", "owed": None,
                       "totals": {"1": 0, "2": 0}, "hands": {"1": 6, "2": None}}}
    event = {"event": "hands", "t": 0.0, "hands": {"1": 6, "2": None}, "reason": "discard-all"}
    en, nl = Renderer(Messages("en")), Renderer(Messages("nl"))
    assert "Cards in hand: seat 1 6, seat 2 not known" in en.status(status)
    assert "Kaarten in de hand: plaats 1 6, plaats 2 onbekend" in nl.status(status)
    assert "Cards in hand: seat 1 6, seat 2 not known." in (en.event(event) or "")


# --- AT-HANDS-SAVE: saved, resumed after a pulled plug, checked when loaded --------------------------------------

def test_at_hands_save_a_pulled_plug_keeps_the_counts(tmp_path):
    lines = ["game new players=3 dealer=3 variant=attack", "round start first=7", "play discard-all discarded=2",
             "press", "play trade-hands target=1"]
    before = played(tmp_path, lines)   # SIGKILL of the real command
    assert before["hands"]["1"] == 6 and before["hands"]["3"] == 4
    assert resumed(tmp_path) == before
    assert not list(tmp_path.glob(f"{STATE_FILE}.bad-*"))


def test_at_hands_save_a_plug_pulled_while_a_press_shoots_keeps_the_cards_it_was_to_shoot(tmp_path):
    first, cut = tmp_path / "first", tmp_path / "cut"
    cut.mkdir()
    with app(first, log=lambda m: None) as running:
        out: list[dict] = []
        running.controller.add_sink(out.append)
        for line in ["game new players=3 dealer=3 variant=attack", "round start first=7"]:
            running.controller.handle_line(line, out.append)
            running.loop.run_until_quiet()
        for _ in range(8):   # draws until one fires (the file is copied while its burst is coming out)
            before = running.controller.table.status()["hands"]
            running.controller.handle_line("press", out.append)   # answered and saved; its burst is out
            shutil.copy(first / STATE_FILE, cut / STATE_FILE)
            running.loop.run_until_quiet()
            shot = [o for o in out if o.get("event") == "shot"][-1]
            if shot["planned"]:
                break
    seat = str(shot["seat"])
    saved = json.loads((cut / STATE_FILE).read_text())["game"]["extreme"]["hands"]
    assert shot["planned"] > 0 and saved[seat] == before[seat] + shot["planned"]   # the plan, on disk with the press
    out = run_console(["status"], state_dir=cut)
    assert out[-1]["game"]["hands"] == {**before, seat: before[seat] + shot["planned"]}


def test_at_hands_save_a_version_2_attack_game_resumes_without_counts_and_counts_from_the_next_deal(tmp_path):
    shutil.copy(SAVED_V2, tmp_path / STATE_FILE)
    out = run_console(["status", "play 4", "status"], state_dir=tmp_path)
    statuses = [o["game"] for o in out if o.get("reply") == "status"]
    assert statuses[0]["hands"] is None and statuses[1]["hands"] is None   # the counts were never kept
    assert json.loads((tmp_path / STATE_FILE).read_text())["version"] == 3


@pytest.mark.parametrize("edit, problem", [
    (lambda g: g["extreme"]["hands"].update({"2": -1}), "hands must be null or map seats of 1..3"),
    (lambda g: g["extreme"]["hands"].update({"2": "7"}), "hands must be null or map seats of 1..3"),
    (lambda g: g["extreme"]["hands"].update({"4": 7}), "hands must be null or map seats of 1..3"),
    (lambda g: g["extreme"]["hands"].update({"2": 110}), "more than the 112 there are"),
])
def test_at_hands_save_a_loaded_game_with_impossible_counts_is_set_aside_in_one_line(edit, problem):
    data = attack().to_dict()
    edit(data["game"])
    with pytest.raises(StateFileError, match=problem) as refused:
        Table.from_dict(data)
    assert "\n" not in str(refused.value)


def test_at_hands_save_the_validator_knows_which_games_keep_counts():
    t = attack()
    game = t.game
    assert impossible(game, t.phase) is None
    extreme = Table()
    extreme.new_game(3, dealer=1)
    extreme.start_round(first="5")
    extreme.game.hands = {1: 7, 2: 7, 3: 7}
    assert impossible(extreme.game, extreme.phase) == "it counts no hands"
    before = Table()
    before.new_game(3, dealer=1, variant="attack")
    before.game.hands = {1: 7, 2: 7, 3: 7}
    assert "before its first round was dealt" in impossible(before.game, before.phase)
    out = Table()
    out.new_game(3, dealer=1, variant="attack", scoring="elimination")
    out.start_round(first="5")
    out.game.out = [3]
    assert "seat 3 is out of the game, and its hand is counted" in impossible(out.game, out.phase)


def test_at_hands_press_a_jammed_burst_counts_only_the_cards_the_beam_saw_through_the_console():
    out = run_console(["game new players=3 dealer=3 variant=attack", "round start first=7", "play 5", "sim jam",
                       "press", "status"], seed=4)
    shot = [o for o in out if o.get("event") == "shot"][-1]
    assert shot["interrupted"] == "jam" and shot["planned"] > shot["ejected"]   # (seed 4: the jam cuts it short)
    assert out[-1]["game"]["hands"] == {"1": 6, "2": 7 + shot["ejected"], "3": 7}
