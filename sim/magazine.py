"""The magazine: the stack of cards in the shooter, the top card (the next out) last.

Anonymous cards (``sim load cards=N``) are all alike, so a block of them at the bottom of the
stack is kept as a count, and a card object is made only when one reaches the top, or when
someone looks at the whole stack (iterating, reversing, loading named cards under them). A long
session that loads more cards than it shoots holds a number, not a card object for every card.
It behaves as the ``deque`` it replaces for everything the simulator and its bots do with it::

    >>> from sim.cards import Card
    >>> magazine = Magazine()
    >>> magazine.add_anonymous(3)
    >>> ace = Card(face="number", colour="red", value=1)
    >>> magazine.append(ace)                  # on top
    >>> len(magazine), magazine.unmade
    (4, 3)
    >>> magazine.pop() is ace, len(magazine), magazine.unmade
    (True, 3, 3)
    >>> magazine.pop().face is None, magazine.unmade   # an anonymous card, made as it leaves
    (True, 2)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from .cards import Card, TableCard


class Magazine:
    """A stack of cards, bottom first; anonymous cards at the bottom kept as a count."""

    def __init__(self) -> None:
        self._cards: deque[TableCard] = deque()   # bottom first; the top card (next out) last
        self._unmade = 0                     # anonymous cards under all of them, not made yet

    @property
    def unmade(self) -> int:
        """Anonymous cards at the bottom that have no card object yet."""
        return self._unmade

    def made(self) -> list[TableCard]:
        """The card objects in the stack (every card but the unmade ones), bottom first."""
        return list(self._cards)

    def __len__(self) -> int:
        return len(self._cards) + self._unmade

    def __bool__(self) -> bool:
        return bool(self._cards) or self._unmade > 0

    def __iter__(self) -> Iterator[TableCard]:
        self._make_all()
        return iter(self._cards)

    def __reversed__(self) -> Iterator[TableCard]:
        self._make_all()
        return reversed(self._cards)

    def add_anonymous(self, n: int) -> None:
        """``n`` anonymous cards under those already there."""
        self._unmade += n

    def appendleft(self, card: TableCard) -> None:
        """``card`` under those already there."""
        self._make_all()
        self._cards.appendleft(card)

    def append(self, card: TableCard) -> None:
        """``card`` on top."""
        self._cards.append(card)

    def pop(self) -> TableCard:
        """The top card, taken off."""
        if self._cards:
            return self._cards.pop()
        if self._unmade:
            self._unmade -= 1
            return Card()
        raise IndexError("pop from an empty magazine")

    def reverse(self) -> None:
        """The stack turned over."""
        self._make_all()
        self._cards.reverse()

    def clear(self) -> None:
        self._cards.clear()
        self._unmade = 0

    def _make_all(self) -> None:
        if self._unmade:
            self._cards.extendleft(Card() for _ in range(self._unmade))
            self._unmade = 0
