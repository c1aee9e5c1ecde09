"""The exact variants' rules (classic, all-wild, flip) on the table engine, one test per behaviour, named by id.

Tables: ``table(variant)`` is four seats, seat 1 deals, the deal and the first card shot (a ``5`` turned up in
classic and flip): seat 2 plays first, clockwise, every hand holds 7. ``shoot`` plays the exit sensor: it
counts what the due shot planned (or ``ejected`` cards).
"""

from __future__ import annotations

import pathlib
import re

import pytest

import shooter.table
from shooter.errors import CommandError
from shooter.table import RuleOptions, Table
from shooter.table.editions import ALL_WILD, CLASSIC, FLIP_DARK, FLIP_LIGHT
from shooter.table.exact import ExactRules

EDITIONS_IDS = (
    "D-SENSOR D-DEAL D-FIRST D-DRAW D-OWED D-SERVE D-REFILL D-HANDS D-UNO D-LAST D-GIVE D-PEN D-SCORE "
    "CL-NUM CL-D2 CL-REV CL-SKIP CL-WILD CL-W4 CL-SHUF CL-BLANK CL-CHAL CL-2P CL-FIRST CL-UNO CL-SCORE "
    "AW-WILD AW-REV AW-SKIP AW-SKIP2 AW-D2 AW-D4 AW-TD2 AW-SWAP AW-ANY AW-FIRST AW-LAST AW-2P AW-SCORE "
    "FL-NUM FL-D1 FL-REV FL-SKIP FL-FLIP FL-WILD FL-WD2 FL-D5 FL-SKIPALL FL-WDC FL-SIDE FL-CHAL FL-FIRST FL-2P "
    "FL-SCORE").split()


# --- helpers ------------------------------------------------------------------------------------------

def shoot(t: Table, ejected: int | None = None) -> list[dict]:
    """The exit sensor counted the due shot (all it planned, or `ejected` cards)."""
    _seat, _reason, cards = t.due()
    planned = min(cards, 7)
    return t.count_shot(planned, planned if ejected is None else ejected)


def deal(t: Table) -> None:
    while t.dealt_next():
        shoot(t)


def press(t: Table) -> list[dict]:
    """One press, served in full (a long entry in several bursts, as the controller does)."""
    events = t.press()
    head = t.game.head
    events += shoot(t)
    while t.game.head is head and head.cards:
        events += shoot(t)
    return events


def table(variant="classic", players=4, first="5", options=None, **game) -> Table:
    t = Table(options=RuleOptions(**(options or {})))
    t.new_game(players, dealer=1, variant=variant, **game)
    t.start_round()
    deal(t)
    if variant != "all-wild":
        t.first_card(first)
        deal(t)
    return t


def refused(call, code: str) -> str:
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == code, info.value.message
    return info.value.message


def hands(t: Table) -> dict[int, int]:
    return dict(t.game.hands)


def finish_round(t: Table, seat: int) -> None:
    """Seat `seat` is current: set its hand to 1 and let it go out with a number."""
    t.set(seat=seat, hand=1)
    t.play("5" if t.game.variant != "all-wild" else "wild", last=True)


# --- the ids ------------------------------------------------------------------------------------------

def test_every_editions_rule_id_is_named_by_an_engine_test():
    names = set(re.findall(r"^def (test_\w+)", pathlib.Path(__file__).read_text(), re.M))
    missing = [rid for rid in EDITIONS_IDS if not any(f"test_{rid.replace('-', '_')}_" in n for n in names)]
    assert missing == []


def test_every_editions_rule_id_lives_in_one_place_in_the_engine():
    # the engine and the edition records (the decks' rows carry their ids)
    engine = pathlib.Path(shooter.table.__file__).parent
    paths = [*engine.glob("*.py"), *(engine.parent / "editions").glob("*.py")]
    text = "\n".join(path.read_text() for path in sorted(paths))
    counts = {rid: len(re.findall(rf"(?<![A-Z0-9-]){rid}(?![A-Z0-9-])", text)) for rid in EDITIONS_IDS}
    assert {rid: n for rid, n in counts.items() if n != 1} == {}


