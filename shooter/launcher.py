"""The shooter's state machine: aims, fires bursts, pulls the next card back,
and stops on a jam, an empty magazine, an open lid or a fault.

The states and every transition between them are the declared tables
:data:`STATE_TABLE` and :data:`TRANSITIONS`, in ``transitions``' format: which
trigger leads where from which states, under which conditions, and every callback
by name (``on_enter`` of a state, ``before`` / ``after`` of a transition). What each
state lets through (a press, an owed press, an aim) is :data:`STATE_RULES`, used by
:meth:`Launcher.refusal` and the controller's ``aim``. The tables are run on the one
loop by :class:`shooter.fsm.TableMachine` (``transitions`` draws them); no
``Timeout`` states, which start threads: timers come from the one clock.

A burst with the exit sensor is counted card by card and stops once the last
card has cleared the beam; without the sensor it is a calibrated motor time.
After every burst the motor reverses at once (the same run) to pull the next
card back. The motor rests between runs (``hal`` refuses to start it sooner):
a shot that is ready to fire waits in ``ready`` until ``motor.ready_in()`` is 0,
so owed presses queue and none is lost. A seat that the table no longer has
(the game changed) is never turned to: a shot for it fires where the shooter
points. The magazine count trusts the exit sensor: a card seen leaving when the
count says none is left makes the count unknown.
If no card reaches or leaves the beam within ``jam_timeout`` while the motor
runs, the motor stops: ``empty`` if the card count says the magazine is empty,
else ``jammed`` (until the lid is opened and closed).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hal import Clock, HardwareParts, LidOpenError, Timer

from . import beeps
from .errors import ErrorCode
from .fsm import TableMachine
from .vocabulary import CutShort, EventName, Lid, ShooterState


@dataclass(frozen=True)
class StateRules:
    """What one state lets through. ``refusal``: the error code and message a press gets here
    (docs/protocol.md's codes; ``empty`` and ``fault`` are additions), None when every press is taken."""

    refusal: tuple[ErrorCode, str] | None
    owed_queue: bool = False   # a press that pays an owed card queues here (the shooter is busy)
    aim: bool = False          # ``aim seat=S`` is taken here
    aim_angle: bool = False    # ``aim angle=A`` (bring-up) is taken here: the turntable is still, no turn under way
    counted: bool = False      # shooting from the magazine: a count of 0 refuses a press first


_FIRING = (ErrorCode.BUSY, "the shooter is firing")
_LID = (ErrorCode.LID_OPEN, "the lid is open: close it to shoot")

# Each state, what it does on entering (a named callback) and what it lets through: the one place.
STATE_TABLE: list[dict[str, str]] = [
    {"name": "booting"},
    {"name": "ready", "on_enter": "_serve_next"},
    {"name": "aiming", "on_enter": "_turn"},
    {"name": "firing", "on_enter": "_start_burst"},
    {"name": "retracting", "on_enter": "_retract"},
    {"name": "lid_open"},
    {"name": "clearing"},   # the lid open after a jam or an empty magazine: closing it clears them
    {"name": "jammed", "on_enter": "_jammed"},
    {"name": "empty", "on_enter": "_emptied"},
    {"name": "fault", "on_enter": "_faulted"},
]
STATE_RULES = {
    "booting": StateRules((ErrorCode.BUSY, "the shooter is starting")),
    "ready": StateRules(None, owed_queue=True, aim=True, aim_angle=True, counted=True),
    "aiming": StateRules((ErrorCode.BUSY, "the shooter is turning"), owed_queue=True, aim=True, counted=True),
    "firing": StateRules(_FIRING, owed_queue=True, counted=True),
    "retracting": StateRules(_FIRING, owed_queue=True, counted=True),
    "lid_open": StateRules(_LID, aim=True, aim_angle=True),
    "clearing": StateRules(_LID, aim=True, aim_angle=True),
    "jammed": StateRules((ErrorCode.JAMMED, "a card is jammed: open and close the lid to clear it"), aim=True,
                          aim_angle=True),
    "empty": StateRules((ErrorCode.EMPTY, "the magazine is empty: load cards and close the lid"), aim=True,
                        aim_angle=True),
    "fault": StateRules((ErrorCode.FAULT, "the shooter stopped on a fault: open and close the lid to reset it")),
}
STATES = [s["name"] for s in STATE_TABLE]
# where ``aim angle=A`` (bring-up) turns the servo: the states whose rules take it (the turntable still)
RAW_AIM = [name for name, rules in STATE_RULES.items() if rules.aim_angle]
ALL_BUT_FAULT = [s for s in STATES if s != "fault"]
_STOPS = ["_stop_for_lid"]

# trigger, source(s), destination, when it applies (conditions/unless) and what it does (named callbacks)
TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "booted", "source": "booting", "dest": "lid_open", "conditions": "lid_is_open"},
    {"trigger": "booted", "source": "booting", "dest": "ready"},
    # the next shot or the desired seat, once ready (enqueue, point_at, a rest over)
    {"trigger": "serve", "source": "ready", "dest": None, "after": "_serve_next"},
    {"trigger": "aim", "source": "ready", "dest": "aiming"},
    {"trigger": "arrived", "source": "aiming", "dest": "ready", "before": "_aimed"},
    # bring-up's raw angle (aim angle=A): the servo turns where the state stays, at no seat now
    {"trigger": "turn", "source": RAW_AIM, "dest": None, "after": "_turn_to_angle"},
    {"trigger": "fire", "source": "ready", "dest": "firing"},
    # the exit sensor: a card out, the beam whole again (the burst done once all are out)
    {"trigger": "card_seen", "source": "firing", "dest": None, "after": "_count_card"},
    {"trigger": "beam_clear", "source": "firing", "dest": "retracting", "conditions": "burst_is_out",
     "before": "_end_burst", "after": "_report_burst"},
    {"trigger": "beam_clear", "source": "firing", "dest": None, "after": "_watch_for_jam"},
    # without the sensor: the calibrated motor time is over
    {"trigger": "burst_done", "source": "firing", "dest": "retracting",
     "before": ["_count_timed_burst", "_end_burst"], "after": "_report_burst"},
    {"trigger": "retracted", "source": "retracting", "dest": "ready", "unless": "magazine_is_empty",
     "after": "_announce_ready"},
    {"trigger": "retracted", "source": "retracting", "dest": "empty"},
    {"trigger": "stalled", "source": "firing", "dest": "empty", "conditions": "magazine_is_empty"},
    {"trigger": "stalled", "source": "firing", "dest": "jammed"},
    # a person counted the magazine (magazine cards=N, sim load)
    {"trigger": "recounted", "source": "empty", "dest": "ready", "conditions": "magazine_has_cards",
     "before": "_announce_cleared"},
    {"trigger": "recounted", "source": ["ready", "aiming"], "dest": "empty", "conditions": "magazine_is_empty"},
    # the lid (hal has already stopped the motor)
    {"trigger": "lid_opened", "source": "aiming", "dest": "lid_open",
     "before": [*_STOPS, "_forget_aim"], "after": "_announce_lid_open"},
    {"trigger": "lid_opened", "source": ["jammed", "empty"], "dest": "clearing",
     "before": _STOPS, "after": "_announce_lid_open"},
    {"trigger": "lid_opened", "source": ["booting", "ready", "firing", "retracting", "fault"], "dest": "lid_open",
     "before": _STOPS, "after": "_announce_lid_open"},
    {"trigger": "lid_closed", "source": "lid_open", "dest": "ready",
     "before": ["_announce_lid_closed", "_forget_empty_count"], "after": "_lid_cycled"},
    {"trigger": "lid_closed", "source": "clearing", "dest": "ready",
     "before": ["_announce_lid_closed", "_announce_cleared", "_forget_empty_count"], "after": "_lid_cycled"},
    {"trigger": "failed", "source": ALL_BUT_FAULT, "dest": "fault", "before": "_interrupt_for_fault"},
]

