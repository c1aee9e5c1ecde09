"""What an edition is, as data, and the one registry that holds them.

An :class:`Edition` is one box of Uno the table can play: its deck (one :class:`Side`, or two for Flip, each
with its cards, counts and points, the faces of its number cards and the order of the phone page's pad), the
scorings it allows, its start and first-card rules, whether its wild draw cards can be challenged, the hand
each seat is dealt, the names printed on the box per language, and the rules family it plays by
(:data:`EXTREME`: the shooter presses, the table counts nothing; :data:`COUNTING`: the shooter deals and
counts every card). Records are frozen: an edition is registered once (:func:`register`) and read everywhere
else by :func:`lookup`; nothing outside this package compares an edition's or a variant's name.

A game names its edition by two words of the protocol: ``variant`` (``game new variant=``) and, for a variant
with several decks, ``edition`` (``game new edition=``, Uno Extreme's years). :func:`lookup` turns the two into
the record; a variant's first registered record is its default edition.

The collections this module hands out (:data:`VARIANTS`, :data:`EDITIONS`, ...) are live views of the
registry: a record registered later (a house deck, a test's) is in them at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from ..errors import BadArgument
from ..vocabulary import Phase

# The ways of scoring a game (shooter/table/scoring.py carries them out); an edition allows some of them.
WINNER, LOWEST, ELIMINATION = "winner", "lowest", "elimination"
SCORINGS = (WINNER, LOWEST, ELIMINATION)

# The game a table plays when `game new` names no variant: the first record registered (builtin.py) is this.
DEFAULT_VARIANT, DEFAULT_EDITION = "extreme", "2016"
# The game every state file of format version 1 without a variant holds (saved before the editions came): its
# migration (shooter/table/persist.py) names it, whatever the default becomes.
FORMAT1_VARIANT, FORMAT1_EDITION = "extreme", "2016"

# The rules families (shooter/table/families.py carries each out).
EXTREME = "extreme"  # presses are owed and served; the table counts no card
COUNTING = "counting"  # the shooter as a counting dealer: every card is counted (docs/rules.md "exact")

class Effect(StrEnum):
    """What a card does to the turn: the words the families' rules are keyed by (a card table's ``effect``)."""

    PLAIN = "plain"  # the turn passes to the next seat
    SKIP = "skip"
    REVERSE = "reverse"
    HIT = "hit"  # Extreme: the next seat presses `presses` times and loses the turn
    EXTREME_HIT = "extreme-hit"  # Extreme: the card's player presses `presses` times at a target
    DRAW = "draw"  # counting: the next seat takes `cards`, loses the turn
    SKIP_TWO = "skip-two"
    TARGETED_DRAW = "targeted-draw"  # the target takes `cards`, keeps its turn
    SWAP = "swap"
    SHUFFLE = "shuffle"
    FLIP = "flip"
    SKIP_ALL = "skip-all"
    WILD_DRAW = "wild-draw"  # the next takes `cards` (None: until the colour), loses the turn; challengeable
    DISCARD_ALL = "discard-all"  # Attack: the player discards every card of the colour; the turn passes on
    ALL_HIT = "all-hit"  # Attack: every other seat presses `presses` times in turn, from the player's left
    HIT_FIRE = "hit-fire"  # Attack: the next seat presses until the shooter shoots a card, loses the turn


# The effects whose card is played with target=S (the player picks a seat): the table checks a play's
# target against this, the phone page asks for one.
AIMED_EFFECTS = frozenset({Effect.EXTREME_HIT, Effect.TARGETED_DRAW, Effect.SWAP})
# The Extreme family's effects that owe presses, each entry named by its card (the owed reason is the card's name)
OWING_EFFECTS = frozenset({Effect.HIT, Effect.EXTREME_HIT, Effect.ALL_HIT, Effect.HIT_FIRE})
# The effects whose victim loses its turn while it pays what the card owes (its presses or its cards)
LOSES_TURN = frozenset({Effect.HIT, Effect.DRAW, Effect.WILD_DRAW, Effect.HIT_FIRE})

# How the first card of a round is handled in the counting family.
TURNED_UP = "turned-up"  # the dealer turns one up and reports it (`first CARD`)
IGNORED = "ignored"  # the first card is ignored, play starts left of the dealer

NUMBER = "number"  # the name every deck gives its number cards (typed as their digit)

# The colours a card can be printed in or a wild's player can name: the light side (every deck but Flip's dark
# side) and Uno Flip's dark side. ``seen colour=C`` takes any of them.
LIGHT_COLOURS = ("red", "yellow", "green", "blue")
DARK_COLOURS = ("pink", "teal", "orange", "purple")
COLOURS = LIGHT_COLOURS + DARK_COLOURS
REDRAW, APPLY = "redraw", "apply"  # classic's start rules: a non-number first card is void, or it applies
# The counting family's effects that owe cards, each entry named by its card (exact.py's _x_draw, _x_targeted)
DEALING_EFFECTS = frozenset({Effect.DRAW, Effect.WILD_DRAW, Effect.TARGETED_DRAW})


@dataclass(frozen=True)
class DeckCard:
    """One row of a deck's card table."""

    rule: str  # the rule id that carries it (C-*, CL-*, AW-*, FL-*)
    name: str
    count: int | None  # None: unknown (All Wild's per-kind counts); number cards: all faces together
    points: int | None  # None: face value
    effect: Effect
    cards: int | None = 0  # counting family: cards a draw card deals; None: until the colour (Draw Colour)
    presses: int = 0  # Extreme family: presses a hit card owes
    wild: bool = False  # the card has no colour (the simulator's physical deck, the bots' colour)

    @property
    def challengeable(self) -> bool:
        return self.effect == Effect.WILD_DRAW


