"""Every card of one edition's held-out set that was not read right, with the scene it lay in.

    PYTHONPATH=. python benchmarks/vision_failures.py EDITION HELD_OUT_SEED [CARDS] [OUT_DIR] [LEARNING_SEED]

EDITION is an edition key (extreme-2016, extreme-2010, classic, all-wild, flip); CARDS defaults to 200 and
LEARNING_SEED to 1 (as ``cards bench`` learns). For each card that was missed, unsure or wrong it prints the
card, the outcome and the read, the scene's conditions (camera height and tilt, light, shadow, glare, blur,
noise) and whether a hand was over the pile; with OUT_DIR it saves the frame the read was made on (or, for a
missed card, the last frame before the next card) as a PNG, named by the card's index. The last line is
``N failed reads``. It is the same loop as ``shooter.vision.bench.held_out``: what it counts matches the bench.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

import cv2

from shooter.editions import records
from shooter.vision import synthetic
from shooter.vision.bench import Tally
from shooter.vision.learn import learn_sim
from shooter.vision.watcher import PileWatcher

cameras: list[synthetic.SimCamera] = []


class _Recorded(synthetic.SimCamera):
    """The renderer's camera, kept so that the scene's conditions and hands can be printed."""

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        cameras.append(self)

    def capture(self):  # type: ignore[no-untyped-def]
        frame = super().capture()
        self.hands_seen = getattr(self, "hands_seen", 0) + self.hand_in_view
        return frame


def main(argv: list[str]) -> int:
    if not 2 <= len(argv) <= 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    key, seed = argv[0], int(argv[1])
    cards = int(argv[2]) if len(argv) > 2 else 200
    out = Path(argv[3]) if len(argv) > 3 else None
    learning_seed = int(argv[4]) if len(argv) > 4 else 1
    record = {r.key: r for r in records()}.get(key)
    if record is None:
        print(f"no edition {key!r}: one of {', '.join(r.key for r in records())}", file=sys.stderr)
        return 2
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    deck, _ = learn_sim(record, learning_seed)
    synthetic.SimCamera = _Recorded  # type: ignore[misc]
    failed = 0
    index = 0
    watcher: PileWatcher | None = None
    pending = None
    last = None
    hand_at_drop = False
    at_drop: synthetic.SimCamera | None = None

    def report(outcome: str, truth, read, frame) -> None:  # type: ignore[no-untyped-def]
        nonlocal failed
        failed += 1
        c = asdict((at_drop or cameras[-1]).conditions)
        scene = ", ".join(f"{k} {v:.2f}" for k, v in c.items() if isinstance(v, float))
        shown = f"{truth.colour or 'wild'} {truth.name}" + (f" ({truth.side})" if truth.side else "") \
            if truth else "no new card"
        print(f"#{index} {shown}: {outcome}" + (f" as {read.describe()} {read.confidence:.2f}" if read else "")
              + f"; hand at the drop {hand_at_drop}; {scene}")
        if out is not None and frame is not None:
            cv2.imwrite(str(out / f"{index:03d}-{outcome}.png"), frame)

    for shot in synthetic.held_out_set(record, seed, cards):
        if watcher is None or watcher.region != shot.region:
            watcher = PileWatcher(deck, shot.region)
        if shot.dropped is not None:
            if pending is not None:
                report("missed", pending, None, last)
            pending, index = shot.dropped, index + 1
            hand_at_drop = cameras[-1].hand_in_view
            at_drop = cameras[-1]
        read = watcher.feed(shot.frame, shot.now)
        last = shot.frame
        if read is not None:
            tally = Tally()
            tally.count(read, pending)
            if not tally.correct:
                report("unsure" if tally.unsure else "wrong", pending, read, shot.frame)
            pending = None
    if pending is not None:
        report("missed", pending, None, last)
    print(f"{failed} failed reads")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
