"""The cards of the exact variants (classic Uno, Uno All Wild, Uno Flip), as data.

Like :data:`shooter.table.cards.CARDS` for Uno Extreme, :data:`DECKS` is the one
place that holds each exact variant's card table: per card name how many the
deck holds, the points it scores and its effect (carried out in ``exact.py``),
and for a draw card how many cards it deals (``cards``; ``None``: until the
colour). Flip has one table per side. Everything else (play effects, hand
points, reported hands, the rule ids each card carries) reads these tables.

Card names are typed lower case and hyphenated; numbers as digits (``number``
also accepted in ``play``); All Wild drops a ``wild-`` prefix.
"""

from __future__ import annotations

from dataclasses import dataclass

from shooter.errors import CommandError

from .args import SIDES, VARIANTS
from .cards import EXTREME_HIT, count_hand

EXACT_VARIANTS = VARIANTS[1:]

# Effects of the exact variants' cards on the turn (see exact.py).
PLAIN = "plain"
SKIP = "skip"
REVERSE = "reverse"
DRAW = "draw"  # next takes `cards`, loses the turn
SKIP_TWO = "skip-two"
TARGETED_DRAW = "targeted-draw"  # target takes `cards`, keeps its turn
SWAP = "swap"
SHUFFLE = "shuffle"
FLIP = "flip"
SKIP_ALL = "skip-all"
WILD_DRAW = "wild-draw"  # next takes `cards` (None: until the colour), loses the turn; challengeable

# The effects whose card is played with target=S (the player picks a seat): Extreme's Extreme Hit, All Wild's
# Targeted Draw Two and Forced Swap. The table checks a play's target against this, the phone page asks for one.
AIMED_EFFECTS = frozenset({EXTREME_HIT, TARGETED_DRAW, SWAP})


@dataclass(frozen=True)
class DeckCard:
    """One row of an exact variant's card table."""

    rule: str  # the rule id that carries it (CL-*, AW-*, FL-*)
    name: str
    count: int | None  # None: unknown (All Wild's per-kind counts)
    points: int | None  # None: face value
    effect: str
    cards: int | None = 0  # cards a draw card deals; None: until the colour (Draw Colour)

    @property
    def challengeable(self) -> bool:
        return self.effect == WILD_DRAW


def _table(*cards: DeckCard) -> dict[str, DeckCard]:
    return {c.name: c for c in cards}


# CL-*: 112 cards (2018/2022 sheets)
CLASSIC = _table(
    DeckCard("CL-NUM", "number", 76, None, PLAIN),  # 4 zeros, 8 per digit 1..9
    DeckCard("CL-D2", "draw-two", 8, 20, DRAW, 2),
    DeckCard("CL-REV", "reverse", 8, 20, REVERSE),
    DeckCard("CL-SKIP", "skip", 8, 20, SKIP),
    DeckCard("CL-WILD", "wild", 4, 50, PLAIN),
    DeckCard("CL-W4", "wild-draw-four", 4, 50, WILD_DRAW, 4),
    DeckCard("CL-SHUF", "wild-shuffle", 1, 50, SHUFFLE),
    DeckCard("CL-BLANK", "blank", 3, 50, PLAIN),  # a wild; its written rule may use `give`
)

# AW-*: 112 wilds, per-kind counts unknown. AW-ANY: any card on any card, no colours, drawing
# optional: the controller checks nothing about what may be played.
ALL_WILD = _table(
    DeckCard("AW-WILD", "wild", None, 20, PLAIN),
    DeckCard("AW-REV", "reverse", None, 50, REVERSE),
    DeckCard("AW-SKIP", "skip", None, 50, SKIP),
    DeckCard("AW-SKIP2", "skip-two", None, 50, SKIP_TWO),
    DeckCard("AW-D2", "draw-two", None, 50, DRAW, 2),
    DeckCard("AW-D4", "draw-four", None, 50, DRAW, 4),  # no condition, no challenge
    DeckCard("AW-TD2", "targeted-draw-two", None, 50, TARGETED_DRAW, 2),
    DeckCard("AW-SWAP", "forced-swap", None, 50, SWAP),
)

