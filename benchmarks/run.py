"""The benchmark suite: every figure measured side by side with its baseline in one run.

    python benchmarks/run.py            # a table, each figure with its goal
    python benchmarks/run.py --json     # one JSON object
    python benchmarks/run.py --quick    # smaller counts (about a minute on 2 cores)

Each timed figure alternates its two sides (ours, the baseline, ours, ...) so that a busy machine
slows both alike, and is reported as a ratio of the best round of each. In-process figures count the
thread's CPU time (time.thread_time), so other processes on a shared machine do not distort them;
start-up is wall time (it is a latency). The baselines:

- press path: a bare gpiozero ``Button.when_pressed`` -> ``Motor.forward()`` on the same mock PWM
  pins (the simulator's, on the same virtual clock, wired to the same simulated shooter, whose
  roller the motor pins set going on both sides). Ours: the same pin edge through the hardware
  layer, the loop, the controller, the table, the scheduler and the shooter's state machine.
  Where a press without a game goes (``press_parts``): each part measured by taking it out of the
  press, side by side with the whole press. A cross-check (``press_path_without_physics``): both
  sides on the simulator's pins with no world listening (ours without the exit sensor). And the
  press at a person's pace (``press_path_paced``), a second of virtual time between presses. And the
  press in instructions (``press_path_instructions``, where valgrind is installed): callgrind counts the
  instructions of each side's measured presses, a ratio that neither a busy machine nor the processor's
  price for a lock or a cache miss moves (each side in a child process: counts need no alternating).
- start-up and memory: ``python -c "import gpiozero, serial, transitions"`` (both with bytecode caches, as an
  installed shooter runs: see ENV).
- games: the same lines on the table's rules alone, with the same seeds (the same games).
- saves: encoding the state with 50 undo levels against the same game with one level.

Memory and wake-ups are measured in child processes (``--child``), so that one figure's garbage does
not count against the next. Each goal is written once, in :data:`GOALS`; ``tests/test_benchmarks.py`` runs the
suite with tiny counts and, in its slow tests, holds the figures that are stable enough to their goals (the
instruction ratios and the press on a Pi Zero 2, and start-up, a ratio of the best of several starts).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_game import compile_table_lines, game_side_by_side, replay_on_table  # noqa: E402
from hal import VirtualClock  # noqa: E402

if TYPE_CHECKING:
    from shooter.persist import Store
    from shooter.table import Table

# a figure's JSON-ready details, as run_suite reports them
Figures = dict[str, Any]
# one side of a timed pair: seconds per unit of one round
Side = Callable[[], float]

BASELINE_IMPORTS = "import gpiozero, serial, transitions"
# In-process figures count this thread's CPU time: on a shared machine, time the thread spends
# waiting for a core would otherwise count against whichever side was unlucky.
CPU_CLOCK = time.thread_time
# The children run as an installed shooter does: with bytecode caches (pip writes them when it installs the
# package, as it did the libraries'). A PYTHONDONTWRITEBYTECODE in the caller's environment would make ours
# compile every one of its modules from source on every start, which no installed service does.
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
       "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

# key -> (goal text, check(value) -> bool or None when the figure has no goal); a figure that could not be
# measured here (None: no valgrind, a tiny run) is neither met nor missed
GOALS: dict[str, tuple[str, Callable[[float], bool] | None]] = {
    # the press's time ratios move with the processor (docs/design.md): its goals are on its instructions
    "press_path_ratio.no_game": ("-", None),
    "press_path_ratio.in_game": ("-", None),
    "press_path_ratio.firing": ("-", None),
    "press_path_ratio.full_cycle": ("-", None),
    "press_path_instructions_ratio.no_game": ("<= 1.3x", lambda v: v <= 1.3),
    "press_path_instructions_ratio.in_game": ("<= 2x", lambda v: v <= 2.0),
    "press_on_pi_zero_2_ms.no_game": ("< 1 ms", lambda v: v < 1.0),
    "press_on_pi_zero_2_ms.in_game": ("< 1 ms", lambda v: v < 1.0),
    "startup_ratio": ("<= 1.3x", lambda v: v <= 1.3),
    "rss_ratio": ("-", None),
    "idle_wakeups_per_second": ("0", lambda v: v < 0.2),
    "virtual_presses_per_second": ("-", None),
    "bot_game_ms": ("<= 30 ms", lambda v: v <= 30.0),
    "game_ratio": ("-", None),
    "save_depth_ratio": ("-", None),
    "rss_after_100k_lines_mb": ("< 40 MB", lambda v: v < 40.0),
    "gc_max_pause_ms": ("<= 20 ms", lambda v: v <= 20.0),
    # the camera's recogniser on the rendered held-out set, every edition's faces (docs/vision.md); None: no
    # vision extra here, or a tiny run
    "vision.correct_share": (">= 99.5 %", lambda v: v >= 0.995),
    "vision.wrong_share": ("<= 0.1 %", lambda v: v <= 0.001),
    "vision.ms_per_read_frame": ("<= 150 ms", lambda v: v <= 150.0),
}


def median(values: Iterable[float]) -> float:
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def alternate(rounds: int, ours: Side, base: Side) -> tuple[list[float], list[float]]:
    """Run ``ours()`` and ``base()`` (each returns seconds per unit) ``rounds`` times, alternating
    which goes first; returns both lists."""
    a: list[float] = []
    b: list[float] = []
    for r in range(rounds):
        for side in ((ours, base) if r % 2 == 0 else (base, ours)):
            gc.collect()
            (a if side is ours else b).append(side())
    return a, b


def paired_ratio(a: list[float], b: list[float]) -> float:
    """Ours over the baseline: the best round of each (a shared machine only ever slows a round
    down, so the fastest round is the least disturbed one)."""
    return min(a) / min(b)


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
    proc = subprocess.run([*CALLGRIND, *_python(str(Path(__file__)), "--child", f"instructions-{side}", str(presses))],
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


# ---------------------------------------------------------------- games
def bot_games(rounds: int, games: int) -> Figures:
    """ms per bot game (sim.bots through the console protocol), against the same games' accepted
    game commands on the table's rules alone (same seeds: checked to end in the same game)."""
    from shooter.controller import Controller
    from shooter.simulate import play_games
    seeds = list(range(1, games + 1))
    recorded: dict[int, list[str]] = {}
    finals: dict[int, Figures] = {}
    original = Controller.handle_line

    def recording(seed: int) -> Callable[..., None]:
        """Controller.handle_line for one seed's game: the accepted lines and the final game noted."""
        def handle_line(self: Controller, raw: str, respond: Callable[[Figures], None], *rest: Any) -> None:
            def answer(obj: Figures) -> None:
                if obj.get("ok"):
                    recorded.setdefault(seed, []).append(raw)
                respond(obj)
            original(self, raw, answer, *rest)
            finals[seed] = self.table.to_dict()["game"]
        return handle_line

    for seed in seeds:  # record what each game said (untimed)
        setattr(Controller, "handle_line", recording(seed))  # noqa: B010 - every controller the game builds
        try:
            play_games(1, seed=seed)
        finally:
            setattr(Controller, "handle_line", original)  # noqa: B010
    calls = {seed: compile_table_lines(recorded[seed]) for seed in seeds}
    for seed in seeds:
        if replay_on_table(calls[seed], seed).to_dict()["game"] != finals[seed]:
            raise AssertionError(f"bot game {seed}: the table alone did not play the same game")

    def ours() -> float:
        start = CPU_CLOCK()
        for seed in seeds:
            play_games(1, seed=seed)
        return (CPU_CLOCK() - start) / games

    def base() -> float:
        start = CPU_CLOCK()
        for seed in seeds:
            replay_on_table(calls[seed], seed)
        return (CPU_CLOCK() - start) / games
    a, b = alternate(rounds, ours, base)
    lines = sum(len(v) for v in recorded.values()) / games
    return {"ms": round(min(a) * 1e3, 2), "table_only_ms": round(min(b) * 1e3, 3),
            "ratio": round(paired_ratio(a, b), 1), "accepted_lines_per_game": round(lines)}


