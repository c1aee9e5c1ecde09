"""The shooter's state machine: aims, fires bursts, pulls the next card back,
and stops on a jam, an empty magazine, an open lid or a fault.

The states and every transition between them are the declared table
:data:`TRANSITIONS` (a plain ``transitions.Machine`` run by the one loop; no
``Timeout`` states, which start threads: timers come from the one clock).
What happens on a transition is in the named ``on_enter_*`` callbacks.

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
from dataclasses import dataclass
from typing import Callable

from transitions import Machine

from hal import Clock, HardwareParts, LidOpenError, Timer

from . import beeps

STATES = ["booting", "ready", "aiming", "firing", "retracting", "lid_open", "jammed", "empty", "fault"]
ALL_BUT_FAULT = [s for s in STATES if s != "fault"]

# trigger, source(s), destination, and when it applies
TRANSITIONS = [
    {"trigger": "booted", "source": "booting", "dest": "lid_open", "conditions": "lid_is_open"},
    {"trigger": "booted", "source": "booting", "dest": "ready"},
    {"trigger": "aim", "source": "ready", "dest": "aiming"},
    {"trigger": "arrived", "source": "aiming", "dest": "ready"},
    {"trigger": "fire", "source": "ready", "dest": "firing"},
    {"trigger": "burst_done", "source": "firing", "dest": "retracting"},
    {"trigger": "retracted", "source": "retracting", "dest": "ready", "unless": "magazine_is_empty"},
    {"trigger": "retracted", "source": "retracting", "dest": "empty"},
    {"trigger": "stalled", "source": "firing", "dest": "empty", "conditions": "magazine_is_empty"},
    {"trigger": "stalled", "source": "firing", "dest": "jammed"},
    {"trigger": "refilled", "source": "empty", "dest": "ready"},
    {"trigger": "counted_empty", "source": ["ready", "aiming"], "dest": "empty"},
    {"trigger": "lid_opened", "source": STATES, "dest": "lid_open"},
    {"trigger": "lid_closed", "source": "lid_open", "dest": "ready"},
    {"trigger": "failed", "source": ALL_BUT_FAULT, "dest": "fault"},
]

# The protocol's names for the states (status.shooter.state)
PROTOCOL_STATE = {s: s.replace("_", "-") for s in STATES}

# Why a press is refused, by state (PROTOCOL.md error codes; "empty" and "fault" are additions)
REFUSAL = {
    "booting": ("busy", "the shooter is starting"),
    "lid_open": ("lid-open", "the lid is open: close it to shoot"),
    "jammed": ("jammed", "a card is jammed: open and close the lid to clear it"),
    "empty": ("empty", "the magazine is empty: load cards and close the lid"),
    "fault": ("fault", "the shooter stopped on a fault: open and close the lid to reset it"),
    "aiming": ("busy", "the shooter is turning"),
    "firing": ("busy", "the shooter is firing"),
    "retracting": ("busy", "the shooter is firing"),
}


@dataclass(frozen=True)
class LauncherSettings:
    """How the controller runs the motor (the hardware's own limits are in ``hal``)."""

    duty: float = 1.0
    jam_timeout: float = 0.5        # no card in or out this long while shooting = jam / empty
    retract_time: float = 0.15      # backward run after every burst
    retract_duty: float = 0.6
    seconds_per_card: float = 0.09  # without the exit sensor: motor time per card...
    spin_up: float = 0.06           # ...plus this once per burst


@dataclass
class Shot:
    """One served press: the seat that receives the cards, why, and what came out."""

    seat: int | None
    reason: str
    planned: int
    ejected: int = 0
    interrupted: str | None = None   # "lid", "jam", "empty", "fault" if the burst was cut short


class Launcher:
    """Runs the shooter's hardware for the controller, one shot at a time."""

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
        self._timer: Timer | None = None
        self._burst_started = 0.0
        self._blocked_before_lid: str | None = None
        self.on_lid_cycled: Callable[[], None] | None = None
        self.machine = Machine(model=self, states=STATES, transitions=TRANSITIONS, initial="booting",
                               auto_transitions=False, queued=True)
        hw.servo.on_arrived = self._servo_arrived
        hw.on_lid_open = self.lid_was_opened
        hw.lid.on_close = self.lid_was_closed
        hw.motor.on_fault = lambda reason: self.fail(reason)
        if hw.exit_sensor is not None:
            hw.exit_sensor.on_card = self._card_seen
            hw.exit_sensor.on_clear = self._beam_clear

    # ---- conditions ----
    def lid_is_open(self) -> bool:
        return self.hw.lid.is_open

    def magazine_is_empty(self) -> bool:
        return self.cards == 0

    @property
    def protocol_state(self) -> str:
        return PROTOCOL_STATE[self.state]

    # ---- what the controller asks ----
    def start(self) -> None:
        """Leave ``booting`` once the hardware is up; motor off is already guaranteed."""
        self.hw.motor.stop()
        self.booted()

    def refusal(self, owed: bool) -> tuple[str, str] | None:
        """Why a press cannot be taken now, or None. Owed presses queue while busy."""
        if self.cards == 0 and self.state in ("ready", "aiming", "firing", "retracting"):
            return REFUSAL["empty"]  # the count says so, before the motor finds out
        if self.state == "ready":
            return None
        if owed and self.state in ("aiming", "firing", "retracting"):
            return None
        return REFUSAL[self.state]

    def enqueue(self, shot: Shot) -> None:
        """Serve ``shot`` after what is already queued."""
        self.queue.append(shot)
        self._next()

    def point_at(self, seat: int | None) -> None:
        """Where the shooter should point when it has nothing to shoot (S-AIM)."""
        self.desired_seat = seat
        self._next()

    def load(self, cards: int) -> None:
        """``cards`` more cards are in the magazine."""
        self.set_count(cards if self.cards is None else self.cards + cards)

    def set_count(self, cards: int) -> None:
        """The magazine holds ``cards`` cards now (a person counted them in). A count that
        changes the shooter's state says so: ``empty`` at 0, ``cleared`` when refilled."""
        self.cards = cards
        if self.state == "empty" and cards > 0:
            self.emit("cleared", seat=self.aimed_seat)
            self.refilled()
        elif self.state in ("ready", "aiming") and cards == 0:
            self.counted_empty()

    def fail(self, reason: str) -> None:
        """Fail safe: motor off first, then explain."""
        self.hw.safe_stop()
        self._cancel_timer()
        if self.state != "fault":
            self._interrupt("fault")
            self.failed()
        self.emit("fault", reason=reason)

    # ---- scheduling the next thing ----
    def _seat_exists(self, seat: int | None) -> bool:
        return seat is not None and (self.seats is None or 1 <= seat <= self.seats())

    def _next(self) -> None:
        if self.state != "ready":
            return
        self._cancel_timer()  # a wait for the motor's rest is recomputed below
        while self.queue and self.queue[0].planned == 0:
            self._report(self.queue.popleft())  # nothing comes out: no need to turn or run
        if not self._seat_exists(self.desired_seat):
            self.desired_seat = None  # a seat of an earlier game: nowhere to turn
        if self.queue:
            seat = self.queue[0].seat
            if self._seat_exists(seat) and seat != self.aimed_seat:
                self._turn_to(seat)
                return
            rest = self.hw.motor.ready_in()
            if rest > 0:  # the motor rests between runs: the shot waits, nothing is refused
                self._set_timer(rest, self._rested, "motor-rest")
            else:
                self.fire()
        elif self.desired_seat is not None and self.desired_seat != self.aimed_seat:
            self._turn_to(self.desired_seat)

    def _rested(self) -> None:
        self._timer = None
        self._next()

    def _turn_to(self, seat: int) -> None:
        self._target_seat = seat
        self.aim()

    # ---- state callbacks ----
    def on_enter_ready(self) -> None:
        self._next()

    def on_enter_aiming(self) -> None:
        self.aimed_seat = None
        self.hw.servo.move_to(self.angle_of(self._target_seat))

    def _servo_arrived(self, angle: float) -> None:
        if self.state != "aiming":
            return
        self.aimed_seat = self._target_seat
        self.emit("aim", seat=self.aimed_seat, angle=angle)
        self.arrived()

    def on_enter_firing(self) -> None:
        self.current = self.queue.popleft()
        self._burst_started = self.clock.now()
        try:
            self.hw.motor.forward(self.settings.duty)
        except LidOpenError:
            # The lid opened between the check and now: the shot waits, the lid rules.
            self.queue.appendleft(self.current)
            self.current = None
            self.lid_was_opened()
            return
        if self.hw.exit_sensor is None:
            run = self.settings.spin_up + self.current.planned * self.settings.seconds_per_card
            self._set_timer(run, self._timed_burst_over, "burst")
        else:
            self._set_timer(self.settings.jam_timeout, self._stall, "jam-watch")

    def _card_seen(self) -> None:
        if self.state == "firing" and self.current is not None:
            self.current.ejected += 1
            if self.cards == 0:
                self.cards = None  # the sensor saw a card the count did not know of: trust the sensor
            elif self.cards is not None:
                self.cards -= 1
            self._set_timer(self.settings.jam_timeout, self._stall, "jam-watch")

    def _beam_clear(self) -> None:
        if self.state != "firing" or self.current is None:
            return
        if self.current.ejected >= self.current.planned:
            self._finish_burst()
        else:
            self._set_timer(self.settings.jam_timeout, self._stall, "jam-watch")

    def _timed_burst_over(self) -> None:
        self._timer = None
        if self.cards is not None:
            self.cards = max(0, self.cards - self.current.planned)
        self._finish_burst()

    def _finish_burst(self) -> None:
        # No stop here: the motor reverses at once to pull the next card back (one run).
        self._cancel_timer()
        shot, self.current = self.current, None
        self.burst_done()
        self._report(shot)

    def _report(self, shot: Shot) -> None:
        if self.hw.exit_sensor is None:
            shot.ejected = None  # nothing counted the cards
        self.on_shot(shot)

    def on_enter_retracting(self) -> None:
        self._pull_back(self.retracted)

    def _pull_back(self, then: Callable[[], None]) -> None:
        """Reverse the running motor (the same run) for ``retract_time``, then ``then``."""
        try:
            self.hw.motor.backward(self.settings.retract_duty)
        except LidOpenError:
            self.lid_was_opened()
            return
        def done():
            self._timer = None
            self.hw.motor.stop()
            then()
        self._set_timer(self.settings.retract_time, done, "retract")

    def _stall(self) -> None:
        self._timer = None
        # No stop here: ``empty`` stops the motor, ``jammed`` reverses it to pull back (the same run).
        sensor = self.hw.exit_sensor
        if sensor is not None and sensor.is_blocked and self.current is not None and self.current.ejected:
            # The card wedged in the beam is still in the shooter: opening the lid puts it back.
            self.current.ejected -= 1
            if self.cards is not None:
                self.cards += 1
        self.stalled()

    def on_enter_jammed(self) -> None:
        self._interrupt("jam")
        self.hw.beeper.play(beeps.JAM)
        self.emit("jam", seat=self.aimed_seat)
        self._pull_back(lambda: None)

    def on_enter_empty(self) -> None:
        self.hw.motor.stop()
        self._interrupt("empty")
        self.hw.beeper.play(beeps.EMPTY)
        self.emit("empty", seat=self.aimed_seat)

    def on_enter_fault(self) -> None:
        self.hw.beeper.play(beeps.FAULT)

    def _interrupt(self, why: str) -> None:
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
    def lid_was_opened(self) -> None:
        # hal.Hardware has already stopped the motor.
        self._cancel_timer()
        before = self.state
        if before == "lid_open":
            return
        self._interrupt("lid")
        if before in ("jammed", "empty", "fault"):
            self._blocked_before_lid = before
        if before == "aiming":
            self.aimed_seat = None
        self.lid_opened()
        self.emit("lid", state="open")

    def lid_was_closed(self) -> None:
        if self.state != "lid_open":
            return
        self.hw.beeper.play(beeps.LID_CLOSED)
        self.emit("lid", state="closed")
        blocked, self._blocked_before_lid = self._blocked_before_lid, None
        if blocked in ("jammed", "empty"):
            self.emit("cleared", seat=self.aimed_seat)
        if self.cards == 0:
            self.cards = None  # perhaps refilled by hand: the count is unknown until told
        self.lid_closed()
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

    machine = GraphMachine(model=_Model(), states=STATES, transitions=TRANSITIONS, initial="booting",
                           auto_transitions=False, graph_engine="mermaid", show_conditions=True,
                           title="Shooter states")
    return machine.model.get_graph().draw(None)