def test_every_effect_of_the_exact_decks_has_a_play_rule():
    decks = (CLASSIC, ALL_WILD, FLIP_LIGHT, FLIP_DARK)
    assert set(ExactRules.EXACT_EFFECT) == {card.effect for cards in decks for card in cards.values()}


# --- D-* ----------------------------------------------------------------------------------------------

def test_D_SENSOR_an_exact_variant_needs_the_exit_sensor():
    refused(lambda: Table().new_game(3, variant="classic", counting=False), "no-exit-sensor")


def test_D_SENSOR_extreme_plays_without_the_exit_sensor():
    t = Table()
    t.new_game(3, counting=False)
    assert t.status()["variant"] == "extreme"


def test_D_DEAL_seven_cards_to_every_seat_from_the_dealers_left_the_dealer_last_then_the_first_card():
    t = Table()
    t.new_game(3, dealer=2, variant="classic")
    t.start_round()
    order = []
    while t.dealt_next():
        seat, reason, cards = t.due()
        order.append((seat, reason, cards))
        shoot(t)
    assert order == [(3, "deal", 7), (1, "deal", 7), (2, "deal", 7), (2, "first", 1)]
    assert hands(t) == {1: 7, 2: 7, 3: 7} and t.phase == "first"


def test_D_DEAL_the_deal_event_reports_all_hands():
    t = Table()
    t.new_game(2, dealer=1, variant="flip")
    t.start_round()
    events = []
    while t.dealt_next():
        events += shoot(t)
    assert {"event": "deal", "dealer": 1, "hand": 7, "hands": {"1": 7, "2": 7}} in events


def test_D_DEAL_a_deck_too_small_for_the_deal_is_refused():
    t = Table()
    t.new_game(4, variant="classic")
    refused(lambda: t.start_round(cards=28), "bad-argument")


def test_D_FIRST_the_reported_card_is_game_first_and_play_starts():
    t = table("classic", first="5")
    assert t.status()["first"] == "number" and t.phase == "play" and t.game.current == 2


@pytest.mark.parametrize("void", ["skip", "wild"])
def test_D_FIRST_a_void_card_gets_one_more_card_to_the_dealer(void):
    # CL-FIRST: the void first card's queue entry is the one card, owed to the dealer
    t = Table()
    t.new_game(4, dealer=1, variant="classic")
    t.start_round()
    deal(t)
    t.first_card(void)
    assert [(o.seat, o.reason, o.cards) for o in t.game.queue] == [(1, "first", 1)]
    assert t.phase == "first" and t.due() == (1, "first", 1)


def test_D_DRAW_a_press_with_nothing_owed_draws_one_card_and_the_turn_goes_on():
    t = table()
    press(t)
    assert hands(t)[2] == 8 and t.game.current == 2 and t.game.drawn == 2


def test_D_DRAW_only_one_draw_per_turn():
    t = table()
    press(t)
    refused(t.press, "already-drawn")


def test_D_DRAW_no_pass_without_a_draw():
    t = table()
    refused(t.pass_turn, "must-draw")


def test_D_DRAW_pass_after_a_draw_ends_the_turn():
    t = table()
    press(t)
    t.pass_turn()
    assert t.game.current == 3 and t.game.drawn is None


def test_D_DRAW_a_draw_sends_no_turn_event():
    t = table()
    events = press(t)
    assert not any(e["event"] == "turn" for e in events)


def test_D_OWED_nobody_plays_while_cards_are_owed():
    t = table()
    t.play("draw-two")
    refused(lambda: t.play("5"), "presses-owed")


def test_D_OWED_one_press_serves_the_whole_entry():
    t = table()
    t.play("wild-draw-four")
    assert t.due() == (3, "wild-draw-four", 4)
    press(t)
    assert hands(t)[3] == 11 and not t.game.queue


def test_D_SERVE_a_short_shot_leaves_the_rest_owed_at_the_head():
    t = table()
    t.play("wild-draw-four")
    t.press()
    shoot(t, ejected=1)
    assert t.due() == (3, "wild-draw-four", 3) and hands(t)[3] == 8


def test_D_SERVE_surplus_cards_are_laid_aside():
    t = table()
    t.play("draw-two")
    t.press()
    shoot(t, ejected=5)
    assert hands(t)[3] == 9 and not t.game.queue


