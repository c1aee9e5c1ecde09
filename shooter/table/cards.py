"""The cards of Uno Extreme, as far as the table rules care about them.

:data:`CARDS` is the Extreme family's cards as the rules see them: for every card name
the points it scores and its effect on the turn (carried out in ``turns.py``); how many
of it each edition's deck holds is that edition's record's (:mod:`shooter.editions`,
docs/rules.md's card table), and :meth:`Card.count` of an edition no record holds is an
error, never another edition's counts. Everything else (play effects, hand points,
sanity checks of reported hands) reads these.

Card names are the protocol's (docs/protocol.md "Cards"): ``number`` (or a digit
``1``..``9``), ``skip``, ``reverse``, ``hit2``, ``hit4``, ``discard-all``,
``wild``, ``extreme-hit``, ``blank``. They are case-insensitive; ``_`` may
stand for ``-``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..editions.records import EXTREME, NUMBER, Edition, editions_of, records
from ..errors import BadArgument
from ..vocabulary import Reason

__all__ = ["CARDS", "Card", "count_hand", "deck_points", "extreme_edition", "hand_points", "parse_card"]


def extreme_edition(edition: str | Edition) -> Edition:
    """The Extreme family's record of ``edition`` (a record is its own); a KeyError for an edition no record
    holds, never another edition's counts."""
    if isinstance(edition, Edition):
        return edition
    for record in records():
        if record.family == EXTREME and record.edition == edition:
            return record
    raise KeyError(f"no Uno Extreme edition {edition!r} is registered")


@dataclass(frozen=True)
class Card:
    """One card of the Extreme family, as the rules see it: its points, effect and presses (alike in every
    edition); how many of it an edition's deck holds is that edition's record's (:meth:`count`)."""

    name: str
    points: int | None  # None: a number card scores its face value
    effect: str
    presses: int = 0  # presses a hit card owes

    def count(self, edition: str) -> int:
        """How many of this card the edition's deck holds (0: none; KeyError: no such edition)."""
        row = extreme_edition(edition).side().cards.get(self.name)
        return 0 if row is None or row.count is None else row.count


# docs/rules.md "Cards": every card the Extreme family's decks hold, in that table's order.
CARDS: dict[str, Card] = {
    row.name: Card(row.name, row.points, row.effect, row.presses)
    for record in records() if record.family == EXTREME for row in record.side().cards.values()
}

# P-*: presses a penalty owes (penalties.py carries them out).
PENALTY_PRESSES = {Reason.UNO: 2, Reason.ADVICE: 4, Reason.WRONG_CARD: 2}

# The most presses one owed entry can hold: a saved queue entry beyond this is corrupt.
MAX_OWED_PRESSES = max([c.presses for c in CARDS.values()] + list(PENALTY_PRESSES.values()))



def parse_card(text: object, edition: str | Edition) -> tuple[str, int | None]:
    """Normalise a card name as typed: returns (name in CARDS, face value or None).

    Raises ``bad-argument`` for an unknown name or a card the edition lacks.
    """
    if not isinstance(text, str) or not text.strip():
        raise BadArgument(f"{text!r} is not a card name.")
    word = text.strip().lower().replace("_", "-")
    record = extreme_edition(edition)
    side = record.side()
    if len(word) == 1 and word.isdecimal() and int(word) in side.digits:
        return NUMBER, int(word)
    # the variant's cards (every edition's: one edition may lack a card of another), never another variant's
    kin = {name: row for other in editions_of(record.variant) for name, row in other.side().cards.items()}
    if word not in kin:
        names = ", ".join([_digits(side.digits), *kin])
        raise BadArgument(f"Unknown card {text!r}; the cards are {names}.")
    if not side.cards.get(word) or not side.cards[word].count:
        raise BadArgument(f"The {record.edition or record.title} edition has no {word} cards.")
    return word, None


def _digits(digits: Iterable[int]) -> str:
    faces = sorted(digits)
    return f"{faces[0]}..{faces[-1]}" if faces else ""


def hand_points(cards: list[str], edition: str | Edition) -> int:
    """Points of the cards left in a hand (G-*); number cards must give their value.

    Refuses a hand the edition's deck could not hold (more copies than exist).
    """
    record = extreme_edition(edition)
    return count_hand((parse_card(text, record) for text in cards), deck=record.edition or record.title,
                      copies=lambda name, face: record.copies(name, face), points=lambda name: record.card(name).points,
                      numbers=f"({_digits(record.side().digits)})")


def count_hand(parsed: Iterable[tuple[str, int | None]], *, deck: str,
               copies: Callable[[str, int | None], int | None], points: Callable[[str], int | None],
               numbers: str = "") -> int:
    """The points of a hand of parsed cards (name, face value), refused if it holds more copies of a card than
    the deck (``copies``: how many exist, None if the count is not known) or a number card without its value.
    Every edition's hand scoring counts through here; only the deck tables differ."""
    total = 0
    seen: dict[str, int] = {}
    for name, face in parsed:
        if name == NUMBER and face is None:
            hint = f" {numbers}" if numbers else ""
            raise BadArgument(f"Give number cards by their value{hint} so they can be counted.")
        key = str(face) if face is not None else name
        seen[key] = seen.get(key, 0) + 1
        limit = copies(name, face)
        if limit is not None and seen[key] > limit:
            raise BadArgument(f"The {deck} deck holds only {limit} of card {key}.")
        worth = face if face is not None else points(name)
        assert worth is not None, "only number cards score their face value"
        total += worth
    return total


def deck_points(edition: str | Edition) -> int:
    """Points of a whole deck: no hand can hold more."""
    return extreme_edition(edition).deck_points()
