"""The controller: one object on the control loop that ties the table's rules,
the shooter's state machine and the consoles together.

Every console line ends up in :meth:`Controller.handle_line`, which answers with
exactly one reply and then the events the command caused (in that order). Events
that happen later (a burst ending, the lid opening) go to every console at once.

The commands are a table of callables (:data:`shooter.commands.table.COMMANDS`), given at
construction; each runs on the part of the controller it needs (:class:`~shooter.commands.dispatch.Handler`):
the table's commands on the :class:`~shooter.commands.game.Desk` (which announces, saves and re-aims;
its :class:`~shooter.dealer.Dealer` is the counting dealer), the simulator's on
:class:`~shooter.commands.simulator.SimulatedHardware`, bring-up on :class:`~shooter.bringup.commands.Bringup`,
the web console's on :class:`~shooter.commands.pairing.Web`, and help, version, status, aim, magazine and
press on the controller itself. The controller is built whole, in one step, from what the composition root
(:mod:`shooter.app`) read. Dependencies point one way: the controller drives the launcher, and the launcher
never calls the controller. It asks :class:`~shooter.seats.Seats` how many seats there are and where, emits
into the :class:`~shooter.events.Broadcast`, and reports a finished shot through the one callback given at
construction (``on_shot``).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hal import HardwareParts

from . import __version__, beeps
from .access import IN_PROCESS, Caller
from .bringup.commands import Bringup
from .camera.pile_reports import PileReports, PileSettings
from .commands.dispatch import CommandTable, Reply, run
from .commands.game import Desk
from .commands.pairing import Web, arm_pair_hold, pair_press, web_status
from .commands.simulator import SimulatedHardware
from .errors import BadArgument, Busy, CommandError, Internal, command_error
from .events import Broadcast, Sink, stamp
from .launcher import Launcher, LauncherSettings, Shot
from .loop import ControlLoop
from .protocol import PROTOCOL_VERSION, error_reply, parse, reply, reply_name
from .scheduler import Scheduler
from .seats import SeatAngles, Seats, spread_between
from .table import RuleOptions, Table
from .tap_ids import TapIds
from .vocabulary import EventName, FaultReason, Lid, Reason

if TYPE_CHECKING:
    from sim import ShooterWorld

    from .bringup.calibration import Calibration
    from .config import Config
    from .persist import Store
    from .seat_names import SavedNames
    from .web.pairing import Pairing


def _reply_name(raw: bytes | str) -> str:
    """The reply's name for a line that could not be carried out (it may not even parse)."""
    return reply_name(raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw) or ""


@dataclass(frozen=True)
class Turntable:
    """How the shooter shoots and where it points: the config's [launcher] and seats, and the magazine's count
    where it is known (the simulator's; a real magazine is counted by the table)."""
    launcher: LauncherSettings = field(default_factory=LauncherSettings)
    seat_angles: SeatAngles | None = None      # None: spread between the servo's limits
    default_seats: int = 4
    cards: int | None = None


@dataclass(frozen=True)
class Saving:
    """The state directory's part: the game's store (None: nothing is saved), ``storage`` ({"mode":
    "memory", "path", "message"} when the game cannot be saved, told to every console), and the seat names'
    file with the names read from it; ``ids``: the ids a person taps (reads, pairing requests), kept in the
    state directory (in memory unless given)."""
    store: Store | None = None
    storage: dict[str, Any] | None = None
    saved_names: SavedNames | None = None
    names: dict[int, str] | None = None
    ids: TapIds | None = None


@dataclass(frozen=True)
class BringupFacts:
    """What bring-up reports and changes: the calibration, the config as the file gave it (before the
    calibration), and the pin factory and servo backend in use."""
    calibration: Calibration | None = None
    config: Config | None = None
    hardware_info: dict[str, str] = field(default_factory=dict)


