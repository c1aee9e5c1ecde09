"""The shooter's hardware as one object, composed from its parts.

``Hardware`` builds every part on one gpiozero pin factory: a real one (lgpio,
RPi.GPIO) on the Pi, the simulator's on a laptop. It wires the one safety rule
that spans two parts (the lid opening stops the motor) so that no caller can
forget it, and it closes everything, motor first, exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .beeper import GpioBeeper
from .clock import Clock, MonotonicClock
from .inputs import GpioButton, GpioExitSensor, GpioLid, Post
from .motor import GpioMotor
from .servo import GpioServo
from .settings import HardwareSettings

if TYPE_CHECKING:
    from typing import Self

    from gpiozero.pins import Factory

log = logging.getLogger(__name__)


class _Part(Protocol):
    def close(self) -> None: ...


_P = TypeVar("_P", bound=_Part)


class Hardware:
    """Motor, button, lid, beeper, servo and (optional) exit sensor of one shooter.

    Built on the simulator's pins in virtual time; ``post`` is the control loop's
    (a list here). The lid opening cuts the motor at the edge, then tells the loop::

        >>> from hal import Hardware, HardwareSettings, VirtualClock
        >>> from sim import SimFactory
        >>> clock = VirtualClock()
        >>> pins = SimFactory(clock)
        >>> settings = HardwareSettings()
        >>> pins.sim_pin(settings.pins.lid).drive(False)          # the lid is shut
        >>> posted = []
        >>> with Hardware(settings, clock=clock, post=posted.append, pin_factory=pins) as hw:
        ...     hw.on_lid_open = lambda: print("lid open; motor:", hw.motor.direction)
        ...     hw.motor.forward()
        ...     pins.sim_pin(settings.pins.lid).drive(True)       # the lid opens
        ...     print("motor pin:", pins.sim_pin(settings.pins.motor_forward).state)
        ...     while posted:                                     # the loop runs what was posted
        ...         posted.pop(0)()
        motor pin: 0.0
        lid open; motor: None
        >>> hw.closed, pins.sim_pin(settings.pins.motor_forward).state
        (True, 0.0)
    """

    def __init__(self, settings: HardwareSettings, *, clock: Clock, post: Post,
                 pin_factory: Factory | None = None, servo: Callable[..., Any] | None = None):
        # ``servo``: builds the servo (hal.backends.servo_maker: gpiozero's or the kernel's PWM)
        backstop = isinstance(clock, MonotonicClock)  # a thread on wall time: never in virtual time
        self.settings = settings
        self.clock = clock
        self._closed = False
        pins = settings.pins
        self._parts: list[_Part] = []
        try:
            self.lid = self._add(GpioLid(pins.lid, clock=clock, post=post,
                                         close_debounce=settings.inputs.lid_close_debounce,
                                         pin_factory=pin_factory))
            self.motor = self._add(GpioMotor(pins.motor_forward, pins.motor_backward, lid=self.lid,
                                             clock=clock, settings=settings.motor,
                                             pin_factory=pin_factory, backstop=backstop))
            self.button = self._add(GpioButton(pins.button, clock=clock, post=post,
                                               debounce=settings.inputs.button_debounce,
                                               pin_factory=pin_factory))
            self.beeper = self._add(GpioBeeper(pins.beeper, clock=clock, kind=settings.beeper.kind,
                                               pin_factory=pin_factory))
            self.servo = self._add((servo or GpioServo)(pins.servo, clock=clock, settings=settings.servo,
                                             pin_factory=pin_factory))
            self.exit_sensor: GpioExitSensor | None = None
            if pins.exit_sensor is not None:
                self.exit_sensor = self._add(GpioExitSensor(
                    pins.exit_sensor, clock=clock, post=post,
                    active_low=settings.inputs.exit_active_low, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self.on_lid_open: Callable[[], object] | None = None  # called once the motor is already off
        self.lid.on_open = self._lid_opened
        # The one thing done on the GPIO thread: the lid opening cuts the motor pins at once,
        # without waiting for the loop (which may be busy). Pins only, under the motor's lock.
        self.lid.on_raw_open = self.motor.emergency_stop

    def _add(self, part: _P) -> _P:
        self._parts.append(part)
        return part

    def _lid_opened(self) -> None:
        self.motor.stop()  # first the hardware, then the explanation
        if self.on_lid_open is not None:
            self.on_lid_open()

    def safe_stop(self) -> None:
        """Motor off; never raises."""
        motor = getattr(self, "motor", None)
        if motor is not None:
            try:
                motor.stop()
            except Exception:  # pragma: no cover - stopping must not mask the original error
                log.exception("hal: the motor did not stop cleanly")

    def close(self) -> None:
        """Motor off, then every part closed. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self.safe_stop()
        # Close the motor first, then the rest in reverse order of creation.
        parts = sorted(self._parts, key=lambda p: not isinstance(p, GpioMotor))
        for part in parts[:1] + list(reversed(parts[1:])):
            try:
                part.close()
            except Exception:  # one part failing to close must not leave the others open
                log.exception("hal: closing %s failed", type(part).__name__)
        self._parts.clear()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if TYPE_CHECKING:
    from .interfaces import HardwareParts

    def _fits(hw: Hardware) -> HardwareParts:
        return hw  # mypy checks that the gpiozero parts have the shape the shooter programs against
