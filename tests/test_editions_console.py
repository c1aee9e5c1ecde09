"""The exact variants' rules played through the console protocol on the simulated shooter, named by id.

Each test sends lines to the real controller (simulated hardware with the exit sensor, virtual clock) and checks
only what the protocol shows: replies, events (the ``shot`` events are the exit sensor's counts) and ``status``.
``play(variant)`` starts four seats, seat 1 deals, the whole deal shot, a ``5`` turned up (classic, flip):
seat 2 plays first, every hand holds 7.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from shooter.config import parse_config
from tests.conftest import run_console
from tests.test_editions_engine import EDITIONS_IDS


class Played:
    """The replies and events of a session; ``game`` is the final status."""

    def __init__(self, out: list[dict]):
        self.groups: list[tuple[dict, list[dict]]] = []
        for obj in out:
            if "reply" in obj:
                self.groups.append((obj, []))
            elif self.groups:
                self.groups[-1][1].append({k: v for k, v in obj.items() if k != "t"})
        self.game = self.groups[-1][0]["game"]
        self.shooter = self.groups[-1][0]["shooter"]

    def reply(self, i: int = -2) -> dict:
        return self.groups[i][0]

    def events(self, i: int = -2, name: str | None = None) -> list[dict]:
        return [e for e in self.groups[i][1] if name is None or e["event"] == name]

    def all_events(self, name: str) -> list[dict]:
        return [e for _, events in self.groups for e in events if e["event"] == name]

    @property
    def hands(self) -> dict[str, int]:
        return self.game["hands"]


def play(variant="classic", lines=(), players=4, first="5", rules=None, new="", sensor=True) -> Played:
    setup = [f"game new players={players} dealer=1 variant={variant} {new}".strip(), "round start"]
    if variant != "all-wild" and first is not None:
        setup.append(f"first {first}")
    config = parse_config({"rules": rules}) if rules else None
    out = run_console([*setup, *lines, "status"], config=config, exit_sensor=sensor)
    played = Played(out)
    for reply, _ in played.groups[:len(setup)]:
        assert reply["ok"], reply
    return played


def error(p: Played, i: int = -2) -> str:
    reply = p.reply(i)
    assert not reply["ok"], reply
    return reply["error"]


def test_every_editions_rule_id_is_named_by_a_console_test():
    names = set(re.findall(r"^def (test_\w+)", pathlib.Path(__file__).read_text(), re.M))
    missing = [rid for rid in EDITIONS_IDS if not any(f"test_{rid.replace('-', '_')}_" in n for n in names)]
    assert missing == []


# --- D-* ----------------------------------------------------------------------------------------------

def test_D_SENSOR_without_the_exit_sensor_game_new_answers_no_exit_sensor():
    out = run_console(["game new players=3 variant=classic", "status"], exit_sensor=False)
    assert out[0]["error"] == "no-exit-sensor" and out[1]["game"] is None


def test_D_SENSOR_with_the_exit_sensor_game_new_answers_ok():
    out = run_console(["game new players=3 variant=classic"])
    assert out[0] == {"reply": "game", "ok": True}


def test_D_DEAL_round_start_shoots_seven_counted_cards_to_each_seat_then_the_first_card():
    p = play("classic", players=3, first=None)
    shots = [(e["seat"], e["planned"], e["ejected"], e["reason"]) for e in p.all_events("shot")]
    assert shots == [(2, 7, 7, "deal"), (3, 7, 7, "deal"), (1, 7, 7, "deal"), (1, 1, 1, "first")]
    assert p.game["phase"] == "first" and p.hands == {"1": 7, "2": 7, "3": 7}


def test_D_DEAL_round_start_sets_the_magazine_to_the_declared_deck():
    p = play("classic", players=3, first=None, new="")
    assert p.shooter["cards"] == 112 - 22


def test_D_FIRST_a_void_card_gets_one_more_card_to_the_dealer():
    p = play("classic", ["first skip"], first=None)
    assert p.events(-2, "shot") == [{"event": "shot", "seat": 1, "planned": 1, "ejected": 1, "reason": "first"}]
    assert p.game["phase"] == "first"


def test_D_FIRST_a_standing_card_starts_play_left_of_the_dealer():
    p = play("classic")
    assert p.game["phase"] == "play" and p.game["current"] == 2 and p.game["first"] == "number"


def test_D_DRAW_a_press_with_nothing_owed_shoots_one_card_and_the_turn_goes_on():
    p = play("classic", ["press"])
    assert p.reply() == {"reply": "press", "ok": True, "seat": 2, "reason": "draw", "cards": 1}
    assert p.hands["2"] == 8 and p.game["current"] == 2 and p.game["drawn"] == 2
    assert p.events(-2, "turn") == []


def test_D_DRAW_a_second_draw_is_already_drawn():
    p = play("classic", ["draw", "draw"])
    assert error(p) == "already-drawn" and p.hands["2"] == 8


def test_D_DRAW_pass_before_a_draw_is_must_draw():
    p = play("classic", ["pass"])
    assert error(p) == "must-draw"


def test_D_DRAW_pass_after_a_draw_gives_the_turn_on():
    p = play("classic", ["draw seat=2", "pass seat=2"])
    assert p.events(-2, "turn") == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_D_OWED_no_play_while_cards_are_owed():
    p = play("classic", ["play draw-two", "play 5"])
    assert error(p) == "presses-owed"


def test_D_OWED_one_press_shoots_the_whole_entry():
    p = play("classic", ["play wild-draw-four", "press"])
    assert p.events(-2, "shot") == [{"event": "shot", "seat": 3, "planned": 4, "ejected": 4,
                                     "reason": "wild-draw-four"}]
    assert p.game["current"] == 4 and p.hands["3"] == 11


def test_D_SERVE_a_lid_opened_mid_shot_leaves_the_rest_owed():
    p = play("classic", ["give seat=3 cards=7", "sim jam", "press", "sim lid open", "sim lid close"])
    shot = p.all_events("shot")[-1]
    assert shot["interrupted"] == "jam" and shot["ejected"] < 7
    assert p.game["owed"]["cards"] == 7 - shot["ejected"] and p.hands["3"] == 7 + shot["ejected"]


def test_D_SERVE_a_long_entry_goes_on_in_several_bursts():
    p = play("classic", ["give seat=3 cards=12", "press"])
    assert [e["planned"] for e in p.events(-2, "shot")] == [7, 5] and p.hands["3"] == 19
    assert p.all_events("fault") == []  # each burst within the motor's maximum on-time


def test_D_REFILL_an_empty_magazine_refuses_presses_until_refilled():
    p = play("classic", ["magazine cards=0", "play draw-two", "press", "magazine cards=30", "press"],
             players=3)
    assert p.reply(-4)["error"] == "empty"
    assert p.events(-2, "shot")[0]["planned"] == 2 and p.hands["3"] == 9


def test_D_HANDS_status_tracks_plays_and_set_corrects_a_count():
    p = play("classic", ["play 5", "set seat=4 hand=3"])
    assert p.hands == {"1": 7, "2": 6, "3": 7, "4": 3}


def test_D_UNO_a_caught_uno_costs_two_cards():
    p = play("classic", ["set seat=2 hand=2", "play 5", "catch seat=2", "press"])
    assert p.events(-2, "shot")[0]["planned"] == 2 and p.hands["2"] == 3


def test_D_UNO_calling_ahead_with_two_cards_makes_the_play_safe():
    p = play("classic", ["set seat=2 hand=2", "uno seat=2", "play 5", "catch seat=2"])
    assert error(p) == "too-late"


def test_D_UNO_the_next_players_press_closes_the_window():
    p = play("classic", ["set seat=2 hand=2", "play 5", "press", "catch seat=2"])
    assert error(p) == "too-late"


def test_D_LAST_the_last_card_ends_the_round():
    p = play("classic", ["set seat=2 hand=1", "play 5 last"])
    assert p.events(-2, "round-over") == [{"event": "round-over", "winner": 2}]


def test_D_LAST_last_on_a_bigger_hand_is_refused():
    p = play("classic", ["play 5 last"])
    assert error(p) == "bad-argument"


def test_D_GIVE_gives_cards_without_changing_the_turn():
    p = play("classic", ["give seat=4 cards=3", "press"])
    assert p.hands["4"] == 10 and p.game["current"] == 2


def test_D_PEN_penalty_is_refused_in_the_exact_variants():
    p = play("flip", ["penalty advice seat=2"])
    assert error(p) == "bad-argument"


def test_D_SCORE_all_wild_refuses_lowest_scoring():
    out = run_console(["game new players=3 variant=all-wild scoring=lowest"])
    assert out[0]["error"] == "bad-argument"


# --- classic ------------------------------------------------------------------------------------------

def test_CL_NUM_a_zero_is_a_plain_play():
    p = play("classic", ["play 0"])
    assert p.game["current"] == 3


def test_CL_D2_the_next_takes_two_and_loses_the_turn():
    p = play("classic", ["play draw-two"])
    assert p.game["owed"]["seat"] == 3 and p.game["owed"]["cards"] == 2 and p.game["current"] == 4


def test_CL_REV_the_direction_flips():
    p = play("classic", ["play reverse"])
    assert p.game["direction"] == "ccw" and p.game["current"] == 1


def test_CL_SKIP_the_next_loses_the_turn():
    p = play("classic", ["play skip"])
    assert p.game["current"] == 4


def test_CL_WILD_an_ordinary_play():
    p = play("classic", ["play wild"])
    assert p.game["current"] == 3 and p.game["owed"] is None


def test_CL_W4_the_next_owes_four_and_may_challenge():
    p = play("classic", ["play wild-draw-four"])
    assert p.game["challenge"] == {"seat": 3, "by": 2, "card": "wild-draw-four"}
    assert p.events(-2, "owed") == [{"event": "owed", "seat": 3, "presses": 1, "reason": "wild-draw-four",
                                      "cards": 4}]


def test_CL_SHUF_the_hands_event_reports_the_redeal():
    p = play("classic", ["set seat=3 hand=2", "play wild-shuffle"])
    assert p.events(-2, "hands") == [{"event": "hands", "hands": {"1": 5, "2": 5, "3": 6, "4": 6},
                                       "reason": "wild-shuffle"}]


def test_CL_BLANK_plays_as_a_wild():
    p = play("classic", ["play blank"])
    assert p.game["current"] == 3


def test_CL_CHAL_upheld_the_cards_player_is_shot_four():
    p = play("classic", ["play wild-draw-four", "challenge seat=3 result=upheld", "press"])
    assert p.events(-2, "shot")[0]["seat"] == 2 and p.hands["2"] == 10 and p.game["current"] == 3


def test_CL_CHAL_rejected_the_victim_is_shot_six():
    p = play("classic", ["play wild-draw-four", "challenge seat=3 result=rejected", "press"])
    assert p.events(-2, "shot")[0]["planned"] == 6 and p.hands["3"] == 13


def test_CL_CHAL_after_the_first_card_it_is_too_late():
    p = play("classic", ["play wild-draw-four", "press", "challenge seat=3 result=rejected"])
    assert error(p) == "too-late"


def test_CL_2P_reverse_lets_the_same_player_play_again():
    p = play("classic", ["play reverse"], players=2)
    assert p.game["current"] == 2


def test_CL_FIRST_start_apply_a_first_draw_two_owes_two_to_the_dealers_left():
    p = play("classic", [], first="draw-two", new="start=apply")
    assert p.game["owed"]["reason"] == "start" and p.game["owed"]["cards"] == 2 and p.game["current"] == 3


def test_CL_FIRST_redraw_is_the_default():
    p = play("classic", ["first draw-two"], first=None)
    assert p.game["start"] == "redraw" and p.game["phase"] == "first"


def test_CL_UNO_the_configured_penalty_is_shot():
    p = play("classic", ["set seat=2 hand=2", "play 5", "catch seat=2", "press"], rules={"uno_penalty": 4})
    assert p.events(-2, "shot")[0]["planned"] == 4


def test_CL_SCORE_the_winner_scores_the_classic_points():
    p = play("classic", ["set seat=2 hand=1", "play 5 last", "hand seat=3 cards=9,draw-two",
                         "hand seat=4 cards=wild", "hand seat=1 cards=0"])
    assert p.events(-2, "round-scored")[0]["points"] == 9 + 20 + 50


# --- All Wild -----------------------------------------------------------------------------------------

def test_AW_WILD_does_nothing():
    p = play("all-wild", ["play wild"])
    assert p.game["current"] == 3 and p.game["owed"] is None


def test_AW_REV_the_direction_flips():
    p = play("all-wild", ["play reverse"])
    assert p.game["direction"] == "ccw"


def test_AW_SKIP_the_next_loses_the_turn():
    p = play("all-wild", ["play skip"])
    assert p.game["current"] == 4


def test_AW_SKIP2_the_next_two_lose_the_turn():
    p = play("all-wild", ["play skip-two"])
    assert p.game["current"] == 1


def test_AW_D2_the_next_is_shot_two():
    p = play("all-wild", ["play draw-two", "press"])
    assert p.events(-2, "shot")[0] == {"event": "shot", "seat": 3, "planned": 2, "ejected": 2,
                                       "reason": "draw-two"}


def test_AW_D4_no_challenge():
    p = play("all-wild", ["play draw-four", "challenge seat=3 result=upheld"])
    assert error(p) == "bad-argument"


def test_AW_TD2_the_target_is_shot_two_and_keeps_its_turn():
    p = play("all-wild", ["play targeted-draw-two target=4", "press"])
    assert p.events(-2, "shot")[0]["seat"] == 4 and p.game["current"] == 3


def test_AW_SWAP_hand_counts_swap():
    p = play("all-wild", ["set seat=4 hand=2", "play forced-swap target=4"])
    assert p.events(-2, "hands")[0]["hands"] == {"1": 7, "2": 2, "3": 7, "4": 6}


def test_AW_ANY_the_wild_prefix_may_be_typed():
    p = play("all-wild", ["play wild-skip"])
    assert p.game["current"] == 4


def test_AW_FIRST_play_starts_after_the_deal_without_a_first_card():
    p = play("all-wild", ["first wild"])
    assert error(p) == "bad-argument" and p.game["first"] is None and p.game["current"] == 2


def test_AW_LAST_a_last_forced_swap_wins_unswapped():
    p = play("all-wild", ["set seat=2 hand=1", "play forced-swap target=3 last"])
    assert p.events(-2, "hands") == [] and p.game["phase"] == "scoring"


def test_AW_2P_skip_two_with_two_players_acts_as_skip():
    p = play("all-wild", ["play skip-two"], players=2)
    assert p.game["current"] == 2


def test_AW_SCORE_twenty_and_fifty():
    p = play("all-wild", ["set seat=2 hand=1", "play wild last", "hand seat=3 cards=wild,reverse",
                          "hand seat=4 cards=wild", "hand seat=1 cards=skip"])
    assert p.events(-2, "round-scored")[0]["points"] == 20 + 50 + 20 + 50


# --- Flip ---------------------------------------------------------------------------------------------

def test_FL_NUM_no_zero():
    p = play("flip", ["play 0"])
    assert error(p) == "bad-argument"


def test_FL_D1_the_next_is_shot_one():
    p = play("flip", ["play draw-one", "press"])
    assert p.events(-2, "shot")[0]["planned"] == 1 and p.game["current"] == 4


def test_FL_REV_the_direction_flips():
    p = play("flip", ["play reverse"])
    assert p.game["direction"] == "ccw"


def test_FL_SKIP_the_next_loses_the_turn():
    p = play("flip", ["play skip"])
    assert p.game["current"] == 4


def test_FL_FLIP_the_side_event():
    p = play("flip", ["play flip"])
    assert p.events(-2, "side") == [{"event": "side", "side": "dark"}] and p.game["side"] == "dark"


def test_FL_WILD_an_ordinary_play():
    p = play("flip", ["play wild"])
    assert p.game["current"] == 3


def test_FL_WD2_challengeable_draw_two():
    p = play("flip", ["play wild-draw-two"])
    assert p.game["owed"]["cards"] == 2 and p.game["challenge"]["card"] == "wild-draw-two"


def test_FL_D5_the_next_is_shot_five_on_the_dark_side():
    p = play("flip", ["play flip", "play draw-five", "press"])
    assert p.events(-2, "shot")[0]["planned"] == 5


def test_FL_SKIPALL_the_player_plays_again():
    p = play("flip", ["set side=dark", "play skip-everyone"])
    assert p.game["current"] == 2


def test_FL_WDC_one_card_per_press_until_colour_found():
    p = play("flip", ["set side=dark", "play wild-draw-colour", "press", "press", "colour-found"])
    assert p.hands["3"] == 9 and p.game["owed"] is None and p.game["current"] == 4


def test_FL_WDC_a_last_draw_colour_ends_the_round_at_colour_found():
    p = play("flip", ["set side=dark seat=2 hand=1", "play wild-draw-colour last", "press", "colour-found"])
    assert p.events(-2, "round-over") == [{"event": "round-over", "winner": 2}]


def test_FL_WDC_colour_found_with_nothing_open_is_wrong_phase():
    p = play("flip", ["colour-found"])
    assert error(p) == "wrong-phase"


def test_FL_SIDE_a_dark_card_on_the_light_side_is_refused():
    p = play("flip", ["play skip-everyone"])
    assert error(p) == "bad-argument"


def test_FL_CHAL_rejected_wild_draw_colour_adds_two_more():
    p = play("flip", ["set side=dark", "play wild-draw-colour", "challenge seat=3 result=rejected",
                      "press", "colour-found", "press"])
    assert p.events(-2, "shot")[0]["planned"] == 2 and p.hands["3"] == 10


def test_FL_CHAL_upheld_wild_draw_two_shoots_the_cards_player():
    p = play("flip", ["play wild-draw-two", "challenge seat=3 result=upheld", "press"])
    assert p.events(-2, "shot")[0]["seat"] == 2 and p.game["current"] == 3


def test_FL_FIRST_a_first_skip_lets_the_second_seat_left_start():
    p = play("flip", [], first="skip")
    assert p.game["current"] == 3


def test_FL_FIRST_a_first_wild_draw_two_is_void():
    p = play("flip", ["first wild-draw-two"], first=None)
    assert p.game["phase"] == "first" and p.events(-2, "shot")[0]["reason"] == "first"


def test_FL_2P_skip_everyone_with_two_players():
    p = play("flip", ["set side=dark", "play skip-everyone"], players=2)
    assert p.game["current"] == 2


def test_FL_SCORE_the_dark_side_counts_after_a_last_flip():
    p = play("flip", ["set seat=2 hand=1", "play flip last", "hand seat=3 cards=draw-five",
                      "hand seat=4 cards=wild-draw-colour", "hand seat=1 cards=skip-everyone"])
    assert p.events(-2, "round-scored")[0]["points"] == 20 + 60 + 30


@pytest.mark.parametrize("line", ["first 5", "draw", "pass", "give seat=2 cards=2", "challenge seat=2 result=upheld",
                                  "colour-found"])
def test_extreme_refuses_the_exact_commands(line):
    replies = [o for o in run_console(["game new players=3", "round start first=5", line]) if "reply" in o]
    assert replies[-1]["ok"] is False and replies[-1]["error"] in ("bad-argument", "wrong-phase")


def test_D_SENSOR_a_saved_exact_game_is_resumed_with_the_sensor_and_kept_aside_without_it(tmp_path):
    run_console(["game new players=3 variant=classic", "round start"], state_dir=tmp_path)
    out = run_console(["status"], state_dir=tmp_path)
    assert [o for o in out if "reply" in o][-1]["game"]["hands"] == {"1": 7, "2": 7, "3": 7}
    out = run_console(["status"], state_dir=tmp_path, exit_sensor=False)
    assert [o for o in out if "reply" in o][-1]["game"] is None
    assert [p.name for p in tmp_path.glob("game.json.bad-*")]
