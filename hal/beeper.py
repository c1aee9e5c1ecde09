"""The beeper: plays patterns of tones and rests as timers on the one clock
(not gpiozero's ``Buzzer.beep``, which runs its own thread)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from gpiozero.pins import Factory

from .clock import Clock, Timer
from .errors import DeviceClosedError, InvalidValueError
from .gpio import PinOutput, PwmOutput

Note = tuple[float | None, float]   # (frequency in Hz or None for a rest, seconds)
Pattern = Sequence[Note]


class GpioBeeper:
    """An active buzzer (on/off; the frequency is ignored) or a piezo (PWM tones).

    A pattern is timers on the one clock; a new pattern cuts off the one playing::

        >>> from hal import VirtualClock
        >>> from hal.beeper import GpioBeeper
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> pins = SimFactory(clock)
        >>> beeper = GpioBeeper(5, clock=clock, pin_factory=pins)
        >>> beeper.play([(2000, 0.1), (None, 0.05), (2000, 0.1)])   # beep, rest, beep
        >>> while clock.next_deadline() is not None:     # what the control loop does
        ...     clock.advance_to(clock.next_deadline())
        ...     _ = clock.run_due()
        >>> [(round(t, 3), level) for t, level in pins.sim_pin(5).history]   # the pin's (time, level)
        [(0.0, 0.0), (0.0, 1.0), (0.1, 0.0), (0.15, 1.0), (0.25, 0.0)]
        >>> beeper.close()
    """

    def __init__(self, pin: int, *, clock: Clock, kind: str = "active", pin_factory: Factory | None = None):
        if kind not in ("active", "piezo"):
            raise InvalidValueError("kind", f"must be 'active' or 'piezo', got {kind!r}")
        self._clock = clock
        self._kind = kind
        self._timer: Timer | None = None
        self._closed = False
        self.played: deque[Pattern] = deque(maxlen=16)  # the patterns started, newest last (tests)
        self._notes: Pattern = ()   # the pattern playing and the note it is at
        self._index = 0
        self.device: PinOutput | PwmOutput
        if kind == "active":
            self.device = PinOutput(pin, pin_factory=pin_factory)
        else:
            self.device = PwmOutput(pin, frequency=440, pin_factory=pin_factory)

    def play(self, pattern: Pattern) -> None:
        """Play ``pattern``, cutting off whatever was playing."""
        if self._closed:
            raise DeviceClosedError("the beeper is closed")
        if self._timer is not None:  # between patterns the pin is already off: no write on the press path
            self.stop()
        self._notes = notes = pattern  # not copied: patterns are constants (shooter/beeps.py)
        self.played.append(notes)
        self._index = 0
        self._step()

    def _step(self) -> None:
        """Sound the pattern's next note and time the one after (one bound method, no closure per note)."""
        self._timer = None
        index = self._index
        if index >= len(self._notes):
            self._off()
            return
        self._index = index + 1
        frequency, seconds = self._notes[index]
        if frequency is None:
            self._off()
        elif self._kind == "active":
            self.device.write(1)
        else:
            self.device.frequency = frequency
            self.device.write(0.5)
        self._timer = self._clock.call_later(seconds, self._step, name="beep")

    def _off(self) -> None:
        if self._closed:
            return
        self.device.write(0)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._off()

    def close(self) -> None:
        """Silence and release the pin; safe twice. ``stop`` stays quiet after it, ``play`` raises."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._closed = True
        self.device.close()
