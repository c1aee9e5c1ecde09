"""The shooter's parts on the bench: the hardware layer alone, without the game, for the bring-up tools
(``uno-shooter selftest`` and ``uno-shooter calibrate``).

A :class:`Bench` builds the parts on real pins (the pin factory and servo backend the config names) or on
the simulator, with the one loop and the one clock (virtual in simulation), and waits for a part or a person
with a timeout on that clock. The person is a :class:`TerminalPerson` (asked on the terminal) or, in
simulation, a :class:`SimPerson`: the simulated world plays the person's part, acting on the world (opening
the lid, pressing the button, passing a card) and answering what a person would see or hear from what
physically happened there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self, TextIO

from hal import Hardware, MonotonicClock, VirtualClock

from ..config import Config
from ..loop import ControlLoop
from ..seats import spread_angles
from .calibration import Calibration

if TYPE_CHECKING:
    from sim import ShooterWorld, SimParams, SimPin


class Person(Protocol):
    """Who plays the person's part for the bring-up tools: acts when asked, says what they saw or heard
    (:class:`TerminalPerson`, :class:`SimPerson`)."""

    def do(self, act: str, prompt: str) -> None: ...
    def heard(self, question: str, beeps: int, since: float) -> bool: ...
    def points_at(self, question: str, angle: float) -> bool: ...
    def saw_roller_turn(self, question: str, direction: str, since: float) -> bool: ...
    def sees_cards_loaded(self, question: str) -> bool: ...


class Bench:
    """Clock, loop and hardware (and in simulation the world) of one shooter, for the bring-up tools."""

    def __init__(self, config: Config, *, sim: bool, seed: int = 1, faults: tuple[str, ...] = (),
                 state_dir: Path | None = None, log: Callable[[str], None] = lambda m: print(m, file=sys.stderr),
                 sim_params: SimParams | None = None):
        self.file_config = config
        self.calibration, config = Calibration.applied(state_dir, config, log)
        self.config = config
        self.clock = VirtualClock() if sim else MonotonicClock()
        self.loop = ControlLoop(self.clock)
        self.world: ShooterWorld | None = None
        servo = None
        if sim:
            from sim import ShooterWorld, SimFactory, SimParams
            factory = SimFactory(self.clock)
            self.world = ShooterWorld(factory, config.hardware.pins, seed=seed, cards=config.sim_cards,
                                      exit_active_low=config.hardware.inputs.exit_active_low,
                                      params=sim_params or SimParams())
            for part in faults:
                self.world.disconnect(part)
            self.hardware_info = {"pin_factory": "sim", "servo_backend": "gpiozero"}
        else:
            from hal.backends import choose_backends
            factory, servo, self.hardware_info = choose_backends(config.pin_factory, config.servo_backend,
                                                                 config.pwm_chip)
        self.hw = Hardware(config.hardware, clock=self.clock, post=self.loop.post, pin_factory=factory,
                           servo=servo)
        self.loop.run_pending()

    def seat_angles(self, players: int) -> list[float]:
        """The angles in use for ``players`` seats: calibrated, configured or spread over the travel."""
        if players in self.calibration.seat_angles:
            return list(self.calibration.seat_angles[players])
        if players in self.config.seat_angles:
            return list(self.config.seat_angles[players])
        s = self.config.hardware.servo
        return spread_angles(players, s.min_angle, s.max_angle)

    def wait_for(self, done: Callable[[], object], timeout: float) -> bool:
        """Run the loop until ``done()`` or ``timeout`` seconds have passed on the clock."""
        return self.loop.run_until(done, timeout)

    def wait(self, seconds: float) -> None:
        self.loop.run_until(lambda: False, seconds)

    def rested(self) -> None:
        """Wait until the motor may start again (its rest after a run and its thermal budget, hal's rules)."""
        self.wait(self.hw.motor.ready_in())

    def person(self, *, out: TextIO, read_line: Callable[[], str], yes: bool) -> Person:
        """Who plays the person's part: the simulated world, or whoever sits at the terminal."""
        if self.world is not None:
            return SimPerson(self, out)
        return TerminalPerson(out, read_line, yes)

    def close(self) -> None:
        """Motor off, every part closed; safe twice."""
        self.hw.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TerminalPerson:
    """The person at the terminal: asked to act, asked what they saw (``--yes`` answers yes for them)."""

    def __init__(self, out: TextIO, read_line: Callable[[], str], yes: bool):
        self.out = out
        self.read_line = read_line
        self.yes = yes

    def do(self, act: str, prompt: str) -> None:
        print(f"  -> {prompt}", file=self.out, flush=True)

    def confirm(self, question: str) -> bool:
        if self.yes:
            print(f"  {question} [Y/n] yes (--yes)", file=self.out, flush=True)
            return True
        print(f"  {question} [Y/n] ", end="", file=self.out, flush=True)
        answer = self.read_line()
        if answer == "":  # end of input is no answer, not a yes
            print("(no answer: end of input)", file=self.out, flush=True)
            return False
        return answer.strip().lower() in ("", "y", "yes")

    # what the selftest asks; a person answers each by looking or listening
    def heard(self, question: str, beeps: int, since: float) -> bool:
        return self.confirm(question)

    def points_at(self, question: str, angle: float) -> bool:
        return self.confirm(question)

    def saw_roller_turn(self, question: str, direction: str, since: float) -> bool:
        return self.confirm(question)

    def sees_cards_loaded(self, question: str) -> bool:
        return self.confirm(question)


class SimPerson:
    """The simulated world in the person's part: acts after a human reaction time, and answers questions
    from what happened in the world (beeps heard, where the turntable points, the roller turning)."""

    REACTION = 0.4   # seconds between being asked and acting

    def __init__(self, bench: Bench, out: TextIO):
        if bench.world is None:
            raise ValueError("a simulated person needs a bench on the simulator")
        self.bench = bench
        self.world = bench.world
        self.out = out
        self.roller: list[tuple[float, float]] = []   # (time, speed) of the roller, + forward
        pins = bench.config.hardware.pins
        self._motor_pins = [self.world.factory.sim_pin(p) for p in (pins.motor_forward, pins.motor_backward)]
        for pin in self._motor_pins:
            pin.listeners.append(self._motor_changed)

    def _motor_changed(self, _pin: SimPin, _value: float) -> None:
        forward, backward = (p.pwm_duty for p in self._motor_pins)
        self.roller.append((self.bench.clock.now(), 0.0 if forward and backward else forward - backward))

    def do(self, act: str, prompt: str) -> None:
        print(f"  -> {prompt} (the simulated person does it)", file=self.out, flush=True)
        action = {"open-lid": self.world.open_lid, "close-lid": self.world.close_lid,
                  "press-button": self.world.press_button, "pass-card": self.world.pass_card_by_hand}[act]
        self.bench.clock.call_later(self.REACTION, action, name=f"person-{act}")

    def _answer(self, question: str, answer: bool) -> bool:
        print(f"  {question} {'yes' if answer else 'no'} (the simulated person looked)", file=self.out, flush=True)
        return answer

    def heard(self, question: str, beeps: int, since: float) -> bool:
        return self._answer(question, len([b for b in self.world.beeps if b[0] >= since - 1e-9]) == beeps)

    def points_at(self, question: str, angle: float) -> bool:
        where = self.world.servo_angle()
        return self._answer(question, where is not None and abs(where - angle) < 1.0)

    def saw_roller_turn(self, question: str, direction: str, since: float) -> bool:
        sign = 1 if direction == "forward" else -1
        return self._answer(question, any(t >= since - 1e-9 and speed * sign > 0 for t, speed in self.roller))

    def sees_cards_loaded(self, question: str) -> bool:
        return self._answer(question, bool(self.world.launcher.magazine))
