"""Turn rules of the table engine: S-*, T-*, C-*, C-2P-*, F-*, P-*, E-* (docs/rules.md).

Seats are 1..N clockwise; with the default dealer (seat 1) seat 2 starts.
"""

import pathlib
import random
import re

import pytest

import shooter.table
from shooter.errors import CommandError
from shooter.table import CARDS, RuleOptions, Table
from shooter.table.turns import TurnRules


def new_table(players=4, first="5", options=None, **game):
    t = Table(options=options or RuleOptions(), rng=random.Random(7))
    t.new_game(players, **game)
    if first is not None:
        t.start_round(first)
    return t


@pytest.fixture
def four():
    """Four seats, seat 1 deals, a number turned up: seat 2 to play."""
    return new_table(4)


@pytest.fixture
def two():
    """Two seats, seat 1 deals, a number turned up: seat 2 to play."""
    return new_table(2)


def refused(call, code):
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == code, info.value.message
    return info.value.message


def presses(t, n):
    events = []
    for _ in range(n):
        events += t.press()
    return events


# --- every rule id has a test ----------------------------------------------------

RULE_IDS = (
    "S-SEATS S-DEALER S-AIM T-PLAY T-PRESS T-EXACT T-STUCK C-NUM C-HIT2 C-REV C-SKIP C-DALL C-WILD C-XHIT C-HIT4 "
    "C-BLANK C-2P-REV C-2P-SKIP C-2P-HIT F-REV F-SKIP F-HIT F-DALL F-WILD F-XHIT F-NUM P-UNO P-ADVICE P-WRONG "
    "E-OUT E-XHIT E-HIT E-REFILL G-WIN G-LOW G-ELIM G-DEALER"
).split()


