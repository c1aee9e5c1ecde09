"""``uno-shooter selftest``: every part of a freshly built shooter, one after the other, with a pass/fail line
each and a summary.

- beeper: plays every pattern of the vocabulary; you say whether you heard them.
- servo: turns to every seat (of ``table.default_seats``); a hobby servo reports nothing back, so you say
  whether it points there.
- lid: asks you to open it and close it again, each within the timeout.
- button: asks for a press within the timeout.
- exit sensor: reads the beam (it must be whole with nothing in it), asks you to pass a card through it.
- motor: only with the lid closed (H-LID holds here too): a short forward and a short backward pulse; with
  the exit sensor and a card in the magazine, one card shot and counted.

``--yes`` answers the "did you see / hear it" questions with yes, so the parts that need no hands run
unattended; the lid, button and exit sensor still wait for hands. With ``--sim`` the simulated world plays
the person (and :meth:`sim.ShooterWorld.disconnect` breaks a wire), so the whole test runs in CI. Every wait
is on the one clock: virtual in simulation. Exit status 0 only when every part passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from hal.errors import HalError

from .. import beeps
from .bench import Bench, Person

if TYPE_CHECKING:  # hal.beeper imports gpiozero: only for the checker
    from hal.beeper import Pattern

PARTS = ("beeper", "servo", "lid", "button", "exit sensor", "motor")
FORWARD_PULSE = 0.10    # s: the roller grips and moves the top card a little, not out
BACKWARD_PULSE = 0.15   # s: and pulls it back


@dataclass
class Result:
    part: str
    ok: bool
    detail: str


def _beeps_heard(pattern: Pattern) -> int:
    """How many separate beeps a pattern makes (tones without a rest between them sound as one)."""
    count, sounding = 0, False
    for frequency, _ in pattern:
        if frequency is not None and not sounding:
            count += 1
        sounding = frequency is not None
    return count


def check_beeper(bench: Bench, person: Person, timeout: float) -> Result:
    since = bench.clock.now()
    heard = 0
    for pattern, _meaning in beeps.VOCABULARY.values():
        bench.hw.beeper.play(pattern)
        bench.wait(beeps.duration(pattern) + 0.3)
        heard += _beeps_heard(pattern)
    n = len(beeps.VOCABULARY)
    if person.heard(f"Did you hear {n} patterns ({heard} beeps)?", heard, since):
        return Result("beeper", True, f"played {n} patterns ({heard} beeps)")
    return Result("beeper", False, f"the {n} patterns ({heard} beeps) were not heard: check the beeper on "
                                   f"GPIO{bench.config.hardware.pins.beeper} and beeper.kind")


def check_servo(bench: Bench, person: Person, timeout: float) -> Result:
    players = bench.config.default_seats
    wrong = []
    for seat, angle in enumerate(bench.seat_angles(players), start=1):
        seconds = bench.hw.servo.move_to(angle)
        bench.wait_for(lambda: not bench.hw.servo.moving, seconds + 1.0)
        if not person.points_at(f"Does the shooter point at seat {seat} of {players} ({angle:g}°)?", angle):
            wrong.append(seat)
    if wrong:
        return Result("servo", False, f"not pointing at seat {', '.join(map(str, wrong))}: check the servo on "
                                      f"GPIO{bench.config.hardware.pins.servo}, its supply, and the seat angles "
                                      f"(uno-shooter calibrate)")
    return Result("servo", True, f"turned to the {players} seats (you judged where it points: a hobby servo "
                                 f"reports nothing back)")


def check_lid(bench: Bench, person: Person, timeout: float) -> Result:
    lid, pin = bench.hw.lid, bench.config.hardware.pins.lid
    if lid.is_open:
        person.do("close-lid", "Close the lid")
        if not bench.wait_for(lambda: not lid.is_open, timeout):
            return Result("lid", False, f"never read closed within {timeout:g} s: the switch on GPIO{pin} reads "
                                        f"open (disconnected, or not wired to GND?)")
    person.do("open-lid", "Open the lid")
    if not bench.wait_for(lambda: lid.is_open, timeout):
        return Result("lid", False, f"still read closed {timeout:g} s after you were asked to open it: check the "
                                    f"switch on GPIO{pin} (stuck closed? shorted to ground?)")
    person.do("close-lid", "Close the lid again")
    if not bench.wait_for(lambda: not lid.is_open, timeout):
        return Result("lid", False, f"did not read closed within {timeout:g} s: check the switch on GPIO{pin}")
    return Result("lid", True, "read open and closed")


def check_button(bench: Bench, person: Person, timeout: float) -> Result:
    presses = []
    bench.hw.button.on_press = lambda: presses.append(bench.clock.now())
    person.do("press-button", "Press the button once")
    if bench.wait_for(lambda: presses, timeout):
        bench.wait(0.3)  # a bouncing contact would show as a second press here
        if len(presses) == 1:
            return Result("button", True, "one press read")
        return Result("button", False, f"one press read as {len(presses)}: raise inputs.button_debounce")
    return Result("button", False, f"no press on GPIO{bench.config.hardware.pins.button} within {timeout:g} s "
                                   f"(disconnected? not wired to ground?)")


def check_exit_sensor(bench: Bench, person: Person, timeout: float) -> Result:
    sensor = bench.hw.exit_sensor
    if sensor is None:
        return Result("exit sensor", True, "not fitted (pins.exit_sensor = false): nothing to test")
    pin = bench.config.hardware.pins.exit_sensor
    if sensor.is_blocked:
        return Result("exit sensor", False, f"the beam on GPIO{pin} reads broken with nothing in it: align the "
                                            f"IR pair, or check inputs.exit_active_low")
    seen = {"card": 0, "clear": 0}
    sensor.on_card = lambda: seen.__setitem__("card", seen["card"] + 1)
    sensor.on_clear = lambda: seen.__setitem__("clear", seen["clear"] + 1)
    person.do("pass-card", "Push a card through the exit slot (by hand)")
    if not bench.wait_for(lambda: seen["card"] and seen["clear"], timeout):
        what = "no card" if not seen["card"] else "a card that never left"
        return Result("exit sensor", False, f"{what} seen on GPIO{pin} within {timeout:g} s (dead receiver, "
                                            f"no power, or the beam misses the slot?)")
    return Result("exit sensor", True, "beam whole at rest, broken by the card, whole again")


def check_motor(bench: Bench, person: Person, timeout: float) -> Result:
    hw, launcher = bench.hw, bench.config.launcher
    if hw.lid.is_open:
        return Result("motor", False, "the lid reads open: the motor stays off (see lid)")
    notes = []
    try:
        for direction, run, duty, pulse in (("forward", hw.motor.forward, launcher.duty, FORWARD_PULSE),
                                            ("backward", hw.motor.backward, launcher.retract_duty, BACKWARD_PULSE)):
            bench.rested()
            since = bench.clock.now()
            run(duty)
            bench.wait(pulse)
            hw.motor.stop()
            bench.wait(0.2)
            if not person.saw_roller_turn(f"Did the roller turn {direction} for a moment?", direction, since):
                return Result("motor", False, f"the roller did not turn {direction}: check the H-bridge on GPIO"
                                              f"{bench.config.hardware.pins.motor_forward}/"
                                              f"{bench.config.hardware.pins.motor_backward} and the motor supply")
        notes.append("turned forward and backward")
        if hw.exit_sensor is None:
            notes.append("no exit sensor: no counted card")
        elif not person.sees_cards_loaded("Is there at least one card in the magazine (lid closed)?"):
            notes.append("magazine empty: no counted card")
        else:
            # long enough for one card at the configured pace, short enough that a dead sensor lets few out
            counted = shoot_one(bench, timeout=launcher.spin_up + 2 * launcher.seconds_per_card + 0.1)
            if counted != 1:
                return Result("motor", False, "no card reached the exit sensor: the roller does not grip, or the "
                                              "exit sensor is dead (see exit sensor; a few cards may have come "
                                              "out uncounted)" if counted == 0 else
                                              f"{counted} cards came out for one")
            notes.append("one card shot and counted")
    except HalError as exc:
        return Result("motor", False, str(exc))
    finally:
        hw.motor.stop()
    return Result("motor", True, "; ".join(notes))


def shoot_one(bench: Bench, timeout: float) -> int:
    """Run the roller until one card has left through the beam (or ``timeout``), then pull the next one back.
    Returns how many cards the exit sensor counted."""
    hw, launcher = bench.hw, bench.config.launcher
    sensor = hw.exit_sensor
    assert sensor is not None  # check_motor shoots one only with the sensor fitted
    seen = {"card": 0, "clear": 0}
    sensor.on_card = lambda: seen.__setitem__("card", seen["card"] + 1)
    sensor.on_clear = lambda: seen.__setitem__("clear", seen["clear"] + 1)
    bench.rested()
    try:
        hw.motor.forward(launcher.duty)
        bench.wait_for(lambda: seen["clear"] >= 1, timeout)
        hw.motor.backward(launcher.retract_duty)  # the next card back, in the same run
        bench.wait(launcher.retract_time)
    finally:
        hw.motor.stop()
    bench.wait(0.2)
    return seen["card"]


Check = Callable[[Bench, Person, float], Result]  # (bench, person, timeout) -> the part's result
CHECKS: dict[str, Check] = {"beeper": check_beeper, "servo": check_servo, "lid": check_lid,
                            "button": check_button, "exit sensor": check_exit_sensor, "motor": check_motor}


def run_selftest(bench: Bench, person: Person, out: TextIO, *, timeout: float = 30.0) -> list[Result]:
    """Every part in turn; prints a line per part and the summary; returns the results."""
    info = bench.hardware_info
    print(f"selftest: pin factory {info['pin_factory']}, servo backend {info['servo_backend']}", file=out)
    results = []
    for part in PARTS:
        print(f"{part}:", file=out, flush=True)
        try:
            result = CHECKS[part](bench, person, timeout)
        finally:
            bench.hw.safe_stop()
        results.append(result)
        print(f"{'PASS' if result.ok else 'FAIL'}  {result.part}: {result.detail}", file=out, flush=True)
    failed = [r.part for r in results if not r.ok]
    if failed:
        print(f"selftest: FAILED: {', '.join(failed)} ({len(results) - len(failed)} of {len(results)} parts "
              f"passed)", file=out)
    else:
        print(f"selftest: all {len(results)} parts passed", file=out)
    return results