def test_D_SERVE_a_long_entry_is_shot_in_bursts_of_seven():
    t = table()
    t.give(3, 12)
    t.press()
    shoot(t)
    assert t.due() == (3, "give", 5)


def test_D_REFILL_an_empty_shot_leaves_the_rest_for_the_press_after_the_refill():
    t = table()
    t.play("draw-two")
    t.press()
    shoot(t, ejected=0)  # the magazine ran empty
    assert t.due() == (3, "draw-two", 2)
    press(t)  # after `magazine cards=N`
    assert hands(t)[3] == 9


def test_D_HANDS_a_play_takes_one_card_off_the_hand():
    t = table()
    t.play("5")
    assert hands(t)[2] == 6


def test_D_HANDS_set_corrects_one_hand_count():
    t = table()
    t.set(seat=3, hand=4)
    assert hands(t)[3] == 4 and t.status()["uno_windows"] == []


def test_D_HANDS_a_reported_hand_replaces_the_count():
    t = table()
    finish_round(t, 2)
    t.hand(3, ["5", "7"])
    assert hands(t)[3] == 2


def test_D_UNO_a_hand_becoming_one_opens_a_window_and_catch_costs_two():
    t = table()
    t.set(seat=2, hand=2)
    t.play("5")
    assert t.status()["uno_windows"] == [{"seat": 2, "called": False}]
    t.catch(2)
    assert t.due() == (2, "uno", 2)


def test_D_UNO_the_window_closes_at_the_next_play():
    t = table()
    t.set(seat=2, hand=2)
    t.play("5")
    t.play("6")
    refused(lambda: t.catch(2), "too-late")


def test_D_UNO_the_window_closes_when_the_next_player_presses():
    t = table()
    t.set(seat=2, hand=2)
    t.play("5")
    t.press()
    refused(lambda: t.catch(2), "too-late")


def test_D_UNO_the_current_player_with_two_cards_may_call_ahead():
    t = table()
    t.set(seat=2, hand=2)
    t.uno(2)
    t.play("5")
    refused(lambda: t.catch(2), "too-late")


def test_D_UNO_a_call_after_the_play_marks_the_window_called():
    t = table()
    t.set(seat=2, hand=2)
    t.play("5")
    t.uno(2)
    assert t.status()["uno_windows"] == [{"seat": 2, "called": True}]
    assert t.status()["uno_window"] == {"seat": 2, "called": True}
    refused(lambda: t.catch(2), "too-late")


def test_D_UNO_a_call_or_a_catch_moves_only_the_named_seats_window():
    t = table()
    for seat, held in ((1, 2), (2, 2), (3, 2), (4, 1)):
        t.set(seat=seat, hand=held)
    t.play("wild-shuffle")  # 6 cards dealt one by one from seat 3: seats 1 and 2 are left with one each
    assert hands(t) == {1: 1, 2: 1, 3: 2, 4: 2}
    assert t.status()["uno_windows"] == [{"seat": 1, "called": False}, {"seat": 2, "called": False}]
    t.uno(1)
    assert t.status()["uno_windows"] == [{"seat": 1, "called": True}, {"seat": 2, "called": False}]
    t.catch(2)
    assert t.status()["uno_windows"] == [{"seat": 1, "called": True}]
    assert t.status()["uno_window"] == {"seat": 1, "called": True}
    refused(lambda: t.catch(2), "too-late")  # caught once: its window is used up
    refused(lambda: t.catch(1), "too-late")


def test_D_UNO_a_seat_with_many_cards_has_nothing_to_call():
    t = table()
    refused(lambda: t.uno(3), "bad-argument")


def test_D_LAST_a_last_card_ends_the_round():
    t = table()
    finish_round(t, 2)
    assert t.phase == "scoring" and t.game.round_winner == 2


def test_D_LAST_a_last_draw_card_is_served_before_the_round_ends():
    t = table()
    t.set(seat=2, hand=1)
    t.play("draw-two", last=True)
    assert t.phase == "play"
    press(t)
    assert t.phase == "scoring" and hands(t)[3] == 9


