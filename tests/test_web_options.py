"""The table's options the phone page reads (``GET /options.json``): the Python definitions, and only those.

The page builds its new-game form and its card pads from this document (tests/test_web_browser.py checks that in
a browser); here the document is checked against the constants, the argument checks and the card tables it is
built from, and against the table engine that plays the cards.
"""

from __future__ import annotations

import pytest

from shooter.config import Config
from shooter.editions import editions_of, records
from shooter.errors import CommandError
from shooter.i18n import LANGUAGES, Messages
from shooter.seat_names import MAX_LENGTH
from shooter.table import RuleOptions, Table, args
from shooter.table.cards import CARDS, deck_points
from shooter.table.editions import parse_deck_card
from shooter.table.table import VARIANT_SCORINGS
from shooter.web import options
from tests.test_editions_engine import table as exact_table

DOC = options.document(players=Config().default_seats, rules=RuleOptions())
# every pad, from the registry: its key -> the record and the side it plays (a record added later has its pads here)
PADS = {options.pad_key(r, side): (r, side) for r in records() for side in r.sides}
EXTREME_PADS = [key for key, (r, _) in PADS.items() if not r.counting]  # keyed by the edition (a year, 106)
EXACT_PADS = [key for key, (r, _) in PADS.items() if r.counting]
COPIES_PER_NUMBER = 8


def extreme_deck(edition: str) -> set[str]:
    return {name for name, card in CARDS.items() if card.count(edition) > 0}


def test_the_document_is_the_tables_constants():
    assert DOC["seats"] == {"min": args.MIN_SEATS, "max": args.MAX_SEATS}
    assert DOC["variants"] == list(args.VARIANTS)
    assert DOC["editions"] == list(args.EDITIONS)
    assert DOC["scorings"] == list(args.SCORINGS)
    assert DOC["variant_scorings"] == {variant: list(VARIANT_SCORINGS[variant]) for variant in args.VARIANTS}
    assert DOC["starts"] == list(args.START_RULES)
    assert DOC["limit"]["default"] == args.DEFAULT_LIMIT and DOC["limit"]["max"] == args.MAX_LIMIT
    assert DOC["give"]["max"] == args.MAX_GIVE
    assert DOC["name_length"] == MAX_LENGTH
    assert DOC["languages"] == list(LANGUAGES)
    assert set(DOC["pads"]) == set(PADS) and set(EXTREME_PADS) == set(args.EDITIONS)
    for variant in args.VARIANTS:  # each box offers its own variant's editions, each played on its own pad
        kin = [r.edition for r in editions_of(variant) if r.edition is not None]
        assert DOC["boxes"][variant]["editions"] == kin, variant
        if kin:
            assert DOC["boxes"][variant]["pads"] == {e: e for e in kin}, variant
    assert [e for v in args.VARIANTS for e in DOC["boxes"][v]["editions"]] == list(args.EDITIONS)
    assert DOC["boxes"]["classic"]["starts"] == list(args.START_RULES)
    assert DOC["boxes"]["flip"]["pads"] == {"light": "flip-light", "dark": "flip-dark"}
    assert DOC["defaults"] == {"players": Config().default_seats, "dealer": str(RuleOptions().default_dealer),
                               "start": RuleOptions().classic_first_card}


def test_the_forms_defaults_are_the_controllers_seats_and_rule_options():
    rules = RuleOptions(default_dealer="random", classic_first_card="apply")
    assert options.document(players=7, rules=rules)["defaults"] == {"players": 7, "dealer": "random", "start": "apply"}
    assert options.document(players=3, rules=RuleOptions(default_dealer=2))["defaults"]["dealer"] == "2"


@pytest.mark.parametrize(("key", "check"), [("seats", args.PLAYERS), ("limit", args.LIMIT), ("give", args.GIVE_CARDS)])
def test_each_range_is_the_one_the_table_checks(key, check):
    low, high = DOC[key]["min"], DOC[key]["max"]
    assert check(key, low) == low and check(key, high) == high
    for outside in (low - 1, high + 1):
        with pytest.raises(CommandError):
            check(key, outside)


def test_every_pad_holds_exactly_its_decks_cards_in_the_pads_order():
    pads = {key: pad["cards"] for key, pad in DOC["pads"].items()}
    for edition in EXTREME_PADS:  # the Extreme family's decks as the rules count them (shooter/table/cards.py)
        assert set(pads[edition]) == extreme_deck(edition), edition
        assert pads[edition] == [name for name in PADS[edition][1].pad if name in extreme_deck(edition)]
    for key in EXACT_PADS:
        deck = PADS[key][1].cards
        assert set(pads[key]) == set(deck), key
        assert pads[key] == list(PADS[key][1].pad)
    assert len(pads["2016"]) == len(set(pads["2016"]))


def test_the_pad_order_names_every_card_of_its_decks_and_no_other():
    # a card added to a table without a place on its pad (or one taken out) fails here, not on a phone
    for variant in {r.variant for r in records() if not r.counting}:  # per variant: every edition's cards
        kin = [r.edition for r in editions_of(variant) if r.edition is not None]
        assert {n for e in kin for n in PADS[e][1].pad} == set().union(*(extreme_deck(e) for e in kin)), variant
        for edition in kin:
            assert extreme_deck(edition) <= set(PADS[edition][1].pad), edition
    for key in EXACT_PADS:
        assert sorted(PADS[key][1].pad) == sorted(PADS[key][1].cards), key