# FL-*: 112 two-sided cards; per side 8 of each 1..9, no zeros
FLIP_LIGHT = _table(
    DeckCard("FL-NUM", "number", 72, None, PLAIN),
    DeckCard("FL-D1", "draw-one", 8, 10, DRAW, 1),
    DeckCard("FL-REV", "reverse", 8, 20, REVERSE),
    DeckCard("FL-SKIP", "skip", 8, 20, SKIP),
    DeckCard("FL-FLIP", "flip", 8, 20, FLIP),
    DeckCard("FL-WILD", "wild", 4, 40, PLAIN),
    DeckCard("FL-WD2", "wild-draw-two", 4, 50, WILD_DRAW, 2),
)
FLIP_DARK = _table(
    FLIP_LIGHT["number"], FLIP_LIGHT["reverse"], FLIP_LIGHT["flip"], FLIP_LIGHT["wild"],
    DeckCard("FL-D5", "draw-five", 8, 20, DRAW, 5),
    DeckCard("FL-SKIPALL", "skip-everyone", 8, 30, SKIP_ALL),
    DeckCard("FL-WDC", "wild-draw-colour", 4, 60, WILD_DRAW, None),
)

DECK_SIZE = 112
DIGITS = {"classic": range(0, 10), "all-wild": range(0), "flip": range(1, 10)}
COPIES_PER_DIGIT: dict[str, dict[int, int]] = {"classic": {0: 4, **{d: 8 for d in range(1, 10)}}, "all-wild": {},
                                               "flip": {d: 8 for d in range(1, 10)}}


def deck(variant: str, side: str | None = None) -> dict[str, DeckCard]:
    """The card table of `variant` (for flip: of `side`, light by default)."""
    if variant == "classic":
        return CLASSIC
    if variant == "all-wild":
        return ALL_WILD
    return FLIP_DARK if side == "dark" else FLIP_LIGHT


def parse_deck_card(text: object, variant: str, side: str | None = None) -> tuple[str, int | None]:
    """A card name as typed: (name in the variant's table, face value or None); bad-argument otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise CommandError("bad-argument", f"{text!r} is not a card name.")
    word = text.strip().lower().replace("_", "-")
    table = deck(variant, side)
    if word.isdecimal() and len(word) == 1 and int(word) in DIGITS[variant]:
        return "number", int(word)
    if variant == "all-wild" and word.startswith("wild-"):
        word = word[len("wild-"):]
    if word in table:
        return word, None
    other = deck(variant, "light" if side == "dark" else "dark") if variant == "flip" else {}
    if word in other:
        raise CommandError("bad-argument", f"{word} is a card of the other side; the {side} side is up.")
    digits = DIGITS[variant]
    names = ", ".join(([f"{digits.start}..{digits.stop - 1}"] if len(digits) else []) + list(table))
    raise CommandError("bad-argument", f"{variant} has no card {text!r}; its cards are {names}.")


def exact_hand_points(cards: list[str], variant: str, side: str | None) -> int:
    """Points of a reported hand: the variant's names, points and deck counts (CL-SCORE, AW-SCORE:
    20 per plain wild, 50 per action card, only the total count known; FL-SCORE: the side the
    round ended on, after the last card's effect)."""
    table = deck(variant, side)
    if len(cards) > DECK_SIZE:
        raise CommandError("bad-argument", f"A {variant} deck holds only {DECK_SIZE} cards.")
    return count_hand((parse_deck_card(text, variant, side) for text in cards), deck=variant,
                      copies=lambda name, face: COPIES_PER_DIGIT[variant][face] if face is not None
                      else table[name].count,
                      points=lambda name: table[name].points)


def exact_deck_points(variant: str) -> int:
    """The most points a hand of this variant can score (bounds `score`)."""
    if variant == "all-wild":
        return DECK_SIZE * 50
    sides = [deck(variant, s) for s in (SIDES if variant == "flip" else ("light",))]
    best = 0
    for table in sides:
        digits = sum(d * n for d, n in COPIES_PER_DIGIT[variant].items())
        best = max(best, digits + sum(c.points * c.count for c in table.values()
                                        if c.points is not None and c.count is not None))
    return best
