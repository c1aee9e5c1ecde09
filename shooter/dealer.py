"""The counting dealer: the exact variants (classic, all-wild, flip and any edition of the counting family),
where the shooter deals and serves exactly what the table owes, counted card by card by the exit sensor.

One part of its own, beside the press path of the Extreme family: the deal and the first card shot without a
press (:meth:`Dealer.serve_dealt`), a press or ``draw`` that shoots the head of the owed queue in full
(:meth:`Dealer.press`), and each counted shot credited to the table, going on with the next burst of a long
entry or the next seat of the deal (:meth:`Dealer.count`). Every shot is recorded by the table and saved before
its cards are counted, so a stop mid-shot is reported on resume (:mod:`shooter.table.resume`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import beeps
from .commands.dispatch import Reply
from .errors import CommandError, ErrorCode, ShooterError, command_error
from .events import Event
from .launcher import Launcher, Shot
from .scheduler import Scheduler
from .table import Table
from .vocabulary import EventName

if TYPE_CHECKING:
    from hal.interfaces import Beeper

    from .commands.simulator import SimulatedHardware


class Dealer:
    """The shooter as a counting dealer, on the control loop."""

    def __init__(self, *, table: Table, launcher: Launcher, scheduler: Scheduler, beeper: Beeper,
                 emit: Callable[..., None], changed: Callable[[list[Event], Shot | None], None],
                 save: Callable[[], None], sim: SimulatedHardware | None = None) -> None:
        self.table = table
        self.launcher = launcher
        self.scheduler = scheduler
        self.beeper = beeper
        self.emit = emit
        self.changed = changed     # the table's change announced, the shot queued, the game saved (the desk's)
        self.save = save
        self.sim = sim             # the simulator's magazine, filled with exactly the deck dealt (None: real)

    def in_flight(self) -> bool:
        """A shot is queued or being shot: its cards are not counted yet."""
        return bool(self.launcher.queue) or self.launcher.current is not None

    def load_deck(self, deck: int) -> None:
        """D-DEAL: the shuffled deck is loaded: the shooter counts down from it (the simulator's magazine
        holds exactly that deck)."""
        if self.sim is not None:
            self.sim.fill_magazine(deck)
        self.launcher.set_count(deck)

    def serve_dealt(self) -> None:
        """Shoot the dealer's own entries (the deal, the first card) without a press."""
        if self.table.dealt_next() and not self.in_flight():
            self._shoot(self._shot())

    def press(self, source: str, serve: Callable[[], list[Event]]) -> Reply:
        """A press (or `draw`) in an exact variant: the head of the owed queue in full, or the draw."""
        refusal = self.launcher.refusal(owed=True)
        if refusal is None and self.in_flight():
            refusal = (ErrorCode.BUSY, "the shooter is still serving the last shot; press when it is done")
        try:
            if refusal is not None:
                raise command_error(*refusal)
            events = serve()
        except CommandError as error:
            self.beeper.play(beeps.PRESS_REFUSED)
            self.emit(EventName.REFUSED, source=source, error=error.code, message=error.message)
            raise
        due = self._due()
        shot = self._shot(due)
        self.beeper.play(beeps.PRESS_ACCEPTED)
        if source == "button":
            self.emit(EventName.PRESS, source=source, seat=shot.seat, reason=shot.reason)
        self._record(shot)   # saved with the press
        self.changed(events, shot)
        return {"seat": shot.seat, "reason": shot.reason, "cards": due[2]}

    def count(self, shot: Shot) -> None:
        """The exit sensor counted a shot: the table credits it; an uninterrupted shot of a long
        entry goes on with the next burst, the deal with the next seat."""
        table = self.table
        head = table.game.head if table.game is not None else None
        try:
            self.changed(table.count_shot(shot.planned, shot.ejected, shot.seat, shot.reason), None)
        except CommandError as error:
            # the cards are out but are no entry's (a bug in the table): said, never a fault that strands the game
            self.emit(EventName.UNCOUNTED, seat=shot.seat, cards=shot.ejected, reason=shot.reason,
                      message=error.message)
            self.save()   # the shot is over (its record cleared), counted or not
            return
        head_now = table.game.head if table.game is not None else None
        if shot.interrupted or self.in_flight():
            return
        if table.dealt_next():
            self.serve_dealt()
        elif head_now is not None and head_now is head and head.cards and head.served:
            self._shoot(self._shot())  # the rest of a long draw: the next burst

    def _due(self) -> tuple[int, str, int]:
        """(seat, reason, cards) of what the table owes now; every caller has just seen an entry owed
        (a deal, a press, the rest of a long draw), so none owed is the table's bug: said loudly."""
        due = self.table.due()
        if due is None:
            raise ShooterError("exact variant: the table owes no shot where one is due (a bug in the table)")
        return due

    def _shot(self, due: tuple[int, str, int] | None = None) -> Shot:
        seat, reason, cards = self._due() if due is None else due
        return Shot(seat=seat, reason=reason, planned=self.scheduler.exact(cards))

    def _shoot(self, shot: Shot) -> None:
        """A shot of the counting dealer without a command (the deal, the next burst of a long entry): the
        table records it and the record is saved, so a stop before its count is reported on resume."""
        self._record(shot)
        self.launcher.enqueue(shot)
        self.save()

    def _record(self, shot: Shot) -> None:
        """The table records the counting dealer's shot, to be saved before its cards are counted."""
        assert shot.seat is not None, "an exact shot is for the seat the table owes it to"
        self.table.shot_out(shot.seat, shot.reason, shot.planned)
