"""The cards of the counting family's editions (classic Uno, Uno All Wild, Uno Flip, and any other record of
that family in :mod:`shooter.editions`), as the rules read them.

Each edition's card table is its record's (per card name how many the deck holds, the points it scores, its
effect, carried out in ``exact.py``, and for a draw card how many cards it deals: ``cards``; ``None``: until
the colour); Flip has one table per side. Here are the look-ups everything else goes through: a card name as
typed, the points of a reported hand (the most a hand can score is the record's ``deck_points``).

Card names are typed lower case and hyphenated; numbers as digits (``number`` also accepted in ``play``); an
edition may drop a prefix every card carries (All Wild's ``wild-``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..editions import builtin
from ..editions.records import NUMBER, DeckCard, Edition, lookup
from ..errors import BadArgument
from .cards import count_hand

__all__ = ["ALL_WILD", "CLASSIC", "FLIP_DARK", "FLIP_LIGHT", "DeckCard", "deck", "digits", "exact_hand_points",
           "parse_deck_card", "record_of"]

# The built-in decks' tables by their old names (tests and the docs' tables read them).
CLASSIC = builtin.CLASSIC.side().cards
ALL_WILD = builtin.ALL_WILD.side().cards
FLIP_LIGHT = builtin.FLIP_EDITION.sides[0].cards
FLIP_DARK = builtin.FLIP_EDITION.sides[1].cards


def record_of(variant: str | Edition) -> Edition:
    """The record of a variant (a record is its own)."""
    return variant if isinstance(variant, Edition) else lookup(variant)


def deck(variant: str | Edition, side: str | None = None) -> Mapping[str, DeckCard]:
    """The card table of `variant` (for a two-sided deck: of `side`, the first side by default)."""
    return record_of(variant).side(side).cards


def digits(variant: str | Edition, side: str | None = None) -> list[int]:
    """The faces of the deck's number cards."""
    return sorted(record_of(variant).side(side).digits)


def parse_deck_card(text: object, variant: str | Edition, side: str | None = None) -> tuple[str, int | None]:
    """A card name as typed: (name in the edition's table, face value or None); bad-argument otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise BadArgument(f"{text!r} is not a card name.")
    word = text.strip().lower().replace("_", "-")
    record = record_of(variant)
    up = record.side(side)
    if word.isdecimal() and len(word) == 1 and int(word) in up.digits:
        return NUMBER, int(word)
    if record.drop_prefix and word.startswith(record.drop_prefix):
        word = word[len(record.drop_prefix):]
    if word in up.cards:
        return word, None
    down = record.other_side(up.name)
    if down is not None and word in down.cards:
        raise BadArgument(f"{word} is a card of the other side; the {up.name} side is up.")
    faces = sorted(up.digits)
    names = ", ".join(([f"{faces[0]}..{faces[-1]}"] if faces else []) + list(up.cards))
    raise BadArgument(f"{record.variant} has no card {text!r}; its cards are {names}.")


def exact_hand_points(cards: list[str], variant: str | Edition, side: str | None) -> int:
    """Points of a reported hand: the edition's names, points and deck counts (CL-SCORE, AW-SCORE:
    only the total count known; FL-SCORE: the side the round ended on, after the last card's effect)."""
    record = record_of(variant)
    table = record.side(side).cards
    if len(cards) > record.deck_size:
        raise BadArgument(f"A {record.variant} deck holds only {record.deck_size} cards.")
    return count_hand((parse_deck_card(text, record, side) for text in cards), deck=record.variant,
                      copies=lambda name, face: record.copies(name, face, side),
                      points=lambda name: table[name].points)
