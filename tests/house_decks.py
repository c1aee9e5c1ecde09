"""Two editions defined in data alone, as a house deck or a new box would be: registered by the tests that play
them (tests/test_editions_fifth.py), and by a controller started with ``UNO_SHOOTER_HOUSE_DECKS=1`` and this
folder's ``sitecustomize`` on its path (the browser check). Nothing in ``shooter/`` knows them.

* ``duo``: a small two-colour deck of the counting family: 1..6 twice per colour, skips, reverses, draw twos,
  wilds, and one effect none of the built-in decks has: a challengeable Wild Draw Three; a hand of 5.
* Uno Extreme ``1999``: the Extreme family with counts of its own (6 reverses, 2 Hit 4s, no blanks).
"""

from __future__ import annotations

from dataclasses import replace

from shooter.editions import COUNTING, DeckCard, Edition, Side, lookup, register, unregister
from shooter.editions.records import LOWEST, NUMBER, WINNER, Effect

DUO = Edition(
    "duo", None, COUNTING,
    (Side.of(None, (
        DeckCard("DUO-NUM", NUMBER, 24, None, Effect.PLAIN),
        DeckCard("DUO-SKIP", "skip", 4, 20, Effect.SKIP),
        DeckCard("DUO-REV", "reverse", 4, 20, Effect.REVERSE),
        DeckCard("DUO-D2", "draw-two", 4, 20, Effect.DRAW, 2),
        DeckCard("DUO-WILD", "wild", 2, 50, Effect.PLAIN, wild=True),
        DeckCard("DUO-WD3", "wild-draw-three", 2, 50, Effect.WILD_DRAW, 3, wild=True),
    ), {d: 4 for d in range(1, 7)}, ("number", "skip", "reverse", "draw-two", "wild", "wild-draw-three")),),
    (WINNER, LOWEST),
    {"en": {"": "Uno Duo", "number": "Number", "skip": "Skip", "reverse": "Reverse", "draw-two": "Draw Two",
            "wild": "Wild", "wild-draw-three": "Wild Draw Three"},
     "nl": {"": "Uno Duo", "number": "Cijferkaart", "skip": "Sla over", "reverse": "Keer om", "draw-two": "Neem twee",
            "wild": "Keuzekaart", "wild-draw-three": "+3 keuzekaart"}},
    deck_size=40, colours=2, hand_size=5, first_void=frozenset({"wild-draw-three"}), challenges=True,
)


def _extreme_1999() -> Edition:
    base = lookup("extreme", "2010")
    counts = {"reverse": 6, "hit4": 2}  # 8 - 2 reverses, + 2 Hit 4s: still 112 cards
    cards = tuple(replace(c, count=counts.get(c.name, c.count)) for c in base.side().cards.values())
    return replace(base, edition="1999", sides=(Side.of(None, cards, base.side().digits, base.side().pad),))


HOUSE: list[Edition] = []


def register_all() -> list[Edition]:
    """Register both (once); returns the records."""
    if not HOUSE:
        HOUSE.extend([register(DUO), register(_extreme_1999())])
    return HOUSE


def unregister_all() -> None:
    while HOUSE:
        unregister(HOUSE.pop())
