"""Guards of the validator of saved games that cannot happen (shooter/table/possible.py; the mutants mutmut left,
docs/mutation.md, "The ninth run").

Each test takes a real game of one edition, reached by commands, changes one field as a bad file could, and
checks the validator's one line for it exactly (the line the loader logs when it sets the file aside), and that
the game next to it, on the other side of the rule's bound, is possible. The rule ids are docs/rules.md's.
"""

from __future__ import annotations

import copy

import pytest

from shooter.editions.records import lookup
from shooter.errors import StateFileError
from shooter.table import Table
from shooter.table.possible import impossible, impossible_nested, owed_reasons, record_of, table_impossible
from shooter.table.state import GameState, Owed
from tests.test_editions_engine import table as counting_table


def extreme(variant: str = "extreme", edition: str = "2016", scoring: str = "winner") -> Table:
    """A three-seat game of the Extreme family in play: the dealer turned up a 7, seat 2 is up."""
    t = Table()
    t.new_game(3, dealer=1, variant=variant, edition=edition, scoring=scoring)
    t.start_round("7")
    return t


def game_of(t: Table) -> GameState:
    assert t.game is not None
    return copy.deepcopy(t.game)


def owed(seat: int, reason: str, cards: int | None = 2, exact: bool = True) -> Owed:
    return Owed(seat=seat, presses=1, reason=reason, by=seat, cards=cards if exact else None, served=0)


# --- the edition, its phases and scorings ------------------------------------------------------------------------
def test_a_game_of_no_registered_edition_is_named_by_its_variant_and_edition():
    game = game_of(extreme())
    game.variant, game.edition = "nosuch", "1999"
    assert record_of(game) is None
    assert impossible(game, "play") == "no edition nosuch 1999 is registered"
    # a record given is the one the game is checked against (the loader passes the record it found)
    assert impossible(game, "play", lookup("extreme", "2016")) is None


def test_the_tables_game_of_no_registered_edition_and_no_game():
    t = extreme()
    assert table_impossible(t) is None
    assert table_impossible(Table()) is None   # no game: nothing to check
    assert t.game is not None
    t.game.variant = "nosuch"
    assert table_impossible(t) == "no edition nosuch 2016 is registered"


def test_a_phase_the_edition_does_not_have():
    game = game_of(counting_table("all-wild", players=3))
    assert impossible(game, "play") is None
    assert impossible(game, "first") == "Uno All Wild has no phase first"


def test_G_WIN_a_scoring_the_edition_does_not_have():
    game = game_of(counting_table("classic", players=3))
    game.scoring = "elimination"
    assert impossible(game, "play") == "Uno (classic) scores winner, lowest, not elimination"
    game.scoring = "lowest"
    assert impossible(game, "play") is None


# --- FL-SIDE: the side up ----------------------------------------------------------------------------------------
def test_FL_SIDE_a_one_sided_deck_with_a_side_up():
    game = game_of(counting_table("classic", players=3))
    game.side = "light"
    assert impossible(game, "play") == "its deck has one side, and the light side is up"


def test_FL_SIDE_a_flip_game_has_a_side_up_from_the_deal_on():
    t = Table()
    t.new_game(3, dealer=1, variant="flip")
    game = game_of(t)
    assert game.side is None and impossible(game, "deal") is None   # not dealt yet: no side up
    game = game_of(counting_table("flip", players=3))
    assert game.side == "light" and impossible(game, "play") is None
    game.side = None
    assert impossible(game, "first") == "no side of its deck (light, dark) is up in phase first"
    game.side = "dark"
    assert impossible(game, "play") is None
    game.side = "grey"
    assert impossible(game, "play") == "its deck has no grey side (it has light, dark)"


def test_CL_FIRST_the_first_card_rule_is_one_of_the_editions():
    game = game_of(counting_table("classic", players=3))
    for rule in ("redraw", "apply", None):
        game.start = rule
        assert impossible(game, "play") is None
    game.start = "again"
    assert impossible(game, "play") == "its first-card rule is again, and its rules are redraw, apply"
    wild = game_of(counting_table("all-wild", players=3))
    wild.start = "apply"
    assert impossible(wild, "play") == "its first-card rule is apply, and its rules are none"
    hit = game_of(extreme())   # the Extreme family has no first-card rule to check
    hit.start = "again"
    assert impossible(hit, "play") is None


