"""A scripted game through the whole stack against the same game on the table's rules alone.

    python benchmarks/bench_game.py [games]

The whole stack: console line parsing, the table, the scheduler, the shooter's state machine, the
hardware layer's gpiozero devices on the simulator's pins and the world model, in virtual time. The
baseline: the same lines, parsed by the same protocol parser, applied straight to the table engine
with the same random seed, so both sides play the *same* games (checked: both end in the same game).
Prints time per game, the ratio, and the peak memory of each (tracemalloc), so that "a simulated game
runs in milliseconds" stays true. ``benchmarks/run.py`` runs this as part of the suite.
"""

from __future__ import annotations

import ast
import functools
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shooter.app import App  # noqa: E402
from shooter.config import parse_config  # noqa: E402
from shooter.errors import CommandError  # noqa: E402
from shooter.protocol import parse  # noqa: E402
from shooter.table import Table  # noqa: E402


def scripted_game() -> list[str]:
    """The scripted game of ``tests/test_persistence.py`` (there the suite checks that every line is
    accepted), read from the file, not imported: a measured process must not carry the suite's
    imports (pytest alone is about 10 MB of RSS)."""
    path = ROOT / "tests" / "test_persistence.py"
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["GAME"]:
            lines = ast.literal_eval(node.value)
            if isinstance(lines, list) and all(isinstance(x, str) for x in lines):
                return lines
    raise LookupError(f"{path}: no GAME = [...] list of console lines")


GAME = scripted_game()

# The table calls behind the console's game commands (the controller's cmd_* do the same).
TableCallable = Callable[..., Any]
# one game command compiled for the bare table: the call, its positional and its keyword arguments
TableCall = tuple[TableCallable, list[Any], dict[str, Any]]

TABLE_CALLS: dict[tuple[str, ...], TableCallable] = {
    ("game", "new"): lambda t, players, dealer=None, **kw: t.new_game(
        players, dealer=int(dealer) if dealer not in (None, "random") else dealer, **kw),
    ("round", "start"): lambda t, first, dealer=None: t.start_round(first, dealer=dealer),
    ("play",): lambda t, card, seat=None, target=None, last=False: t.play(card, seat=seat, target=target, last=last),
    ("press",): lambda t: t.press(),
    ("uno",): lambda t, seat: t.uno(seat),
    ("catch",): lambda t, seat: t.catch(seat),
    ("penalty", "advice"): lambda t, seat: t.penalty("advice", seat),
    ("penalty", "wrong-card"): lambda t, seat: t.penalty("wrong-card", seat),
    ("hand",): lambda t, seat, cards: t.hand(seat, cards),
    ("score",): lambda t, seat, points: t.score(seat, points),
    ("undo",): lambda t: t.undo(),
    ("set",): lambda t, current=None, direction=None: t.set(current=current, direction=direction),
}


def table_seed(seed: int) -> random.Random:
    """The table's random source for an App built with ``seed`` (shooter.app.App._restore)."""
    return random.Random(f"table-{seed}")


def compile_table_lines(lines: Sequence[str]) -> list[TableCall]:
    """(table call, args, kwargs) for every line that is a game command; the rest is not table work."""
    from shooter.commands.dispatch import find
    from shooter.commands.table import COMMANDS
    calls: list[TableCall] = []
    for raw in lines:
        line = parse(raw)
        if line is None:
            continue
        try:
            spec, _ = find(COMMANDS, line)
            args, options, flags = spec.bind(line)
        except CommandError:
            continue
        call = TABLE_CALLS.get(spec.words)
        if call is not None:
            calls.append((call, args, {**options, **{f: True for f in flags}}))
    return calls


def replay_on_table(calls: Sequence[TableCall], seed: int) -> Table:
    """The baseline: the game commands applied straight to the table, refusals included."""
    table = Table(rng=table_seed(seed))
    for call, args, kwargs in calls:
        try:
            call(table, *args, **kwargs)
        except CommandError:
            pass
    return table


def run_app(lines: Sequence[str], seed: int) -> App:
    """The whole stack in virtual time, every line run to quiescence; returns the (closed) App."""
    with App(parse_config({}), sim=True, virtual=True, seed=seed, log=lambda m: None) as app:
        def sink(obj: dict[str, Any]) -> None:
            pass
        app.loop.run_until_quiet()
        for line in lines:
            app.loop.post(functools.partial(app.controller.handle_line, line, sink))
            app.loop.run_until_quiet()
    return app


def same_games(lines: Sequence[str], seeds: Sequence[int]) -> None:
    """Both sides play the same games: the same final game for every seed (raises if not)."""
    calls = compile_table_lines(lines)
    for seed in seeds:
        stack = run_app(lines, seed).controller.table.to_dict()["game"]
        bare = replay_on_table(calls, seed).to_dict()["game"]
        if stack != bare:
            raise AssertionError(f"seed {seed}: the whole stack and the table alone played different games")


def game_side_by_side(games: int, rounds: int, lines: Sequence[str] = GAME) -> dict[str, float]:
    """ms per game of each side (best round), alternating the two sides, and their ratio."""
    seeds = list(range(games))
    same_games(lines, seeds[:2])
    calls = compile_table_lines(lines)
    stack_t: list[float] = []
    bare_t: list[float] = []
    for r in range(rounds):
        order = ("stack", "bare") if r % 2 == 0 else ("bare", "stack")
        for side in order:
            start = time.thread_time()  # CPU time: other processes on a shared machine do not count
            for seed in seeds:
                if side == "stack":
                    run_app(lines, seed)
                else:
                    replay_on_table(calls, seed)
            (stack_t if side == "stack" else bare_t).append((time.thread_time() - start) / games)
    return {"stack_ms": round(min(stack_t) * 1e3, 3), "table_only_ms": round(min(bare_t) * 1e3, 3),
            "ratio": round(min(stack_t) / min(bare_t), 2), "lines": len(lines), "games": games}


def peak_memory(lines: Sequence[str] = GAME) -> tuple[int, int]:
    """tracemalloc peak bytes of one game on each side."""
    calls = compile_table_lines(lines)
    peaks = []
    for fn in (lambda: run_app(lines, 0), lambda: replay_on_table(calls, 0)):
        tracemalloc.start()
        fn()
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return peaks[0], peaks[1]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    result = game_side_by_side(games, rounds=3)
    full_peak, base_peak = peak_memory()
    print(f"{len(GAME)}-line game, the same {games} games on both sides, 3 alternating rounds")
    print(f"table rules only        {result['table_only_ms']:8.2f} ms/game   peak {base_peak / 1024:8.0f} KiB")
    print(f"whole stack, simulated  {result['stack_ms']:8.2f} ms/game   peak {full_peak / 1024:8.0f} KiB")
    print(f"ratio                   {result['ratio']:8.1f}x time       {full_peak / base_peak:6.1f}x memory")


if __name__ == "__main__":
    main()