class Side(NamedTuple):  # not a dataclass: a fifth of the time to make at start-up
    """One side of a deck (Flip has two; every other deck one, ``name`` None)."""

    name: str | None
    cards: Mapping[str, DeckCard]  # in docs/rules.md's order
    digits: Mapping[int, int]  # face of a number card -> copies in the deck
    pad: tuple[str, ...]  # the phone page's buttons, as a player looks for them

    @staticmethod
    def of(name: str | None, cards: tuple[DeckCard, ...], digits: Mapping[int, int],
           pad: tuple[str, ...]) -> Side:
        return Side(name, MappingProxyType({c.name: c for c in cards}), MappingProxyType(dict(digits)), pad)


@dataclass(frozen=True)
class Edition:
    """One box of Uno (see the module docstring)."""

    variant: str  # game new variant=
    edition: str | None  # game new edition= (a variant with several decks); None: its one deck
    family: str  # EXTREME or COUNTING
    sides: tuple[Side, ...]  # the first is up when a round is dealt
    scorings: tuple[str, ...]  # D-SCORE: the scorings it allows, the first the default
    names: Mapping[str, Mapping[str, str]]  # per language: "" -> the box's name, card -> its printed name
    deck_size: int = 112
    colours: int = 4  # the colours its coloured cards come in
    hand_size: int = 7  # dealt to each seat (counting family: by the shooter; Extreme family: by hand)
    # Extreme family: the table keeps each seat's hand count (the deal, -1 a play, + the cards a press shot, a
    # Discard All's `discarded=`, a swap; docs/rules.md AT-HANDS); the counting family always counts its cards
    hand_counts: bool = False
    first_card: str = TURNED_UP  # counting family: TURNED_UP or IGNORED
    start_rules: tuple[str, ...] = ()  # game new start= (classic: redraw, apply); none: the first card applies
    first_void: frozenset[str] = frozenset()  # first cards that go back into the deck, in either family (flip's +2)
    challenges: bool = False  # a wild draw card's victim may `challenge` (classic, flip)
    drop_prefix: str = ""  # a prefix typed card names may carry (All Wild: "wild-", every card is one)
    best_hand: int | None = None  # the most points one hand scores, where the counts cannot say (All Wild)
    # the counts the simulator's physical deck assumes where the sheet gives none (card -> copies)
    assumed_counts: Mapping[str, int] = field(default_factory=dict)
    lookup_by: tuple[str, ...] = field(default=(), repr=False)  # filled in by register()

    def __deepcopy__(self, memo: dict[int, object]) -> Edition:
        return self  # a record is frozen and registered once: copies of a table share it

    @property
    def counting(self) -> bool:
        """The shooter counts every card (the exit sensor is needed)."""
        return self.family == COUNTING

    @property
    def keeps_hands(self) -> bool:
        """A game of it keeps hand counts: every counting deck, and an Extreme-family deck with ``hand_counts``."""
        return self.counting or self.hand_counts

    # --- what a game of this edition can hold (derived from the fields above; shooter/table/possible.py reads
    # them to tell a saved game that cannot happen from one that can) --------------------------------------
    @property
    def turns_up_first(self) -> bool:
        """A round starts from a card the dealer turns up (Extreme's ``round start first=``, classic's and
        Flip's ``first CARD``); All Wild's first card is ignored."""
        return self.first_card == TURNED_UP

    @property
    def phases(self) -> frozenset[str]:
        """The phases a game of it can be in: the counting family waits in ``first`` for a turned-up card."""
        return frozenset({Phase.DEAL, Phase.PLAY, Phase.SCORING, Phase.OVER,
                          *((Phase.FIRST,) if self.counting and self.turns_up_first else ())})

    @property
    def owing_cards(self) -> frozenset[str]:
        """Its cards (of any side: an entry outlives a flip) whose play owes an entry named by the card: the
        Extreme family's hits (presses), the counting family's draw cards (cards)."""
        effects = DEALING_EFFECTS if self.counting else OWING_EFFECTS
        return frozenset(c.name for c in self.cards().values() if c.effect in effects)

    @property
    def challengeable_cards(self) -> frozenset[str]:
        """The cards whose victim may ``challenge`` (none where the edition has no challenge)."""
        return frozenset(c.name for c in self.cards().values() if c.challengeable) if self.challenges \
            else frozenset()

    @property
    def first_owes(self) -> bool:
        """A first card can owe the seat left of the dealer (``start``): a card that owes presses (the Extreme
        family: its first-card rules may make any of them owe) or a draw card (the counting family) that the
        edition turns up and does not send back into the deck."""
        if not self.turns_up_first:
            return False
        effects = OWING_EFFECTS if not self.counting else (Effect.DRAW, Effect.WILD_DRAW)
        return any(c.effect in effects and c.name not in self.first_void for c in self.sides[0].cards.values())

    def least_deck(self, seats: int) -> int:
        """The fewest cards a round of ``seats`` seats can be dealt from: every hand and the first card."""
        return self.hand_size * seats + 1

    def cards_there_are(self, declared: int | None) -> int:
        """The most cards the hands can hold together: the deck, or the cards declared at round start if the
        table loaded more (``round start cards=``: decks put together)."""
        return self.deck_size if declared is None else max(self.deck_size, declared)

    @property
    def key(self) -> str:
        """The record's name: ``variant`` or ``variant-edition``."""
        return self.variant if self.edition is None else f"{self.variant}-{self.edition}"

    @property
    def title(self) -> str:
        """How a message names it: the English box name."""
        return self.names["en"][""]

    def side(self, name: str | None = None) -> Side:
        """The side called ``name`` (the first when None or for a one-sided deck)."""
        if name is None or len(self.sides) == 1:
            return self.sides[0]
        for side in self.sides:
            if side.name == name:
                return side
        raise KeyError(name)

    def other_side(self, name: str | None) -> Side | None:
        """The side that is down while ``name`` is up, None for a one-sided deck."""
        return next(s for s in self.sides if s.name != name) if len(self.sides) > 1 else None

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sides if s.name is not None)

    def card(self, name: str, side: str | None = None) -> DeckCard:
        return self.side(side).cards[name]

    def cards(self) -> dict[str, DeckCard]:
        """Every card of every side (a card both sides carry once)."""
        return {name: card for side in self.sides for name, card in side.cards.items()}

    def copies(self, name: str, face: int | None, side: str | None = None) -> int | None:
        """How many of a card (a number card: of its face) the deck holds; None: not known."""
        return self.side(side).digits.get(face, 0) if face is not None else self.side(side).cards[name].count

    def deck_points(self) -> int:
        """The most points a hand of this deck can score (bounds `score`)."""
        if self.best_hand is not None:
            return self.best_hand
        return max(sum(d * n for d, n in side.digits.items())
                   + sum(c.points * c.count for c in side.cards.values() if c.points is not None and c.count)
                   for side in self.sides)