def test_every_rule_id_is_named_by_a_table_test():
    names = set()
    for path in pathlib.Path(__file__).parent.glob("test_table_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    missing = [rid for rid in RULE_IDS if not any(f"test_{rid.replace('-', '_')}_" in n for n in names)]
    assert missing == []


def test_every_rule_id_lives_in_one_place_in_the_engine():
    engine = pathlib.Path(shooter.table.__file__).parent
    text = "\n".join(path.read_text() for path in sorted(engine.glob("*.py")))
    counts = {rid: len(re.findall(rf"(?<![A-Z0-9-]){rid}(?![A-Z0-9-])", text)) for rid in RULE_IDS}
    assert {rid: n for rid, n in counts.items() if n != 1} == {}


def test_CARDS_table_matches_the_seed_deck_of_112_cards():
    for edition in ("2016", "2010"):
        assert sum(c.count(edition) for c in CARDS.values()) == 112
    assert CARDS["reverse"].count("2010") == 8 and CARDS["hit4"].count("2010") == 0


def test_every_card_has_a_first_card_rule_and_every_effect_a_play_rule():
    # the first card's rule is keyed by the effect (the record's), so every card of every Extreme deck has one
    assert {card.effect for card in CARDS.values()} <= set(TurnRules.FIRST_CARD)
    assert set(TurnRules.PLAY_EFFECT) == {card.effect for card in CARDS.values()}


# --- S-* seats and turn order ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 10])
def test_S_SEATS_two_to_ten_players_start_a_game(players):
    t = new_table(players, first=None)
    assert t.status()["players"] == players
    assert t.status()["totals"] == {str(s): 0 for s in range(1, players + 1)}


@pytest.mark.parametrize("players", [1, 11, 0, "x", True])
def test_S_SEATS_other_player_counts_are_bad_arguments(players):
    refused(lambda: Table().new_game(players), "bad-argument")


def test_S_SEATS_play_goes_clockwise_through_seats_1_to_N(four):
    seen = [four.status()["current"]]
    for _ in range(4):
        four.play("number")
        seen.append(four.status()["current"])
    assert seen == [2, 3, 4, 1, 2]


def test_S_DEALER_player_left_of_the_dealer_starts():
    t = new_table(5, dealer=5)
    assert t.status()["current"] == 1 and t.status()["dealer"] == 5


def test_S_DEALER_default_dealer_is_seat_1_so_seat_2_starts(four):
    assert (four.status()["dealer"], four.status()["current"]) == (1, 2)


def test_S_DEALER_round_start_can_name_the_dealer():
    t = new_table(4, first=None)
    assert t.start_round("5", dealer=3) == [{"event": "turn", "seat": 4, "direction": "cw"}]
    assert t.status()["dealer"] == 3


def test_S_AIM_points_at_the_current_player_when_nothing_is_owed(four):
    four.play("7")
    assert four.aim_seat == 3 == four.status()["current"]


def test_S_AIM_points_at_the_receiving_seat_while_presses_are_owed(four):
    four.play("extreme-hit", target=4)
    assert four.aim_seat == 4 and four.status()["current"] == 3
    presses(four, 2)
    assert four.aim_seat == 3


def test_S_AIM_is_none_without_a_game_or_a_round():
    t = Table()
    assert t.aim_seat is None
    t.new_game(3)
    assert t.aim_seat is None


# --- T-* a turn ----------------------------------------------------------------


def test_T_PLAY_the_current_player_plays_and_the_turn_passes(four):
    assert four.play("5", seat=2) == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_T_PLAY_another_seat_asserting_the_play_is_not_your_turn(four):
    message = refused(lambda: four.play("5", seat=3), "not-your-turn")
    assert "seat 2" in message


def test_T_PLAY_no_play_while_presses_are_owed(four):
    four.play("hit2")
    refused(lambda: four.play("5"), "presses-owed")


def test_T_PRESS_a_press_with_nothing_owed_is_the_current_players_draw_and_ends_the_turn(four):
    assert four.press_owner() == (2, "draw")
    assert four.press() == [{"event": "turn", "seat": 3, "direction": "cw"}]
    assert four.press_owner() == (3, "draw")


def test_T_PRESS_press_without_a_game_returns_no_events():
    t = Table()
    assert t.press() == [] and t.press_owner() == (None, "draw")
    t.new_game(3)
    assert t.press() == [] and t.status()["current"] is None


def test_T_EXACT_a_hit2_owes_exactly_two_presses_then_the_next_press_is_a_draw(four):
    four.play("hit2")
    assert four.press_owner() == (3, "hit2")
    presses(four, 1)
    assert four.press_owner() == (3, "hit2")
    presses(four, 1)
    assert four.press_owner() == (4, "draw")


def test_T_EXACT_owed_events_count_down_to_zero_then_turn(four):
    four.play("hit2")
    assert presses(four, 2) == [
        {"event": "owed", "seat": 3, "presses": 1, "reason": "hit2"},
        {"event": "owed", "seat": 3, "presses": 0, "reason": "hit2"},
        {"event": "turn", "seat": 4, "direction": "cw"},
    ]


def test_T_STUCK_a_served_press_settles_itself_and_owes_nothing_more(four):
    four.play("hit2")
    presses(four, 2)  # whatever came out or stuck, it was the victim's
    assert four.status()["queue"] == [] and four.press_owner() == (4, "draw")


# --- C-* cards -------------------------------------------------------------------


@pytest.mark.parametrize("card", ["number", "7", "Number", " 9 "])
def test_C_NUM_number_card_passes_the_turn(four, card):
    assert four.play(card) == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_C_NUM_unknown_card_is_a_bad_argument(four):
    refused(lambda: four.play("0"), "bad-argument")
    refused(lambda: four.play("draw4"), "bad-argument")


def test_C_HIT2_next_player_owes_two_presses_and_loses_the_turn(four):
    assert four.play("hit2") == [{"event": "owed", "seat": 3, "presses": 2, "reason": "hit2"}]
    assert four.status()["current"] == 4


def test_C_HIT2_no_passing_on_the_victim_cannot_answer_with_a_hit2(four):
    four.play("hit2")
    refused(lambda: four.play("hit2", seat=3), "not-your-turn")
    refused(lambda: four.play("hit2"), "presses-owed")


def test_C_HIT4_next_player_owes_four_presses(four):
    assert four.play("HIT4") == [{"event": "owed", "seat": 3, "presses": 4, "reason": "hit4"}]
    presses(four, 3)
    assert four.press_owner() == (3, "hit4")


def test_C_HIT4_is_not_in_the_2010_edition():
    t = new_table(4, edition="2010")
    refused(lambda: t.play("hit4"), "bad-argument")


def test_C_REV_flips_direction_and_the_seat_before_plays(four):
    assert four.play("reverse") == [{"event": "turn", "seat": 1, "direction": "ccw"}]
    four.play("5")
    assert four.status()["current"] == 4


def test_C_SKIP_next_player_loses_the_turn(four):
    assert four.play("skip") == [{"event": "turn", "seat": 4, "direction": "cw"}]


def test_C_DALL_discard_all_is_a_normal_play(four):
    assert four.play("discard-all") == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_C_WILD_wild_is_a_normal_play(four):
    assert four.play("wild") == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_C_XHIT_card_player_presses_twice_at_the_target(four):
    assert four.play("extreme-hit", target=4) == [{"event": "owed", "seat": 4, "presses": 2, "reason": "extreme-hit"}]
    assert four.status()["owed"] == {"seat": 4, "presses": 2, "reason": "extreme-hit", "by": 2}
    assert four.press_owner() == (4, "extreme-hit")


def test_C_XHIT_play_continues_after_the_card_player_and_the_target_keeps_the_turn(four):
    four.play("extreme-hit", target=3)
    assert presses(four, 2)[-1] == {"event": "turn", "seat": 3, "direction": "cw"}


@pytest.mark.parametrize("target", [None, 2])
def test_C_XHIT_needs_a_target_other_than_the_player(four, target):
    refused(lambda: four.play("extreme-hit", target=target), "bad-argument")


def test_C_XHIT_target_only_goes_with_an_extreme_hit(four):
    refused(lambda: four.play("wild", target=3), "bad-argument")
    refused(lambda: four.play("extreme-hit", target=5), "bad-argument")


def test_C_BLANK_is_a_wild_by_default(four):
    assert four.play("blank") == [{"event": "turn", "seat": 3, "direction": "cw"}]


def test_C_BLANK_acts_as_the_configured_card():
    t = new_table(4, options=RuleOptions(blank_as="hit2"))
    assert t.play("blank") == [{"event": "owed", "seat": 3, "presses": 2, "reason": "hit2"}]


def test_C_BLANK_is_not_in_the_2010_edition():
    t = new_table(4, edition="2010")
    refused(lambda: t.play("blank"), "bad-argument")


# --- C-2P-* two players ---------------------------------------------------------------


def test_C_2P_REV_reverse_acts_as_skip(two):
    assert two.play("reverse") == [{"event": "turn", "seat": 2, "direction": "ccw"}]


def test_C_2P_SKIP_same_player_plays_again(two):
    assert two.play("skip") == [{"event": "turn", "seat": 2, "direction": "cw"}]


@pytest.mark.parametrize("card,n", [("hit2", 2), ("hit4", 4)])
def test_C_2P_HIT_opponent_presses_then_the_card_player_is_up_again(two, card, n):
    two.play(card)
    assert two.press_owner() == (1, card)
    assert presses(two, n)[-1] == {"event": "turn", "seat": 2, "direction": "cw"}


# --- F-* the first card ---------------------------------------------------------------


def test_F_REV_dealer_starts_and_play_goes_counter_clockwise():
    t = new_table(4, first=None, dealer=2)
    assert t.start_round("reverse") == [{"event": "turn", "seat": 2, "direction": "ccw"}]
    t.play("5")
    assert t.status()["current"] == 1


def test_F_REV_with_two_players_the_dealer_starts():
    t = new_table(2, first=None, dealer=1)
    assert t.start_round("reverse")[0]["seat"] == 1


def test_F_SKIP_player_left_of_the_dealer_is_skipped():
    t = new_table(4, first="skip")
    assert t.status()["current"] == 3 and t.status()["queue"] == []


def test_F_SKIP_with_two_players_the_dealer_starts():
    assert new_table(2, first="skip").status()["current"] == 1


@pytest.mark.parametrize("card,n", [("hit2", 2), ("hit4", 4)])
def test_F_HIT_player_left_of_the_dealer_presses_and_is_skipped(card, n):
    t = new_table(4, first=None)
    assert t.start_round(card) == [{"event": "owed", "seat": 2, "presses": n, "reason": "start"}]
    assert presses(t, n)[-1] == {"event": "turn", "seat": 3, "direction": "cw"}


def test_F_HIT_with_two_players_the_dealer_starts_after_the_presses():
    t = new_table(2, first="hit2")
    assert presses(t, 2)[-1]["seat"] == 1


def test_F_DALL_discard_all_is_an_ordinary_first_turn():
    t = new_table(4, first="discard-all")
    assert (t.status()["current"], t.status()["queue"]) == (2, [])


@pytest.mark.parametrize("card", ["wild", "blank"])
def test_F_WILD_wild_or_blank_is_an_ordinary_first_turn(card):
    t = new_table(4, first=card, options=RuleOptions(blank_as="skip"))
    assert (t.status()["current"], t.status()["direction"]) == (2, "cw")


def test_F_NUM_number_is_an_ordinary_first_turn():
    t = new_table(4, first=None)
    assert t.start_round("8") == [{"event": "turn", "seat": 2, "direction": "cw"}]


def test_F_XHIT_is_treated_like_a_wild_by_default():
    t = new_table(4, first="extreme-hit")
    assert (t.status()["current"], t.status()["queue"]) == (2, [])


def test_F_XHIT_can_be_configured_to_act_as_hit2():
    t = new_table(4, first="extreme-hit", options=RuleOptions(first_extreme_hit="hit2"))
    assert t.status()["owed"] == {"seat": 2, "presses": 2, "reason": "start", "by": 2}


# --- P-* penalties --------------------------------------------------------------------


def test_P_UNO_catch_right_after_the_play_owes_two_presses(four):
    four.play("5")
    assert four.catch(2) == [{"event": "owed", "seat": 2, "presses": 2, "reason": "uno"}]
    presses(four, 2)
    assert four.press_owner() == (3, "draw")


def test_P_UNO_calling_uno_makes_the_player_safe(four):
    four.play("5")
    four.uno(2)
    assert "called Uno" in refused(lambda: four.catch(2), "too-late")


def test_P_UNO_calling_uno_while_playing_the_card_makes_the_player_safe(four):
    four.uno(2)
    four.play("5")
    refused(lambda: four.catch(2), "too-late")


def test_P_UNO_window_closes_when_the_next_player_plays(four):
    four.play("5")
    four.play("5")
    refused(lambda: four.catch(2), "too-late")


def test_P_UNO_window_closes_when_the_next_player_presses(four):
    four.play("5")
    four.press()
    refused(lambda: four.catch(2), "too-late")


def test_P_UNO_window_closes_when_the_hit_victim_presses(four):
    four.play("hit2")
    four.press()
    refused(lambda: four.catch(2), "too-late")


def test_P_UNO_catch_before_the_hit_victim_presses_goes_first(four):
    four.play("hit2")
    four.catch(2)
    assert [(o["seat"], o["reason"]) for o in four.status()["queue"]] == [(2, "uno"), (3, "hit2")]


def test_P_UNO_window_stays_open_during_the_card_players_own_extreme_hit_presses(four):
    four.play("extreme-hit", target=4)
    four.press()
    assert four.catch(2) == [{"event": "owed", "seat": 2, "presses": 2, "reason": "uno"}]


def test_P_UNO_only_the_last_player_to_play_can_be_caught(four):
    four.play("5")
    refused(lambda: four.catch(3), "too-late")


def test_P_UNO_a_player_who_went_out_cannot_be_caught(four):
    four.play("extreme-hit", target=3, last=True)
    refused(lambda: four.catch(2), "too-late")


def test_P_UNO_calling_uno_out_of_turn_with_no_open_window_is_too_late(four):
    four.play("5")
    four.play("5")
    refused(lambda: four.uno(2), "too-late")


def test_P_ADVICE_four_presses_at_the_seat_then_play_continues_where_it_was(four):
    four.play("5")
    assert four.penalty("advice", 1) == [{"event": "owed", "seat": 1, "presses": 4, "reason": "advice"}]
    assert four.aim_seat == 1
    assert presses(four, 4)[-1] == {"event": "turn", "seat": 3, "direction": "cw"}


def test_P_ADVICE_penalty_goes_before_owed_hit_presses_by_default(four):
    four.play("hit2")
    four.penalty("advice", 1)
    assert four.press_owner() == (1, "advice")


def test_P_ADVICE_penalty_can_wait_behind_owed_presses():
    t = new_table(4, options=RuleOptions(penalty_queue="back"))
    t.play("hit2")
    assert t.penalty("advice", 1) == []
    assert t.press_owner() == (3, "hit2")


def test_P_ADVICE_only_during_play():
    t = new_table(4, first=None)
    refused(lambda: t.penalty("advice", 1), "wrong-phase")
    refused(lambda: t.penalty("cheating", 1), "bad-argument")


def test_P_WRONG_takes_back_a_reverse_and_the_turn_goes_on_in_the_old_direction(four):
    four.play("reverse")
    assert four.penalty("wrong-card", 2) == [{"event": "owed", "seat": 2, "presses": 2, "reason": "wrong-card"}]
    assert four.status()["direction"] == "cw"
    assert presses(four, 2)[-1] == {"event": "turn", "seat": 3, "direction": "cw"}


def test_P_WRONG_takes_back_the_hit_presses_the_card_caused(four):
    four.play("hit2")
    four.penalty("wrong-card", 2)
    assert [(o["seat"], o["reason"]) for o in four.status()["queue"]] == [(2, "wrong-card")]


def test_P_WRONG_takes_back_a_last_card_and_the_round_goes_on(four):
    four.play("5", last=True)
    assert four.status()["phase"] == "scoring"
    four.penalty("wrong-card", 2)
    assert (four.status()["phase"], four.status()["current"], four.status()["round_winner"]) == ("play", 3, None)


def test_P_WRONG_still_possible_after_the_players_own_uno_call(four):
    four.play("skip")
    four.uno(2)
    four.penalty("wrong-card", 2)
    assert (four.status()["current"], four.status()["uno_window"]) == (3, None)


def test_P_WRONG_closes_the_catch_window_of_the_player_before(four):
    four.play("5")
    four.play("5")
    four.penalty("wrong-card", 3)
    refused(lambda: four.catch(2), "too-late")


def test_P_WRONG_too_late_after_a_hand_report(four):
    four.play("5", last=True)
    four.score(1, 10)
    refused(lambda: four.penalty("wrong-card", 2), "too-late")


def test_P_WRONG_too_late_after_a_press(four):
    four.play("hit2")
    four.press()
    refused(lambda: four.penalty("wrong-card", 2), "too-late")


def test_P_WRONG_too_late_after_another_play_or_for_another_seat(four):
    four.play("5")
    refused(lambda: four.penalty("wrong-card", 3), "too-late")
    four.play("5")
    refused(lambda: four.penalty("wrong-card", 2), "too-late")


# --- E-* end of a round ---------------------------------------------------------------


@pytest.mark.parametrize("card", ["7", "skip", "reverse", "wild", "discard-all"])
def test_E_OUT_last_card_ends_the_round_at_once(four, card):
    assert four.play(card, last=True) == [{"event": "round-over", "winner": 2}]
    status = four.status()
    assert (status["phase"], status["current"], status["round_winner"], status["winner"]) == ("scoring", None, 2, None)


def test_E_XHIT_last_extreme_hit_is_carried_out_before_the_round_ends(four):
    four.play("extreme-hit", target=4, last=True)
    assert four.press() == [{"event": "owed", "seat": 4, "presses": 1, "reason": "extreme-hit"}]
    assert four.press() == [
        {"event": "owed", "seat": 4, "presses": 0, "reason": "extreme-hit"},
        {"event": "round-over", "winner": 2},
    ]


def test_E_HIT_last_hit2_is_still_carried_out_by_default(four):
    four.play("hit2", last=True)
    assert four.status()["phase"] == "play"
    assert presses(four, 2)[-1] == {"event": "round-over", "winner": 2}


def test_E_HIT_last_hit4_can_end_the_round_at_once():
    t = new_table(4, options=RuleOptions(last_hit_counts=False))
    assert t.play("hit4", last=True) == [{"event": "round-over", "winner": 2}]


def test_E_REFILL_the_table_counts_no_cards_so_play_goes_on_past_a_deck_of_presses(four):
    for _ in range(150):  # more presses than the deck has cards
        four.press()
    assert (four.status()["phase"], four.status()["current"]) == ("play", 2 + 150 % 4)


# --- set, wrong phase, no game ----------------------------------------------------------


def test_set_corrects_the_current_seat_and_direction(four):
    assert four.set(current=4, direction="CCW") == [{"event": "turn", "seat": 4, "direction": "ccw"}]
    four.play("5")
    assert four.status()["current"] == 3


def test_set_refuses_bad_values(four):
    refused(lambda: four.set(), "bad-argument")
    refused(lambda: four.set(direction="left"), "bad-argument")
    refused(lambda: four.set(current=9), "bad-argument")


@pytest.mark.parametrize(
    "command",
    [
        lambda t: t.start_round("5"),
        lambda t: t.play("5"),
        lambda t: t.uno(1),
        lambda t: t.catch(1),
        lambda t: t.penalty("advice", 1),
        lambda t: t.hand(1, ["5"]),
        lambda t: t.score(1, 5),
        lambda t: t.undo(),
        lambda t: t.set(current=1),
    ],
)
def test_commands_without_a_game_answer_no_game(command):
    refused(lambda: command(Table()), "no-game")


def test_commands_in_the_wrong_phase_answer_wrong_phase(four):
    refused(lambda: four.start_round("5"), "wrong-phase")
    refused(lambda: four.score(1, 5), "wrong-phase")
    fresh = new_table(3, first=None)
    refused(lambda: fresh.play("5"), "wrong-phase")
    refused(lambda: fresh.set(current=1), "wrong-phase")