# ---------------------------------------------------------------- saves
def _table_with_undo(depth: int) -> Table:
    """A 4-player game whose undo history holds ``depth`` snapshots (a round start and corrections)."""
    import random

    from shooter.table import Table
    table = Table(rng=random.Random(1))
    table.new_game(4, dealer=1)
    table.start_round("7")
    for _ in range(depth - 1):
        assert table.game is not None
        table.set(direction="ccw" if table.game.direction == "cw" else "cw")
    return table


def save_depth(rounds: int, saves: int) -> Figures:
    """What a save encodes (the table's state and its JSON bytes, as the controller's save does) with
    the deepest undo history (50 levels) against one level: the same game otherwise. The file write
    and its two fsyncs are left out: they cost the same whatever the depth, and a disk's time would
    drown the figure."""
    from shooter.persist import Store
    from shooter.table.base import UNDO_LEVELS
    deep, shallow = _table_with_undo(UNDO_LEVELS), _table_with_undo(1)
    assert len(deep.history) == UNDO_LEVELS and len(shallow.history) == 1
    with tempfile.TemporaryDirectory() as directory:
        deep_store, shallow_store = Store(directory), Store(directory)

        def timed(table: Table, store: Store) -> Side:
            def run() -> float:
                start = CPU_CLOCK()
                for _ in range(saves):
                    store.encode(table.to_dict())
                return (CPU_CLOCK() - start) / saves
            return run
        a, b = alternate(rounds, timed(deep, deep_store), timed(shallow, shallow_store))
    return {"ratio": round(paired_ratio(a, b), 2), "deep_us": round(min(a) * 1e6, 1),
            "one_level_us": round(min(b) * 1e6, 1), "levels": UNDO_LEVELS}


