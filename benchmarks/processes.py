"""The figures measured on whole processes: start-up, memory, idle wake-ups and a long session (benchmarks/run.py
runs them)."""

from __future__ import annotations

import functools
import gc
import json
import resource
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.timing import BASELINE_IMPORTS, ENV, ROOT, RUN, Figures, alternate, median, paired_ratio, python_cmd


# ---------------------------------------------------------------- processes
def _cli(*args: str) -> list[str]:
    return python_cmd("-m", "shooter", "run", "--sim", "--seed", "1", *args)


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
        subprocess.run(python_cmd("-c", BASELINE_IMPORTS), check=True, env=ENV, cwd=ROOT)
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
    return _peak_mb(python_cmd("-c", _CLI_HWM, "run", "--sim", "--seed", "1", "--console", "stdio",
                            "--clock", "virtual"), stdin_bytes)


def _baseline_peak_mb() -> float:
    return _peak_mb(python_cmd("-c", _HWM + BASELINE_IMPORTS + "\n_hwm()\n"))


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
    base = count(python_cmd("-c", f"import sys, signal; {BASELINE_IMPORTS}; print('ready', file=sys.stderr, "
                               "flush=True); signal.pause()"), base_ready)
    return {"ours": round(ours, 2), "baseline": round(base, 2), "seconds": seconds}


def long_run(lines: int) -> Figures:
    """Peak RSS and the longest garbage collection of one session of ``lines`` lines in virtual time
    (a child process), against the baseline process's RSS."""
    out = subprocess.run(python_cmd(str(RUN), "--child", "long", str(lines)), check=True,
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


