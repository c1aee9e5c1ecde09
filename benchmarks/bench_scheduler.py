"""Time Scheduler.next_press() against a bare random.random() loop, in one process.

    python benchmarks/bench_scheduler.py [presses]

Prints the time per call of each and their ratio. A press happens at human speed
(a few per second), so this only guards against the scheduler becoming silly.
"""

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shooter.scheduler import PROFILES, Profile, Scheduler


def best_of(repeats: int, loop: Callable[[int], None], n: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        loop(n)
        best = min(best, time.perf_counter() - start)
    return best / n


def baseline(n: int) -> None:
    draw = random.Random(1).random
    for _ in range(n):
        draw()


def presses(profile: Profile) -> Callable[[int], None]:
    def loop(n: int) -> None:
        press = Scheduler(profile, random.Random(1)).next_press
        for _ in range(n):
            press()

    return loop


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    base = best_of(5, baseline, n)
    print(f"random.random()            {base * 1e9:7.1f} ns/call")
    for name, profile in PROFILES.items():
        per_press = best_of(5, presses(profile), n)
        print(f"next_press() [{name:8}]    {per_press * 1e9:7.1f} ns/call   ratio {per_press / base:5.1f}x")


if __name__ == "__main__":
    main()