# Triggers that mean something only in the states that declare them and change nothing elsewhere:
# the hardware's reports (which come when they come) and requests that wait for ``ready``.
IGNORED_ELSEWHERE = ["arrived", "card_seen", "beam_clear", "lid_opened", "lid_closed", "failed",
                    "serve", "recounted"]

# The protocol's names for the states (status.shooter.state); a state without one fails here, at import
PROTOCOL_STATE = ({s: ShooterState(s.replace("_", "-")) for s in STATES if s != "clearing"}
                  | {"clearing": ShooterState.LID_OPEN})


@dataclass(frozen=True)
class LauncherSettings:
    """How the controller runs the motor (the hardware's own limits are in ``hal``)."""

    duty: float = 1.0
    jam_timeout: float = 0.5        # no card in or out this long while shooting = jam / empty
    retract_time: float = 0.15      # backward run after every burst
    retract_duty: float = 0.6
    seconds_per_card: float = 0.09  # without the exit sensor: motor time per card...
    spin_up: float = 0.06           # ...plus this once per burst


@dataclass(slots=True)
class Shot:
    """One served press: the seat that receives the cards, why, and what came out."""

    seat: int | None
    reason: str
    planned: int
    ejected: int | None = 0          # counted by the exit sensor; None once reported without one
    interrupted: CutShort | None = None   # what cut the burst short, if anything


