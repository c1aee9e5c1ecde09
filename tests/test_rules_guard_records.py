"""Guards for the registry of edition records (shooter/editions/records.py, the ninth mutation run).

What a registered record must be (``register``: each refusal in its one sentence, the registry left as it was),
that the registry's live views follow every ``register`` and ``unregister`` whether read in between or not, and
what a record answers about its sides and copies (a face the deck lacks: 0 copies; a two-sided deck's other side).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from shooter.editions import COUNTING, choose, default, family_of, lookup, records, register, unregister
from shooter.editions.records import EDITIONS, SCORINGS_OF, VARIANTS, Edition, Names, Side
from shooter.errors import BadArgument


@pytest.fixture
def registered() -> Iterator[list[Edition]]:
    """Records a test registers, taken out again afterwards whatever happened."""
    made: list[Edition] = []
    yield made
    for record in made:
        unregister(record)


def _try_register(record: Edition, made: list[Edition]) -> None:
    made.append(record)  # taken out by the fixture even if a broken register() lets it in
    register(record)


REFUSED = [
    ("the same variant and edition twice", lambda: replace(lookup("extreme", "2016")),
     "edition extreme-2016 is registered already"),
    ("another family than the variant's other editions",
     lambda: replace(lookup("extreme", "2016"), edition="1999", family=COUNTING),
     "edition extreme-1999 does not fit variant extreme's other editions"),
    ("no edition where the variant's other records have one", lambda: replace(lookup("extreme", "2016"), edition=None),
     "edition extreme does not fit variant extreme's other editions"),
    ("an edition where the variant's one record has none", lambda: replace(lookup("classic"), edition="2",
                                                                           family="extreme"),
     "edition classic-2 does not fit variant classic's other editions"),
    ("an unknown rules family", lambda: replace(lookup("classic"), variant="guard", family="bingo"),
     "edition guard: unknown rules family 'bingo'"),
    ("no names in English", lambda: replace(lookup("classic"), variant="guard", names={"nl": {"": "Wacht"}}),
     "edition guard needs its box's name in English"),
    ("no box's name in English", lambda: replace(lookup("classic"), variant="guard",
                                                  names={"en": {"wild": "Wild"}}),
     "edition guard needs its box's name in English"),
    ("two sides of one name", lambda: replace(lookup("flip"), variant="guard", sides=(lookup("flip").sides[1],) * 2),
     "edition guard: each side of its deck needs a name of its own"),
]


@pytest.mark.parametrize(("make", "sentence"), [(m, s) for _what, m, s in REFUSED], ids=[w for w, _m, _s in REFUSED])
def test_register_refuses_a_record_that_does_not_fit_in_one_sentence(make, sentence, registered) -> None:
    before = records()
    with pytest.raises(ValueError) as refused:
        _try_register(make(), registered)
    assert str(refused.value) == sentence
    assert records() == before and all(a is b for a, b in zip(records(), before, strict=True))


def test_a_record_of_the_same_variant_and_family_is_registered_after_the_others(registered) -> None:
    extra = replace(lookup("extreme", "2010"), edition="1999")
    _try_register(extra, registered)
    assert records()[-1] is extra and lookup("extreme", "1999") is extra
    assert "1999" in EDITIONS and lookup("extreme") is records()[0]  # the variant's default stays its first


def test_the_live_views_follow_every_register_and_unregister_read_in_between_or_not(registered) -> None:
    """The views (VARIANTS, EDITIONS, ..., and any Names) derive again after any change of the registry: a view
    read, then changes that add and take out as many records, then read again, shows the registry as it is."""
    one = replace(lookup("classic"), variant="guard-one")
    two = replace(lookup("classic"), variant="guard-two")
    base = list(VARIANTS)
    registered.extend([one, two])
    register(one)
    assert list(VARIANTS) == [*base, "guard-one"]
    register(two)
    assert list(VARIANTS) == [*base, "guard-one", "guard-two"]
    unregister(two)
    unregister(one)
    assert list(VARIANTS) == base
    register(one)
    register(two)
    unregister(two)  # read after three changes
    assert list(VARIANTS) == [*base, "guard-one"]
    unregister(one)
    register(two)  # one taken out, another in
    assert list(VARIANTS) == [*base, "guard-two"]
    unregister(two)
    assert list(VARIANTS) == base and "guard-two" not in VARIANTS


def test_unregister_takes_out_that_record_only(registered) -> None:
    extra = replace(lookup("classic"), variant="guard")
    _try_register(extra, registered)
    unregister(replace(extra))  # an equal record, not the registered one
    assert lookup("guard") is extra
    unregister(extra)
    assert "guard" not in VARIANTS
    with pytest.raises(KeyError):
        lookup("guard")


def test_a_view_of_its_own_is_ordered_without_repeats_and_live(registered) -> None:
    view = Names(lambda: [r.family for r in records()])
    assert list(view) == ["extreme", "counting"] and len(view) == 2 and view[1] == "counting"
    assert "counting" in view and "guard" not in view
    assert repr(view) == "Names(['extreme', 'counting'])"
    keys = Names(lambda: [r.key for r in records()])
    assert keys[0] == "extreme-2016" and "classic" in keys
    _try_register(replace(lookup("classic"), variant="guard"), registered)
    assert keys[-1] == "guard" and "guard" in keys


def test_the_scorings_of_every_variant_are_its_default_editions() -> None:
    assert list(SCORINGS_OF) == list(VARIANTS) and len(SCORINGS_OF) == len(VARIANTS)
    assert dict(SCORINGS_OF)["classic"] == ("winner", "lowest") == lookup("classic").scorings


def test_copies_of_a_face_the_deck_lacks_are_0_and_each_side_counts_its_own() -> None:
    assert lookup("extreme").copies("number", 0) == 0  # C-NUM: no 0
    assert lookup("classic").copies("number", 0) == 4 and lookup("classic").copies("number", 9) == 8
    flip = lookup("flip")
    dark = flip.side("dark")
    house = replace(flip, variant="guard", sides=(flip.sides[0], Side(dark.name, dark.cards, {5: 3}, dark.pad)))
    assert house.copies("number", 5, "dark") == 3 and house.copies("number", 5, "light") == 8
    assert house.copies("number", 6, "dark") == 0
    assert house.copies("draw-five", None, "dark") == 8


def test_the_other_side_of_a_deck() -> None:
    flip = lookup("flip")
    assert [flip.other_side(n).name for n in ("light", "dark")] == ["dark", "light"]  # type: ignore[union-attr]
    for name in (None, "light", "dark"):
        assert lookup("classic").other_side(name) is None  # one side: none is down


def test_a_two_sided_house_deck_is_registered_and_turns_over_to_its_other_side(registered) -> None:
    flip = lookup("flip")
    house = replace(flip, variant="guard", sides=(flip.sides[1], flip.sides[0]))  # dark up first
    _try_register(house, registered)
    assert lookup("guard") is house
    assert [house.other_side(name) for name in ("dark", "light")] == [flip.sides[0], flip.sides[1]]


def test_the_hands_hold_at_most_the_deck_or_the_cards_declared_at_round_start_if_more() -> None:
    classic = lookup("classic")
    assert classic.deck_size == 112
    declared = (None, 0, 1, 111, 112, 113, 224)
    assert [classic.cards_there_are(n) for n in declared] == [112, 112, 112, 112, 112, 113, 224]


def test_choose_refuses_an_edition_the_variant_has_not_in_one_sentence() -> None:
    """game new variant= edition= (docs/protocol.md): an edition only where the variant has several, one of them."""
    with pytest.raises(BadArgument) as refused:
        choose("classic", "2016")
    assert str(refused.value) == "edition= goes only with variant=attack, extreme."
    with pytest.raises(BadArgument) as refused:
        choose("extreme", "1999")
    assert str(refused.value) == "variant extreme has the editions 2016, 2010, not 1999."
    with pytest.raises(BadArgument) as refused:
        choose("attack", 2016)
    assert str(refused.value) == "variant attack has the editions 1998, 106, not 2016."
    assert choose("extreme", None) is lookup("extreme", "2016") and choose("extreme", 2010) is lookup("extreme", "2010")
    assert choose("attack", "106") is lookup("attack", "106") and choose("classic", None) is lookup("classic")


def test_lookup_names_what_is_not_registered_and_a_one_deck_variant_ignores_the_edition() -> None:
    with pytest.raises(KeyError) as missing:
        lookup("bingo")
    assert missing.value.args == ("bingo",)
    with pytest.raises(KeyError) as missing:
        lookup("extreme", "1999")
    assert missing.value.args == ("extreme 1999",)
    assert lookup("classic", "2016") is lookup("classic") is records()[2]
    assert lookup("extreme") is lookup("extreme", None) is records()[0] is default()
    assert family_of("flip") == "counting" and family_of("attack") == "extreme"


def test_a_side_by_its_name() -> None:
    flip = lookup("flip")
    assert flip.side().name == flip.side(None).name == "light" and flip.side("dark") is flip.sides[1]
    with pytest.raises(KeyError) as missing:
        flip.side("grey")
    assert missing.value.args == ("grey",)
    assert lookup("classic").side("dark") is lookup("classic").sides[0]  # one side: whatever the name
    assert flip.card("draw-five", "dark").rule == "FL-D5" and flip.card("draw-one").rule == "FL-D1"
