"""The table's numbers and words, and the checks of its arguments: one definition each.

Everything that says how many seats a table has, which scorings and editions
exist, how high a limit may go or how many presses one owed entry may hold is
defined here, and everything else (the table, its saved state, the console's
command table, the CLI, the docs' usage lines) reads it from here.

The argument checks are converters ``check(key, value) -> value`` that accept
what a console line types (text) as well as what Python callers pass (ints),
and raise ``bad-argument`` with one message format. The console's command
table (``shooter/commands/table.py``) uses these same converters as its Spec types,
so a game command's arguments are checked by one definition, and the message a
user sees is this one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from ..editions.records import EDITIONS, ELIMINATION, LOWEST, SCORINGS, SIDES, START_RULES, VARIANTS, WINNER
from ..errors import BadArgument

MIN_SEATS = 2  # S-SEATS: 2 to 10 players
MAX_SEATS = 10
MIN_LIMIT = 1
DEFAULT_LIMIT = 500
MAX_LIMIT = 100_000
# SCORINGS (WINNER, LOWEST, ELIMINATION: see scoring.py), and the registry's live names of what its edition
# records hold: VARIANTS (game new variant=), EDITIONS (edition=: Uno Extreme's decks), START_RULES (classic's
# first card, start=), SIDES (flip's, set side=). A record registered later is in them at once.
__all__ = ["ELIMINATION", "LOWEST", "SCORINGS", "WINNER", "EDITIONS", "VARIANTS", "START_RULES", "SIDES"]
DIRECTIONS = ("cw", "ccw")
PENALTY_KINDS = ("advice", "wrong-card")
CHALLENGE_RESULTS = ("upheld", "rejected")
MIN_GIVE = 1
MAX_GIVE = 20

Check = Callable[[str, object], object]


def whole_in(value: object, lo: int, hi: int) -> int:
    """``value`` (an int or typed digits) as a whole number from lo to hi; a ValueError says what is
    wrong with it (``must be 1..10, got 11``). The one check behind :func:`whole` and the CLI's numbers."""
    number = value
    if isinstance(value, str):
        text = value.strip()
        if not (text.isascii() and text.lstrip("-").isdecimal() and len(text) < 10):
            raise ValueError(f"must be a whole number, got {value!r}")
        number = int(text)
    if type(number) is not int:
        raise ValueError(f"must be a whole number, got {value!r}")
    if not lo <= number <= hi:
        raise ValueError(f"must be {lo}..{hi}, got {number}")
    return number


def whole(lo: int, hi: int) -> Callable[[str, object], int]:
    """A whole number from lo to hi, given as an int or as typed digits."""
    def check(key: str, value: object) -> int:
        try:
            return whole_in(value, lo, hi)
        except ValueError as exc:
            raise BadArgument(f"{key}= {exc}") from None
    return check


def word(*options: str) -> Callable[[str, object], str]:
    """One of ``options``, case-insensitive (ints accepted, e.g. an edition typed as 2016)."""
    return word_of(options)


def word_of(options: Collection[str]) -> Callable[[str, object], str]:
    """One of ``options`` as they are when checked (a live view of the registry's names, or a tuple)."""
    def check(key: str, value: object) -> str:
        text = str(value).strip().lower() if isinstance(value, (str, int)) and not isinstance(value, bool) else None
        if text is None or text not in options:
            raise BadArgument(f"{key}= must be one of {', '.join(options)}, got {value!r}")
        return text
    return check


def choices(options: Iterable[str]) -> str:
    """``a|b|c``: how usage lines and docs write a choice."""
    return "|".join(options)


PLAYERS = whole(MIN_SEATS, MAX_SEATS)
SEAT = whole(1, MAX_SEATS)
LIMIT = whole(MIN_LIMIT, MAX_LIMIT)
POINTS = whole(0, MAX_LIMIT)  # what a console may type; the table then checks against its deck
EDITION = word_of(EDITIONS)
SCORING = word(*SCORINGS)
DIRECTION = word(*DIRECTIONS)
PENALTY = word(*PENALTY_KINDS)
VARIANT = word_of(VARIANTS)
START = word_of(START_RULES)
SIDE = word_of(SIDES)
CHALLENGE_RESULT = word(*CHALLENGE_RESULTS)
GIVE_CARDS = whole(MIN_GIVE, MAX_GIVE)
HAND_COUNT = whole(0, 500)
DISCARDED = whole(0, 500)  # AT-HANDS: the cards a Discard All took with it (play ... discarded=N)
DECK_CARDS = whole(1, 500)