def test_D_LAST_a_last_wild_draw_card_cannot_be_upheld():
    t = table()
    t.set(seat=2, hand=1)
    t.play("wild-draw-four", last=True)
    refused(lambda: t.challenge(3, "upheld"), "bad-argument")


def test_D_LAST_last_on_a_hand_of_more_than_one_is_refused():
    t = table()
    refused(lambda: t.play("5", last=True), "bad-argument")


def test_D_GIVE_cards_are_owed_like_a_penalty_and_turns_stay():
    t = table()
    t.give(4, 3)
    assert t.due() == (4, "give", 3) and t.game.current == 2
    press(t)
    assert hands(t)[4] == 10 and t.game.current == 2


def test_D_PEN_the_extreme_penalties_are_refused():
    t = table()
    refused(lambda: t.penalty("advice", 2), "bad-argument")


SCORED = {"extreme": ("winner", "lowest", "elimination"), "classic": ("winner", "lowest"),
          "flip": ("winner", "lowest"), "all-wild": ("winner",)}


@pytest.mark.parametrize("variant, scoring", [(v, s) for v in SCORED for s in ("winner", "lowest", "elimination")])
def test_D_SCORE_the_scorings_each_variant_allows(variant, scoring):
    t = Table()
    if scoring in SCORED[variant]:
        t.new_game(3, variant=variant, scoring=scoring)
    else:
        refused(lambda: t.new_game(3, variant=variant, scoring=scoring), "bad-argument")


# --- classic ------------------------------------------------------------------------------------------

def test_CL_NUM_zeros_and_digits_are_plain_cards():
    t = table()
    t.play("0")
    assert t.game.current == 3 and CLASSIC["number"].count == 76


def test_CL_D2_the_next_takes_two_and_loses_the_turn():
    t = table()
    t.play("draw-two")
    assert t.due() == (3, "draw-two", 2) and t.game.current == 4


def test_CL_REV_the_direction_flips():
    t = table()
    t.play("reverse")
    assert t.game.direction == "ccw" and t.game.current == 1


def test_CL_SKIP_the_next_loses_the_turn():
    t = table()
    t.play("skip")
    assert t.game.current == 4


def test_CL_WILD_is_an_ordinary_play_worth_fifty():
    t = table()
    t.play("wild")
    assert t.game.current == 3 and CLASSIC["wild"].points == 50


def test_CL_W4_the_next_takes_four_loses_the_turn_and_may_challenge():
    t = table()
    t.play("wild-draw-four")
    assert t.due() == (3, "wild-draw-four", 4) and t.game.current == 4
    assert t.status()["challenge"] == {"seat": 3, "by": 2, "card": "wild-draw-four"}


def test_CL_SHUF_hands_are_pooled_and_dealt_from_the_players_left():
    t = table()
    t.set(seat=3, hand=2)
    t.play("wild-shuffle")  # seat 2 keeps 6; pool 6 + 2 + 7 + 7 = 22
    assert hands(t) == {3: 6, 4: 6, 1: 5, 2: 5} and t.game.current == 3


def test_CL_SHUF_as_last_card_there_is_no_redeal():
    t = table()
    t.set(seat=2, hand=1)
    t.play("wild-shuffle", last=True)
    assert t.phase == "scoring" and hands(t)[2] == 0


def test_CL_BLANK_plays_as_a_wild():
    t = table()
    t.play("blank")
    assert t.game.current == 3 and not t.game.queue


def test_CL_CHAL_upheld_the_cards_player_takes_four_and_the_victim_plays():
    t = table()
    t.play("wild-draw-four")
    t.challenge(3, "upheld")
    assert t.due() == (2, "challenge", 4)
    press(t)
    assert t.game.current == 3 and hands(t)[2] == 10


def test_CL_CHAL_rejected_the_victim_takes_six_and_loses_the_turn():
    t = table()
    t.play("wild-draw-four")
    t.challenge(3, "rejected")
    assert t.due() == (3, "wild-draw-four", 6) and t.game.current == 4


def test_CL_CHAL_too_late_once_the_victim_pressed():
    t = table()
    t.play("wild-draw-four")
    t.press()
    refused(lambda: t.challenge(3, "rejected"), "too-late")


