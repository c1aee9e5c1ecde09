"""The controller: one object on the control loop that ties the table's rules,
the shooter's state machine and the consoles together.

Every console line ends up in :meth:`Controller.handle_line`, which answers with
exactly one reply and then the events the command caused (in that order). Events
that happen later (a burst ending, the lid opening) go to every console at once.

The commands are a table of callables (:data:`shooter.commands.COMMANDS`), given at
construction; the table's commands are in :mod:`shooter.game_commands`, the simulator's
in :mod:`shooter.sim_commands`, bring-up in :mod:`shooter.bringup.commands` and the web
console's in :mod:`shooter.pairing_commands`. Dependencies point one way: the controller
drives the launcher, and the launcher never calls the controller. It asks
:class:`~shooter.seats.Seats` how many seats there are and where, emits into the
:class:`~shooter.events.Broadcast`, and reports a finished shot through the one
callback given at construction (``on_shot``).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from hal import HardwareParts

from . import __version__, beeps
from .access import IN_PROCESS, Caller
from .bringup.commands import aim_angle, bringup_status
from .dispatch import Command, Reply, run
from .errors import CommandError, ShooterError
from .events import Broadcast, Event, Sink, stamp
from .launcher import Launcher, LauncherSettings, Shot
from .loop import ControlLoop
from .pairing_commands import arm_pair_hold, pair_press, web_status
from .protocol import PROTOCOL_VERSION, error_reply, parse, reply, reply_name
from .scheduler import Scheduler
from .seats import SeatAngles, Seats, spread_between
from .table import RuleOptions, Table

if TYPE_CHECKING:
    from .bringup.calibration import Calibration
    from .config import Config
    from .persist import Store
    from .seat_names import SavedNames
    from .sim_commands import SimulatedHardware
    from .web.pairing import Pairing


def _reply_name(raw: bytes | str) -> str:
    """The reply's name for a line that could not be carried out (it may not even parse)."""
    return reply_name(raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw) or ""