# ---------------------------------------------------------------- processes
def _python(*args: str) -> list[str]:
    return [sys.executable, *args]


def _cli(*args: str) -> list[str]:
    return _python("-m", "shooter", "run", "--sim", "--seed", "1", *args)


def startup(rounds: int) -> Figures:
    """Seconds from starting the CLI to its first reply, against starting Python and importing the
    three libraries. One untimed start of each first: the bytecode caches are written (see ENV)."""
    def ours() -> float:
        start = time.perf_counter()
        proc = subprocess.Popen(_cli("--console", "stdio", "--clock", "virtual"), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, cwd=ROOT)
        assert proc.stdin is not None and proc.stdout is not None   # both asked for as pipes
        proc.stdin.write(b"version\n")
        proc.stdin.flush()
        while b'"reply"' not in proc.stdout.readline():
            pass
        elapsed = time.perf_counter() - start
        proc.stdin.close()
        proc.stdout.read()
        proc.wait()
        return elapsed

    def base() -> float:
        start = time.perf_counter()
        subprocess.run(_python("-c", BASELINE_IMPORTS), check=True, env=ENV, cwd=ROOT)
        return time.perf_counter() - start
    ours()
    base()
    a, b = alternate(rounds, ours, base)
    return {"ratio": round(paired_ratio(a, b), 2), "ours_ms": round(min(a) * 1e3, 1),
            "baseline_ms": round(min(b) * 1e3, 1),
            "median_ratio": round(median([x / y for x, y in zip(a, b, strict=True)]), 2)}


# A child reports its own peak RSS (VmHWM: the high-water mark of its own memory since exec; the
# rusage of a forked child would also count the parent's pages it was forked with).
_HWM = ("import sys\ndef _hwm():\n    for row in open('/proc/self/status'):\n"
        "        if row.startswith('VmHWM'):\n            print('VmHWM', row.split()[1], file=sys.stderr)\n")
_CLI_HWM = _HWM + ("import runpy\nsys.argv = ['uno-shooter'] + sys.argv[1:]\ntry:\n"
                   "    runpy.run_module('shooter', run_name='__main__')\nfinally:\n    _hwm()\n")