def test_CL_CHAL_only_the_victim_may_challenge():
    t = table()
    t.play("wild-draw-four")
    refused(lambda: t.challenge(4, "rejected"), "not-your-turn")


def test_CL_2P_a_reverse_acts_as_a_skip():
    t = table(players=2)
    t.play("reverse")
    assert t.game.current == 2


def test_CL_2P_after_a_draw_two_the_cards_player_goes_again():
    t = table(players=2)
    t.play("draw-two")
    press(t)
    assert t.game.current == 2


def test_CL_FIRST_redraw_voids_a_black_card():
    t = Table()
    t.new_game(3, dealer=1, variant="classic")
    t.start_round()
    deal(t)
    t.first_card("wild")
    assert t.phase == "first"


def test_CL_FIRST_apply_a_first_draw_two_makes_the_dealers_left_owe_and_skips_it():
    t = table(first="draw-two", start="apply")
    assert t.due() == (2, "start", 2) and t.game.current == 3


def test_CL_FIRST_apply_a_first_reverse_lets_the_dealer_start_counter_clockwise():
    t = table(first="reverse", start="apply")
    assert t.game.current == 1 and t.game.direction == "ccw"


def test_CL_UNO_a_caught_uno_costs_the_configured_penalty():
    t = table(options={"uno_penalty": 4})
    t.set(seat=2, hand=2)
    t.play("5")
    t.catch(2)
    assert t.due() == (2, "uno", 4)


def test_CL_SCORE_hands_count_classic_points():
    t = table()
    finish_round(t, 2)
    for seat, cards in ((3, ["0", "9", "draw-two"]), (4, ["wild-shuffle"])):
        t.hand(seat, cards)
    t.hand(1, ["blank"])
    assert t.game.totals[2] == 0 + 9 + 20 + 50 + 50


def test_CL_SCORE_a_hand_with_more_copies_than_the_deck_is_refused():
    t = table()
    finish_round(t, 2)
    refused(lambda: t.hand(3, ["0"] * 5), "bad-argument")


# --- All Wild -----------------------------------------------------------------------------------------

def test_AW_WILD_does_nothing_and_scores_twenty():
    t = table("all-wild")
    t.play("wild")
    assert t.game.current == 3 and ALL_WILD["wild"].points == 20


def test_AW_REV_the_direction_flips():
    t = table("all-wild")
    t.play("reverse")
    assert t.game.current == 1 and t.game.direction == "ccw"


def test_AW_SKIP_the_next_loses_the_turn():
    t = table("all-wild")
    t.play("skip")
    assert t.game.current == 4


def test_AW_SKIP2_the_next_two_lose_the_turn():
    t = table("all-wild")
    t.play("skip-two")
    assert t.game.current == 1


def test_AW_SKIP2_with_three_players_nobody_skips_himself():
    t = table("all-wild", players=3)
    t.play("skip-two")
    assert t.game.current == 2


def test_AW_D2_the_next_takes_two_and_loses_the_turn():
    t = table("all-wild")
    t.play("draw-two")
    assert t.due() == (3, "draw-two", 2) and t.game.current == 4


def test_AW_D4_the_next_takes_four_without_a_challenge():
    t = table("all-wild")
    t.play("draw-four")
    assert t.due() == (3, "draw-four", 4) and t.status()["challenge"] is None
    refused(lambda: t.challenge(3, "upheld"), "bad-argument")


def test_AW_TD2_the_target_takes_two_and_keeps_its_turn():
    t = table("all-wild")
    t.play("targeted-draw-two", target=3)
    assert t.due() == (3, "targeted-draw-two", 2)
    press(t)
    assert t.game.current == 3


def test_AW_TD2_needs_a_target():
    t = table("all-wild")
    refused(lambda: t.play("targeted-draw-two"), "bad-argument")


def test_AW_SWAP_player_and_target_swap_hand_counts():
    t = table("all-wild")
    t.set(seat=4, hand=1)
    t.play("forced-swap", target=4)
    assert hands(t)[2] == 1 and hands(t)[4] == 6


def test_AW_SWAP_a_seat_left_with_one_card_must_call_uno():
    t = table("all-wild")
    t.set(seat=4, hand=1)
    t.play("forced-swap", target=4)
    assert t.status()["uno_windows"] == [{"seat": 2, "called": False}]


