"""Whether a game is a possible game of its edition: the one check a loaded game must pass.

A saved game can pass every field check of the loader (``loader.load_snapshot``: each field of its type and
range, the phases' cross-field rules, the counts) and still describe a game no table can reach: a Flip game
with no side up, a classic game on Flip's dark side, classic owing Flip's Wild Draw Colour, the deal's entry
owed in the play phase, a challenge pending on a skip. Resumed, such a game plays on from a state the rules
were never written for. :func:`impossible` says what makes a game impossible, in one line, or None.

Every test here is derived from the game's edition record (shooter/editions/records.py: its sides, its
phases, the cards whose play owes an entry, its challenge, its first card, its deck and hand), never from a
list of editions: a record registered later (a house deck, a fifth edition) is covered as it is. The count
rules are ``state.count_problem``'s, which the table also holds every command to (one rule for both).

The one game loader (``persist.table_from_dict``) refuses an impossible game, its undo levels and a play a
wrong-card penalty may take back: the file is then set aside with one line like a corrupt one, and the
controller starts without the game. The tests check it after every step of their games (tests/possible.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..editions.records import Edition, lookup
from ..vocabulary import Phase, Reason
from .loader import load_snapshot
from .state import DEALER_REASONS, PENALTY_REASONS, GameState, count_problem

if TYPE_CHECKING:
    from .core import TableCore

# the counting family's entries every edition of it may owe: the deal and its first card, a caught Uno, a
# `give`, a press's 1-card draw (what else it may owe is its record's: its draw cards, challenge and first card)
COUNTING_REASONS = frozenset({*DEALER_REASONS, Reason.UNO, Reason.GIVE, Reason.DRAW})
# the entries owed while the counting dealer waits for the first card: the deal, the first card, a `give`
FIRST_PHASE_REASONS = frozenset({*DEALER_REASONS, Reason.GIVE})


def record_of(game: GameState) -> Edition | None:
    """The edition record the game plays (None: no such edition is registered)."""
    try:
        return lookup(game.variant, game.edition)
    except KeyError:
        return None


def owed_reasons(record: Edition) -> frozenset[str]:
    """What an owed entry of a game of ``record`` may be owed for."""
    start = {Reason.START} if record.first_owes else set()
    if not record.counting:
        return frozenset({*record.owing_cards, *start, *PENALTY_REASONS})
    challenge = {Reason.CHALLENGE} if record.challenges else set()
    return frozenset({*record.owing_cards, *start, *challenge, *COUNTING_REASONS})


def unregistered(game: GameState) -> str:
    """Why a game of no registered edition is impossible."""
    return f"no edition {game.variant} {game.edition} is registered"


def impossible(game: GameState, phase: str, record: Edition | None = None) -> str | None:
    """Why ``game`` in ``phase`` cannot be a game of its edition (one line, no full stop), or None; checked
    against ``record`` where given (the loader passes the record it found), else the game's own."""
    record = record or record_of(game)
    return unregistered(game) if record is None else _impossible(game, phase, record)


def _impossible(game: GameState, phase: str, record: Edition) -> str | None:
    """:func:`impossible` against its record, found."""
    if phase not in record.phases:
        return f"{record.title} has no phase {phase}"
    if game.scoring not in record.scorings:
        return f"{record.title} scores {', '.join(record.scorings)}, not {game.scoring}"
    return (_sides(game, phase, record) or _first(game, phase, record) or _queue(game, phase, record)
            or _pending(game, phase, record) or _counts(game, phase, record))


def _sides(game: GameState, phase: str, record: Edition) -> str | None:
    # the side up is one of the deck's; a two-sided deck has one up from the first deal on
    sides = record.side_names
    if not sides and game.side is not None:
        return f"its deck has one side, and the {game.side} side is up"
    if sides and game.side is None and phase != Phase.DEAL:
        return f"no side of its deck ({', '.join(sides)}) is up in phase {phase}"
    if sides and game.side is not None and game.side not in sides:
        return f"its deck has no {game.side} side (it has {', '.join(sides)})"
    if record.counting and game.start not in (None, *record.start_rules):
        rules = ", ".join(record.start_rules) or "none"
        return f"its first-card rule is {game.start}, and its rules are {rules}"
    return None


def _first(game: GameState, phase: str, record: Edition) -> str | None:
    # the first card is one of its deck's (Extreme: one the deck holds, never one that goes back into it);
    # an edition that ignores the first card has none, one that turns it up has one once play began
    first = game.first
    if not record.turns_up_first:
        return None if first is None else f"it ignores the first card, and {first} is its first card"
    if first is None:
        return f"no first card is turned up in phase {phase}" if phase in (Phase.PLAY, Phase.SCORING) else None
    row = record.cards().get(first)
    if row is None:
        return f"its deck has no {first} to turn up"
    if not record.counting and (row.count == 0 or first in record.first_void):
        return f"its deck has no {first} to turn up"
    return None


