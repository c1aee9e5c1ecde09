"""The press path, measured side by side with a bare gpiozero button wired to the motor: in CPU time, in
instructions (callgrind), by its parts, at a person's pace and in virtual time (benchmarks/run.py runs them)."""

from __future__ import annotations

import functools
import gc
import re
import shutil
import subprocess
from typing import Any

from benchmarks.timing import CPU_CLOCK, ENV, ROOT, RUN, Figures, alternate, median, paired_ratio, python_cmd
from hal import VirtualClock


# ---------------------------------------------------------------- the press path
class Press:
    """One side of the press path: ``serve()`` is the measured part of a press, ``release()`` what follows it."""

    def serve(self) -> None:  # pragma: no cover - each side's own
        raise NotImplementedError

    def release(self) -> None:  # pragma: no cover - each side's own
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - each side's own
        raise NotImplementedError

    def press(self) -> float:
        clock = CPU_CLOCK
        start = clock()
        self.serve()
        elapsed = clock() - start
        self.release()
        return elapsed


class BarePress(Press):
    """The baseline: gpiozero's Button.when_pressed -> Motor.forward() on the simulator's pins.

    The pins belong to a simulated shooter (``sim.ShooterWorld``), as ours do: the motor pins
    switching on set the same simulated roller going on both sides, so the physics model's own
    cost is not counted against our press path alone. With ``physics=False`` no world listens on
    either side (the cross-check ``press_path_without_physics``)."""

    def __init__(self, physics: bool = True):
        from gpiozero import Button, Motor

        from hal import PinMap, VirtualClock
        from sim import ShooterWorld, SimFactory
        pins = PinMap()
        self.factory = SimFactory(VirtualClock())
        self.world = ShooterWorld(self.factory, pins, cards=500) if physics else None
        self.motor = Motor(pins.motor_forward, pins.motor_backward, pwm=True, pin_factory=self.factory)
        self.button = Button(pins.button, pin_factory=self.factory)
        self.button.when_pressed = lambda: self.motor.forward()
        self.pin = self.factory.sim_pin(pins.button)
        self.motor_pin = self.factory.sim_pin(pins.motor_forward)
        self.pin.drive(True)

    def serve(self) -> None:
        """The measured part: the edge to the motor on."""
        self.pin.drive(False)

    def release(self) -> None:
        assert self.motor_pin.state > 0
        self.pin.drive(True)
        self.motor.stop()

    def close(self) -> None:
        self.button.close()
        self.motor.close()


class StackPress(Press):
    """Ours: the same button edge through the whole controller, on the simulator, in virtual time."""

    def __init__(self, players: int | None, until: str, without: str | None = None, physics: bool = True,
                 pause: float = 0.0):
        from shooter.app import App
        from shooter.config import parse_config
        # without physics: no exit sensor (bursts are timed: no card has to pass a beam) and the
        # world stops listening to the outputs, so a press costs the controller and the pins alone
        self.app = App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None, exit_sensor=physics)
        assert self.app.world is not None and isinstance(self.app.clock, VirtualClock)   # sim=True, virtual=True
        if not physics:
            world = self.app.world
            for pin in world.factory.pins.values():
                pin.listeners[:] = [f for f in pin.listeners if getattr(f, "__self__", None) is not world]
        self._take_out(without)
        self.until = until
        self.pause = pause  # virtual seconds between one press's end and the next (0: back to back)
        pins = self.app.hw.settings.pins
        factory = self.app.world.factory
        self.pin = factory.sim_pin(pins.button)
        self.motor_on = False
        factory.sim_pin(pins.motor_forward).listeners.append(self._motor)
        self.replies: list[Figures] = []
        self.served = 0   # shot events: a press whose scheduler said 0 cards never runs the motor
        self.app.controller.add_sink(self._event)
        self.app.loop.run_until_quiet()
        self.line("sim load cards=500")
        if players:
            self.line(f"game new players={players} dealer=1")
            self.line("round start first=5")

    def _take_out(self, part: str | None) -> None:
        """Measure a part of the press by taking it out (``PRESS_PARTS``); the consoles still hear of
        every shot, so the press is still seen served."""
        ctl: Any = self.app.controller   # parts are swapped out on the instance: not the class's methods
        if part == "beep":
            ctl.hw.beeper.play = lambda pattern: None
        elif part == "events":
            def only_shots(name: str, **fields: Any) -> None:
                if name == "shot":
                    self._event({"event": name})
            ctl.emit = ctl.events.emit = ctl.launcher.emit = only_shots
            ctl.events.emit_event = lambda event: None
        elif part == "rules":  # everything after the debounce: the press is reported at once
            button: Any = self.app.hw.button
            button.on_press = lambda: self._event({"event": "shot"})
        elif part is not None:
            raise ValueError(f"unknown part {part!r}")

    def _event(self, obj: Figures) -> None:
        name = obj.get("event")
        if name == "shot":
            self.served += 1
        elif name == "refused":
            raise RuntimeError(f"a benchmark press was refused: {obj}")

    def line(self, text: str) -> Figures:
        loop = self.app.loop
        loop.post(lambda: self.app.controller.handle_line(text, self.replies.append))
        loop.run_until_quiet()
        return self.replies[-1]

    def _motor(self, pin: object, value: float) -> None:
        if value > 0:
            self.motor_on = True

    def _step_until_served(self, served: int, motor: bool) -> None:
        """Run the loop, moving virtual time from timer to timer, until the press was served (its
        shot reported) or, with ``motor``, the motor came on."""
        loop, clock = self.app.loop, self.app.clock
        assert isinstance(clock, VirtualClock)
        self.motor_on = False
        while True:
            loop.run_pending()
            if self.served > served or (motor and self.motor_on):
                return
            nxt = clock.next_deadline()
            if nxt is None:
                raise RuntimeError("the press was never served")
            clock.advance_to(nxt)

    def serve(self) -> None:
        """The measured part: the edge to the figure's end (the motor on or the shot reported, the shot
        reported, or the loop quiet)."""
        served = self.served
        self.pin.drive(False)
        if self.until == "quiet":
            self.app.loop.run_until_quiet()
        else:
            self._step_until_served(served, motor=self.until == "motor")

    def release(self) -> None:
        self.pin.drive(True)
        self.app.loop.run_until_quiet()
        if self.pause:
            self.app.loop.run_for(self.pause)
        if (self.app.controller.launcher.cards or 0) < 50:
            self.line("sim load cards=500")

    def close(self) -> None:
        self.app.close()