def test_AW_ANY_any_card_may_follow_any_card_and_wild_prefixes_are_optional():
    t = table("all-wild")
    t.play("wild-draw-four")
    assert t.due() == (3, "draw-four", 4)


def test_AW_FIRST_the_first_card_is_ignored_and_the_dealers_left_starts():
    t = table("all-wild")
    assert t.phase == "play" and t.game.current == 2 and t.game.first is None
    refused(lambda: t.first_card("wild"), "bad-argument")


def test_AW_LAST_a_last_forced_swap_wins_and_nothing_is_swapped():
    t = table("all-wild")
    t.set(seat=2, hand=1)
    t.play("forced-swap", target=3, last=True)
    assert t.phase == "scoring" and hands(t) == {1: 7, 2: 0, 3: 7, 4: 7}


def test_AW_2P_skip_two_acts_as_a_skip():
    t = table("all-wild", players=2)
    t.play("skip-two")
    assert t.game.current == 2


def test_AW_2P_a_targeted_draw_two_hits_the_opponent_who_then_plays():
    t = table("all-wild", players=2)
    t.play("targeted-draw-two", target=1)
    press(t)
    assert t.game.current == 1


def test_AW_SCORE_twenty_per_wild_fifty_per_action_card():
    t = table("all-wild")
    finish_round(t, 2)
    t.hand(3, ["wild", "skip-two"])
    t.hand(4, ["forced-swap"])
    t.hand(1, [])
    assert t.game.totals[2] == 120


# --- Flip ---------------------------------------------------------------------------------------------

def test_FL_NUM_ones_to_nines_no_zeros():
    t = table("flip")
    refused(lambda: t.play("0"), "bad-argument")
    t.play("9")
    assert t.game.current == 3


def test_FL_D1_the_next_takes_one_and_loses_the_turn():
    t = table("flip")
    t.play("draw-one")
    assert t.due() == (3, "draw-one", 1) and t.game.current == 4


def test_FL_REV_the_direction_flips_on_either_side():
    t = table("flip")
    t.set(side="dark")
    t.play("reverse")
    assert t.game.direction == "ccw" and t.game.current == 1


def test_FL_SKIP_the_next_loses_the_turn():
    t = table("flip")
    t.play("skip")
    assert t.game.current == 4


def test_FL_FLIP_the_side_changes():
    t = table("flip")
    events = t.play("flip")
    assert t.game.side == "dark" and {"event": "side", "side": "dark"} in events


def test_FL_WILD_is_ordinary_and_scores_forty():
    t = table("flip")
    t.play("wild")
    assert t.game.current == 3 and FLIP_LIGHT["wild"].points == 40


def test_FL_WD2_the_next_takes_two_loses_the_turn_and_may_challenge():
    t = table("flip")
    t.play("wild-draw-two")
    assert t.due() == (3, "wild-draw-two", 2) and t.status()["challenge"]["card"] == "wild-draw-two"


def test_FL_D5_the_next_takes_five_on_the_dark_side():
    t = table("flip")
    t.set(side="dark")
    t.play("draw-five")
    assert t.due() == (3, "draw-five", 5) and t.game.current == 4


def test_FL_SKIPALL_the_cards_player_plays_again():
    t = table("flip")
    t.set(side="dark")
    t.play("skip-everyone")
    assert t.game.current == 2


def test_FL_WDC_one_card_per_press_until_colour_found():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")
    for _ in range(3):
        press(t)
    assert hands(t)[3] == 10 and t.due() == (3, "wild-draw-colour", 1)
    t.colour_found()
    assert not t.game.queue and t.game.current == 4


def test_FL_WDC_a_last_draw_colour_ends_the_round_when_the_colour_is_found():
    t = table("flip")
    t.set(side="dark", seat=2, hand=1)
    t.play("wild-draw-colour", last=True)
    press(t)
    t.colour_found()
    assert t.phase == "scoring" and t.game.round_winner == 2


def test_FL_WDC_colour_found_before_any_card_is_refused():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")
    refused(t.colour_found, "bad-argument")


