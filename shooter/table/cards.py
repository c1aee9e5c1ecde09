"""The cards of Uno Extreme, as far as the table rules care about them.

:data:`CARDS` is the one place that holds docs/rules.md's card table: for every card
name how many the 2016 and 2010 decks hold, the points it scores and its
effect on the turn (the effects themselves are carried out in ``turns.py``). Everything else (play effects, hand points,
sanity checks of reported hands) reads this table.

Card names are the protocol's (docs/protocol.md "Cards"): ``number`` (or a digit
``1``..``9``), ``skip``, ``reverse``, ``hit2``, ``hit4``, ``discard-all``,
``wild``, ``extreme-hit``, ``blank``. They are case-insensitive; ``_`` may
stand for ``-``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from shooter.errors import CommandError

# Effects on the turn (what the controller does with a played card).
PLAIN = "plain"  # turn passes to the next seat
SKIP = "skip"
REVERSE = "reverse"
HIT = "hit"  # next seat presses `presses` times and loses the turn
EXTREME_HIT = "extreme-hit"  # the card's player presses `presses` times at a target


@dataclass(frozen=True)
class Card:
    """One row of the card table."""

    name: str
    count_2016: int
    count_2010: int
    points: int | None  # None: a number card scores its face value
    effect: str
    presses: int = 0  # presses a hit card owes

    def count(self, edition: str) -> int:
        """How many of this card the edition's deck holds."""
        return self.count_2016 if edition == "2016" else self.count_2010


# docs/rules.md "Cards", checked against the seed: 112 cards in both editions.
CARDS: dict[str, Card] = {
    c.name: c
    for c in (
        Card("number", 72, 72, None, PLAIN),  # 1..9, no 0, 8 of each value
        Card("hit2", 8, 8, 20, HIT, presses=2),
        Card("reverse", 4, 8, 20, REVERSE),
        Card("skip", 8, 8, 20, SKIP),
        Card("discard-all", 8, 8, 30, PLAIN),
        Card("wild", 4, 4, 50, PLAIN),
        Card("extreme-hit", 4, 4, 50, EXTREME_HIT, presses=2),
        Card("hit4", 1, 0, 40, HIT, presses=4),
        Card("blank", 3, 0, 50, PLAIN),  # a wild unless RuleOptions.blank_as says otherwise
    )
}

# P-*: presses a penalty owes (penalties.py carries them out).
PENALTY_PRESSES = {"uno": 2, "advice": 4, "wrong-card": 2}

# The most presses one owed entry can hold: a saved queue entry beyond this is corrupt.
MAX_OWED_PRESSES = max([c.presses for c in CARDS.values()] + list(PENALTY_PRESSES.values()))

COPIES_PER_NUMBER = CARDS["number"].count_2016 // 9  # 8: two of each value per colour


def parse_card(text: object, edition: str) -> tuple[str, int | None]:
    """Normalise a card name as typed: returns (name in CARDS, face value or None).

    Raises ``bad-argument`` for an unknown name or a card the edition lacks.
    """
    if not isinstance(text, str) or not text.strip():
        raise CommandError("bad-argument", f"{text!r} is not a card name.")
    word = text.strip().lower().replace("_", "-")
    if word in {str(d) for d in range(1, 10)}:
        return "number", int(word)
    card = CARDS.get(word)
    if card is None:
        names = ", ".join(["1..9", *CARDS])
        raise CommandError("bad-argument", f"Unknown card {text!r}; the cards are {names}.")
    if card.count(edition) == 0:
        raise CommandError("bad-argument", f"The {edition} edition has no {card.name} cards.")
    return card.name, None


def hand_points(cards: list[str], edition: str) -> int:
    """Points of the cards left in a hand (G-*); number cards must give their value.

    Refuses a hand the edition's deck could not hold (more copies than exist).
    """
    return count_hand((parse_card(text, edition) for text in cards), deck=edition,
                      copies=lambda name, face: COPIES_PER_NUMBER if face is not None else CARDS[name].count(edition),
                      points=lambda name: CARDS[name].points, numbers="(1..9)")


def count_hand(parsed: Iterable[tuple[str, int | None]], *, deck: str,
               copies: Callable[[str, int | None], int | None], points: Callable[[str], int | None],
               numbers: str = "") -> int:
    """The points of a hand of parsed cards (name, face value), refused if it holds more copies of a card than
    the deck (``copies``: how many exist, None if the count is not known) or a number card without its value.
    Every edition's hand scoring counts through here; only the deck tables differ."""
    total = 0
    seen: dict[str, int] = {}
    for name, face in parsed:
        if name == "number" and face is None:
            hint = f" {numbers}" if numbers else ""
            raise CommandError("bad-argument", f"Give number cards by their value{hint} so they can be counted.")
        key = str(face) if face is not None else name
        seen[key] = seen.get(key, 0) + 1
        limit = copies(name, face)
        if limit is not None and seen[key] > limit:
            raise CommandError("bad-argument", f"The {deck} deck holds only {limit} of card {key}.")
        worth = face if face is not None else points(name)
        assert worth is not None, "only number cards score their face value"
        total += worth
    return total


def deck_points(edition: str) -> int:
    """Points of a whole deck: no hand can hold more."""
    numbers = COPIES_PER_NUMBER * sum(range(1, 10))
    return numbers + sum(c.points * c.count(edition) for c in CARDS.values() if c.points is not None)