def _queue(game: GameState, phase: str, record: Edition) -> str | None:
    # every entry is owed for what this edition can owe, and in a phase that can owe it
    reasons = owed_reasons(record)
    for entry in game.queue:
        if entry.reason not in reasons:
            return f"seat {entry.seat} is owed for {entry.reason}, which {record.title} never owes"
        if record.counting and phase == Phase.FIRST and entry.reason not in FIRST_PHASE_REASONS:
            return f"seat {entry.seat} is owed for {entry.reason} before the first card"
        if record.counting and Phase.FIRST in record.phases and phase == Phase.PLAY and entry.reason in DEALER_REASONS:
            return f"the dealer's shot ({entry.reason}) is owed in phase play, after the first card"
    return None


def _pending(game: GameState, phase: str, record: Edition) -> str | None:
    # a challenge waits only on a card of this edition that can be challenged, during play, by its victim
    chal = game.challenge
    if chal is not None:
        if chal["card"] not in record.challengeable_cards:
            can = ", ".join(sorted(record.challengeable_cards)) or "none"
            return f"a challenge waits on {chal['card']}, and the cards that can be challenged are {can}"
        if phase != Phase.PLAY:
            return f"a challenge waits in phase {phase}"
        if chal["seat"] == chal["by"] or {chal["seat"], chal["by"]} - set(game.in_game):
            return f"a challenge waits between seats {chal['by']} and {chal['seat']}, not two seats in the game"
        # the card's cards wait at the head of the victim's owed entries: the press that serves them ends the
        # challenge (exact.py), so a challenge never waits without them
        if not any(o.seat == chal["seat"] and o.reason == chal["card"] for o in game.queue):
            return f"a challenge waits on {chal['card']}, and seat {chal['seat']} is owed no {chal['card']} cards"
    if game.drawn is not None and phase != Phase.PLAY:
        return f"seat {game.drawn} drew in phase {phase}"
    if game.drawn is not None and game.going_out is not None:
        return f"seat {game.drawn} drew after seat {game.going_out} went out"
    if record.counting and game.hands is not None:
        for window in game.uno_windows:
            held = game.hands.get(window["seat"])
            if held != 1:
                return f"seat {window['seat']}'s Uno window is open on a hand of {held} cards"
    return None


def _counts(game: GameState, phase: str, record: Edition) -> str | None:
    # a counting game counts its hands; an Extreme-family edition with hand counts (AT-HANDS) has them from its
    # first round start on (null: not known, since a game saved before they were kept); the cards declared at
    # round start deal every hand and the first card
    hands = game.hands
    if hands is not None and not record.keeps_hands:
        return "it counts no hands"
    if hands is None and record.counting:
        return "its hands are not counted"
    if hands is not None and not record.counting:
        if phase == Phase.DEAL and game.round == 1:
            return "its hands are counted before its first round was dealt"
        out = sorted(set(hands) & set(game.out))
        if out and phase == Phase.PLAY:  # (a seat a settled round put out keeps its count until the next deal)
            return f"seat {out[0]} is out of the game, and its hand is counted"
    if game.deck is not None and game.deck < record.least_deck(len(game.in_game)):
        return (f"{game.deck} cards cannot deal {len(game.in_game)} hands of {record.hand_size} and the first "
                f"card")
    problem = count_problem(game)
    return None if problem is None else f"{problem[0]}: {problem[1]}"


def impossible_nested(game: GameState, phase: str, record: Edition) -> str | None:
    """:func:`impossible` of the game and of the play before it a wrong-card penalty may take back (``record``:
    the game's, which its callers have found). The play's snapshot is loaded as the loader loads it: one level
    only, its fields named from ``last_play.before``."""
    problem = _impossible(game, phase, record)
    if problem is None and game.last_play is not None:
        before, before_phase = load_snapshot(game.last_play["before"], "last_play.before", nested=True)
        if (before.variant, before.edition) != (game.variant, game.edition):   # taken back, it would be played on
            problem = (f"it is a game of {before.variant} {before.edition}, not of {game.variant} "
                       f"{game.edition}")
        else:
            problem = _impossible(before, before_phase, record)
        if problem is not None:
            problem = f"the play a wrong card takes back: {problem}"
    return problem


def impossible_saved(game: GameState, phase: str) -> str | None:
    """:func:`impossible_nested` against the game's own record, or :func:`unregistered` without one: the one
    question the saved game's loader and the bots both ask."""
    record = record_of(game)
    return unregistered(game) if record is None else impossible_nested(game, phase, record)


def table_impossible(table: TableCore) -> str | None:
    """:func:`impossible_saved` of a table's game (None without one): what the bots and the tests ask after
    every step (the undo levels were the game at earlier steps, asked then)."""
    return None if table.game is None else impossible_saved(table.game, table.phase)