# --- F-*, D-FIRST: the first card --------------------------------------------------------------------------------
def test_AW_FIRST_an_edition_that_ignores_the_first_card_has_none():
    game = game_of(counting_table("all-wild", players=3))
    assert game.first is None
    game.first = "wild"
    assert impossible(game, "play") == "it ignores the first card, and wild is its first card"


def test_D_FIRST_a_first_card_is_up_once_play_began():
    t = Table()
    t.new_game(3, dealer=1, variant="classic")
    t.start_round()
    game = game_of(t)
    assert game.first is None
    assert impossible(game, "first") is None and impossible(game, "deal") is None
    game = game_of(counting_table("classic", players=3))
    game.first = None
    assert impossible(game, "play") == "no first card is turned up in phase play"
    assert impossible(game, "scoring") == "no first card is turned up in phase scoring"


def test_F_NUM_the_first_card_is_one_of_the_decks():
    game = game_of(counting_table("classic", players=3))
    game.first = "hit2"
    assert impossible(game, "play") == "its deck has no hit2 to turn up"
    game.first = "wild-draw-four"   # a counting game's first card may be any of its deck's (a void one too)
    assert impossible(game, "play") is None
    game = game_of(counting_table("flip", players=3))
    game.first = "wild-draw-two"    # flip's void first card: it stood, counted, before the card after it
    assert impossible(game, "play") is None


def test_C_HIT4_an_extreme_first_card_the_deck_holds_none_of():
    game = game_of(extreme(edition="2010"))
    game.first = "hit4"   # 2010's deck has no Hit 4 (count 0)
    assert impossible(game, "play") == "its deck has no hit4 to turn up"
    game = game_of(extreme(edition="2016"))
    game.first = "hit4"
    assert impossible(game, "play") is None


# --- D-OWED: what is owed, when -------------------------------------------------------------------------------------
def test_D_OWED_what_each_edition_may_owe():
    penalties = {"uno", "advice", "wrong-card"}
    assert owed_reasons(lookup("extreme", "2016")) == {"hit2", "hit4", "extreme-hit", "start", *penalties}
    assert owed_reasons(lookup("attack", "106")) == {"hit2", "wild-all-hit", "start", *penalties}
    dealer = {"deal", "first", "uno", "give", "draw"}
    assert owed_reasons(lookup("classic")) == {"draw-two", "wild-draw-four", "start", "challenge", *dealer}
    assert owed_reasons(lookup("all-wild")) == {"draw-two", "draw-four", "targeted-draw-two", *dealer}
    assert owed_reasons(lookup("flip")) == {"draw-one", "draw-five", "wild-draw-two", "wild-draw-colour", "start",
                                            "challenge", *dealer}


def test_D_OWED_an_entry_the_edition_never_owes():
    game = game_of(extreme())
    game.queue = [owed(3, "draw-two", exact=False)]
    assert impossible(game, "play") == "seat 3 is owed for draw-two, which Uno Extreme never owes"
    game.queue = [owed(3, "hit4", exact=False)]
    assert impossible(game, "play") is None


def test_D_DEAL_before_the_first_card_only_the_deal_its_card_and_a_give_are_owed():
    t = Table()
    t.new_game(3, dealer=1, variant="classic")
    t.start_round()
    game = game_of(t)
    assert "deal" in [e.reason for e in game.queue]
    game.queue = [owed(1, "first", 1), owed(2, "give")]
    assert impossible(game, "first") is None
    game.queue = [owed(2, "uno")]
    assert impossible(game, "first") == "seat 2 is owed for uno before the first card"
    game.first = "number"
    assert impossible(game, "play") is None   # once play began a caught Uno is owed as any


def test_D_DEAL_the_dealers_shot_in_play_after_the_first_card():
    game = game_of(counting_table("flip", players=3))
    game.queue = [owed(1, "first", 1)]
    assert impossible(game, "play") == "the dealer's shot (first) is owed in phase play, after the first card"
    wild = game_of(counting_table("all-wild", players=3))   # no phase first: the deal is owed in play
    wild.queue = [owed(1, "deal", 7)]
    assert impossible(wild, "play") is None


# --- CL-CHAL: a challenge waiting ----------------------------------------------------------------------------------
def challenged() -> GameState:
    """A classic game in play where seat 2 may challenge seat 1's wild draw four (its 4 cards owed)."""
    game = game_of(counting_table("classic", players=3))
    game.queue = [owed(2, "wild-draw-four", 4)]
    game.challenge = {"seat": 2, "by": 1, "card": "wild-draw-four"}
    return game