def test_a_pads_digits_are_the_faces_of_its_decks_number_cards():
    for edition in args.EDITIONS:
        digits = DOC["pads"][edition]["digits"]
        assert len(digits) * COPIES_PER_NUMBER == CARDS["number"].count(edition)
        others = sum(card.points * card.count(edition) for card in CARDS.values() if card.points is not None)
        assert COPIES_PER_NUMBER * sum(digits) + others == deck_points(edition)
    for key in EXACT_PADS:
        record, side = PADS[key]
        digits = DOC["pads"][key]["digits"]
        assert digits == sorted(side.digits), key
        for digit in range(10):
            try:
                taken = parse_deck_card(str(digit), record, side.name) == ("number", digit)
            except CommandError:
                taken = False
            assert taken == (digit in digits), (key, digit)


def fresh_table(key: str) -> Table:
    """A table of this pad's game, its side up, seat 2 to play."""
    record, side = PADS[key]
    if not record.counting:
        t = Table()
        t.new_game(4, dealer=1, variant=record.variant, edition=record.edition)
        t.start_round("5")
    else:
        t = exact_table(record.variant)
        if side.name is not None and side.name != record.sides[0].name:
            t.set(side=side.name)
    return t


def played_without_a_target(key: str, card: str) -> bool:
    """Whether a fresh table of this pad takes `play CARD` with no target= (seat 2 to play)."""
    t = fresh_table(key)
    try:
        t.play(card)
    except CommandError as error:
        assert "target" in error.message, (key, card, error.message)
        return False
    return True


@pytest.mark.parametrize("key", sorted(DOC["pads"]))
def test_a_pads_targeted_cards_are_those_the_table_refuses_without_a_target(key):
    pad = DOC["pads"][key]
    assert [card for card in pad["cards"] if not played_without_a_target(key, card)] == pad["targeted"]


def test_every_option_and_every_pad_card_has_a_message_in_every_language():
    for lang in LANGUAGES:
        m = Messages(lang)
        for kind, values in (("scoring", DOC["scorings"]), ("start", DOC["starts"])):
            for value in values:
                assert m.has(f"{kind}.{value}"), (lang, kind, value)
        for variant in DOC["variants"]:  # the box's name and its cards' names: the edition records'
            assert DOC["boxes"][variant]["names"][lang].strip(), (lang, variant)
        for key, pad in DOC["pads"].items():
            for card in pad["cards"]:
                assert pad["names"][lang][card].strip(), (lang, key, card)


def hand_points_of(key: str, cards: list[str]) -> int:
    """What the table counts for a hand of `cards` at the end of a round of this pad's game."""
    from shooter.table.cards import hand_points
    from shooter.table.editions import exact_hand_points
    record, side = PADS[key]
    if not record.counting:
        return hand_points(cards, record)
    return exact_hand_points(cards, record, side.name)


@pytest.mark.parametrize("key", sorted(DOC["pads"]))
def test_a_pads_points_are_what_the_table_counts_for_each_card_in_a_hand(key):
    # the hands pad adds these up while the cards are tapped: the sum it shows is the one the table will count
    pad = DOC["pads"][key]
    for card in pad["cards"]:
        if card == "number":
            assert pad["points"][card] is None   # a number card scores its face
            assert all(hand_points_of(key, [str(d)]) == d for d in pad["digits"])
        else:
            assert pad["points"][card] == hand_points_of(key, [card]), (key, card)


@pytest.mark.parametrize("key", sorted(DOC["pads"]))
def test_a_pads_copies_are_its_decks_counts(key):
    pad = DOC["pads"][key]
    side = PADS[key][1]
    assert pad["copies"] == {card: side.cards[card].count for card in pad["cards"]}


def owes_at_the_target(key: str, card: str) -> bool:
    """Whether a fresh table of this pad, on `play CARD target=S`, turns the shooter to S (an entry owed there)."""
    t = fresh_table(key)
    t.play(card, target=4)
    return t.aim_seat == 4 and t.game.head is not None and t.game.head.seat == 4


@pytest.mark.parametrize("key", sorted(DOC["pads"]))
def test_a_pads_swaps_are_its_targeted_cards_that_do_not_turn_the_shooter_to_the_target(key):
    # the page asks "tap the seat the shooter turns to" for the others (shooter/web/static/table.js)
    pad = DOC["pads"][key]
    assert set(pad["swaps"]) <= set(pad["targeted"])
    assert [card for card in pad["targeted"] if not owes_at_the_target(key, card)] == pad["swaps"], key


def takes_discarded(key: str, card: str) -> bool:
    """Whether a fresh table of this pad takes `play CARD discarded=0` (with a seat to aim at, if it aims)."""
    t = fresh_table(key)
    try:
        t.play(card, discarded=0, target=4 if card in DOC["pads"][key]["targeted"] else None)
    except CommandError:
        return False
    return True


@pytest.mark.parametrize("key", sorted(DOC["pads"]))
def test_a_pads_discards_are_the_cards_the_table_takes_discarded_with(key):
    # AT-HANDS: the page asks "how many more?" exactly for the cards whose `play CARD discarded=N` the controller
    # takes (a Discard All of an edition that keeps hand counts); asked of another card, it would be refused
    pad = DOC["pads"][key]
    assert pad["discards"] == [card for card in pad["cards"] if takes_discarded(key, card)], key
    assert bool(pad["discards"]) == (PADS[key][0].variant == "attack"), key  # Uno Extreme keeps no counts
