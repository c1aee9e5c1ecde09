"""What the table's rule mixins share, declared once with its types.

:class:`TurnRules`, :class:`PenaltyRules`, :class:`ScoringRules` and :class:`ExactRules` are
mixins of :class:`shooter.table.Table`: they work on the attributes ``Table.__init__`` sets and
call a few of each other's rules. :class:`TableBase` declares both (for type checkers; each
rule is implemented once, in the mixin named beside it) and gives the rule callbacks the game
they work on (:attr:`TableBase._game`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..editions.records import Edition
from .options import RuleOptions
from .state import GameState, ShotOut

if TYPE_CHECKING:
    from ..fsm import TableMachine

Event = dict[str, Any]  # an event as the table emits it: shooter.events.Event without ``t``
Snapshot = dict[str, Any]  # state.snapshot(): GameState fields and "phase", as JSON data

UNDO_LEVELS = 50  # undo keeps at most this many snapshots (the saved file too: persist.py)

# What cleared the undo history because its cards are out (``Table.undo_blocker``), and what ``undo``
# then says: a served press, or the deal of an exact variant (its shots and a void first card's extra card).
UNDO_BLOCKED = {
    "press": "The last thing was a press; its cards are out and cannot be taken back.",
    "deal": "The last thing was the deal; its cards are out and cannot be taken back.",
}


def began_turn(was: GameState) -> bool:
    """Whether a press (or any command) in the game as it `was` is the next player beginning: a draw press, or a
    press by the seat whose turn it is now (the victim paying for its lost turn, the player up paying a penalty of
    its own), whatever the card did to the turn order; other seats' penalty presses are not a turn. (The Uno
    windows of every family close on it.)"""
    head = was.queue[0] if was.queue else None  # (was.head, without a call: a press comes here)
    return head is None or head.by == was.seat_up()


class Family(Protocol):
    """What the table's plumbing asks of its rules family (``families.py`` has the families)."""

    name: str
    windows: str  # the rule method that moves the family's rule windows after every command
    counts: bool  # every command is checked to leave the card counts sound (state.count_problem)


class TableBase:
    """The attributes of a Table (set in ``Table.__init__``) and the rules its mixins share."""

    phase: str  # none, deal, first, play, scoring or over: kept by the phase machine (machine.py)
    options: RuleOptions
    rng: random.Random
    game: GameState | None
    history: list[dict[str, Any]]  # [{"command": name, "game": snapshot before it}]
    undo_blocker: str | None  # a key of UNDO_BLOCKED once a command whose cards are out cleared the history
    shot: ShotOut | None  # exact variants: the shot out now, saved until counted (resume.py)
    interrupted: ShotOut | None  # one that was out when the controller stopped (resume.py)
    machine: TableMachine  # the phase machine of the game's rules family (machine.FAMILY_TRANSITIONS)
    family: Family  # the game's rules family, chosen when the game starts (Table._choose_family)
    record: Edition  # the game's edition (shooter.editions): its deck, sides and rules
    _windows: Callable[[str, GameState | None, Snapshot | None, dict[str, Any]], None]  # family.windows, bound
    _events: list[Event]

    @property
    def _game(self) -> GameState:
        """The game a rule callback works on: the command was validated, so there is one."""
        game = self.game
        assert game is not None, "a table rule ran without a game"
        return game

    def _emit(self, event: str, **fields: Any) -> None:
        self._events.append({"event": event, **fields})

    if TYPE_CHECKING:
        def _announce(self, old_head: Event | None) -> None: ...  # TurnRules

        def _next_dealer(self) -> int: ...  # TurnRules