class Controller:
    """All state of a running shooter, served on the one loop."""

    def __init__(self, *, loop: ControlLoop, hw: HardwareParts, table: Table, scheduler: Scheduler,
                 commands: Sequence[Command], launcher_settings: LauncherSettings | None = None,
                 seat_angles: SeatAngles | None = None, default_seats: int = 4,
                 sim: SimulatedHardware | None = None, cards: int | None = None, store: Store | None = None,
                 storage: dict[str, Any] | None = None, rules: RuleOptions | None = None) -> None:
        self.loop = loop
        self.clock = loop.clock
        self.hw = hw
        self.table = table
        self.scheduler = scheduler
        self.commands = commands
        self.sim = sim              # the simulated hardware (--sim) that the `sim` commands drive
        self.store = store
        self.storage = storage      # {"mode": "memory", "path", "message"} when the game cannot be saved
        self.rules = rules          # the config's [rules]: every new game starts with them
        s = hw.settings.servo
        self.seating = Seats(table, seat_angles or spread_between(s.min_angle, s.max_angle), default_seats)
        self.events = Broadcast(self.clock)
        # the table as last written (see _save): as restored, or none (same as no file) at first
        self._saved: dict[str, Any] | None = table.to_dict() if store is not None else None
        self.launcher = Launcher(hw, self.clock, launcher_settings or LauncherSettings(),
                                 angle_of=self.seating.angle_of, on_shot=self._shot_done, emit=self.events.emit,
                                 cards=cards, seats=self.seating.count)
        self.launcher.on_lid_cycled = self.scheduler.restart  # H-RANDOM: the pattern restarts
        hw.button.on_press = self.button_pressed
        self.pairing: Pairing | None = None   # while the web console runs
        self.names: dict[int, str] = {}
        self.saved_names: SavedNames | None = None   # the names' file in the state directory (set by the App)
        # bring-up, set by the App: the calibration, the config as the file gave it (before the
        # calibration), the pin factory and servo backend in use
        self.calibration: Calibration | None = None
        self.config: Config | None = None
        self.hardware_info: dict[str, str] = {}
        loop.on_error = self.fail_safe

    # ---- start and stop ----
    def start(self) -> None:
        """Motor off, machine out of booting, shooter pointed where the rules say."""
        self.hw.safe_stop()
        self.scheduler.restart()
        self.launcher.start()
        self._aim_by_rules()

    def fail_safe(self, exc: BaseException) -> None:
        """An exception reached the loop: stop the motor first (Launcher.fail), then say why."""
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        self.launcher.fail(f"internal-error: {detail}")

    # ---- output ----
    def add_sink(self, sink: Sink) -> None:
        self.events.add(sink)
        if self.storage is not None:  # each console learns at once that nothing is being saved
            sink({"event": "storage", "t": stamp(self.clock.now()), **self.storage})
        if self.table.interrupted is not None:  # and of a shot cut short by a stop, until the table resolves it
            sink({"event": "interrupted", "t": stamp(self.clock.now()), **self.table.interrupted})

    def remove_sink(self, sink: Sink) -> None:
        self.events.remove(sink)

    def emit(self, name: str, **fields: Any) -> None:
        """An event to every console (held back while a command's reply is pending)."""
        self.events.emit(name, **fields)

    # ---- commands ----
    def handle_line(self, raw: bytes | str, respond: Sink, caller: Caller = IN_PROCESS) -> None:
        """Carry out one console line from ``caller`` (the console that sent it: who may do what is the
        command table's, :mod:`shooter.access`); ``respond`` gets the one reply."""
        self.events.hold()
        try:
            try:
                line = parse(raw)
                if line is None:
                    return
                fields = run(self, self.commands, line, caller, self._paired) or {}
                answer = reply(line.name, **fields)
            except CommandError as error:
                answer = error_reply(_reply_name(raw), error)
            except Exception as exc:  # a bug: fail safe, then answer
                self.fail_safe(exc)
                answer = error_reply(_reply_name(raw), CommandError("internal", f"internal error: {exc}"))
            respond(answer)
        finally:
            self.events.release()

    def _paired(self, token_id: int | None) -> bool:
        return self.pairing is not None and self.pairing.valid(token_id)

    def changed(self, events: list[Event], shot: Shot | None = None) -> None:
        """What the table did: announce it, queue the shot (if a press), save the game, then point
        where S-AIM says."""
        for event in events:
            self.events.emit_event(event)
        if shot is not None:  # the presser's cards first, then where the rules point
            self.launcher.enqueue_then_point_at(shot, self.table.aim_seat)
            self._save()
        else:
            self._save()
            self._aim_by_rules()

    def _save(self) -> None:
        """Write the game if it changed since the last successful write (a press with no game writes
        nothing); a failure (full disk, read-only card) is announced, the game goes on: the command
        has been carried out and must not be reported as rejected. The comparison is cheap whatever
        the undo depth: the undo snapshots are the same objects as last time, compared by identity."""
        if self.store is None:
            return
        state = self.table.to_dict()
        if state == self._saved:
            return
        try:
            self.store.save(state)
        except OSError as exc:
            self.emit("save-failed", path=str(self.store.path), message=str(exc))
            return
        self._saved = state

    def _aim_by_rules(self) -> None:
        """S-AIM: point where the table says (nothing to do without a game)."""
        self.launcher.point_at(self.table.aim_seat)  # None (no round): no seat to turn to

    @property
    def seats(self) -> int:
        """Seats at the table now."""
        return self.seating.count()

    def angle_of(self, seat: int) -> float:
        return self.seating.angle_of(seat)

    def cmd_help(self) -> Reply:
        return {"commands": [spec.usage for spec, _ in self.commands]}

    def cmd_version(self) -> Reply:
        return {"version": __version__, "protocol": PROTOCOL_VERSION}

    def cmd_status(self) -> Reply:
        servo_angle = self.hw.servo.angle
        return {
            "shooter": {
                "state": self.launcher.protocol_state,
                "aim": self.launcher.aimed_seat,
                "angle": None if servo_angle is None else round(servo_angle, 3),
                "lid": "open" if self.hw.lid.is_open else "closed",
                "cards": self.launcher.cards,
                "queue": len(self.launcher.queue),
                "exit_sensor": self.hw.exit_sensor is not None,
                "profile": self.scheduler.profile.name,
            },
            "game": self.table.status(),
            **bringup_status(self),
            **web_status(self),
            **({"storage": self.storage} if self.storage is not None else {}),
        }

    def cmd_aim(self, seat: int | None = None, angle: float | None = None) -> Reply:
        if (seat is None) == (angle is None):
            raise CommandError("bad-argument", "usage: aim seat=S | aim angle=A (one of the two)")
        if angle is not None:
            return aim_angle(self, angle)
        assert seat is not None
        if seat > self.seats:
            raise CommandError("bad-argument", f"seat= must be 1..{self.seats}, got {seat}")
        if not self.launcher.rules.aim:
            raise CommandError("busy", "the shooter is firing; aim when it is done")
        self.launcher.point_at(seat)
        return {"seat": seat, "angle": self.angle_of(seat)}

    def cmd_magazine(self, cards: int) -> Reply:
        self.launcher.set_count(cards)
        return {"cards": self.launcher.cards}

    # ---- presses ----
    def cmd_press(self) -> Reply:
        return self.press("console")

    def button_pressed(self) -> None:
        """The physical button (debounced, on the loop). With no game running, while a browser asks to pair,
        the press pairs it and does nothing else; during a game every press is served at once, and only
        then may a hold with the lid open (a press refused, nothing shot) pair (:mod:`shooter.pairing_commands`)."""
        if self.pairing is not None and pair_press(self):  # (no web console: not even the call)
            return
        try:
            self.press("button")
        except CommandError:
            pass  # press() has beeped and announced it
        if self.pairing is not None:
            arm_pair_hold(self)

    def press(self, source: str) -> Reply:
        """Serve one press (T-PRESS, T-EXACT): the table says whose and why, the
        scheduler says what comes out, the launcher shoots it."""
        table = self.table
        if table.game is not None and table.game.exact:
            return self.exact_press(source, table.press)
        seat, reason = table.press_owner()
        refusal = self.launcher.refusal(owed=reason != "draw")
        if refusal is not None:
            # never silently lost: a beep at the table and an event on every console
            self.hw.beeper.play(beeps.PRESS_REFUSED)
            self.emit("refused", source=source, error=refusal[0], message=refusal[1])
            raise CommandError(*refusal)
        if seat is None:  # no game: wherever the shooter points, like the original
            seat = self.launcher.aimed_seat
        events = table.press()
        planned = self.scheduler.next_press()
        self.hw.beeper.play(beeps.PRESS_ACCEPTED)
        if source == "button":  # consoles learn of it before what it causes (the next turn)
            self.emit("press", source=source, seat=seat, reason=reason)
        self.changed(events, Shot(seat=seat, reason=reason, planned=planned))
        return {"seat": seat, "reason": reason}

    # ---- the exact variants (classic, all-wild, flip): the shooter as a counting dealer ----
    def _exact_due(self) -> tuple[int, str, int]:
        """(seat, reason, cards) of what the table owes now; every caller has just seen an entry owed
        (a deal, a press, the rest of a long draw), so none owed is the table's bug: said loudly."""
        due = self.table.due()
        if due is None:
            raise ShooterError("exact variant: the table owes no shot where one is due (a bug in the table)")
        return due

    def _exact_shot(self, due: tuple[int, str, int] | None = None) -> Shot:
        seat, reason, cards = self._exact_due() if due is None else due
        return Shot(seat=seat, reason=reason, planned=self.scheduler.exact(cards))

    def shot_in_flight(self) -> bool:
        """A shot is queued or being shot: its cards are not counted yet."""
        return bool(self.launcher.queue) or self.launcher.current is not None

    def serve_dealt(self) -> None:
        """Shoot the dealer's own entries (the deal, the first card) without a press."""
        if self.table.dealt_next() and not self.shot_in_flight():
            self._shoot_exact(self._exact_shot())

    def _shoot_exact(self, shot: Shot) -> None:
        """A shot of the counting dealer without a command (the deal, the next burst of a long entry): the
        table records it and the record is saved, so a stop before its count is reported on resume."""
        self._record(shot)
        self.launcher.enqueue(shot)
        self._save()

    def _record(self, shot: Shot) -> None:
        """The table records the counting dealer's shot, to be saved before its cards are counted."""
        assert shot.seat is not None, "an exact shot is for the seat the table owes it to"
        self.table.shot_out(shot.seat, shot.reason, shot.planned)

    def exact_press(self, source: str, serve: Callable[[], list[Event]]) -> Reply:
        """A press (or `draw`) in an exact variant: the head of the owed queue in full, or the draw."""
        refusal = self.launcher.refusal(owed=True)
        if refusal is None and self.shot_in_flight():
            refusal = ("busy", "the shooter is still serving the last shot; press when it is done")
        try:
            if refusal is not None:
                raise CommandError(*refusal)
            events = serve()
        except CommandError as error:
            self.hw.beeper.play(beeps.PRESS_REFUSED)
            self.emit("refused", source=source, error=error.code, message=error.message)
            raise
        due = self._exact_due()
        shot = self._exact_shot(due)
        self.hw.beeper.play(beeps.PRESS_ACCEPTED)
        if source == "button":
            self.emit("press", source=source, seat=shot.seat, reason=shot.reason)
        self._record(shot)   # saved with the press
        self.changed(events, shot)
        return {"seat": shot.seat, "reason": shot.reason, "cards": due[2]}

    def _count_exact_shot(self, shot: Shot) -> None:
        """The exit sensor counted a shot: the table credits it; an uninterrupted shot of a long
        entry goes on with the next burst, the deal with the next seat."""
        head = self.table.game.head if self.table.game is not None else None
        try:
            self.changed(self.table.count_shot(shot.planned, shot.ejected, shot.seat, shot.reason))
        except CommandError as error:
            # the cards are out but are no entry's (a bug in the table): said, never a fault that strands the game
            self.emit("uncounted", seat=shot.seat, cards=shot.ejected, reason=shot.reason, message=error.message)
            self._save()   # the shot is over (its record cleared), counted or not
            return
        head_now = self.table.game.head if self.table.game is not None else None
        if shot.interrupted or self.shot_in_flight():
            return
        if self.table.dealt_next():
            self.serve_dealt()
        elif head_now is not None and head_now is head and head.cards and head.served:
            self._shoot_exact(self._exact_shot())  # the rest of a long draw: the next burst

    def _shot_done(self, shot: Shot) -> None:
        """The launcher's one callback (declared at its construction): a shot is over."""
        cut_short = {"interrupted": shot.interrupted} if shot.interrupted else {}   # said only when it was
        self.emit("shot", seat=shot.seat, planned=shot.planned, ejected=shot.ejected, reason=shot.reason, **cut_short)
        if self.table.game is not None and self.table.game.exact:
            self._count_exact_shot(shot)
            return
        if shot.reason != "draw" and not self.launcher.queue and self.table.press_owner()[1] == "draw":
            self.hw.beeper.play(beeps.OWED_DONE)
