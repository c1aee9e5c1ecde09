"""The simulator's pin factory: gpiozero's mock pins on virtual time, wired to a world.

``SimFactory`` is a :class:`gpiozero.pins.mock.MockFactory` whose pins
- stamp every change with the one clock (not the wall clock),
- tell listeners (the world model) when an output changes, and
- keep the level the world drives on an input even when gpiozero sets a pull
  (a real pin reads what the circuit drives, not only its pull resistor).
Every gpiozero device the hardware layer builds runs unchanged on these pins.

A pin remembers its last :attr:`SimFactory.history_limit` changes (``history``, and gpiozero's
``states``), not all of them: a day-long simulated session must not grow with every edge. A test
that wants every change sets ``history_limit=None`` on the factory before it makes the pins.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from gpiozero.exc import PinFixedPull, PinInvalidPull
from gpiozero.pins import PinInfo
from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

from hal.clock import Clock

Listener = Callable[["SimPin", float], None]


class SimPin(MockPWMPin):  # type: ignore[misc]  # gpiozero is untyped
    """A mock pin (PWM capable) on virtual time that the world can drive."""

    _state: float  # gpiozero's level of the pin (0/1, or a duty cycle)

    def __init__(self, factory: SimFactory, info: PinInfo):
        self._external: bool | None = None
        self.disconnected = False  # a broken wire: the pin reads its pull, whatever the world drives
        self._clock = factory.clock
        self._limit = factory.history_limit
        self.listeners: list[Listener] = []
        self.history: deque[tuple[float, float]] = deque(maxlen=self._limit)  # (absolute time, level)
        super().__init__(factory, info)

    def _now(self) -> float:
        return self._clock.now()

    def clear_states(self) -> None:
        self._last_change = self._clock.now()
        self.history = deque([(self._last_change, float(self._state))], maxlen=self._limit)

    @property
    def states(self) -> list[PinState]:
        """gpiozero's record of the pin (each level with the time since the change before), worked
        out from :attr:`history` when asked rather than kept twice on every change."""
        out, before = [], None
        for t, level in self.history:
            out.append(PinState(0.0 if before is None else t - before, level))
            before = t
        return out

    def _change_state(self, value: float) -> bool:
        if self._state == value:
            return False
        t = self._clock.now()
        self._state = value
        self.history.append((t, float(value)))
        self._last_change = t
        if self.listeners and self._function == "output":
            for listener in tuple(self.listeners):
                listener(self, value)
        return True

    def _set_pull(self, value: str) -> None:
        if self.function != "input":
            raise PinFixedPull(f"cannot set pull on non-input pin {self!r}")
        if value not in ("floating", "up", "down"):
            raise PinInvalidPull("pull must be floating, up, or down")
        self._pull = value
        level = self._external if self._external is not None and not self.disconnected else (value == "up")
        self._drive(level)

    def _drive(self, level: bool) -> None:
        if level:
            self.drive_high()
        else:
            self.drive_low()

    def drive(self, level: bool) -> None:
        """The world sets the level on this pin (a switch closing, a beam breaking)."""
        self._external = bool(level)
        if self._function == "input" and not self.disconnected:
            self._drive(self._external)

    def release(self) -> None:
        """The world stops driving; the pull decides again."""
        self._external = None
        if self._function == "input":
            self._drive(self._pull == "up")

    def disconnect(self) -> None:
        """Fault injection: the wire to this input breaks; from now on the pin reads its pull resistor."""
        self.disconnected = True
        if self._function == "input":
            self._drive(self._pull == "up")

    @property
    def pwm_duty(self) -> float:
        """The output level 0..1 (a plain on/off output reads 0 or 1)."""
        return float(self._state) if self._function == "output" else 0.0


class SimFactory(MockFactory):  # type: ignore[misc]  # gpiozero is untyped
    """Mock pin factory on the one clock; every pin is a :class:`SimPin`."""

    #: how many changes each pin remembers (None: all of them)
    history_limit: int | None = 1000

    def __init__(self, clock: Clock, revision: str | None = None, *, history_limit: int | None = 1000):
        super().__init__(revision=revision, pin_class=SimPin)
        self.clock = clock
        self.history_limit = history_limit

    def ticks(self) -> float:
        return self.clock.now()

    @staticmethod
    def ticks_diff(later: float, earlier: float) -> float:
        return later - earlier

    def sim_pin(self, bcm: int) -> SimPin:
        """The pin object for BCM number ``bcm`` (created on first use)."""
        pin: SimPin = self.pin(f"GPIO{bcm}")
        return pin
