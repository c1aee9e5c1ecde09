"""What every figure of the benchmark suite shares: how its two sides are timed and compared, and how a child
process is started (benchmarks/run.py runs the suite)."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# the suite's script: the children of the memory and instruction figures run it with --child
RUN = ROOT / "benchmarks" / "run.py"

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



def python_cmd(*args: str) -> list[str]:
    return [sys.executable, *args]