# The press path is measured back to back (each press as soon as the last one is done), faster than a
# table presses: the motor's thermal budget then makes some presses wait for it, a path the bare press
# (whose motor has no budget) does not have. ``press_path_paced`` leaves a person's pause between presses.
PERSONS_PAUSE = 1.0

PRESS_PATHS: dict[str, tuple[int | None, str]] = {  # figure: (players, until)
    "no_game": (None, "motor"),       # press -> motor on, no game
    "firing": (None, "burst"),        # press -> motor on -> cards out -> the shot reported, no game
    "in_game": (4, "motor"),          # press -> (turn to the seat) -> motor on, a 4-player game
    "full_cycle": (4, "quiet"),       # press -> burst -> retract -> re-aim at the next player
}


def press_path(rounds: int, presses: int, paths: dict[str, tuple[int | None, str]] = PRESS_PATHS,
               physics: bool = True, pause: float = 0.0) -> Figures:
    bare = BarePress(physics)
    out: Figures = {}
    try:
        for name, (players, until) in paths.items():
            stack = StackPress(players, until, physics=physics, pause=pause)
            try:
                for _ in range(5):  # warm up both
                    stack.press()
                    bare.press()

                def ours() -> float:  # called only in this round of the loop
                    return sum(stack.press() for _ in range(presses)) / presses  # noqa: B023

                def base() -> float:
                    return sum(bare.press() for _ in range(presses)) / presses
                a, b = alternate(rounds, ours, base)
                out[name] = {"ratio": round(paired_ratio(a, b), 2), "ours_us": round(min(a) * 1e6, 2),
                             "baseline_us": round(min(b) * 1e6, 2),
                             "median_ratio": round(median([x / y for x, y in zip(a, b, strict=True)]), 2)}
            finally:
                stack.close()
    finally:
        bare.close()
    return out


# Instructions per press, counted by callgrind: a figure no neighbour on a shared machine moves, and one that
# does not depend on what this processor charges for a lock or a cache miss (the time ratio does: the bare
# press takes three locks and sets a threading.Event per edge, ours none). Only the measured part of each press
# is counted: it runs inside functools.reduce, the one C function callgrind is told to count in.
CALLGRIND = ("valgrind", "--tool=callgrind", "--toggle-collect=functools_reduce", "--callgrind-out-file=/dev/null")
INSTRUCTION_PATHS = ("no_game", "in_game")


def _counted_per_press(side: str, presses: int) -> float:
    """Instructions callgrind counted in ``presses`` measured presses of ``side`` (a child process), per press."""
    proc = subprocess.run([*CALLGRIND, *python_cmd(str(RUN), "--child", f"instructions-{side}", str(presses))],
                          capture_output=True, text=True, env=ENV, cwd=ROOT)
    found = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode or found is None:
        raise RuntimeError(f"the {side} presses under callgrind failed or printed no count: {proc.stderr[-800:]}")
    return int(found.group(1)) / presses