class Launcher:
    """Runs the shooter's hardware for the controller, one shot at a time."""

    # The triggers of TRANSITIONS: TableMachine makes each a method of the launcher (declared here for
    # type checkers; tests/test_typing.py checks this list against the table).
    booted: Callable[[], bool]
    serve: Callable[[], bool]
    aim: Callable[[], bool]
    turn: Callable[..., bool]
    arrived: Callable[[], bool]
    fire: Callable[[], bool]
    card_seen: Callable[[], bool]
    beam_clear: Callable[[], bool]
    burst_done: Callable[[], bool]
    retracted: Callable[[], bool]
    stalled: Callable[[], bool]
    recounted: Callable[[], bool]
    lid_opened: Callable[[], bool]
    lid_closed: Callable[[], bool]
    failed: Callable[[], bool]

    def __init__(self, hw: HardwareParts, clock: Clock, settings: LauncherSettings, *,
                 angle_of: Callable[[int], float], on_shot: Callable[[Shot], None],
                 emit: Callable[..., None], cards: int | None = None,
                 seats: Callable[[], int] | None = None):
        self.hw = hw
        self.seats = seats               # how many seats the table has now (None: any seat exists)
        self.clock = clock
        self.settings = settings
        self.angle_of = angle_of
        self.on_shot = on_shot
        self.emit = emit
        self.cards = cards               # cards believed in the magazine (None = unknown)
        self.queue: deque[Shot] = deque()
        self.current: Shot | None = None
        self.desired_seat: int | None = None
        self.aimed_seat: int | None = None
        self._target_seat: int | None = None
        self._turn_seconds: float | None = None  # how long the last raw turn (aim angle=A) takes
        self._ended: Shot | None = None  # the burst just ended, reported once the motor reverses
        self._timer: Timer | None = None
        self._burst_started = 0.0
        self.on_lid_cycled: Callable[[], None] | None = None
        self.state = "booting"
        self.machine = TableMachine(self, states=STATE_TABLE, transitions=TRANSITIONS, initial="booting",
                                    ignore_elsewhere=IGNORED_ELSEWHERE)
        hw.servo.on_arrived = lambda angle: self.arrived()
        hw.on_lid_open = self.lid_opened
        hw.lid.on_close = self.lid_closed
        hw.motor.on_fault = self.fail
        if hw.exit_sensor is not None:
            hw.exit_sensor.on_card = self.card_seen
            hw.exit_sensor.on_clear = self.beam_clear

    # ---- conditions ----
    def lid_is_open(self) -> bool:
        return self.hw.lid.is_open

    def magazine_is_empty(self) -> bool:
        return self.cards == 0

    def magazine_has_cards(self) -> bool:
        return self.cards is not None and self.cards > 0

    def burst_is_out(self) -> bool:
        shot = self.current
        return shot is not None and shot.ejected is not None and shot.ejected >= shot.planned

    @property
    def protocol_state(self) -> str:
        return PROTOCOL_STATE[self.state]

    @property
    def rules(self) -> StateRules:
        """What the current state lets through (presses, owed presses, aims)."""
        return STATE_RULES[self.state]

    # ---- what the controller asks ----
    def start(self) -> None:
        """Leave ``booting`` once the hardware is up; motor off is already guaranteed."""
        self.hw.motor.stop()
        self.booted()

    def refusal(self, owed: bool) -> tuple[ErrorCode, str] | None:
        """Why a press cannot be taken now, or None. Owed presses queue while busy."""
        rules = STATE_RULES[self.state]
        if rules.counted and self.cards == 0:
            return STATE_RULES["empty"].refusal  # the count says so, before the motor finds out
        if rules.refusal is None or (owed and rules.owed_queue):
            return None
        return rules.refusal

    def enqueue(self, shot: Shot) -> None:
        """Serve ``shot`` after what is already queued."""
        self.queue.append(shot)
        self.serve()

    def enqueue_then_point_at(self, shot: Shot, seat: int | None) -> None:
        """Serve ``shot`` after what is queued, then point at ``seat`` (S-AIM): one pass for both, since
        what is queued is always served before the shooter turns to where it should point."""
        self.queue.append(shot)
        self.desired_seat = seat
        self.serve()

    def point_at(self, seat: int | None) -> None:
        """Where the shooter should point when it has nothing to shoot (S-AIM)."""
        if seat == self.desired_seat and (seat is None or self._points_at(seat)):
            return  # it points there already (or is asked nowhere): serving again would change nothing
        self.desired_seat = seat
        self.serve()

    def turn_to(self, angle: float) -> float | None:
        """``aim angle=A`` (bring-up): turn the servo to the raw ``angle`` through the machine; the seconds the
        turn takes, or None in a state that takes no raw aim (turning, firing, starting, a fault)."""
        if not STATE_RULES[self.state].aim_angle:
            return None
        self._turn_seconds = None
        self.turn(angle=angle)
        return self._turn_seconds

    def forget_seat(self) -> None:
        """The seat's angle changed under the shooter (``calibrate seat=S``): it points at no seat now, and the
        next shot or aim turns first."""
        self.aimed_seat = None

    def load(self, cards: int) -> None:
        """``cards`` more cards are in the magazine."""
        self.set_count(cards if self.cards is None else self.cards + cards)

    def set_count(self, cards: int) -> None:
        """The magazine holds ``cards`` cards now (a person counted them in). A count that
        changes the shooter's state says so: ``empty`` at 0, ``cleared`` when refilled."""
        self.cards = cards
        self.recounted()

    def fail(self, reason: str) -> None:
        """Fail safe: motor off first, then explain."""
        self.hw.safe_stop()
        self._cancel_timer()
        self.failed()
        self.emit(EventName.FAULT, reason=reason)

    # ---- serving the next thing (in ready) ----
    def _seat_exists(self, seat: int | None) -> bool:
        return seat is not None and (self.seats is None or 1 <= seat <= self.seats())

    def _points_at(self, seat: int | None) -> bool:
        """It turned to ``seat`` and the seat is still at that angle (a game with another number
        of seats puts the same seat number somewhere else)."""
        return (seat is not None and seat == self.aimed_seat and self._seat_exists(seat)
                and self.hw.servo.angle == self.angle_of(seat))

    def _serve_next(self) -> None:
        if self._timer is not None:  # a wait for the motor's rest is recomputed below
            self._cancel_timer()
        while self.queue and self.queue[0].planned == 0:
            self._report(self.queue.popleft())  # nothing comes out: no need to turn or run
        if self.desired_seat is not None and not self._seat_exists(self.desired_seat):
            self.desired_seat = None  # a seat of an earlier game: nowhere to turn
        if self.queue:
            seat = self.queue[0].seat
            if self._seat_exists(seat) and not self._points_at(seat):
                self._target_seat = seat
                self.aim()
                return
            rest = self.hw.motor.ready_in()
            if rest > 0:  # the motor rests between runs: the shot waits, nothing is refused
                self._set_timer(rest, self._rested, "motor-rest")
            else:
                self.fire()
        elif self.desired_seat is not None and not self._points_at(self.desired_seat):
            self._target_seat = self.desired_seat
            self.aim()

    def _rested(self) -> None:
        self._timer = None
        self.serve()

    # ---- aiming ----
    def _turn(self) -> None:
        self.aimed_seat = None
        assert self._target_seat is not None
        self.hw.servo.move_to(self.angle_of(self._target_seat))

    def _turn_to_angle(self, angle: float) -> None:
        self.aimed_seat = None  # at no seat now: the next shot turns first
        self._turn_seconds = self.hw.servo.move_to(angle)

    def _aimed(self) -> None:
        self.aimed_seat = self._target_seat
        self.emit(EventName.AIM, seat=self.aimed_seat, angle=self.hw.servo.angle)

    # ---- a burst ----
    def _start_burst(self) -> None:
        self.current = self.queue.popleft()
        self._burst_started = self.clock.now()
        try:
            self.hw.motor.forward(self.settings.duty)
        except LidOpenError:
            # The lid opened between the check and now: the shot waits, the lid rules.
            self.queue.appendleft(self.current)
            self.current = None
            self.lid_opened()
            return
        if self.hw.exit_sensor is None:
            run = self.settings.spin_up + self.current.planned * self.settings.seconds_per_card
            self._set_timer(run, self._timed_burst_over, "burst")
        else:
            self._watch_for_jam()

    def _watch_for_jam(self) -> None:
        self._set_timer(self.settings.jam_timeout, self._stall, "jam-watch")

    def _count_card(self) -> None:
        shot = self.current
        assert shot is not None and shot.ejected is not None  # a burst in flight counts from 0
        shot.ejected += 1
        if self.cards == 0:
            self.cards = None  # the sensor saw a card the count did not know of: trust the sensor
        elif self.cards is not None:
            self.cards -= 1
        self._watch_for_jam()

    def _timed_burst_over(self) -> None:
        self._timer = None
        self.burst_done()

    def _count_timed_burst(self) -> None:
        if self.cards is not None and self.current is not None:
            self.cards = max(0, self.cards - self.current.planned)

    def _end_burst(self) -> None:
        # No stop here: the motor reverses at once to pull the next card back (one run).
        self._cancel_timer()
        self._ended, self.current = self.current, None

    def _report_burst(self) -> None:
        shot, self._ended = self._ended, None
        if shot is not None:
            self._report(shot)

    def _report(self, shot: Shot) -> None:
        if self.hw.exit_sensor is None:
            shot.ejected = None  # nothing counted the cards
        self.on_shot(shot)

    def _retract(self) -> None:
        self._pull_back(self.retracted)

    def _pull_back(self, then: Callable[[], object]) -> None:
        """Reverse the running motor (the same run) for ``retract_time``, then ``then``."""
        try:
            self.hw.motor.backward(self.settings.retract_duty)
        except LidOpenError:
            self.lid_opened()
            return

        def done() -> None:
            self._timer = None
            self.hw.motor.stop()
            then()
        self._set_timer(self.settings.retract_time, done, "retract")

    def _announce_ready(self) -> None:
        # Nothing else says the burst is over once the motor has pulled back: a console that last asked while
        # it was retracting would show the shooter shooting until something else happened (the page did, 16 s
        # after a classic draw). With more queued it goes on turning or firing, which the next event says.
        if not self.queue:
            self.emit(EventName.READY)

    def _stall(self) -> None:
        self._timer = None
        # No stop here: ``empty`` stops the motor, ``jammed`` reverses it to pull back (the same run).
        sensor = self.hw.exit_sensor
        shot = self.current
        if sensor is not None and sensor.is_blocked and shot is not None and shot.ejected:
            # The card wedged in the beam is still in the shooter: opening the lid puts it back.
            shot.ejected -= 1
            if self.cards is not None:
                self.cards += 1
        self.stalled()

    # ---- stopped ----
    def _jammed(self) -> None:
        self._interrupt(CutShort.JAM)
        self.hw.beeper.play(beeps.JAM)
        self.emit(EventName.JAM, seat=self.aimed_seat)
        self._pull_back(lambda: None)

    def _emptied(self) -> None:
        self.hw.motor.stop()
        self._interrupt(CutShort.EMPTY)
        self.hw.beeper.play(beeps.EMPTY)
        self.emit(EventName.EMPTY, seat=self.aimed_seat)

    def _interrupt_for_fault(self) -> None:
        self._interrupt(CutShort.FAULT)

    def _faulted(self) -> None:
        self.hw.beeper.play(beeps.FAULT)

    def _announce_cleared(self) -> None:
        self.emit(EventName.CLEARED, seat=self.aimed_seat)

    def _interrupt(self, why: CutShort) -> None:
        if self.current is not None:
            shot, self.current = self.current, None
            shot.interrupted = why
            if self.hw.exit_sensor is None and self.cards is not None:
                # no counting: take off what the motor time so far has shot, by the calibration
                ran = self.clock.now() - self._burst_started - self.settings.spin_up
                shot_out = min(shot.planned, max(0, int(ran / self.settings.seconds_per_card)))
                self.cards = max(0, self.cards - shot_out)
            self._report(shot)

    # ---- the lid ----
    def _stop_for_lid(self) -> None:
        # hal.Hardware has already stopped the motor.
        self._cancel_timer()
        self._interrupt(CutShort.LID)

    def _forget_aim(self) -> None:
        self.aimed_seat = None  # the turn was cut short: where it points is unknown

    def _announce_lid_open(self) -> None:
        self.emit(EventName.LID, state=Lid.OPEN)

    def _announce_lid_closed(self) -> None:
        self.hw.beeper.play(beeps.LID_CLOSED)
        self.emit(EventName.LID, state=Lid.CLOSED)

    def _forget_empty_count(self) -> None:
        if self.cards == 0:
            self.cards = None  # perhaps refilled by hand: the count is unknown until told

    def _lid_cycled(self) -> None:
        if self.on_lid_cycled is not None:
            self.on_lid_cycled()

    # ---- timers ----
    def _set_timer(self, delay: float, fn: Callable[[], None], name: str) -> None:
        self._cancel_timer()
        self._timer = self.clock.call_later(delay, fn, name=name)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def launcher_diagram() -> str:
    """The state machine as mermaid text, drawn from :data:`TRANSITIONS` itself."""
    from transitions.extensions.diagrams import GraphMachine

    class _Model:
        pass

    model: Any = _Model()  # GraphMachine gives it get_graph()
    GraphMachine(model=model, states=STATE_TABLE, transitions=TRANSITIONS, initial="booting",
                 auto_transitions=False, graph_engine="mermaid", show_conditions=True, title="Shooter states")
    diagram: str = model.get_graph().draw(None)
    return diagram