class _Registry:
    """The registered records, in registration order; the views below read it."""

    def __init__(self) -> None:
        self.records: dict[tuple[str, str | None], Edition] = {}
        self.version = 0  # bumped by each register(): views cache what they derived from it

    def by_variant(self, variant: str) -> list[Edition]:
        return [r for r in self.records.values() if r.variant == variant]


_REGISTRY = _Registry()


def register(record: Edition) -> Edition:
    """Add a record; refuses a second record of the same variant and edition, a variant whose records
    disagree on their family, a record without its names in English, or a deck with two sides of one name."""
    key = (record.variant, record.edition)
    if key in _REGISTRY.records:
        raise ValueError(f"edition {record.key} is registered already")
    kin = _REGISTRY.by_variant(record.variant)
    if kin and (kin[0].family != record.family or (kin[0].edition is None) != (record.edition is None)):
        raise ValueError(f"edition {record.key} does not fit variant {record.variant}'s other editions")
    if record.family not in (EXTREME, COUNTING):
        raise ValueError(f"edition {record.key}: unknown rules family {record.family!r}")
    if "" not in record.names.get("en", {}):
        raise ValueError(f"edition {record.key} needs its box's name in English")
    if len({side.name for side in record.sides}) < len(record.sides):
        raise ValueError(f"edition {record.key}: each side of its deck needs a name of its own")
    _REGISTRY.records[key] = record
    _REGISTRY.version += 1
    return record