class Controller:
    """All state of a running shooter, served on the one loop."""

    def __init__(self, *, loop: ControlLoop, hw: HardwareParts, table: Table, scheduler: Scheduler,
                 commands: CommandTable, turntable: Turntable | None = None, saving: Saving | None = None,
                 bringup: BringupFacts | None = None, rules: RuleOptions | None = None,
                 pile: PileSettings | None = None, world: ShooterWorld | None = None) -> None:
        """The five parts it runs on (``loop``, ``hw``, ``table``, ``scheduler``, ``commands``), then what the
        composition root read, grouped by what it is for: ``turntable`` (how it shoots and where the seats
        are), ``saving`` (the state directory's files), ``bringup`` (the calibration and the hardware in use),
        ``rules`` (the config's [rules], with which every new game starts), ``pile`` (how the camera's reads of
        the discard pile are reported, off unless given) and ``world`` (the simulator's, ``--sim``, which the
        ``sim`` commands drive)."""
        turntable = turntable or Turntable()
        saving = saving or Saving()
        bringup = bringup or BringupFacts()
        self.loop = loop
        self.clock = loop.clock
        self.hw = hw
        self.table = table
        self.scheduler = scheduler
        self.commands = commands
        self.store = saving.store
        self.storage = saving.storage
        s = hw.settings.servo
        self.seating = Seats(table, turntable.seat_angles or spread_between(s.min_angle, s.max_angle),
                             turntable.default_seats)
        self.events = Broadcast(self.clock)
        self.launcher = Launcher(hw, self.clock, turntable.launcher,
                                 angle_of=self.seating.angle_of, on_shot=self._shot_done, emit=self.events.emit,
                                 cards=turntable.cards, seats=self.seating.count)
        self.launcher.on_lid_cycled = self.scheduler.restart  # H-RANDOM: the pattern restarts
        self.sim = None if world is None else SimulatedHardware(world, launcher=self.launcher, loop=loop,
                                                                  table=table)
        self.desk = Desk(table=table, launcher=self.launcher, scheduler=scheduler, beeper=hw.beeper,
                         events=self.events, store=saving.store, rules=rules, counting=hw.exit_sensor is not None,
                         sim=self.sim)
        self.dealer = self.desk.dealer
        self.bringup = Bringup(servo=hw.servo, limits=s, launcher=self.launcher, seating=self.seating,
                               emit=self.events.emit, calibration=bringup.calibration, config=bringup.config,
                               hardware=dict(bringup.hardware_info))
        self.web = Web(table=table, events=self.events, beeper=hw.beeper, button=hw.button, lid=hw.lid,
                       saved_names=saving.saved_names, names=saving.names)
        self.ids = saving.ids or TapIds()
        self.pile = PileReports(table=table, events=self.events, handle_line=self.handle_line,
                                run_line=self.run_line, settings=pile or PileSettings(), ids=self.ids)
        # each command's part (dispatch.Handler.part): the handler is called with it
        self.parts: dict[type, object] = {Controller: self, Desk: self.desk, Bringup: self.bringup,
                                          Web: self.web, SimulatedHardware: self.sim, PileReports: self.pile}
        hw.button.on_press = self.button_pressed
        loop.on_error = self.fail_safe

    @property
    def pairing(self) -> Pairing | None:
        """The web console's pairing, while it runs (:meth:`Web.open`)."""
        return self.web.pairing

    # ---- start and stop ----
    def start(self) -> None:
        """Motor off, machine out of booting, shooter pointed where the rules say."""
        self.hw.safe_stop()
        self.scheduler.restart()
        self.launcher.start()
        self.desk.aim_by_rules()

    def fail_safe(self, exc: BaseException) -> None:
        """An exception reached the loop: stop the motor first (Launcher.fail), then say why."""
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        self.launcher.fail(f"{FaultReason.INTERNAL_ERROR}: {detail}")

    # ---- output ----
    def add_sink(self, sink: Sink) -> None:
        self.events.add(sink)
        if self.storage is not None:  # each console learns at once that nothing is being saved
            sink({"event": EventName.STORAGE, "t": stamp(self.clock.now()), **self.storage})
        if self.table.interrupted is not None:  # and of a shot cut short by a stop, until the table resolves it
            sink({"event": EventName.INTERRUPTED, "t": stamp(self.clock.now()), **self.table.interrupted})

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
        restore_pile = self.pile.checkpoint()
        try:
            try:
                line = parse(raw)
                if line is None:
                    return
                fields = run(self.parts, self.commands, line, caller, self._paired) or {}
                if line.name == "play":   # a card reported: the camera's read of it waits no more
                    self.pile.typed(caller)
                elif line.words[:2] == ["game", "new"]:   # the last game's reads wait no more
                    self.pile.new_game()
                answer = reply(line.name, **fields)
            except CommandError as error:   # refused: nothing changes (the table rolls back on its own)
                restore_pile()
                answer = error_reply(_reply_name(raw), error)
            except Exception as exc:  # a bug: fail safe, then answer
                self.fail_safe(exc)
                answer = error_reply(_reply_name(raw), Internal(f"internal error: {exc}"))
            respond(answer)
        finally:
            self.events.release()

    def run_line(self, raw: str, caller: Caller) -> Reply:
        """Carry out one line within the command being carried out (the camera's play of a tapped read): the
        reply's fields, or the CommandError its console would be answered with."""
        line = parse(raw)
        assert line is not None, "the camera's lines are plays, never blank"
        return run(self.parts, self.commands, line, caller, self._paired) or {}

    def _paired(self, token_id: int | None) -> bool:
        pairing = self.web.pairing
        return pairing is not None and pairing.valid(token_id)

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
                "lid": Lid.OPEN if self.hw.lid.is_open else Lid.CLOSED,
                "cards": self.launcher.cards,
                "queue": len(self.launcher.queue),
                "exit_sensor": self.hw.exit_sensor is not None,
                "profile": self.scheduler.profile.name,
            },
            "game": self.table.status(),
            **self.bringup.status(),
            **web_status(self.web),
            **self.pile.status(),
            **({"storage": self.storage} if self.storage is not None else {}),
        }

    def cmd_aim(self, seat: int | None = None, angle: float | None = None) -> Reply:
        if (seat is None) == (angle is None):
            raise BadArgument("usage: aim seat=S | aim angle=A (one of the two)")
        if angle is not None:
            return self.bringup.aim_angle(angle)
        assert seat is not None
        if seat > self.seats:
            raise BadArgument(f"seat= must be 1..{self.seats}, got {seat}")
        if not self.launcher.rules.aim:
            raise Busy("the shooter is firing; aim when it is done")
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
        then may a hold with the lid open (a press refused, nothing shot) pair (:mod:`shooter.commands.pairing`)."""
        if self.web.pairing is not None and pair_press(self.web):  # (no web console: not even the call)
            return
        try:
            self.press("button")
        except CommandError:
            pass  # press() has beeped and announced it
        if self.web.pairing is not None:
            arm_pair_hold(self.web)

    def press(self, source: str) -> Reply:
        """Serve one press (T-PRESS, T-EXACT): the table says whose and why, the
        scheduler says what comes out, the launcher shoots it."""
        table = self.table
        if table.game is not None and table.game.exact:
            return self.dealer.press(source, table.press)
        seat, reason = table.press_owner()
        refusal = self.launcher.refusal(owed=reason != Reason.DRAW)
        if refusal is not None:
            # never silently lost: a beep at the table and an event on every console
            self.hw.beeper.play(beeps.PRESS_REFUSED)
            self.emit(EventName.REFUSED, source=source, error=refusal[0], message=refusal[1])
            raise command_error(*refusal)
        if seat is None:  # no game: wherever the shooter points, like the original
            seat = self.launcher.aimed_seat
        planned = self.scheduler.next_press()  # first: the table is told whether this press fires
        events = table.press(fired=planned > 0, cards=planned)
        self.hw.beeper.play(beeps.PRESS_ACCEPTED)
        if source == "button":  # consoles learn of it before what it causes (the next turn)
            self.emit(EventName.PRESS, source=source, seat=seat, reason=reason)
        self.desk.changed(events, Shot(seat=seat, reason=reason, planned=planned))
        return {"seat": seat, "reason": reason}

    def _shot_done(self, shot: Shot) -> None:
        """The launcher's one callback (declared at its construction): a shot is over."""
        cut_short = {"interrupted": shot.interrupted} if shot.interrupted else {}   # said only when it was
        self.emit(EventName.SHOT, seat=shot.seat, planned=shot.planned, ejected=shot.ejected, reason=shot.reason,
                  **cut_short)
        if self.table.game is not None and self.table.game.exact:
            self.dealer.count(shot)
            return
        if self.table.game is not None and self.table.game.hands is not None:
            # AT-HANDS: the exit beam's count corrects the cards credited at the press; on disk before more comes
            self.table.count_shot(shot.planned, shot.ejected, shot.seat, shot.reason)
            self.desk.save()
        if shot.reason != Reason.DRAW and not self.launcher.queue and self.table.press_owner()[1] == Reason.DRAW:
            self.hw.beeper.play(beeps.OWED_DONE)
