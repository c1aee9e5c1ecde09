"""One small interface per physical part, and :class:`HardwareParts`, the shooter made of them.

The controller (``shooter``) programs against these and never against gpiozero
(:class:`hal.Hardware` is the gpiozero implementation; a test may pass any object
of the same shape). This module imports nothing but ``typing``.
Every method is called on the control loop's thread; every ``on_*`` callback a
part makes is also made on that thread (GPIO callbacks only post to the loop),
with one exception for safety: the lid's ``on_raw_open`` runs on the GPIO thread
and may only call ``Motor.emergency_stop``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .settings import HardwareSettings

Callback = Callable[[], object]


class Motor(Protocol):
    """The launcher motor: forward shoots, backward pulls the next card back in."""

    on_fault: Callable[[str], object] | None  # called after the motor stopped itself

    # LidOpenError while the lid is open; MotorRestingError when switched on before ready_in() is 0
    def forward(self, duty: float = 1.0) -> None: ...
    def backward(self, duty: float = 1.0) -> None: ...
    def ready_in(self) -> float: ...  # seconds until it may be switched on (rest, thermal budget)
    def stop(self) -> None: ...
    def emergency_stop(self) -> None: ...  # pins off, from any thread
    @property
    def direction(self) -> str | None: ...  # "forward", "backward" or None


class Button(Protocol):
    """The big button on top; ``on_press`` once per (debounced) press."""

    on_press: Callback | None
    @property
    def is_pressed(self) -> bool: ...
    def when_held(self, seconds: float, callback: Callback) -> None: ...  # once, if this press lasts seconds


class Lid(Protocol):
    """The lid switch: opening reported at once, closing once it has settled."""

    on_open: Callback | None        # on the loop, after the debounce (none for opening)
    on_close: Callback | None
    on_raw_open: Callback | None    # on the GPIO thread, at the first open edge: for the motor cut only
    @property
    def is_open(self) -> bool: ...


class ExitSensor(Protocol):
    """IR beam across the exit slot: one ``on_card`` per card leaving."""

    on_card: Callback | None
    on_clear: Callback | None
    @property
    def is_blocked(self) -> bool: ...


class Servo(Protocol):
    """The turntable: turns to an angle at a finite speed."""

    on_arrived: Callable[[float], object] | None

    def move_to(self, angle: float) -> float: ...  # returns the seconds the move takes
    @property
    def angle(self) -> float | None: ...           # the last commanded angle
    @property
    def moving(self) -> bool: ...


class Beeper(Protocol):
    """Plays beep patterns: a sequence of (frequency in Hz or None for a rest, seconds)."""

    def play(self, pattern: Sequence[tuple[float | None, float]]) -> None: ...
    def stop(self) -> None: ...


class HardwareParts(Protocol):
    """One shooter's parts, as :class:`hal.Hardware` composes them: what ``shooter`` may use.

    ``exit_sensor`` is None when none is fitted. The lid opening has already stopped the motor
    when ``on_lid_open`` is called (on the loop)."""

    settings: HardwareSettings
    on_lid_open: Callback | None

    @property
    def motor(self) -> Motor: ...
    @property
    def button(self) -> Button: ...
    @property
    def lid(self) -> Lid: ...
    @property
    def exit_sensor(self) -> ExitSensor | None: ...
    @property
    def servo(self) -> Servo: ...
    @property
    def beeper(self) -> Beeper: ...

    def safe_stop(self) -> None: ...  # motor off; never raises
    def close(self) -> None: ...      # motor off, then every part closed; safe twice