def unregister(record: Edition) -> None:
    """Take a record out again (a test's edition, once the test is done)."""
    if _REGISTRY.records.get((record.variant, record.edition)) is record:
        del _REGISTRY.records[(record.variant, record.edition)]
        _REGISTRY.version += 1


def records() -> list[Edition]:
    """Every registered record, in registration order."""
    return list(_REGISTRY.records.values())


def default() -> Edition:
    """The first registered record: the table's default (Uno Extreme 2016)."""
    return next(iter(_REGISTRY.records.values()))


def editions_of(variant: str) -> list[Edition]:
    """The records of one variant, its default first."""
    return _REGISTRY.by_variant(variant)


def lookup(variant: str, edition: str | None = None) -> Edition:
    """The record a game of ``variant`` (and ``edition``, for a variant with several) plays; KeyError when
    none is registered. A variant with one deck ignores ``edition`` (a game keeps the table's default there)."""
    kin = _REGISTRY.by_variant(variant)
    if not kin:
        raise KeyError(variant)
    if kin[0].edition is None:
        return kin[0]
    if edition is None:
        return kin[0]
    record = _REGISTRY.records.get((variant, edition))
    if record is None:
        raise KeyError(f"{variant} {edition}")
    return record


def choose(variant: str, edition: object) -> Edition:
    """The record ``game new variant= edition=`` names (the variant a checked word; the edition one too where
    the variant has editions), or bad-argument."""
    record = lookup(variant)
    if record.edition is None and edition is not None:
        with_editions = ", ".join(sorted({r.variant for r in records() if r.edition is not None}))
        raise BadArgument(f"edition= goes only with variant={with_editions}.")
    try:
        return lookup(variant, None if edition is None else str(edition))
    except KeyError:
        names = ", ".join(r.edition for r in editions_of(variant) if r.edition is not None)
        raise BadArgument(f"variant {variant} has the editions {names}, not {edition}.") from None


def family_of(variant: str) -> str:
    """The rules family a variant plays by (every edition of a variant plays by the same)."""
    return lookup(variant).family


class Names(Collection[str]):
    """A live, ordered collection of names derived from the registry (recomputed when a record is added)."""

    def __init__(self, derive: Callable[[], list[str]]):
        self._derive = derive
        self._version = -1  # no registry's: the first read derives (and sets the two below)
        self._names: tuple[str, ...]
        self._set: frozenset[str]

    def _current(self) -> tuple[str, ...]:
        if self._version != _REGISTRY.version:
            self._names = tuple(dict.fromkeys(self._derive()))
            self._set, self._version = frozenset(self._names), _REGISTRY.version
        return self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())

    def __contains__(self, name: object) -> bool:
        self._current()
        return name in self._set

    def __getitem__(self, index: int) -> str:
        return self._current()[index]

    def __repr__(self) -> str:
        return f"Names({list(self._current())!r})"


class Scorings(Mapping[str, tuple[str, ...]]):
    """variant -> the scorings it allows (its default edition's), live."""

    def __getitem__(self, variant: str) -> tuple[str, ...]:
        return lookup(variant).scorings

    def __iter__(self) -> Iterator[str]:
        return iter(VARIANTS)

    def __len__(self) -> int:
        return len(VARIANTS)


VARIANTS = Names(lambda: [r.variant for r in records()])  # game new variant=
EDITIONS = Names(lambda: [r.edition for r in records() if r.edition is not None])  # game new edition=
START_RULES = Names(lambda: [s for r in records() for s in r.start_rules])  # game new start=
SIDES = Names(lambda: [s for r in records() for s in r.side_names])  # set side=
# every card name of the counting family's decks (saved owed entries, challenges, first cards name them)
COUNTING_CARDS = Names(lambda: sorted({n for r in records() if r.counting for n in r.cards()}))
# the counting family's entries that stand for a victim's lost turn: a draw card's (named by the card, of any
# side: an entry outlives a flip) and the first card's `start`; a targeted draw's target keeps its turn
COUNTING_TURN_REASONS = Names(lambda: ["start", *sorted({c.name for r in records() if r.counting
                                                         for c in r.cards().values() if c.effect in LOSES_TURN})])
# the Extreme family's owed reasons of its cards (a hit card's entry is named by the card, of any record of the
# family: a saved entry must load whichever edition's it is) and those that stand for the victim's lost turn
EXTREME_CARD_REASONS = Names(lambda: sorted({c.name for r in records() if not r.counting
                                             for c in r.cards().values() if c.effect in OWING_EFFECTS}))
EXTREME_TURN_REASONS = Names(lambda: ["start", *sorted({c.name for r in records() if not r.counting
                                                        for c in r.cards().values() if c.effect in LOSES_TURN})])
SCORINGS_OF = Scorings()
