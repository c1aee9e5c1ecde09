"""Guards for shooter/table/editions.py, the look-ups of the counting family's card names and hand points (the
mutants that survived the tenth run, docs/mutation.md): a card name as typed (docs/protocol.md's card names:
lower case, hyphenated, digits, ``number``, All Wild's dropped ``wild-``, a Flip card of the other side refused)
and a reported hand's points (CL-SCORE, AW-SCORE, FL-SCORE), each refusal in its one exact sentence."""

from __future__ import annotations

import pytest

from shooter.editions import builtin
from shooter.errors import BadArgument
from shooter.table import editions

CLASSIC_NAMES = "0..9, number, draw-two, reverse, skip, wild, wild-draw-four, wild-shuffle, blank"
FLIP_LIGHT_NAMES = "1..9, number, draw-one, reverse, skip, flip, wild, wild-draw-two"
ALL_WILD_NAMES = "wild, reverse, skip, skip-two, draw-two, draw-four, targeted-draw-two, forced-swap"


def _refused(text: object, variant: str, side: str | None = None) -> str:
    with pytest.raises(BadArgument) as caught:
        editions.parse_deck_card(text, variant, side)
    return str(caught.value)


def test_card_names_as_typed_are_stripped_lower_cased_and_hyphenated():
    assert editions.parse_deck_card("  Draw_Two ", "classic") == ("draw-two", None)
    assert editions.parse_deck_card("WILD-DRAW-FOUR", "classic") == ("wild-draw-four", None)
    assert editions.parse_deck_card(" 7 ", "classic") == ("number", 7)
    assert editions.parse_deck_card("0", "classic") == ("number", 0)
    assert editions.parse_deck_card("number", "classic") == ("number", None)


def test_a_digit_the_deck_lacks_or_two_digits_are_no_card_in_one_sentence():
    # Flip's numbers are 1..9: no 0; "05" and "12" are not digits of a card
    assert _refused("0", "flip") == f"flip has no card '0'; its cards are {FLIP_LIGHT_NAMES}."
    assert _refused("05", "classic") == f"classic has no card '05'; its cards are {CLASSIC_NAMES}."
    assert _refused("12", "classic") == f"classic has no card '12'; its cards are {CLASSIC_NAMES}."
    # All Wild has no number cards: its list starts with its first card, not with a range of digits
    assert _refused("5", "all-wild") == f"all-wild has no card '5'; its cards are {ALL_WILD_NAMES}."


def test_all_wild_drops_its_wild_prefix_and_no_other_edition_does():
    assert editions.parse_deck_card("wild-skip", "all-wild") == ("skip", None)
    assert editions.parse_deck_card("Wild-Draw_Four", "all-wild") == ("draw-four", None)
    assert editions.parse_deck_card("wild", "all-wild") == ("wild", None)
    assert _refused("wild-skip", "classic") == f"classic has no card 'wild-skip'; its cards are {CLASSIC_NAMES}."


def test_fl_side_a_card_of_the_other_side_is_refused_naming_the_side_that_is_up():
    assert _refused("Wild-Draw-Colour", "flip") == ("wild-draw-colour is a card of the other side; "
                                                    "the light side is up.")
    assert _refused("draw-one", "flip", "dark") == "draw-one is a card of the other side; the dark side is up."
    assert editions.parse_deck_card("wild-draw-colour", "flip", "dark") == ("wild-draw-colour", None)
    # a card neither side has: the side that is up lists its own cards
    assert _refused("blank", "flip") == f"flip has no card 'blank'; its cards are {FLIP_LIGHT_NAMES}."


def test_a_name_that_is_not_text_or_is_blank_is_not_a_card_name():
    assert _refused(None, "classic") == "None is not a card name."
    assert _refused("", "classic") == "'' is not a card name."
    assert _refused(" \t", "flip") == "' \\t' is not a card name."


def test_the_tables_and_digits_of_each_deck_and_side():
    # equal, not the same objects: a test before this one may have built the built-in records again (equal ones)
    assert editions.deck("classic") == editions.CLASSIC
    assert editions.deck("flip") == editions.FLIP_LIGHT != editions.FLIP_DARK
    assert editions.deck("flip", "dark") == editions.FLIP_DARK
    assert editions.deck(builtin.ALL_WILD) == editions.ALL_WILD
    assert editions.digits("classic") == list(range(10))
    assert editions.digits("flip", "dark") == list(range(1, 10))
    assert editions.digits("all-wild") == []
    assert editions.record_of(builtin.CLASSIC) is builtin.CLASSIC
    assert editions.record_of("flip").key == builtin.FLIP_EDITION.key


def _whole_deck(variant: str, side: str | None) -> list[str]:
    record = editions.record_of(variant)
    up = record.side(side)
    cards = [str(face) for face, n in up.digits.items() for _ in range(n)]
    # All Wild's record knows only the deck's total (AW-SCORE): its assumed counts make the whole deck
    counts = {name: card.count if card.count is not None else (record.assumed_counts or {}).get(name, 0)
              for name, card in up.cards.items() if name != "number"}
    return cards + [name for name, n in counts.items() for _ in range(n)]


@pytest.mark.parametrize("variant, side", [("classic", None), ("all-wild", None), ("flip", "light"),
                                           ("flip", "dark")])
def test_cl_aw_fl_score_a_hand_of_the_whole_deck_scores_the_whole_deck(variant, side):
    record = editions.record_of(variant)
    cards = _whole_deck(variant, side)
    assert len(cards) == record.deck_size
    up = record.side(side)
    whole = sum(d * n for d, n in up.digits.items()) + sum(up.cards[name].points or 0 for name in cards
                                                          if not name.isdecimal())
    assert editions.exact_hand_points(cards, variant, side) == whole
    with pytest.raises(BadArgument) as caught:
        editions.exact_hand_points(cards + [cards[0]], variant, side)
    assert str(caught.value) == f"A {variant} deck holds only 112 cards."


def test_cl_aw_fl_score_points_by_the_side_the_round_ended_on():
    assert editions.exact_hand_points(["5", "Skip", "wild_draw_four"], "classic", None) == 5 + 20 + 50
    assert editions.exact_hand_points(["wild-skip", "wild"], "all-wild", None) == 50 + 20
    assert editions.exact_hand_points(["5", "flip"], "flip", "dark") == 5 + 20
    assert editions.exact_hand_points([], "flip", "dark") == 0


def test_cl_score_a_hand_more_copies_than_the_deck_holds_is_refused_by_the_card_or_face():
    copies = editions.record_of("classic").copies("number", 9)
    assert copies is not None
    editions.exact_hand_points(["9"] * copies, "classic", None)
    with pytest.raises(BadArgument) as caught:
        editions.exact_hand_points(["9"] * (copies + 1), "classic", None)
    assert str(caught.value) == f"The classic deck holds only {copies} of card 9."
    with pytest.raises(BadArgument) as caught:
        editions.exact_hand_points(["skip"] * 9, "classic", None)
    assert str(caught.value) == "The classic deck holds only 8 of card skip."
