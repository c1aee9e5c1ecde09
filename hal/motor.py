"""The launcher motor, with the safety rules enforced where it is switched on.

Whoever calls it, the motor
- is off when created and when closed (close is safe twice),
- refuses to start while the lid is open (H-LID),
- stops itself after ``max_on_time`` seconds of one continuous run, then
  reports ``on_fault("max-on-time")``: a jammed roller must not burn,
- rests: after every run it stays off at least ``rest_time`` before it may
  start again (:class:`MotorRestingError`), so no stop, however short, can
  restart the on-time count; a change of direction while running is the same run,
- keeps a thermal budget: it starts only if a whole ``max_on_time`` run still
  fits in ``thermal_budget`` motor-on seconds within the last ``thermal_window``.
:meth:`GpioMotor.ready_in` tells a caller how long to wait. Stopping never fails.

Switching on and the emergency stop share one lock, so the lid check and the
switch-on happen as one step against a lid opening on the GPIO thread. With a
real clock a backstop thread also cuts the motor shortly after the maximum
on-time, in case the control loop itself is stuck (the loop's own timer is the
one that reports the fault).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from gpiozero.pins import Factory

from .backstop import Backstop
from .clock import Clock, Timer
from .errors import DeviceClosedError, InvalidValueError, LidOpenError, MotorRestingError
from .gpio import HBridge
from .interfaces import Lid
from .settings import MotorSettings


class GpioMotor:
    """A DC motor on a friction roller behind an H-bridge (forward / backward pins).

    On the simulator's pins, in virtual time (``post`` runs at once here; the
    controller passes its loop's)::

        >>> from hal import VirtualClock
        >>> from hal.inputs import GpioLid
        >>> from hal.motor import GpioMotor
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> pins = SimFactory(clock)
        >>> pins.sim_pin(27).drive(False)                 # the lid is shut: its switch pulls low
        >>> lid = GpioLid(27, clock=clock, post=lambda fn: fn(), close_debounce=0.3, pin_factory=pins)
        >>> motor = GpioMotor(23, 24, lid=lid, clock=clock, pin_factory=pins)
        >>> motor.forward(0.8)
        >>> motor.direction, pins.sim_pin(23).state
        ('forward', 0.8)
        >>> clock.advance_to(0.5)
        >>> motor.stop()
        >>> round(motor.ready_in(), 3)                     # it rests after every run
        0.1
        >>> motor.forward()
        Traceback (most recent call last):
        hal.errors.MotorRestingError: the motor is resting: it may start in 0.100 s

    It stops itself after ``max_on_time`` (3 s by default) and says why::

        >>> motor.on_fault = lambda reason: print("fault:", reason)
        >>> clock.advance_to(1.0)
        >>> motor.forward()
        >>> clock.advance_to(4.0)
        >>> clock.run_due()
        fault: max-on-time
        1
        >>> motor.direction, pins.sim_pin(23).state
        (None, 0.0)

    And it never starts with the lid open (H-LID)::

        >>> pins.sim_pin(27).drive(True)                  # the lid opens
        >>> clock.advance_to(10.0)
        >>> motor.forward()
        Traceback (most recent call last):
        hal.errors.LidOpenError: the lid is open: the motor stays off
        >>> motor.close(); lid.close()
    """

    BACKSTOP_MARGIN = 0.25  # seconds after max_on_time that the backstop thread acts

    def __init__(self, forward_pin: int, backward_pin: int, *, lid: Lid, clock: Clock,
                 settings: MotorSettings = MotorSettings(), pin_factory: Factory | None = None, backstop: bool = False):
        self._lid = lid
        self._clock = clock
        self._settings = settings
        self._lock = threading.RLock()
        self._backstop: Backstop | None = None
        self._guard: Timer | None = None
        self._direction: str | None = None
        self._closed = False
        self._run_started: float | None = None     # the current run's switch-on
        self._rest_until = float("-inf")           # no start before this (the rest after a run)
        self._free_at = float("-inf")              # no start before this (the rest and the thermal budget)
        self._runs: deque[tuple[float, float]] = deque()  # (start, end) of past runs within the window
        self._runs_total = 0.0                     # the sum of their lengths (O(1) per check)
        self.on_fault: Callable[[str], object] | None = None
        self.device = HBridge(forward_pin, backward_pin, frequency=settings.pwm_frequency, pin_factory=pin_factory)
        self.stop()
        if backstop:  # with a real clock: one thread, for the motor's life, that cuts a run the loop failed to stop
            self._backstop = Backstop(self._backstop_cut)

    @property
    def direction(self) -> str | None:
        return self._direction

    def forward(self, duty: float = 1.0) -> None:
        """Shoot: run the roller forward at ``duty`` (0..1]."""
        self._start("forward", duty)

    def backward(self, duty: float = 1.0) -> None:
        """Pull the next card back in."""
        self._start("backward", duty)

    def _used(self, now: float) -> float:
        """Motor-on seconds within the thermal window ending ``now`` (past runs only)."""
        since = now - self._settings.thermal_window
        runs = self._runs
        while runs and runs[0][1] <= since:
            a, b = runs.popleft()
            self._runs_total -= b - a
        if not runs:
            self._runs_total = 0.0  # no rounding drift carried over
            return 0.0
        # Runs do not overlap: only the oldest may have begun before the window.
        return self._runs_total - max(0.0, since - runs[0][0])

    def ready_in(self) -> float:
        """Seconds from now until the motor may be switched on: the rest after the last run has
        passed and its thermal budget has room for a whole ``max_on_time`` run. 0 while running
        (a change of direction is always allowed) and when it may start at once.

        A forecast, read without the lock: whatever it says, ``forward``/``backward`` decide again under
        the lock (a run ended by ``emergency_stop`` right after this returns makes any answer stale, so
        the lock here would only cost every press its round trip)."""
        return self._ready_in(self._clock.now())

    def _ready_in(self, now: float) -> float:
        if self._run_started is not None:
            return 0.0
        wait = self._free_at - now
        return wait if wait > 0.0 else 0.0

    def _earliest_start(self, now: float) -> float:
        """When the next run may start, worked out once as a run ends: its rest is over and the
        thermal window holds room for a whole ``max_on_time`` run. Until the next run nothing moves
        that time (the window only slides past old runs), so a start asks no more than a clock."""
        s = self._settings
        free_at = self._rest_until
        excess = self._used(now) - (s.thermal_budget - s.max_on_time)
        if excess > 1e-9:
            # The window must slide past ``excess`` seconds of the oldest runs.
            since = now - s.thermal_window
            for start, b in self._runs:
                a = max(start, since)
                if b - a >= excess:
                    free_at = max(free_at, a + excess + s.thermal_window)
                    break
                excess -= b - a
            else:
                # Float rounding left ``excess`` a hair above the runs' lengths: the window must
                # slide past the newest run whole (never fall through to the rest alone).
                free_at = max(free_at, self._runs[-1][1] + s.thermal_window)
        return free_at

    def _start(self, direction: str, duty: float) -> None:
        if self._closed:
            raise DeviceClosedError("the motor is closed")
        if not (isinstance(duty, (int, float)) and 0.0 < duty <= 1.0):
            raise InvalidValueError("duty", f"must be in (0, 1], got {duty!r}")
        with self._lock:  # the lid may open on the GPIO thread between the check and the switch-on
            if self._lid.is_open:
                self.stop()
                raise LidOpenError("the lid is open: the motor stays off")
            if self._run_started is None:
                now = self._clock.now()
                wait = self._ready_in(now)
                if wait > 0:
                    raise MotorRestingError(f"the motor is resting: it may start in {wait:.3f} s")
                self._run_started = now
                if self._guard is not None:
                    # armed for a run that emergency_stop ended off the loop (it may not touch timers):
                    # this run counts its own on-time
                    self._disarm()
            if self._guard is None:
                # The on-time counts from switching on, across direction changes.
                self._guard = self._clock.call_later(self._settings.max_on_time, self._over_time,
                                                     name="motor-max-on-time")
                if self._backstop is not None:
                    self._backstop.arm(self._settings.max_on_time + self.BACKSTOP_MARGIN)
            if direction == "forward":
                self.device.forward(duty)
            else:
                self.device.backward(duty)
            self._direction = direction

    def stop(self) -> None:
        """Switch the motor off; a run ends here and its rest begins. Never raises, also after close."""
        with self._lock:
            self._end_run()
            self._disarm()
            self._direction = None
            if not self._closed:
                self.device.stop()

    def _disarm(self) -> None:
        """Cancel the on-time guard and the backstop of the run that ended (on the loop)."""
        if self._guard is not None:
            self._guard.cancel()
            self._guard = None
        if self._backstop is not None:
            self._backstop.disarm()

    def emergency_stop(self) -> None:
        """Cut the motor pins from any thread (the lid's GPIO callback, the backstop, a signal
        handler). Touches nothing but the pins and ends the run (its rest begins); the loop's own
        handling follows."""
        with self._lock:
            if not self._closed:
                self.device.stop()
            self._end_run()

    def _backstop_cut(self) -> None:
        """The backstop's cut (its thread): the pins off, unless the run it was armed for ended while
        it waited for the lock and the run going now is younger than ``max_on_time`` (not yet due)."""
        with self._lock:
            started = self._run_started
            if started is not None and self._clock.now() - started < self._settings.max_on_time:
                return
            self.emergency_stop()

    def _end_run(self) -> None:
        if self._run_started is not None:
            now = self._clock.now()
            self._runs.append((self._run_started, now))
            self._runs_total += now - self._run_started
            self._run_started = None
            self._rest_until = now + self._settings.rest_time
            self._free_at = self._earliest_start(now)

    def _over_time(self) -> None:
        self._guard = None
        self.stop()
        if self.on_fault is not None:
            self.on_fault("max-on-time")

    def close(self) -> None:
        """Motor off, pins released; safe twice. Under the motor's lock, so that a cut on another thread
        (the lid, a signal) either runs before it or finds the motor closed, never a closed device."""
        with self._lock:
            if self._closed:
                return
            self.stop()
            self._closed = True
            self.device.close()
        if self._backstop is not None:  # outside the lock: a cut it is making may be waiting for it
            self._backstop.close()