def _peak_mb(cmd: list[str], stdin_bytes: bytes | None = None) -> float:
    """Peak RSS in MB of a child that reports it (see _HWM)."""
    with tempfile.TemporaryFile() as feed:
        if stdin_bytes is not None:
            feed.write(stdin_bytes)
            feed.seek(0)
        proc = subprocess.run(cmd, stdin=feed if stdin_bytes is not None else subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, cwd=ROOT)
    rows = [r for r in proc.stderr.decode().splitlines() if r.startswith("VmHWM ")]
    if proc.returncode != 0 or not rows:
        raise RuntimeError(f"{cmd[:4]} exited with {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return int(rows[-1].split()[1]) / 1024


def _cli_peak_mb(stdin_bytes: bytes) -> float:
    return _peak_mb(_python("-c", _CLI_HWM, "run", "--sim", "--seed", "1", "--console", "stdio",
                            "--clock", "virtual"), stdin_bytes)


def _baseline_peak_mb() -> float:
    return _peak_mb(_python("-c", _HWM + BASELINE_IMPORTS + "\n_hwm()\n"))


def press_script(presses: int) -> list[str]:
    """A 4-player game with ``presses`` console presses (the magazine refilled as it goes)."""
    lines = ["sim load cards=500", "game new players=4 dealer=1", "round start first=5"]
    for i in range(presses):
        if i and i % 100 == 0:
            lines.append("sim load cards=500")
        lines.append("press")
    return lines


def rss(rounds: int, presses: int) -> Figures:
    """Peak RSS of the CLI after a game with ``presses`` presses, against importing the libraries."""
    script = ("\n".join(press_script(presses)) + "\n").encode()
    a, b = alternate(rounds, lambda: _cli_peak_mb(script), _baseline_peak_mb)
    return {"ratio": round(median(a) / median(b), 2), "ours_mb": round(median(a), 1),
            "baseline_mb": round(median(b), 1), "presses": presses}


def _context_switches(pid: int) -> int:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "status").read_text()
        except OSError:
            continue
        for row in text.splitlines():
            if row.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(row.split()[1])
    return total