def test_FL_SIDE_a_card_of_the_other_side_is_refused():
    t = table("flip")
    refused(lambda: t.play("draw-five"), "bad-argument")


def test_FL_SIDE_light_comes_first():
    assert table("flip").game.side == "light"


def test_FL_CHAL_wild_draw_two_upheld_the_cards_player_takes_two():
    t = table("flip")
    t.play("wild-draw-two")
    t.challenge(3, "upheld")
    assert t.due() == (2, "challenge", 2) and t.game.current == 3


def test_FL_CHAL_wild_draw_two_rejected_the_victim_takes_four():
    t = table("flip")
    t.play("wild-draw-two")
    t.challenge(3, "rejected")
    assert t.due() == (3, "wild-draw-two", 4)


def test_FL_CHAL_wild_draw_colour_rejected_adds_two_after_the_colour():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")
    t.challenge(3, "rejected")
    assert [(o.reason, o.cards) for o in t.game.queue] == [("wild-draw-colour", None), ("challenge", 2)]


def test_FL_CHAL_wild_draw_colour_upheld_the_cards_player_draws_until_the_colour():
    t = table("flip")
    t.set(side="dark")
    t.play("wild-draw-colour")
    t.challenge(3, "upheld")
    assert [(o.seat, o.reason, o.cards) for o in t.game.queue] == [(2, "challenge", None)]


def test_FL_FIRST_a_first_draw_one_is_carried_out():
    t = table("flip", first="draw-one")
    assert t.due() == (2, "start", 1) and t.game.current == 3


def test_FL_FIRST_a_first_skip_lets_the_second_seat_left_start():
    t = table("flip", first="skip")
    assert t.game.current == 3


def test_FL_FIRST_a_first_flip_turns_the_side_dark():
    t = table("flip", first="flip")
    assert t.game.side == "dark" and t.game.current == 2


def test_FL_FIRST_a_first_wild_draw_two_goes_back_to_the_deck():
    t = Table()
    t.new_game(3, dealer=1, variant="flip")
    t.start_round()
    deal(t)
    t.first_card("wild-draw-two")
    assert t.phase == "first" and t.due() == (1, "first", 1)


def test_FL_2P_a_reverse_acts_as_a_skip():
    t = table("flip", players=2)
    t.play("reverse")
    assert t.game.current == 2


def test_FL_2P_skip_everyone_gives_the_player_another_turn():
    t = table("flip", players=2)
    t.set(side="dark")
    t.play("skip-everyone")
    assert t.game.current == 2


def test_FL_SCORE_the_side_the_round_ended_on_counts():
    t = table("flip")
    t.set(seat=2, hand=1)
    t.play("flip", last=True)  # the last card's effect first: dark side
    t.hand(3, ["draw-five", "skip-everyone"])
    t.hand(4, ["wild-draw-colour"])
    t.hand(1, ["9"])
    assert t.game.side == "dark" and t.game.totals[2] == 20 + 30 + 60 + 9
    assert FLIP_DARK["draw-five"].points == 20


def test_FL_SCORE_a_card_of_the_side_that_is_down_is_refused_in_a_hand():
    t = table("flip")
    finish_round(t, 2)
    refused(lambda: t.hand(3, ["draw-five"]), "bad-argument")


# --- extreme untouched --------------------------------------------------------------------------------

def test_extreme_games_have_no_hands_and_refuse_the_exact_commands():
    t = Table()
    t.new_game(3)
    t.start_round(first="5")
    assert t.status()["hands"] is None
    refused(t.pass_turn, "bad-argument")


def test_D_SENSOR_a_saved_exact_game_is_resumed_only_with_the_sensor():
    from shooter.errors import StateFileError
    t = table("classic")
    assert Table.from_dict(t.to_dict()).status() == t.status()
    with pytest.raises(StateFileError, match="card-exit sensor, and none is configured"):
        Table.from_dict(t.to_dict(), counting=False)


def test_D_DRAW_pass_can_be_undone_but_a_draw_cannot():
    t = table()
    press(t)
    refused(t.undo, "cannot-undo")
    t.pass_turn()
    t.undo()
    assert t.game.current == 2 and t.game.drawn == 2
