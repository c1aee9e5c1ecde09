"""Guards of the table's own commands (shooter/table/table.py: `game new`, `hand`, `score`, `undo`; the mutants
mutmut left, docs/mutation.md, "The ninth run").

Each refusal is checked in its exact words (the console prints them), each default by the game it makes. The rule
ids are docs/rules.md's.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from shooter.editions import lookup, register, unregister
from shooter.errors import CommandError
from shooter.table import Table
from shooter.table.options import RuleOptions


def refusal(call, code: str = "bad-argument") -> str:
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == code, info.value.message
    return info.value.message


# --- game new ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "said"), [
    ({"players": 11}, "players= must be 2..10, got 11"),
    ({"variant": "nosuch"}, "variant= must be one of extreme, classic, all-wild, flip, attack, got 'nosuch'"),
    ({"variant": "extreme", "edition": "1999"}, "edition= must be one of 2016, 2010, 1998, 106, got '1999'"),
    ({"variant": "classic", "edition": "2016"}, "edition= goes only with variant=attack, extreme."),
    ({"variant": "classic", "edition": "1999"}, "edition= goes only with variant=attack, extreme."),
    ({"variant": "extreme", "start": "apply"}, "start= goes only with variant=classic."),
    ({"variant": "flip", "start": "apply"}, "start= goes only with variant=classic."),
    ({"variant": "classic", "start": "again"}, "start= must be one of redraw, apply, got 'again'"),
    ({"scoring": "best"}, "scoring= must be one of winner, lowest, elimination, got 'best'"),
    ({"variant": "classic", "scoring": "elimination"}, "variant classic scores winner, lowest, not elimination."),
    ({"variant": "all-wild", "scoring": "lowest"}, "variant all-wild scores winner, not lowest."),
    ({"limit": "x"}, "limit= must be a whole number, got 'x'"),
    ({"dealer": 4}, "dealer= must be 1..3, got 4"),
    ({"dealer": 0}, "dealer= must be 1..3, got 0"),
])
def test_G_DEALER_game_new_refuses_each_argument_in_its_own_words(kwargs, said):
    t = Table()
    args = {"players": 3, **kwargs}
    assert refusal(lambda: t.new_game(**args)) == said
    assert t.game is None and t.phase == "none"


def test_D_SENSOR_an_exact_variant_needs_the_card_exit_sensor():
    t = Table()
    assert refusal(lambda: t.new_game(3, variant="classic", counting=False), "no-exit-sensor") == (
        "variant classic needs the card-exit sensor to count cards; fit it or play variant=extreme")
    assert t.game is None
    assert t.new_game(3, variant="extreme", counting=False) == []   # the Extreme family counts no cards
    assert t.game is not None and t.game.variant == "extreme"


def test_game_new_defaults_the_extreme_2016_game_of_one_dealer():
    t = Table()
    assert t.new_game(3) == []
    g = t.game
    assert g is not None and t.phase == "deal"
    assert (g.variant, g.edition, g.scoring, g.limit, g.dealer, g.start, g.hands, g.uno_penalty) == (
        "extreme", "2016", "winner", 500, 1, None, None, 2)
    assert g.totals == {1: 0, 2: 0, 3: 0} and g.players == 3
    assert t.family.name == "extreme" and t.record.key == "extreme-2016" and t.history == []


@pytest.mark.parametrize(("variant", "edition", "key", "saved"), [
    ("extreme", "2010", "extreme-2010", "2010"), ("attack", None, "attack-1998", "1998"),
    ("attack", "106", "attack-106", "106"), ("classic", None, "classic", "2016"), ("flip", None, "flip", "2016"),
    ("all-wild", None, "all-wild", "2016"),
])
def test_game_new_plays_the_edition_chosen(variant, edition, key, saved):
    t = Table()
    t.new_game(4, variant=variant, edition=edition, scoring="winner", limit=200, dealer=3)
    g = t.game
    assert g is not None and t.record.key == key
    # a variant with one deck keeps the table's default edition in the game (status says it)
    assert (g.variant, g.edition, g.limit, g.dealer) == (variant, saved, 200, 3)
    counting = variant in ("classic", "flip", "all-wild")
    assert g.hands == ({1: 0, 2: 0, 3: 0, 4: 0} if counting else None)
    assert t.family.name == ("counting" if counting else "extreme")


def test_CL_FIRST_the_first_card_rule_given_configured_or_the_editions_first():
    assert _start(Table(), None) == "redraw"
    assert _start(Table(), "apply") == "apply"
    assert _start(Table(options=RuleOptions(classic_first_card="apply")), None) == "apply"
    assert _start(Table(options=RuleOptions(classic_first_card="apply")), "redraw") == "redraw"


def test_CL_FIRST_a_records_own_first_card_rules_and_their_names():
    # a record registered later with first-card rules of its own (a house deck): named in start='s refusal, and
    # its first rule taken where the configured one is not among its rules
    house = register(replace(lookup("classic"), variant="classic-apply", start_rules=("apply",)))
    try:
        t = Table()
        assert refusal(lambda: t.new_game(3, variant="extreme", start="apply")) == (
            "start= goes only with variant=classic, classic-apply.")
        assert _start(Table(), None, "classic-apply") == "apply"   # the configured redraw is not its rule
        assert _start(Table(), "apply", "classic-apply") == "apply"
        assert refusal(lambda: Table().new_game(3, variant="classic-apply", start="redraw")) == (
            "start= must be one of apply, got 'redraw'")
    finally:
        unregister(house)


def _start(t: Table, start: str | None, variant: str = "classic") -> str | None:
    t.new_game(3, variant=variant, start=start)
    assert t.game is not None
    return t.game.start


def test_P_UNO_the_configured_uno_penalty_goes_into_the_game():
    t = Table(options=RuleOptions(uno_penalty=4))
    t.new_game(3)
    assert t.game is not None and t.game.uno_penalty == 4


def test_G_DEALER_the_configured_default_dealer_fits_the_table_or_is_refused():
    t = Table(options=RuleOptions(default_dealer=5))
    assert refusal(lambda: t.new_game(4)) == (
        "The configured default dealer, seat 5, is not at a 4-seat table; give dealer=.")
    assert t.game is None
    t.new_game(5)
    assert t.game is not None and t.game.dealer == 5
    t.new_game(4, dealer=2)
    assert t.game.dealer == 2   # a dealer given wins over the configured one


@pytest.mark.parametrize("word", ["random", " Random ", "RANDOM"])
def test_G_DEALER_a_random_dealer_is_drawn_by_lot_from_the_tables_rng(word):
    for seed in range(8):
        t = Table(rng=random.Random(seed))
        t.new_game(6, dealer=word)
        assert t.game is not None and t.game.dealer == random.Random(seed).randint(1, 6)
    dealers = set()
    for seed in range(40):
        t = Table(options=RuleOptions(default_dealer="random"), rng=random.Random(seed))
        t.new_game(3)
        assert t.game is not None
        dealers.add(t.game.dealer)
    assert dealers == {1, 2, 3}


def test_game_new_forgets_the_history_of_the_game_before():
    t = Table()
    t.new_game(3)
    t.start_round("7")
    t.play("5")
    assert t.history
    t.new_game(3, variant="classic")
    assert t.history == [] and t.undo_blocker is None
    assert refusal(t.undo, "cannot-undo") == "There is nothing to undo."


# --- hand and score ---------------------------------------------------------------------------------------------
def scoring(players: int = 3) -> Table:
    """A game in phase scoring: seat 2 went out with a 5, seats 1 and 3 report."""
    t = Table()
    t.new_game(players, dealer=1, scoring="winner")
    t.start_round("7")
    t.play("5", last=True)
    assert t.phase == "scoring" and t.game is not None and t.game.round_winner == 2
    return t


def test_D_SCORE_a_hand_is_reported_only_in_phase_scoring():
    t = Table()
    assert refusal(lambda: t.hand(1, "5"), "no-game") == "There is no game; start one with game new."
    assert refusal(lambda: t.score(1, 5), "no-game") == "There is no game; start one with game new."
    t.new_game(3)
    assert refusal(lambda: t.hand(1, "5"), "wrong-phase") == "Cannot report a hand in phase deal."
    assert refusal(lambda: t.score(1, 5), "wrong-phase") == "Cannot report a score in phase deal."


def test_D_SCORE_a_hands_cards_as_text_or_a_list():
    for cards in ("5, ,skip", "5,skip,", ["5", "skip"], ("5", "skip")):
        t = scoring()
        t.hand(1, cards)
        assert t.game is not None and t.game.reports == {1: 25}, cards
    t = scoring()
    t.hand(3, "")   # no cards: 0 points
    assert t.game is not None and t.game.reports == {3: 0}
    for cards in (5, None, {"5": 1}):
        t = scoring()
        assert refusal(lambda c=cards, t=t: t.hand(1, c)) == "cards must be a list of card names."
        assert t.game is not None and t.game.reports == {}


def test_D_SCORE_the_rounds_winner_and_a_seat_not_at_the_table_report_nothing():
    t = scoring()
    assert refusal(lambda: t.hand(2, "5")) == "Seat 2 won the round; their hand counts 0."
    assert refusal(lambda: t.score(2, 5)) == "Seat 2 won the round; their hand counts 0."
    assert refusal(lambda: t.hand(4, "5")) == "seat= must be 1..3, got 4"
    assert refusal(lambda: t.score(0, 5)) == "seat= must be 1..3, got 0"


def test_D_SCORE_points_up_to_the_decks_whole_points():
    t = scoring()
    most = t.record.deck_points()
    assert refusal(lambda: t.score(1, most + 1)) == f"points= must be 0..{most}, got {most + 1}"
    assert refusal(lambda: t.score(1, -1)) == f"points= must be 0..{most}, got -1"
    t.score(1, most)
    t.score(3, 0)
    assert t.game is not None and t.game.totals[2] == most


def test_D_SCORE_hand_and_score_are_undo_levels_of_their_own_names():
    t = scoring()
    t.hand(1, "5")
    t.score(3, 7)
    assert [level["command"] for level in t.history][-2:] == ["hand", "score"]


# --- undo -------------------------------------------------------------------------------------------------------
def test_undo_says_what_cleared_the_history():
    t = Table()
    assert refusal(t.undo, "no-game") == "There is no game; start one with game new."
    t.new_game(3)
    assert refusal(t.undo, "cannot-undo") == "There is nothing to undo."
    t.start_round("7")
    t.press()   # seat 2's draw: its cards are out
    assert refusal(t.undo, "cannot-undo") == (
        "The last thing was a press; its cards are out and cannot be taken back.")
    c = Table()
    c.new_game(3, variant="classic")
    c.start_round()
    assert refusal(c.undo, "cannot-undo") == "The last thing was the deal; its cards are out and cannot be taken back."


def test_undo_restores_the_level_and_announces_the_situation():
    t = Table()
    t.new_game(3, dealer=1)
    t.start_round("7")
    t.play("hit2")   # seat 3 owes 2 presses
    before = t.to_dict()
    t.press()
    t.press()
    assert t.phase == "play"
    t.play("skip")
    assert t.undo() == [{"event": "turn", "seat": 1, "direction": "cw"}]
    t2 = Table()
    t2.new_game(3, dealer=1)
    t2.start_round("7")
    t2.play("hit2")
    assert t2.to_dict() == before
    assert t2.undo() == [{"event": "turn", "seat": 2, "direction": "cw"}]
    assert len(t2.history) == 1 and t2.game is not None and t2.game.queue == []
    t2.play("hit2")
    t2.undo()
    assert t2.undo() == []   # the round start taken back: phase deal, nobody up
    assert t2.phase == "deal" and t2.history == [] and t2.game is not None and t2.game.first is None
    assert refusal(t2.undo, "cannot-undo") == "There is nothing to undo."


# --- the rules family ---------------------------------------------------------------------------------------------
def test_the_family_follows_the_game_from_game_new_and_a_resumed_table():
    t = Table()
    assert t.family.name == "extreme" and t.record.key == "extreme-2016"   # without a game: the default's
    t.new_game(3, variant="classic")
    assert t.family.name == "counting" and t.record.key == "classic"
    t.start_round()
    assert t.phase == "first"   # dealt: the dealer turns up the first card
    t.new_game(3, variant="attack", edition="106")
    assert t.family.name == "extreme" and t.record.key == "attack-106" and t.phase == "deal"
    t.start_round("7")
    assert t.phase == "play"
    t.new_game(3, variant="flip")
    assert t.family.name == "counting" and t.phase == "deal"
    back = Table.from_dict(t.to_dict())
    assert back.family.name == "counting" and back.record.key == "flip" and back.phase == "deal"
    back.start_round()
    assert back.phase == "first"


def test_the_machines_triggers_are_not_commands_of_the_table():
    # the table's commands pull the triggers through its family, after its checks: a trigger the machine would
    # bind on the table (play_card, serve_press, ...) is not left there to be called around them
    t = Table()
    t.new_game(3)
    t.start_round("7")
    t.new_game(3, variant="classic")
    t.start_round()
    back = Table.from_dict(t.to_dict())
    triggers = {"begin_game", "begin_round", "play_card", "serve_press", "call_uno", "catch_uno", "correct",
                "give_advice_penalty", "take_back_wrong_card", "report_hand"}
    assert triggers <= set(t.machine._edges) | set(back._machines["extreme"]._edges)
    for table in (t, back):
        assert not triggers & set(vars(table)), triggers & set(vars(table))
        assert not any(hasattr(table, name) for name in triggers)
