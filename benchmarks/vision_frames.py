"""The pile watcher's slowest frames on a held-out set: each frame's CPU time with the card, and the path the
watcher took (which of locate's guesses ran, how many times the outline was refined, whether the ink had
possible inks and how many, how many faces the symbol was matched to), the worst printed; with --profile the
worst frames are fed again (the same inputs to ``locate``) under cProfile.

    PYTHONPATH=. python benchmarks/vision_frames.py [--seed 1001] [--variant KEY] [--worst 20] [--profile] [--save FILE]

Times are thread CPU time (other work on the machine does not count); the wrappers that note the path add a
little to every frame.
"""

from __future__ import annotations

import argparse
import cProfile
import heapq
import pickle
import pstats
import sys
import time
from collections.abc import Callable
from typing import Any

from shooter.editions import records
from shooter.vision import card, match, outline, watcher
from shooter.vision.learn import learn_sim
from shooter.vision.synthetic import held_out_set

trace: list[str] = []


def _noted(module: Any, name: str, say: Callable[[Any, tuple[Any, ...]], str]) -> None:
    """Wraps ``module.name`` so that each call adds ``say(result, args)`` and its ms to ``trace``."""
    inner = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        out = inner(*args, **kwargs)
        trace.append(f"{say(out, args)} {1e3 * (time.thread_time() - start):.0f}ms")
        return out
    setattr(module, name, wrapper)


def _instrument() -> None:
    _noted(watcher, "_round_change", lambda out, a: f"round:{'y' if out is not None else 'n'}")
    _noted(watcher, "_whole_top_card", lambda out, a: f"whole:{'y' if out is not None else 'n'}")
    _noted(watcher, "_newest_of_two", lambda out, a: f"two:{'y' if out is not None else 'n'}")
    _noted(watcher, "refined", lambda out, a: f"refined:{'y' if out is not None else 'n'}")
    _noted(watcher, "still_outline", lambda out, a: f"still:{'y' if out is not None else 'n'}")
    _noted(card, "_possible_inks", lambda out, a: f"possible:{0 if out is None else len(out)}")
    _noted(watcher, "features", lambda out, a: "features")
    _noted(match, "_scores", lambda out, a: f"scores:{len(a[2])}")
    _noted(match, "_ink", lambda out, a: "ink")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=1001)
    p.add_argument("--variant", default=None, help="one edition key (default: every edition)")
    p.add_argument("--worst", type=int, default=20)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--save", help="pickle the worst frames' inputs to locate here (to feed them again)")
    args = p.parse_args(argv)
    _instrument()
    worst: list[tuple[float, int, str, list[Any]]] = []   # a heap of the slowest: (s, n, label, locate's inputs)
    inputs: list[Any] = []
    locate = watcher.locate

    def kept(*a: Any, **k: Any) -> Any:
        inputs.append((a, k))
        return locate(*a, **k)
    watcher.locate = kept
    decks = {}
    n, total = 0, 0.0
    for record in records():
        if args.variant and record.key != args.variant:
            continue
        deck, _ = learn_sim(record, 1)
        decks[record.key] = deck
        w: watcher.PileWatcher | None = None
        truth = None
        for shot in held_out_set(record, args.seed, 200):
            if w is None or w.region != shot.region:
                w = watcher.PileWatcher(deck, shot.region)
            if shot.dropped is not None:
                truth = shot.dropped
            trace.clear()
            inputs.clear()
            start = time.thread_time()
            read = w.feed(shot.frame, shot.now)
            spent = time.thread_time() - start
            n += 1
            total += spent
            what = "" if truth is None else f"{truth.colour or 'wild'} {truth.name}" + \
                (f" ({truth.side})" if truth.side else "")
            label = f"{record.key:13} #{n:5} {what:24} read={read.describe() if read else None} | {' '.join(trace)}"
            item = (spent, n, label, [(record.key, a, k) for a, k in inputs])
            if len(worst) < args.worst:
                heapq.heappush(worst, item)
            elif spent > worst[0][0]:
                heapq.heapreplace(worst, item)
    print(f"{n} frames, {1e3 * total / n:.2f} ms a frame")
    ordered = sorted(worst, key=lambda x: -x[0])
    for spent, _, label, _ in ordered:
        print(f"{1e3 * spent:7.1f} ms  {label}")
    if args.save:
        with open(args.save, "wb") as out:
            pickle.dump([(1e3 * spent, label, calls) for spent, _, label, calls in ordered], out)
    if args.profile:
        profiler = cProfile.Profile()
        for _, _, _, calls in ordered:
            for key, a, k in calls:
                view = a[0]
                profiler.enable()
                found = locate(*a, **k)
                if found is not None:
                    w = watcher.PileWatcher(decks[key], (0, 0, view.shape[1], view.shape[0]))
                    match.classify(decks[key], card.features(outline.rectify(view, found[0])), found[0], w.settings,
                                     exact=found[1])
                profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
