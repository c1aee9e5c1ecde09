"""Guards of the Extreme family's card names and hands (shooter/table/cards.py; docs/mutation.md, the fifth run):
the exact one-line refusals a person reads when a card or a hand is wrong, the points of each card (docs/rules.md
"Cards", the last column), and the copies of a card each deck holds."""

from __future__ import annotations

import pytest

from shooter.editions import editions_of, records
from shooter.errors import BadArgument
from shooter.table.cards import CARDS, _digits, count_hand, deck_points, hand_points, parse_card
from tests.test_editions_records import RULES, points_of, rows

# every Extreme-family deck of the registry (an edition added later is checked here too)
EXTREME_DECKS = [r for r in records() if not r.counting]


def docs_table(edition: str) -> dict[str, tuple[int, int | None]]:
    """docs/rules.md's card table with a column for ``edition``: card name -> (copies, points); a card named
    by its rule id through the records of the edition's variant (a printing may lack the row)."""
    header = next(line for line in RULES.splitlines()
                  if line.startswith("| id | card |") and f"| {edition} |" in line)
    record = next(r for r in EXTREME_DECKS if r.edition == edition)
    name = {c.rule: c.name for kin in editions_of(record.variant) for c in kin.side().cards.values()}
    return {name[rid]: (int(row[edition]), points_of(row["points"])) for rid, row in rows(header).items()}

NAMES = "1..9, number, hit2, reverse, skip, discard-all, wild, extreme-hit, hit4, blank"


def _refusal(cards: list[str], edition: str = "2016") -> str:
    with pytest.raises(BadArgument) as err:
        hand_points(cards, edition)
    return str(err.value)


def test_an_unknown_card_is_refused_naming_every_card_and_the_digits_range() -> None:
    for typed in ("zz", "12", "hit-2", "0"):
        assert _refusal([typed]) == f"Unknown card {typed!r}; the cards are {NAMES}."


def test_a_blank_or_non_text_name_is_refused() -> None:
    for typed in ("  ", ""):
        with pytest.raises(BadArgument, match=r"^'\s*' is not a card name\.$"):
            parse_card(typed, "2016")
    with pytest.raises(BadArgument, match=r"^5 is not a card name\.$"):
        parse_card(5, "2016")


def test_names_are_read_in_any_case_with_underscores_for_dashes() -> None:
    assert parse_card(" Extreme_Hit ", "2016") == ("extreme-hit", None)
    assert parse_card("DISCARD_ALL", "2016") == ("discard-all", None)
    assert parse_card("7", "2016") == ("number", 7)


def test_a_card_the_edition_lacks_is_refused_naming_the_edition() -> None:
    assert _refusal(["hit4"], "2010") == "The 2010 edition has no hit4 cards."
    assert _refusal(["blank"], "2010") == "The 2010 edition has no blank cards."


def test_each_decks_copies_of_a_card() -> None:
    # docs/rules.md "Cards" (and "Uno Attack"): the column of each edition; a card of another deck: none
    for record in EXTREME_DECKS:
        edition = record.edition
        assert edition is not None
        table = docs_table(edition)
        assert {n: c.count(edition) for n, c in CARDS.items() if n in table} == {
            n: copies for n, (copies, _) in table.items()}, edition
        assert all(c.count(edition) == 0 for n, c in CARDS.items() if n not in table), edition
    assert {n: c.count("2010") for n, c in CARDS.items() if c.count("2010")} == {
        "number": 72, "hit2": 8, "reverse": 8, "skip": 8, "discard-all": 8, "wild": 4, "extreme-hit": 4}
    assert CARDS["hit4"].count("2016") > 0 and CARDS["blank"].count("2016") == 3
    assert CARDS["trade-hands"].count("1998") == 4 and CARDS["wild-hit-fire"].count("106") == 0


def test_a_number_card_without_its_value_names_the_digits() -> None:
    assert _refusal(["5", "number"]) == "Give number cards by their value (1..9) so they can be counted."
    with pytest.raises(BadArgument, match=r"^Give number cards by their value so they can be counted\.$"):
        count_hand([("number", None)], deck="d", copies=lambda name, face: None, points=lambda name: None)


def test_the_points_of_each_card_as_docs_rules_gives_them() -> None:
    for record in EXTREME_DECKS:
        edition = record.edition
        assert edition is not None
        held = {n: points for n, (copies, points) in docs_table(edition).items() if copies and n != "number"}
        assert {n: hand_points([n], edition) for n in held} == held, edition
    points = {n: hand_points([n], "2016") for n in docs_table("2016") if n != "number"}
    assert points == {"hit2": 20, "reverse": 20, "skip": 20, "discard-all": 30, "wild": 50, "extreme-hit": 50,
                      "hit4": 40, "blank": 50}
    assert hand_points(["9", "1", "wild", "blank"], "2016") == 110


def test_a_hand_of_every_copy_is_taken_and_one_more_is_refused_naming_the_deck() -> None:
    assert hand_points(["9"] * 8, "2016") == 72  # every 9 of the deck: a hand may hold them all
    assert _refusal(["9"] * 9) == "The 2016 deck holds only 8 of card 9."
    assert hand_points(["hit2", "Hit2"] * 4, "2010") == 160
    assert _refusal(["wild"] * 5, "2010") == "The 2010 deck holds only 4 of card wild."


def test_count_hand_counts_each_card_once_against_its_own_limit() -> None:
    limits = {"5": 2, "skip": 1}
    seen: list[tuple[str, int | None]] = []

    def copies(name: str, face: int | None) -> int | None:
        seen.append((name, face))
        return limits.get(str(face) if face is not None else name)

    assert count_hand([("number", 5), ("number", 5), ("skip", None)], deck="d", copies=copies,
                      points=lambda name: 20) == 30
    assert seen == [("number", 5), ("number", 5), ("skip", None)]
    with pytest.raises(BadArgument, match=r"^The d deck holds only 1 of card skip\.$"):
        count_hand([("skip", None), ("skip", None)], deck="d", copies=copies, points=lambda name: 20)


def test_a_whole_decks_points() -> None:
    # docs/rules.md "Cards": 8 of each digit 1..9 (360), and the counts times the points of the others
    assert deck_points("2016") == 360 + 8 * 20 + 4 * 20 + 8 * 20 + 8 * 30 + 4 * 50 + 4 * 50 + 1 * 40 + 3 * 50
    assert deck_points("2010") == 360 + 8 * 20 + 8 * 20 + 8 * 20 + 8 * 30 + 4 * 50 + 4 * 50


def test_the_digits_range_of_a_deck_with_no_number_cards_is_empty() -> None:
    # the hint of the number cards' refusal; a house deck of the Extreme family may hold no number cards
    assert _digits([]) == ""
    assert _digits([7, 1, 3]) == "1..7"
