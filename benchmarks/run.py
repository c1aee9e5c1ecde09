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
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_game import compile_table_lines, game_side_by_side, replay_on_table  # noqa: E402
from benchmarks.press import (  # noqa: E402
    INSTRUCTION_PATHS,
    PERSONS_PAUSE,
    PRESS_PATHS,
    _child_instructions,
    press_instructions,
    press_parts,
    press_path,
    virtual_presses,
)
from benchmarks.processes import _child_long, idle_wakeups, long_run, rss, startup  # noqa: E402
from benchmarks.timing import CPU_CLOCK, Figures, Side, alternate, paired_ratio  # noqa: E402

if TYPE_CHECKING:
    from shooter.persist import Store
    from shooter.table import Table


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


# ---------------------------------------------------------------- games
def bot_games(rounds: int, games: int) -> Figures:
    """ms per bot game (sim.bots through the console protocol), against the same games' accepted
    game commands on the table's rules alone (same seeds: checked to end in the same game)."""
    from shooter.bots.simulate import play_games
    from shooter.controller import Controller
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
