"""The table's plumbing, shared by its rules families: running a command all or nothing, the checks every
command makes (phase, seats, targets, reports) and the undo snapshots.

:class:`TableCore` is the model the phase machines run on (their callbacks and conditions are its rule
mixins' methods); :class:`shooter.table.Table` adds the commands, each handed to the game's rules family
(``families.py``), which validates it with these checks and fires its trigger with :meth:`TableCore._run`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..editions.records import AIMED_EFFECTS
from ..errors import BadArgument, BadCount, NoGame, NotYourTurn, PressesOwed, WrongPhase
from .args import whole
from .base import UNDO_LEVELS, Event
from .exact import ExactRules
from .loader import load_snapshot
from .penalties import PenaltyRules
from .resume import still_owed
from .scoring import ScoringRules
from .state import GameState, Snapshot, count_problem, snapshot
from .turns import TurnRules


class TableCore(TurnRules, PenaltyRules, ScoringRules, ExactRules):
    """The model of the phase machines, with the plumbing every command goes through."""

    def _choose_family(self) -> None:
        """Pick the rules family, its machine and the edition record of ``self.game`` (Table does)."""
        raise NotImplementedError

    # --- triggers the table pulls after a command ------------------------------
    def end_round(self) -> bool:
        """Pull ``end_round``: the round ends if someone went out and nothing is owed."""
        return self.machine.trigger("end_round")

    def settle(self) -> bool:
        """Pull ``settle``: once every report is in, the round is scored."""
        return self.machine.trigger("settle")

    # --- undo -----------------------------------------------------------------
    def _snapshot(self) -> Snapshot | None:
        return None if self.game is None else snapshot(self.game, self.phase)

    def _restore(self, data: Snapshot) -> None:
        """Back to an undo level: every level holds a game (``game new`` clears the history), never none."""
        self.game, phase = load_snapshot(data)
        self.machine.set_state(phase)

    # --- running a command --------------------------------------------------------
    def _run(self, command: str | None, trigger: str, announce: bool = False,
             finish: Callable[[], object] | None = None, forget: str | None = None, **kwargs: Any) -> list[Event]:
        """Fire a trigger (named in the family's machine table) after validation; all or nothing.

        `command` names the undo level to push (None: not undoable); `forget`
        clears the undo history instead: "game", or what ``undo`` then names as the reason
        (a key of UNDO_BLOCKED: "press", "deal"). After the trigger the rule windows move as the
        command (its trigger and its arguments) says (the family's ``windows`` rule, the one place).

        Rolling back needs only a copy of the game (``GameState.clone``, every command alike); the snapshot of the game
        before (JSON data, for the undo level and a play's ``last_play``) is made from that copy,
        after the trigger and only for an undoable command: a press makes none.
        """
        game, phase = self.game, self.phase
        rollback = None if game is None else game.clone()
        old_head = game.head.public() if announce and game and game.head else None
        self._events = []
        before = None
        try:
            self.machine.trigger(trigger, **kwargs)
            if command is not None and rollback is not None:
                before = snapshot(rollback, phase)
            self._windows(trigger, rollback, before, kwargs)
            if announce:
                self._announce(old_head)
            if finish:
                finish()
            if self.game is not None and (self.family.counts or self.game.hands is not None):  # (AT-HANDS too)
                broken = count_problem(self.game)
                if broken:  # a rule's bug must not reach the shooter or the state file: refused, rolled back
                    raise BadCount(f"Refused, nothing changed: {broken[1]}.")
        except BaseException:
            self.game = rollback  # the copy, untouched by the trigger: the game as it was
            self._choose_family()  # (a new game's family goes with it)
            self.machine.set_state("none" if rollback is None else phase)
            raise
        if self.interrupted is not None and not still_owed(self.game, self.interrupted):
            self.interrupted = None  # nothing left to resolve (resume.py)
        if forget:
            self.history, self.undo_blocker = [], (None if forget == "game" else forget)
        elif command is not None:
            self.history = (self.history + [{"command": command, "game": before}])[-UNDO_LEVELS:]
        return self._events

    def _end_round_if_out(self) -> None:
        """Pull ``end_round`` (after a command in phase play) unless its first condition,
        ``_someone_went_out``, already says no: then the trigger would do nothing, so a draw press
        or an ordinary play does not pull it at all. The trigger still asks both its conditions."""
        game = self.game  # (_someone_went_out asked without its call: every press comes here)
        if game is not None and game.going_out is not None:
            self.end_round()

    def _set_up_game(self, game: GameState) -> None:
        self.game = game
        self.shot = self.interrupted = None  # a shot of the game before is no shot of this one
        self._choose_family()  # the game's family plays it from here (its machine, its edition)

    # --- the checks commands make -------------------------------------------------
    def _need(self, trigger: str, doing: str) -> GameState:
        """The game, if `trigger` is valid in the current phase; else no-game / wrong-phase."""
        if self.game is None:
            raise NoGame("There is no game; start one with game new.")
        if not self.machine.may(trigger, self.phase):
            raise WrongPhase(f"Cannot {doing} in phase {self.phase}.")
        return self.game

    def _seat(self, value: object, name: str, in_game: bool = True) -> int:
        g = self._game
        seat = whole(1, g.players)(name, value)
        if in_game and seat in g.out:
            raise BadArgument(f"Seat {seat} is out of the game.")
        return seat

    def _aims(self, card: str) -> bool:
        """Whether a played card is played with target=S (its effect aims: AIMED_EFFECTS)."""
        return self._effect(card) in AIMED_EFFECTS

    def _check_target(self, card: str, target: int | None, typed: object) -> None:
        """An Extreme Hit needs a target, any other seat still in the game (``card``: the kind of card, ``typed``:
        the card as the command named it, for the message: "5", not "number")."""
        g = self._game
        aims = self._aims(card)
        aimed = " or ".join(n for n, c in self.record.side().cards.items() if c.count and c.effect in AIMED_EFFECTS)
        if not aims and target is not None:
            if not aimed:   # Uno Attack 106: no card of its deck aims
                raise BadArgument(f"target= goes with no card of this edition (none aims), not with "
                                  f"{str(typed).strip()}.")
            if aimed[:1] in "aeiou":   # the article, for the sentence: "an extreme-hit", "a trade-hands"
                raise BadArgument(f"target= goes only with an {aimed}, not with {str(typed).strip()}.")
            raise BadArgument(f"target= goes only with a {aimed}, not with {str(typed).strip()}.")
        if aims and target is None:
            if card[:1] in "aeiou":
                raise BadArgument(f"An {card} needs target=S, the seat to aim at.")
            raise BadArgument(f"A {card} needs target=S, the seat to aim at.")
        if aims and (target == g.current or target in g.out):
            raise BadArgument(f"Seat {target} cannot be the target: pick another seat still in the game.")

    def _play_target(self, g: GameState, seat: object, target: object, last: object) -> int | None:
        """A play's ``target=`` (None without one), once its ``seat=`` (the current player's, if given) and
        its ``last`` flag are checked."""
        who = None if seat is None else self._seat(seat, "seat", in_game=False)
        aim = None if target is None else self._seat(target, "target", in_game=False)
        if not isinstance(last, bool):
            raise BadArgument("last must be true or false.")
        if who is not None and who != g.current:
            raise NotYourTurn(f"It is seat {g.current}'s turn, not seat {who}'s.")
        return aim

    def _nothing_owed_now(self) -> None:
        head = self._game.head
        if head is not None:
            raise PressesOwed(f"Seat {head.seat} is still owed cards ({head.reason}).")

    def _reporter(self, value: object) -> int:
        seat = self._seat(value, "seat")
        if seat == self._game.round_winner:
            raise BadArgument(f"Seat {seat} won the round; their hand counts 0.")
        return seat

    def _report(self, seat: int, points: int, command: str = "hand", count: int | None = None) -> list[Event]:
        return self._run(command, "report_hand", seat=seat, points=points, count=count, finish=self.settle)
