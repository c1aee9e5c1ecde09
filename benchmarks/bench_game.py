"""A simulated game through the whole stack, against the table's rules alone, in one process.

    python benchmarks/bench_game.py [games]

The whole stack: console line parsing, the table, the scheduler, the shooter's state machine, the
hardware layer's gpiozero devices on the simulator's pins and the world model, in virtual time. The
baseline: the same commands applied straight to the table engine. Prints time per game, the ratio,
and the peak memory of each (tracemalloc), so that "a simulated game runs in milliseconds" stays true.
"""

import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shooter.app import App  # noqa: E402
from shooter.config import parse_config  # noqa: E402
from shooter.table import Table  # noqa: E402
from tests.test_persistence import GAME  # noqa: E402


def full_stack(games: int) -> None:
    for i in range(games):
        with App(parse_config({}), sim=True, virtual=True, seed=i, log=lambda m: None) as app:
            sink = lambda obj: None  # noqa: E731
            app.loop.run_until_quiet()
            for line in GAME:
                app.loop.post(lambda line=line: app.controller.handle_line(line, sink))
                app.loop.run_until_quiet()


def table_only(games: int) -> None:
    from shooter.errors import CommandError
    for i in range(games):
        t = Table(rng=random.Random(i))
        for line in GAME:
            words = line.split()
            opts = dict(w.split("=") for w in words if "=" in w)
            try:
                if words[0] == "press":
                    t.press()
                elif words[0] == "game":
                    t.new_game(int(opts["players"]), dealer=opts.get("dealer"))
                elif words[0] == "round":
                    t.start_round(opts["first"])
                elif words[0] == "play":
                    t.play(words[1], target=int(opts["target"]) if "target" in opts else None, last="last" in words)
                elif words[0] in ("uno", "catch"):
                    getattr(t, words[0])(int(opts["seat"]))
                elif words[0] == "penalty":
                    t.penalty(words[1], int(opts["seat"]))
                elif words[0] == "undo":
                    t.undo()
                elif words[0] == "hand":
                    t.hand(int(opts["seat"]), opts["cards"].split(","))
                elif words[0] == "score":
                    t.score(int(opts["seat"]), int(opts["points"]))
            except CommandError:
                pass


def measure(fn, games: int) -> tuple[float, int]:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        fn(games)
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    fn(1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best / games, peak


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    full, full_peak = measure(full_stack, games)
    base, base_peak = measure(table_only, games)
    print(f"{len(GAME)}-line game, best of 3 x {games} games")
    print(f"table rules only        {base * 1e3:8.2f} ms/game   peak {base_peak / 1024:8.0f} KiB")
    print(f"whole stack, simulated  {full * 1e3:8.2f} ms/game   peak {full_peak / 1024:8.0f} KiB")
    print(f"ratio                   {full / base:8.1f}x time       {full_peak / base_peak:6.1f}x memory")


if __name__ == "__main__":
    main()