# A press on a Pi Zero 2 W, on paper (docs/design.md, "What a press costs"): the instructions counted here on
# x86-64, at a deliberately slow pace for its 1 GHz Cortex-A53: half an instruction per cycle, and half as many
# instructions again as x86-64 needs for the same Python. (The 20 ms debounce before the motor is a wait by
# design, not work, and is not in the count.)
PI_ZERO_2 = {"hz": 1e9, "instructions_per_cycle": 0.5, "arm_over_x86": 1.5}


def on_pi_zero_2_ms(instructions: float) -> float:
    """Milliseconds of the Pi Zero 2's processor for ``instructions`` x86-64 instructions (:data:`PI_ZERO_2`)."""
    pace = PI_ZERO_2["hz"] * PI_ZERO_2["instructions_per_cycle"] / PI_ZERO_2["arm_over_x86"]
    return instructions / pace * 1e3


def press_instructions(presses: int) -> Figures:
    """Instructions per press, ours over the bare press, for :data:`INSTRUCTION_PATHS`, and what each takes
    on a Pi Zero 2 (:func:`on_pi_zero_2_ms`); a reason instead where it cannot be counted here."""
    if shutil.which("valgrind") is None:
        return {"skipped": "valgrind is not installed"}
    bare = _counted_per_press("bare", presses)
    if bare == 0:  # a stripped Python: no function of that name for callgrind to count in
        return {"skipped": "this Python has no symbol functools_reduce (stripped)"}
    out: Figures = {"baseline_kinstr": round(bare / 1e3, 1), "presses": presses, "pi_zero_2": PI_ZERO_2,
                 "baseline_pi_zero_2_ms": round(on_pi_zero_2_ms(bare), 3)}
    for name in INSTRUCTION_PATHS:
        ours = _counted_per_press(name, presses)
        out[name] = {"ratio": round(ours / bare, 2), "ours_kinstr": round(ours / 1e3, 1),
                     "pi_zero_2_ms": round(on_pi_zero_2_ms(ours), 3)}
    return out


def _child_instructions(side: str, presses: int) -> None:
    """In the child, under callgrind: warm up, then each press's measured part inside functools.reduce
    (counted) and its release outside it (not counted). The garbage collector is off: a collection runs
    wherever the allocation counter happens to be, so on some presses and not others."""
    press: Press = BarePress() if side == "bare" else StackPress(*PRESS_PATHS[side])
    try:
        for _ in range(30):  # the interpreter's specialising and the caches settle over the first presses
            press.press()
        gc.collect()
        gc.disable()
        def window(acc: None, _: int) -> None:
            press.serve()
        for _ in range(presses):
            functools.reduce(window, (0,), None)
            press.release()
    finally:
        press.close()


# Where a press without a game goes: each part measured by taking it out, side by side with the whole press.
PRESS_PARTS = {
    "edge_and_debounce_us": "rules",  # what is left when everything after the debounce is taken out
    "beep_us": "beep",                # the accepted-press beep: a pin write and its end timer
    "events_us": "events",            # the console events (press, shot)
}


def press_parts(rounds: int, presses: int) -> dict[str, float]:
    """µs of a no-game press spent in each of :data:`PRESS_PARTS` (the whole press minus the press
    without it; the edge and debounce directly), and the whole."""
    out: dict[str, float] = {}
    for name, part in PRESS_PARTS.items():
        whole, lacking = StackPress(None, "motor"), StackPress(None, "motor", without=part)
        try:
            for _ in range(5):
                whole.press()
                lacking.press()
            a, b = alternate(rounds, lambda: sum(whole.press() for _ in range(presses)) / presses,  # noqa: B023
                             lambda: sum(lacking.press() for _ in range(presses)) / presses)  # noqa: B023
        finally:
            whole.close()
            lacking.close()
        out["whole_us"] = min(out.get("whole_us", 1e9), min(a) * 1e6)
        out[name] = (min(b) if part == "rules" else min(a) - min(b)) * 1e6
    return {k: round(v, 2) for k, v in out.items()}


def virtual_presses(rounds: int, presses: int) -> Figures:
    """Console presses in a 4-player game, each run to quiescence, per wall second; against the bare
    gpiozero press (press + release)."""
    bare = BarePress()
    stack = StackPress(4, "quiet")
    try:
        def ours() -> float:
            start = CPU_CLOCK()
            for _ in range(presses):
                stack.line("press")
                if (stack.app.controller.launcher.cards or 0) < 50:
                    stack.line("sim load cards=500")
            return (CPU_CLOCK() - start) / presses

        def base() -> float:
            start = CPU_CLOCK()
            for _ in range(presses):
                bare.press()
            return (CPU_CLOCK() - start) / presses
        a, b = alternate(rounds, ours, base)
    finally:
        stack.close()
        bare.close()
    return {"ours": round(1 / min(a)), "baseline": round(1 / min(b)), "ratio": round(paired_ratio(a, b), 2)}


