"""Physical cards for the simulated table: what lies in the magazine, in hands and on the pile.

The simulator does not know the rules; it knows what a card looks like. A deck is built from a
count per face (the controller's card table hands it over through the composition root, so the
counts live in one place): coloured faces are spread evenly over the four colours, number cards
carry their value, wild faces have no colour.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

COLOURS = ("red", "yellow", "green", "blue")
WILD_FACES = ("wild", "extreme-hit", "hit4", "blank")

_serials = itertools.count(1)


@dataclass(eq=False)
class Card:
    """One physical card. Two cards are the same card only if they are the same object."""

    face: str | None = None          # "number", "hit2", ... None for an anonymous card
    colour: str | None = None
    value: int | None = None         # 1..9 for number cards
    serial: int = field(default_factory=lambda: next(_serials))

    @property
    def name(self) -> str:
        """The protocol's card name: ``7`` for a number, else the face."""
        return str(self.value) if self.face == "number" else (self.face or "?")

    def __repr__(self) -> str:
        what = f"{self.colour or 'wild'} {self.name}" if self.face else "card"
        return f"<{what} #{self.serial}>"


def make_deck(counts: dict[str, int], wilds: Collection[str] = WILD_FACES) -> list[Card]:
    """A deck from ``{face: count}``; numbers get values 1..9 in turn, coloured faces (not in ``wilds``, the
    faces the edition's record prints without a colour) the four colours."""
    deck: list[Card] = []
    for face, count in counts.items():
        for i in range(count):
            if face in wilds:
                deck.append(Card(face))
            elif face == "number":
                # 72 = 4 colours x 9 values x 2
                deck.append(Card(face, COLOURS[i % 4], value=1 + (i // 4) % 9))
            else:
                deck.append(Card(face, COLOURS[i % 4]))
    return deck


DARK_COLOURS = ("pink", "teal", "orange", "purple")  # Uno Flip's dark side


def make_cards(faces: dict[str, int], numbers: dict[int, int], wilds: Collection[str],
               colours: Sequence[str] = COLOURS) -> list[Card]:
    """A deck of one-sided cards: ``numbers`` {value: count} spread over the colours, ``faces`` {face: count},
    coloured unless the face is in ``wilds``."""
    n = len(colours)
    deck = [Card("number", colours[i % n], value=value) for value, count in numbers.items() for i in range(count)]
    for face, count in faces.items():
        deck += [Card(face) if face in wilds else Card(face, colours[i % n]) for i in range(count)]
    return deck


@dataclass(eq=False)
class FlipCard:
    """One two-sided Uno Flip card: a light face and a dark face."""

    light: Card
    dark: Card
    serial: int = field(default_factory=lambda: next(_serials))

    def side(self, side: str) -> Card:
        return self.light if side == "light" else self.dark

    def __repr__(self) -> str:
        return f"<flip {self.light!r}/{self.dark!r}>"


TableCard = Card | FlipCard  # a physical card as the shooter holds and shoots it: one-sided, or Flip's two-sided


def make_flip_deck(light: list[Card], dark: list[Card], rng: random.Random) -> list[FlipCard]:
    """Two-sided cards: every light face gets a dark face on its back, paired at random by ``rng``."""
    if len(light) != len(dark):
        raise ValueError(f"the sides differ: {len(light)} light and {len(dark)} dark faces")
    backs = list(dark)
    rng.shuffle(backs)
    return [FlipCard(front, back) for front, back in zip(light, backs, strict=True)]
