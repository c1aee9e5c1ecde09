"""The inputs: button, lid and card-exit sensor, debounced on our own clock.

The pin library reports raw edges on its own thread (:class:`hal.gpio.EdgeInput`); each edge is
only *posted* to the control loop together with the level it saw. Debouncing happens on the loop,
on the one clock, because gpiozero's ``bounce_time`` is ignored by its mock pins and differs
between the real backends.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from gpiozero.pins import Factory

from .clock import Clock, Timer
from .errors import DeviceClosedError
from .gpio import EdgeInput

Post = Callable[[Callable[[], None]], None]


class DebouncedInput:
    """A digital input whose level must stay put for a settle time to count.

    ``settle_active`` / ``settle_inactive``: how long the level must hold before
    a change to active / inactive is accepted (0 = accept the first edge at once).
    ``on_change(active)`` is called on the loop for every accepted change.
    """

    def __init__(self, pin: int, *, pull_up: bool, clock: Clock, post: Post,
                 settle_active: float, settle_inactive: float, pin_factory: Factory | None = None,
                 name: str = "input"):
        self._clock = clock
        self._settle = {True: settle_active, False: settle_inactive}
        self._name = name
        self._timer_name = f"{name}-debounce"
        self._timer: Timer | None = None
        self._closed = False
        self.on_change: Callable[[bool], object] | None = None
        # Called on the GPIO library's thread with the raw level, before the edge is posted.
        # Only for hardware safety that cannot wait for the loop (the lid cutting the motor).
        self.on_raw_edge: Callable[[bool], object] | None = None
        self.device = EdgeInput(pin, pull_up=pull_up, pin_factory=pin_factory)
        self._raw = self._stable = bool(self.device.is_active)
        self._post = post
        # one callable per level, made once: an edge allocates nothing (and a partial adds no frame)
        self._edge_to = {True: partial(self._edge, True), False: partial(self._edge, False)}
        self.device.when_edge = self._raw_edge

    def _raw_edge(self, level: bool) -> None:
        """On the GPIO library's thread: post, never touch state."""
        if self.on_raw_edge is not None:
            self.on_raw_edge(level)
        self._post(self._edge_to[level])

    @property
    def active(self) -> bool:
        """The debounced level."""
        self._check_open()
        return self._stable

    @property
    def raw_active(self) -> bool:
        """The level on the pin right now (used by safety checks)."""
        self._check_open()
        return self.device.reads_active()

    def firmly_active(self) -> bool:
        """Active both by the debounced level and on the pin right now (one check for safety)."""
        if self._closed:
            self._check_open()
        return self._stable and self.device.reads_active()

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosedError(f"the {self._name} input is closed")

    def _edge(self, level: bool) -> None:
        if self._closed:
            return  # an edge posted just before close
        self._raw = level
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if level == self._stable:
            return
        settle = self._settle[level]
        if settle <= 0:
            self._accept(level)
        else:
            self._timer = self._clock.call_later(settle, self._settled, name=self._timer_name)

    def _settled(self) -> None:
        self._timer = None
        if self._raw != self._stable:
            self._accept(self._raw)

    def _accept(self, level: bool) -> None:
        self._stable = level
        if self.on_change is not None:
            self.on_change(level)

    def close(self) -> None:
        """Release the pin; safe twice. Reading a closed input raises :class:`DeviceClosedError`."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._closed = True
        self.device.close()


class GpioButton:
    """The big button, wired to ground with the internal pull-up: one ``on_press`` per press.

    Edges are only posted to the loop; a press counts once the contact has held
    for ``debounce`` seconds, so contact bounce gives one press::

        >>> from hal import VirtualClock
        >>> from hal.inputs import GpioButton
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> pins = SimFactory(clock)
        >>> run_now = lambda fn: fn()                   # the loop's post, run at once here
        >>> button = GpioButton(17, clock=clock, post=run_now, debounce=0.02, pin_factory=pins)
        >>> button.on_press = lambda: print("press")
        >>> for level in (False, True, False):           # pressed, bounced, pressed (pulls low)
        ...     pins.sim_pin(17).drive(level)
        >>> button.is_pressed                            # not yet: it must hold 20 ms
        False
        >>> clock.advance_to(0.02)
        >>> clock.run_due()
        press
        1
        >>> button.is_pressed
        True
        >>> button.close()
    """

    def __init__(self, pin: int, *, clock: Clock, post: Post, debounce: float, pin_factory: Factory | None = None):
        self.on_press: Callable[[], object] | None = None
        self._clock = clock
        self._hold: Timer | None = None   # armed by when_held for the press going on
        self._input = DebouncedInput(pin, pull_up=True, clock=clock, post=post,
                                     settle_active=debounce, settle_inactive=debounce,
                                     pin_factory=pin_factory, name="button")
        self._input.on_change = self._changed

    @property
    def is_pressed(self) -> bool:
        return self._input.active

    def when_held(self, seconds: float, callback: Callable[[], object]) -> None:
        """Call ``callback`` on the loop once the press going on has lasted ``seconds`` more (counted on the
        loop's clock, from now); a release before then calls it off. Armed for one press only, and only when
        asked (gpiozero's ``hold_time`` runs a thread of its own and costs every press)::

            >>> from hal import VirtualClock
            >>> from sim import SimFactory
            >>> clock = VirtualClock()
            >>> pins = SimFactory(clock)
            >>> button = GpioButton(17, clock=clock, post=lambda fn: fn(), debounce=0.02, pin_factory=pins)
            >>> button.on_press = lambda: button.when_held(2.0, lambda: print("held 2 s"))
            >>> pins.sim_pin(17).drive(False); clock.advance_to(0.02); clock.run_due()
            1
            >>> pins.sim_pin(17).drive(True); clock.advance_to(1.0); clock.run_due()   # let go after 1 s
            1
            >>> pins.sim_pin(17).drive(False); clock.advance_to(1.02); clock.run_due()  # pressed and held
            1
            >>> clock.advance_to(3.02); clock.run_due()
            held 2 s
            1
            >>> button.close()
        """
        self._cancel_hold()
        if self._input.active:
            self._hold = self._clock.call_later(seconds, partial(self._held, callback), name="button-hold")

    def _held(self, callback: Callable[[], object]) -> None:
        self._hold = None
        if self._input.active:
            callback()

    def _cancel_hold(self) -> None:
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None

    def _changed(self, pressed: bool) -> None:
        if pressed:
            if self.on_press is not None:
                self.on_press()
        elif self._hold is not None:
            self._cancel_hold()

    def close(self) -> None:
        self._cancel_hold()
        self._input.close()


class GpioLid:
    """The lid switch: closed pulls the pin low. Opening counts at once (safety),
    closing only once it has settled (H-BEEP: the beep means it is properly shut).

    ``on_raw_open`` is called on the GPIO thread at the very edge (``hal.Hardware``
    cuts the motor there); ``on_open`` / ``on_close`` on the loop::

        >>> from hal import VirtualClock
        >>> from hal.inputs import GpioLid
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> pins = SimFactory(clock)
        >>> run_now = lambda fn: fn()                   # the loop's post, run at once here
        >>> pins.sim_pin(27).drive(False)                # shut
        >>> lid = GpioLid(27, clock=clock, post=run_now, close_debounce=0.3, pin_factory=pins)
        >>> lid.on_raw_open = lambda: print("motor pins off")
        >>> lid.on_open, lid.on_close = (lambda: print("open")), (lambda: print("closed"))
        >>> pins.sim_pin(27).drive(True)                 # opened
        motor pins off
        open
        >>> pins.sim_pin(27).drive(False)                # shut again...
        >>> lid.is_open                                  # ...but not settled yet
        True
        >>> clock.advance_to(0.3)
        >>> clock.run_due()
        closed
        1
        >>> lid.is_open
        False
        >>> lid.close()
    """

    def __init__(self, pin: int, *, clock: Clock, post: Post, close_debounce: float,
                 pin_factory: Factory | None = None):
        self.on_open: Callable[[], object] | None = None
        self.on_close: Callable[[], object] | None = None
        # active = pin low = lid closed
        self._input = DebouncedInput(pin, pull_up=True, clock=clock, post=post,
                                     settle_active=close_debounce, settle_inactive=0.0,
                                     pin_factory=pin_factory, name="lid")
        self._input.on_change = self._changed
        self.on_raw_open: Callable[[], object] | None = None  # GPIO thread; see Hardware
        self._input.on_raw_edge = self._raw_edge

    def _raw_edge(self, closed: bool) -> None:
        if not closed and self.on_raw_open is not None:
            self.on_raw_open()

    @property
    def is_open(self) -> bool:
        """Open if the debounced state says so or the pin reads open right now."""
        return not self._input.firmly_active()

    def _changed(self, closed: bool) -> None:
        callback = self.on_close if closed else self.on_open
        if callback is not None:
            callback()

    def close(self) -> None:
        self._input.close()


class GpioExitSensor:
    """IR beam break in the exit slot. A card breaking the beam is one card out;
    ``on_clear`` when the beam is whole again (a card still breaking it is stuck).

    The receiver pulls low while the beam is broken (``active_low``); no settle time::

        >>> from hal import VirtualClock
        >>> from hal.inputs import GpioExitSensor
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> pins = SimFactory(clock)
        >>> run_now = lambda fn: fn()                   # the loop's post, run at once here
        >>> pins.sim_pin(22).drive(True)                 # the beam is whole
        >>> sensor = GpioExitSensor(22, clock=clock, post=run_now, pin_factory=pins)
        >>> sensor.on_card, sensor.on_clear = (lambda: print("card")), (lambda: print("clear"))
        >>> for level in (False, True, False):           # two cards pass, the second stays
        ...     pins.sim_pin(22).drive(level)
        card
        clear
        card
        >>> sensor.is_blocked
        True
        >>> sensor.close()
    """

    def __init__(self, pin: int, *, clock: Clock, post: Post, active_low: bool = True,
                 pin_factory: Factory | None = None):
        self.on_card: Callable[[], object] | None = None
        self.on_clear: Callable[[], object] | None = None
        # An IR receiver switches cleanly; no settle time, so fast bursts still count.
        self._input = DebouncedInput(pin, pull_up=active_low, clock=clock, post=post,
                                     settle_active=0.0, settle_inactive=0.0,
                                     pin_factory=pin_factory, name="exit")
        self._input.on_change = self._changed

    @property
    def is_blocked(self) -> bool:
        return self._input.active

    def _changed(self, blocked: bool) -> None:
        callback = self.on_card if blocked else self.on_clear
        if callback is not None:
            callback()

    def close(self) -> None:
        self._input.close()
