"""The simulated shooter: the world behind the simulator's pins.

``ShooterWorld`` owns the physical parts a real shooter has (the card path, the
lid, the button, the turntable servo, the exit beam) and connects them to the
pins of a :class:`~sim.pins.SimFactory`: it reads the outputs the hardware layer
drives (motor, servo, beeper) and drives the inputs it reads (button, lid, exit
beam), with contact bounce where real contacts bounce. It never imports the
controller; tests and ``sim`` console commands act on it as a person would.

It also holds the discard pile on the table (:attr:`ShooterWorld.pile`, top last): the physical cards the
players put down, in order, which the simulated camera renders and a player takes back or gathers up.

It also watches safety from outside: :attr:`motor_with_lid_open` collects every
stretch of virtual time during which the motor pins were on while the lid was open,
and :attr:`longest_motor_run` is the longest continuous run of the motor, runs
separated by less than the motor's rest time counted as one (a motor switched
off for an instant has not cooled), the run still going included.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from functools import partial

from hal.clock import Clock, Timer
from hal.settings import MotorSettings, PinMap

from .cards import Card, FlipCard, TableCard
from .launcher import Launcher
from .params import SimParams
from .pins import SimFactory, SimPin


class ShooterWorld:
    """Physical model of the shooter, wired to the simulator's pins."""

    def __init__(self, factory: SimFactory, pins: PinMap = PinMap(), *, params: SimParams = SimParams(),
                 seed: int = 0, cards: int = 0, exit_active_low: bool = True,
                 rest_time: float = MotorSettings().rest_time, beeps_limit: int | None = 1000):
        self.factory = factory
        self.clock: Clock = factory.clock
        self.params = params
        self.pins = pins
        self.rng = random.Random(f"sim-{seed}")
        self._exit_active_low = exit_active_low
        self.lid_open = False
        self._lid_bounces: list[Timer] = []
        # (start, seconds) of the last beeps_limit beeps heard (None: every beep)
        self.beeps: deque[tuple[float, float]] = deque(maxlen=beeps_limit)
        self._beep_started: float | None = None
        self.motor_with_lid_open: list[tuple[float, float]] = []  # (start, end) violations
        self._violation_since: float | None = None
        self.rest_time = rest_time
        self.motor_on_since: float | None = None   # start of the continuous run going on now
        self._run_started = 0.0                    # start of the last run (gaps < rest_time merged)
        self._motor_off_at: float | None = None
        self._longest_done = 0.0
        self._servo_from = 0.0
        self._servo_to = 0.0
        self._servo_start = 0.0
        self._servo_known = False

        self._pin = {name: factory.sim_pin(n) for name, n in pins.used().items()}
        self.launcher = Launcher(self.clock, params, self._beam)
        # Inputs at rest: lid shut (switch pulls low), button up (pull-up), beam whole.
        self._pin["lid"].drive(False)
        self._pin["button"].drive(True)
        self._button_free_at = float("-inf")   # when the finger has let go and the contacts have settled
        if "exit_sensor" in self._pin:
            self._pin["exit_sensor"].drive(exit_active_low)
        for name in ("motor_forward", "motor_backward"):
            self._pin[name].listeners.append(self._motor_pins_changed)
        self._pin["servo"].listeners.append(self._servo_pin_changed)
        self._pin["beeper"].listeners.append(self._beeper_changed)
        if cards:
            self.launcher.load(cards)
        self.pile: list[TableCard] = []   # the discard pile on the table, top last
        self.pile_side = "light"          # the side of two-sided cards (Uno Flip) that shows on the pile

    # ---- the discard pile ----
    def put_on_pile(self, card: TableCard) -> None:
        """A card is put on top of the discard pile (played, or turned up by the dealer). (Who puts cards down
        checks that no card is in two places: the bots, after every line.)"""
        self.pile.append(card)

    def take_from_pile(self, card: TableCard | None = None) -> TableCard:
        """A card is taken off the pile: the top one back into a hand (a wrong card), or ``card`` (a void first
        card back to the deck, the dealer's next card already turned up on it)."""
        if not self.pile or (card is not None and not any(c is card for c in self.pile)):
            raise ValueError("the discard pile is empty" if not self.pile else f"{card!r} is not on the pile")
        if card is None:
            return self.pile.pop()
        self.pile[:] = [c for c in self.pile if c is not card]
        return card

    def take_pile(self, *, keep_top: bool) -> list[TableCard]:
        """The pile picked up, bottom first: all of it at a round's end, or all but its top card to be shuffled
        into the shooter when it runs low (the top card stays, face up, as the pile's only card)."""
        cut = len(self.pile) - 1 if keep_top and self.pile else len(self.pile)
        taken, self.pile[:] = self.pile[:cut], self.pile[cut:]
        if not self.pile:
            self.pile_side = "light"   # a new pile: Flip's cards are dealt and turned up light side up
        return taken

    def turn_pile_over(self) -> None:
        """Uno Flip's flip: the pile is turned over as one stack, its bottom card now on top (its other side up)."""
        self.pile.reverse()
        self.pile_side = "dark" if self.pile_side == "light" else "light"

    def face_up(self, card: TableCard) -> Card:
        """The face of a card on the pile that shows (a two-sided card: the pile's side)."""
        return card.side(self.pile_side) if isinstance(card, FlipCard) else card

    # ---- what a person does ----
    def press_button(self, hold: float | None = None) -> None:
        """A finger presses and releases the button, with contact bounce both ways. A press asked for while
        the button is still held presses again once it is released (a finger cannot press a pressed button)."""
        now = self.clock.now()
        if now < self._button_free_at:
            self.clock.call_at(self._button_free_at, partial(self.press_button, hold), name="button-press-again")
            return
        hold = self.params.press_time if hold is None else hold
        t = self._bounce(now, self._pin["button"], final=False)
        release = max(t, now + hold)
        self.clock.call_at(release, self._release_button, name="button-release")
        # the release bounces settle within bounce_max pairs of edges; then a finger's short pause
        self._button_free_at = release + 2 * self.params.bounce_max * self.params.bounce_gap + 0.05

    def _release_button(self) -> None:
        self._bounce(self.clock.now(), self._pin["button"], final=True)

    def _bounce(self, start: float, pin: SimPin, final: bool, count: int | None = None,
                timers: list[Timer] | None = None) -> float:
        """Drive ``pin`` to ``final`` through a few bounces; returns when it is stable.
        The bounce timers are added to ``timers`` if given (so they can be called off)."""
        n = self.rng.randint(0, self.params.bounce_max) if count is None else count
        t = start
        levels = []
        for _ in range(n):
            levels += [final, not final]
        levels.append(final)
        for i, level in enumerate(levels):
            if i:
                t += self.rng.uniform(0.0002, self.params.bounce_gap)
            timer = self.clock.call_at(t, partial(pin.drive, level), name="bounce")
            if timers is not None:
                timers.append(timer)
        return t

    def open_lid(self) -> None:
        """The lid opens: one clean edge (a reed switch opens cleanly); a jam falls free.
        An open lid cannot open again."""
        if self.lid_open:
            return
        self.lid_open = True
        self._cancel_lid_bounces()  # a lid still bouncing shut is pulled open again
        self._pin["lid"].drive(True)
        self._check_safety()
        self.launcher.clear_jam()

    def close_lid(self) -> None:
        """The lid shuts: the switch bounces, then reads closed. A shut lid cannot shut again."""
        if not self.lid_open:
            return
        self.lid_open = False
        self._cancel_lid_bounces()
        self._bounce(self.clock.now(), self._pin["lid"], final=False, count=self.params.lid_bounces,
                     timers=self._lid_bounces)
        self._check_safety()

    def _cancel_lid_bounces(self) -> None:
        for timer in self._lid_bounces:
            timer.cancel()
        self._lid_bounces.clear()

    def load(self, cards: int | Iterable[TableCard]) -> None:
        """Cards into the magazine (a number of anonymous cards, or Card objects)."""
        self.launcher.load(cards)

    def arm_jam(self) -> None:
        """The next card to reach the exit wedges in the slot."""
        self.launcher.jam_next = True

    # ---- what the hardware layer drives ----
    def _motor_pins_changed(self, _pin: SimPin, _value: float) -> None:
        fwd = self._pin["motor_forward"].pwm_duty
        bwd = self._pin["motor_backward"].pwm_duty
        speed = 0.0 if (fwd > 0 and bwd > 0) else (fwd - bwd)
        now = self.clock.now()
        if speed != 0.0 and self.motor_on_since is None:
            merged = self._motor_off_at is not None and now - self._motor_off_at < self.rest_time - 1e-9
            if not merged:
                self._run_started = now
            self.motor_on_since = self._run_started
        elif speed == 0.0 and self.motor_on_since is not None:
            self._longest_done = max(self._longest_done, now - self.motor_on_since)
            self.motor_on_since = None
            self._motor_off_at = now
        self.launcher.set_motor(speed)
        self._check_safety()

    @property
    def longest_motor_run(self) -> float:
        """Seconds of the longest continuous motor run so far, the one going on now included."""
        going = self.clock.now() - self.motor_on_since if self.motor_on_since is not None else 0.0
        return max(self._longest_done, going)

    @property
    def motor_on(self) -> bool:
        return self.launcher.speed != 0.0

    def _check_safety(self) -> None:
        now = self.clock.now()
        bad = self.motor_on and self.lid_open
        if bad and self._violation_since is None:
            self._violation_since = now
        elif not bad and self._violation_since is not None:
            self.motor_with_lid_open.append((self._violation_since, now))
            self._violation_since = None

    def unsafe_time(self) -> float:
        """Total seconds the motor ran with the lid open (must be 0)."""
        total = sum(end - start for start, end in self.motor_with_lid_open)
        if self._violation_since is not None:
            total += self.clock.now() - self._violation_since
        return total

    def _servo_pin_changed(self, pin: SimPin, value: float) -> None:
        frequency = pin.frequency
        if not frequency or value <= 0:
            return  # no pulses: the servo holds where it is
        p = self.params
        pulse = value / frequency
        frac = (pulse - p.servo_min_pulse) / (p.servo_max_pulse - p.servo_min_pulse)
        target = p.servo_min_angle + max(0.0, min(1.0, frac)) * (p.servo_max_angle - p.servo_min_angle)
        now = self.clock.now()
        self._servo_from = self._servo_now() if self._servo_known else target
        self._servo_to = target
        self._servo_start = now
        self._servo_known = True

    def servo_angle(self) -> float | None:
        """Where the turntable physically points now (None before any pulse)."""
        return self._servo_now() if self._servo_known else None

    def _servo_now(self) -> float:
        """Where the turntable points now, once it has had a pulse."""
        travel = abs(self._servo_to - self._servo_from)
        done = (self.clock.now() - self._servo_start) * self.params.servo_speed
        if done >= travel:
            return self._servo_to
        step = done if self._servo_to > self._servo_from else -done
        return self._servo_from + step

    def servo_arrival(self) -> float:
        """The virtual time at which the turntable reaches its target."""
        return self._servo_start + abs(self._servo_to - self._servo_from) / self.params.servo_speed

    def _beeper_changed(self, _pin: SimPin, value: float) -> None:
        now = self.clock.now()
        if value and self._beep_started is None:
            self._beep_started = now
        elif not value and self._beep_started is not None:
            self.beeps.append((self._beep_started, now - self._beep_started))
            self._beep_started = None

    def _beam(self, broken: bool) -> None:
        if "exit_sensor" in self._pin:
            level = (not broken) if self._exit_active_low else broken
            self._pin["exit_sensor"].drive(level)

    # ---- accounting ----
    @property
    def cards_in_shooter(self) -> int:
        return self.launcher.in_shooter

    @property
    def cards_out(self) -> int:
        """Cards that came out and lie on the table."""
        return self.launcher.on_table

    def accounted(self) -> bool:
        """magazine + in the slot + out == loaded, every card once."""
        return self.launcher.accounted()

    # ---- faults and bring-up (added for uno-shooter selftest / calibrate) ----
    def disconnect(self, part: str) -> None:
        """A physical fault: the wire of input ``part`` (``lid``, ``button``, ``exit_sensor``) breaks, so its pin
        reads only its pull resistor: a disconnected reed switch reads open, a dead IR receiver reads a whole
        beam (its output is pulled up), a disconnected button is never pressed."""
        if part not in ("lid", "button", "exit_sensor") or part not in self._pin:
            raise ValueError(f"cannot disconnect {part!r}: lid, button or exit_sensor")
        self._pin[part].disconnect()

    def pass_card_by_hand(self, seconds: float = 0.2) -> None:
        """A person pushes a card through the exit slot: the beam is broken for ``seconds``."""
        self._beam(True)
        self.clock.call_later(seconds, lambda: self._beam(False), name="card-by-hand")