def idle_wakeups(seconds: float) -> Figures:
    """Wake-ups per second of the real-time service with nothing to do (a TCP console, no client):
    every thread's context switches, counted by the kernel. Baseline: Python idle in signal.pause()."""
    def count(cmd: list[str], ready: Callable[[subprocess.Popen[bytes]], None]) -> float:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=ENV, cwd=ROOT)
        try:
            ready(proc)
            time.sleep(0.3)  # let start-up settle (the harness waits, not a test)
            before = _context_switches(proc.pid)
            time.sleep(seconds)
            return (_context_switches(proc.pid) - before) / seconds
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def service_ready(proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None   # asked for as a pipe
        while b"TCP console" not in proc.stderr.readline():
            pass

    def base_ready(proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        proc.stderr.readline()

    ours = count(_cli("--console", "tcp:0"), service_ready)
    base = count(_python("-c", f"import sys, signal; {BASELINE_IMPORTS}; print('ready', file=sys.stderr, "
                               "flush=True); signal.pause()"), base_ready)
    return {"ours": round(ours, 2), "baseline": round(base, 2), "seconds": seconds}


def long_run(lines: int) -> Figures:
    """Peak RSS and the longest garbage collection of one session of ``lines`` lines in virtual time
    (a child process), against the baseline process's RSS."""
    out = subprocess.run(_python(str(Path(__file__)), "--child", "long", str(lines)), check=True,
                         capture_output=True, env=ENV, cwd=ROOT).stdout
    result: Figures = json.loads(out)
    result["baseline_mb"] = round(_baseline_peak_mb(), 1)
    return result


def _own_peak_kib() -> int:
    with open("/proc/self/status") as status:
        for row in status:
            if row.startswith("VmHWM"):
                return int(row.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _child_long(lines: int) -> None:
    """In the child: one App, a long session of scripted games, every line to quiescence."""
    from benchmarks.bench_game import GAME
    from shooter.app import App
    from shooter.config import parse_config
    pauses: list[tuple[float, float, int]] = []   # (CPU seconds, wall seconds, generation) of every collection
    started = [0.0, 0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = time.thread_time(), time.perf_counter()
        else:
            pauses.append((time.thread_time() - started[0], time.perf_counter() - started[1], info["generation"]))
    gc.callbacks.append(on_gc)
    script = ["sim load cards=40"] + GAME + ["status"]
    with App(parse_config({}), sim=True, virtual=True, seed=5, log=lambda m: None) as app:
        def sink(obj: Figures) -> None:
            pass
        app.controller.add_sink(sink)
        app.loop.run_until_quiet()
        gc.collect()
        gc.freeze()  # what the real-time loop does once the service is up (ControlLoop.run_forever)
        start = time.perf_counter()
        for i in range(lines):
            line = script[i % len(script)]
            app.loop.post(functools.partial(app.controller.handle_line, line, sink))
            app.loop.run_until_quiet()
        wall = time.perf_counter() - start
    # A pause is the collector's own CPU time (a shared machine's other processes make wall time
    # longer without the collector doing more); the longest wall time is reported next to it.
    worst = max(pauses, default=(0.0, 0.0, 0))
    print(json.dumps({
        "mb": round(_own_peak_kib() / 1024, 1),
        "gc_max_pause_ms": round(worst[0] * 1e3, 2), "gc_max_pause_generation": worst[2],
        "gc_max_pause_wall_ms": round(max((p[1] for p in pauses), default=0.0) * 1e3, 2),
        "gc_full_collections": sum(1 for p in pauses if p[2] == 2),
        "lines": lines, "us_per_line": round(wall / lines * 1e6, 1)}))


# ---------------------------------------------------------------- the suite
SIZES = {  # name: full, quick
    "press_rounds": (9, 3), "presses": (200, 50), "instruction_presses": (200, 100),
    "virtual_rounds": (5, 3), "virtual_presses": (300, 50),
    "game_rounds": (5, 3), "games": (10, 3),
    "bot_rounds": (3, 2), "bot_games": (3, 1),
    "save_rounds": (5, 3), "saves": (500, 200),
    "startup_rounds": (6, 2), "rss_rounds": (3, 1), "rss_presses": (1000, 1000),
    "idle_seconds": (5.0, 2.0), "long_lines": (100_000, 100_000), "vision_cards": (200, 40),
}


def vision(cards: int) -> Figures:
    """The recogniser's held-out bench (``uno-shooter cards bench --sim``): ``cards`` per edition, every edition;
    the share of cards read correctly and wrongly, ms per frame the watcher spent. Skipped without the vision
    extra; with ``cards`` 0 (a tiny run) one card of the default edition, its figures not goals."""
    try:
        from shooter.vision.bench import bench
    except ImportError as exc:
        return {"skipped": f"no vision extra ({exc})", "correct_share": None, "wrong_share": None,
                "ms_per_read_frame": None}
    from shooter.editions import default, records
    if not cards:
        out = bench([default()], seed=1, cards=1, latency_cards=1)
        return {**out, "correct_share": None, "wrong_share": None, "ms_per_read_frame": None, "skipped": "tiny run"}
    return bench(records(), seed=1, cards=cards)


def sizes(quick: bool, tiny: bool = False) -> dict[str, Any]:
    s = {k: v[1 if quick else 0] for k, v in SIZES.items()}
    if tiny:  # the smoke test: runs everything, measures nothing meaningful
        s.update(press_rounds=1, presses=2, instruction_presses=0, virtual_rounds=1, virtual_presses=2,
                 game_rounds=1, games=1, bot_rounds=1, bot_games=1, save_rounds=1, saves=2, startup_rounds=1,
                 rss_rounds=1, rss_presses=5, idle_seconds=0.2, long_lines=50, vision_cards=0)
    return s


def run_suite(quick: bool = False, tiny: bool = False, log: Callable[[str], None] = lambda msg: None) -> Figures:
    """Every figure, as one JSON-ready object."""
    s = sizes(quick, tiny)
    result: Figures = {}
    log("press path ...")
    paths = press_path(s["press_rounds"], s["presses"])
    result["press_path_ratio"] = {k: v["ratio"] for k, v in paths.items()}
    log("press path without physics ...")
    bare_paths = press_path(s["press_rounds"], s["presses"], physics=False,
                            paths={k: PRESS_PATHS[k] for k in ("no_game", "in_game")})
    log("press path at a person's pace ...")
    paced = press_path(s["press_rounds"], s["presses"], pause=PERSONS_PAUSE,
                       paths={k: PRESS_PATHS[k] for k in ("no_game", "in_game")})
    log("press path in instructions (callgrind) ...")
    counted: Figures = (press_instructions(s["instruction_presses"]) if s["instruction_presses"]
                        else {"skipped": "tiny run"})
    result["press_path_instructions_ratio"] = {k: counted[k]["ratio"] if k in counted else None
                                               for k in INSTRUCTION_PATHS}
    result["press_on_pi_zero_2_ms"] = {k: counted[k]["pi_zero_2_ms"] if k in counted else None
                                       for k in INSTRUCTION_PATHS}
    log("press parts ...")
    parts = press_parts(s["press_rounds"], s["presses"])
    log("virtual presses ...")
    virtual = virtual_presses(s["virtual_rounds"], s["virtual_presses"])
    result["virtual_presses_per_second"] = virtual["ours"]
    log("scripted games ...")
    game = game_side_by_side(s["games"], s["game_rounds"])
    result["game_ratio"] = game["ratio"]
    log("bot games ...")
    bots = bot_games(s["bot_rounds"], s["bot_games"])
    result["bot_game_ms"] = bots["ms"]
    log("saves ...")
    save = save_depth(s["save_rounds"], s["saves"])
    result["save_depth_ratio"] = save["ratio"]
    log("start-up ...")
    start = startup(s["startup_rounds"])
    result["startup_ratio"] = start["ratio"]
    log("peak RSS after presses ...")
    memory = rss(s["rss_rounds"], s["rss_presses"])
    result["rss_ratio"] = memory["ratio"]
    log("idle wake-ups ...")
    idle = idle_wakeups(s["idle_seconds"])
    result["idle_wakeups_per_second"] = idle["ours"]
    log("long session ...")
    long = long_run(s["long_lines"])
    result["rss_after_100k_lines_mb"] = long["mb"]
    result["gc_max_pause_ms"] = long["gc_max_pause_ms"]
    log("the camera's recogniser (held-out set) ...")
    seen = vision(s["vision_cards"])
    result["vision"] = {k: seen.get(k) for k in ("correct_share", "wrong_share", "ms_per_read_frame")}
    result["details"] = {"vision": {k: v for k, v in seen.items() if not k.endswith("_settings")},
                         "press_path": paths, "press_path_without_physics": bare_paths,
                         "press_path_paced": paced, "press_path_instructions": counted, "press_parts": parts,
                         "virtual_presses": virtual, "game": game,
                         "bot_game": bots, "save": save, "startup": start, "rss": memory, "idle_wakeups": idle,
                         "long_session": long, "quick": quick, "python": sys.version.split()[0], "cpus": os.cpu_count()}
    result["goals"] = {k: g for k, (g, _) in GOALS.items() if g != "-"}
    result["met"] = {k: None if _get(result, k) is None else check(_get(result, k))
                     for k, (_, check) in GOALS.items() if check is not None}
    return result


def _get(result: Figures, key: str) -> Any:
    value: Any = result
    for part in key.split("."):
        value = value[part]
    return value


def table(result: Figures) -> str:
    d = result["details"]
    base_press = d["press_path"]["no_game"]["baseline_us"]
    rows = [("figure", "value", "baseline", "goal", "")]
    for name, path in d["press_path"].items():
        key = f"press_path_ratio.{name}"
        rows.append((key, f"{path['ratio']:.2f}x ({path['ours_us']:.1f} us)", f"{path['baseline_us']:.1f} us",
                     GOALS[key][0], _mark(result, key)))
    for detail, how in (("press_path_without_physics", "no world on either side"),
                        ("press_path_paced", f"{PERSONS_PAUSE:g} s between presses")):
        for name, path in d[detail].items():
            rows.append((f"  {name}, {how}", f"{path['ratio']:.2f}x ({path['ours_us']:.1f} us)",
                         f"{path['baseline_us']:.1f} us", "-", ""))
    counted = d["press_path_instructions"]
    for name in INSTRUCTION_PATHS:
        if name in counted:
            path = counted[name]
            key = f"press_path_instructions_ratio.{name}"
            rows.append((key, f"{path['ratio']:.2f}x ({path['ours_kinstr']:.0f}k)",
                         f"{counted['baseline_kinstr']:.0f}k", GOALS[key][0], _mark(result, key)))
            key = f"press_on_pi_zero_2_ms.{name}"
            rows.append((key, f"{path['pi_zero_2_ms']:.2f} ms", f"{counted['baseline_pi_zero_2_ms']:.2f} ms",
                         GOALS[key][0], _mark(result, key)))
    if "skipped" in counted:
        rows.append(("  in instructions", f"not counted: {counted['skipped']}", "-", "-", ""))
    parts = d["press_parts"]
    rows.append(("  no game, of which", ", ".join(f"{k[:-3].replace('_', ' ')} {v:.1f} us" for k, v in parts.items()
                                                   if k != "whole_us"), "-", "-", ""))
    rows += [
        ("startup_ratio", f"{result['startup_ratio']:.2f}x ({d['startup']['ours_ms']:.0f} ms)",
         f"{d['startup']['baseline_ms']:.0f} ms", GOALS["startup_ratio"][0], _mark(result, "startup_ratio")),
        ("rss_ratio", f"{result['rss_ratio']:.2f}x ({d['rss']['ours_mb']:.1f} MB)",
         f"{d['rss']['baseline_mb']:.1f} MB", "-", ""),
        ("idle_wakeups_per_second", f"{result['idle_wakeups_per_second']:.2f}",
         f"{d['idle_wakeups']['baseline']:.2f}", "0", _mark(result, "idle_wakeups_per_second")),
        ("virtual_presses_per_second", f"{result['virtual_presses_per_second']}",
         f"{d['virtual_presses']['baseline']} (bare press)", "-", ""),
        ("bot_game_ms", f"{result['bot_game_ms']:.1f} ms ({d['bot_game']['ratio']:.1f}x)",
         f"{d['bot_game']['table_only_ms']:.2f} ms (table)", GOALS["bot_game_ms"][0], _mark(result, "bot_game_ms")),
        ("game_ratio", f"{result['game_ratio']:.1f}x ({d['game']['stack_ms']:.2f} ms)",
         f"{d['game']['table_only_ms']:.2f} ms (table)", "-", ""),
        ("save_depth_ratio", (f"{result['save_depth_ratio']:.2f}x ({d['save']['deep_us']:.1f} us, "
                              f"{d['save']['levels']} undo levels)"),
         f"{d['save']['one_level_us']:.1f} us (1 level)", "-", ""),
        ("rss_after_100k_lines_mb", f"{result['rss_after_100k_lines_mb']:.1f} MB ({d['long_session']['lines']} lines)",
         f"{d['long_session']['baseline_mb']:.1f} MB", "< 40 MB", _mark(result, "rss_after_100k_lines_mb")),
        ("gc_max_pause_ms", f"{result['gc_max_pause_ms']:.1f} ms", "-", "<= 20 ms", _mark(result, "gc_max_pause_ms")),
    ]
    seen = d["vision"]
    for key in ("correct_share", "wrong_share", "ms_per_read_frame"):
        value = result["vision"][key]
        shown = f"not measured: {seen.get('skipped')}" if value is None else f"{value}"
        rows.append((f"vision.{key}", shown, "-", GOALS[f"vision.{key}"][0], _mark(result, f"vision.{key}")))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    lines.append(f"(bare gpiozero press: {base_press:.1f} us; time ratios: best round of each side, sides alternating)")
    return "\n".join(lines)


def _mark(result: Figures, key: str) -> str:
    met = result["met"].get(key)
    return "" if met is None else ("ok" if met else "MISSED")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--quick", action="store_true", help="smaller counts (the long session keeps its 100,000 lines)")
    p.add_argument("--child", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        kind, count = args.child[0], int(args.child[1])
        if kind.startswith("instructions-"):
            _child_instructions(kind.removeprefix("instructions-"), count)
        else:
            _child_long(count)
        return 0
    result = run_suite(args.quick, log=lambda msg: print(msg, file=sys.stderr, flush=True))
    print(json.dumps(result, indent=1) if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
