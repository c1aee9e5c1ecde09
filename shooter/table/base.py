"""What the table's rule mixins share, declared once with its types.

:class:`TurnRules`, :class:`PenaltyRules`, :class:`ScoringRules` and :class:`ExactRules` are
mixins of :class:`shooter.table.Table`: they work on the attributes ``Table.__init__`` sets and
call a few of each other's rules. :class:`TableBase` declares both (for type checkers; each
rule is implemented once, in the mixin named beside it) and gives the rule callbacks the game
they work on (:attr:`TableBase._game`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .options import RuleOptions
from .state import GameState

if TYPE_CHECKING:
    from shooter.fsm import TableMachine

Event = dict[str, Any]  # an event as the table emits it: shooter.events.Event without ``t``
Snapshot = dict[str, Any]  # state.snapshot(): GameState fields and "phase", as JSON data

# What cleared the undo history because its cards are out (``Table.undo_blocker``), and what ``undo``
# then says: a served press, or the deal of an exact variant (its shots and a void first card's extra card).
UNDO_BLOCKED = {
    "press": "The last thing was a press; its cards are out and cannot be taken back.",
    "deal": "The last thing was the deal; its cards are out and cannot be taken back.",
}


class TableBase:
    """The attributes of a Table (set in ``Table.__init__``) and the rules its mixins share."""

    phase: str  # none, deal, first, play, scoring or over: kept by the phase machine (machine.py)
    options: RuleOptions
    rng: random.Random
    game: GameState | None
    history: list[dict[str, Any]]  # [{"command": name, "game": snapshot before it}]
    undo_blocker: str | None  # a key of UNDO_BLOCKED once a command whose cards are out cleared the history
    shooting: bool  # exact variants: an accepted press's shot is out and not yet counted (count_shot)
    machine: TableMachine
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

        def _move_exact_windows(self, trigger: str, hands_before: dict[int, int] | None,
                                began: bool, seat: int | None) -> None: ...  # ExactRules