def test_CL_CHAL_a_challenge_waits_in_play_between_two_seats_of_the_game():
    game = challenged()
    assert impossible(game, "play") is None
    assert impossible(game, "scoring") == "a challenge waits in phase scoring"
    game.challenge = {"seat": 2, "by": 2, "card": "wild-draw-four"}
    assert impossible(game, "play") == "a challenge waits between seats 2 and 2, not two seats in the game"
    game.challenge = {"seat": 2, "by": 4, "card": "wild-draw-four"}
    assert impossible(game, "play") == "a challenge waits between seats 4 and 2, not two seats in the game"
    game.challenge = {"seat": 5, "by": 1, "card": "wild-draw-four"}
    game.queue = [owed(5, "wild-draw-four", 4)]
    assert impossible(game, "play") == "a challenge waits between seats 1 and 5, not two seats in the game"


def test_CL_CHAL_a_challenge_waits_on_its_victims_cards_of_the_card():
    game = challenged()
    game.queue = [owed(3, "wild-draw-four", 4)]   # another seat's
    assert impossible(game, "play") == ("a challenge waits on wild-draw-four, and seat 2 is owed no "
                                         "wild-draw-four cards")
    game.queue = [owed(2, "draw-two", 2)]   # another card's
    assert impossible(game, "play") == ("a challenge waits on wild-draw-four, and seat 2 is owed no "
                                         "wild-draw-four cards")
    game.queue = [owed(3, "draw-two", 2), owed(2, "wild-draw-four", 4)]   # behind another entry: still owed
    assert impossible(game, "play") is None


def test_FL_CHAL_the_cards_that_can_be_challenged():
    game = game_of(counting_table("flip", players=3))
    game.queue = [owed(2, "draw-five", 5)]
    game.challenge = {"seat": 2, "by": 1, "card": "draw-five"}
    assert impossible(game, "play") == ("a challenge waits on draw-five, and the cards that can be challenged are "
                                         "wild-draw-colour, wild-draw-two")
    game.queue = [owed(2, "wild-draw-two", 2)]
    game.challenge = {"seat": 2, "by": 1, "card": "wild-draw-two"}
    assert impossible(game, "play") is None


# --- D-DRAW, CL-UNO: a draw and the Uno windows --------------------------------------------------------------------
def test_D_DRAW_a_draw_is_of_a_turn_in_play_before_anyone_went_out():
    game = game_of(counting_table("classic", players=3))
    game.drawn = 2
    assert impossible(game, "play") is None
    assert impossible(game, "scoring") == "seat 2 drew in phase scoring"
    game.going_out = 1
    assert impossible(game, "play") == "seat 2 drew after seat 1 went out"
    game.drawn = None
    assert impossible(game, "play") is None


def test_CL_UNO_a_counting_uno_window_is_open_on_a_hand_of_one_card():
    game = game_of(counting_table("classic", players=3))
    assert game.hands is not None
    game.hands[3] = 1
    game.uno_windows = [{"seat": 3, "called": False}]
    assert impossible(game, "play") is None
    game.hands[3] = 2
    assert impossible(game, "play") == "seat 3's Uno window is open on a hand of 2 cards"
    game.hands[3] = 0
    assert impossible(game, "play") == "seat 3's Uno window is open on a hand of 0 cards"
    hit = game_of(extreme("attack", "1998"))   # the Extreme family keeps its windows apart from its counts
    hit.uno_windows = [{"seat": 3, "called": False}]
    assert impossible(hit, "play") is None


# --- D-HANDS, AT-HANDS: the counts -------------------------------------------------------------------------------
def test_AT_HANDS_an_edition_that_keeps_no_counts_has_none():
    game = game_of(extreme())
    game.hands = {1: 7, 2: 7, 3: 7}
    assert impossible(game, "play") == "it counts no hands"
    game = game_of(counting_table("classic", players=3))
    game.hands = None
    assert impossible(game, "play") == "its hands are not counted"
    attack = game_of(extreme("attack", "1998"))
    attack.hands = None   # a game saved before the counts were kept
    assert impossible(attack, "play") is None


def test_AT_HANDS_no_counts_before_the_first_round_is_dealt():
    attack = game_of(extreme("attack", "1998"))
    assert attack.hands == {1: 7, 2: 7, 3: 7}
    assert impossible(attack, "deal") == "its hands are counted before its first round was dealt"
    attack.round = 2   # between rounds: the last round's counts until the deal
    assert impossible(attack, "deal") is None
    classic = game_of(counting_table("classic", players=3))   # a counting game counts from game new
    assert impossible(classic, "deal") is None


def test_AT_HANDS_no_count_for_a_seat_out_of_the_game_in_play():
    attack = game_of(extreme("attack", "1998", scoring="elimination"))
    assert attack.hands is not None
    attack.out = [3]
    attack.hands = {1: 7, 2: 7, 3: 7}
    assert impossible(attack, "play") == "seat 3 is out of the game, and its hand is counted"
    assert impossible(attack, "scoring") is None   # a settled round's loser keeps its count until the deal
    attack.out, attack.hands = [2, 3], {1: 7, 3: 7, 2: 7}
    assert impossible(attack, "play") == "seat 2 is out of the game, and its hand is counted"
    attack.hands = {1: 7, 2: 7}
    attack.out = [3]
    assert impossible(attack, "play") is None


def test_D_DEAL_the_declared_deck_deals_every_hand_and_the_first_card():
    game = game_of(counting_table("classic", players=3))
    game.deck = 22   # 3 hands of 7 and the first card
    assert impossible(game, "play") is None
    game.deck = 21
    assert impossible(game, "play") == "21 cards cannot deal 3 hands of 7 and the first card"


def test_D_HANDS_the_shared_count_rule_in_the_validators_words():
    game = game_of(counting_table("classic", players=3))
    assert game.hands is not None
    game.hands[1] = 501
    assert impossible(game, "play") == "hands: seat 1 would hold 501 cards"


# --- P-WRONG: the play a wrong-card penalty takes back --------------------------------------------------------------
def test_P_WRONG_the_play_a_wrong_card_takes_back_is_a_possible_game_too():
    t = extreme()
    t.play("5")
    game = game_of(t)
    assert game.last_play is not None
    record = lookup("extreme", "2016")
    assert impossible_nested(game, "play", record) is None and table_impossible(t) is None
    game.last_play["before"]["first"] = "draw-two"
    assert impossible_nested(game, "play", record) == ("the play a wrong card takes back: its deck has no "
                                                         "draw-two to turn up")
    game.first = "draw-two"   # the game's own problem is said first, and alone
    assert impossible_nested(game, "play", record) == "its deck has no draw-two to turn up"
    assert t.game is not None
    t.game.last_play = game.last_play
    assert table_impossible(t) == "the play a wrong card takes back: its deck has no draw-two to turn up"


def test_P_WRONG_the_play_a_wrong_card_takes_back_is_of_the_games_edition(tmp_path):
    # found by this guard's mutants: a saved game whose taken-back play was of another edition was resumed, and a
    # wrong-card penalty then turned the table's 2016 game into an Attack game under the 2016 record
    from tests.test_possible_games import reason, set_aside_line

    t = extreme()
    t.play("5")
    data = t.to_dict()
    before = data["game"]["extreme"]["last_play"]["before"]
    before["extreme"]["edition"] = "2010"
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno Extreme: the play a wrong card takes back: it is a game of extreme "
        "2010, not of extreme 2016.")
    before["variant"], before["extreme"]["edition"] = "attack", "1998"
    assert reason(set_aside_line(tmp_path, data)) == (
        "game is not a possible game of Uno Extreme: the play a wrong card takes back: it is a game of attack "
        "1998, not of extreme 2016.")


def test_P_WRONG_a_live_games_taken_back_play_is_loaded_one_level_deep_its_fields_named():
    """The validator the bots and the tests run after every step (table_impossible) loads the snapshot a
    wrong-card penalty would take a live table back to as the loader does: one level only (penalties.py keeps it
    without a last play of its own), a broken field named from last_play.before."""
    t = extreme()
    t.play("5")
    assert t.game is not None and t.game.last_play is not None
    good = t.game.last_play
    before = good["before"]
    two_levels = {**before["extreme"], "last_play": copy.deepcopy(good)}
    t.game.last_play = {**good, "before": {**before, "extreme": two_levels}}
    with pytest.raises(StateFileError) as refused:
        table_impossible(t)
    assert str(refused.value) == ("Saved table state: last_play.before.extreme.last_play must be null or an object "
                                  "with seat and before (one level only).")
    t.game.last_play = {**good, "before": {**before, "round": 0}}
    with pytest.raises(StateFileError) as refused:
        table_impossible(t)
    assert str(refused.value).startswith("Saved table state: last_play.before.round must be a whole number from 1 ")
