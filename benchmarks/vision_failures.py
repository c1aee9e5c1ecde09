"""Every card of one edition's held-out set that was not read right, with the scene it lay in.

    PYTHONPATH=. python benchmarks/vision_failures.py EDITION HELD_OUT_SEED [CARDS] [OUT_DIR] [LEARNING_SEED]

EDITION is an edition key (extreme-2016, extreme-2010, classic, all-wild, flip); CARDS defaults to 200 and
LEARNING_SEED to 1 (as ``cards bench`` learns). For each card that was missed, unsure or wrong it prints the
card, the outcome and the read, the scene's conditions (camera height and tilt, light, shadow, glare, blur,
noise) and whether a hand was over the pile as the card came down; with OUT_DIR it saves the frame the read was
made on (or, for a missed card, the last frame before the next card) as a PNG, named by the card's index. The
last line is ``N failed reads``. The cards are counted by the bench's own loop (``shooter.vision.bench.held_out``).
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import cv2

from shooter.camera.reads import Read
from shooter.editions import records
from shooter.vision import synthetic
from shooter.vision.bench import Tally, Timing, held_out
from shooter.vision.learn import learn_sim
from shooter.vision.synthetic import Truth
from sim.camera import Frame, SimCamera

# for each card put down, in order: the camera of its scene and whether a hand was over the pile in its frame
drops: list[tuple[SimCamera, bool]] = []


class _Recorded(SimCamera):
    """The renderer's camera, noting each card put down (the pile grew since its last frame) with its scene."""

    def capture(self) -> Frame:
        frame = super().capture()
        if len(self.pile) > getattr(self, "_counted", 0):
            self._counted = len(self.pile)
            drops.append((self, self.hand_in_view))
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
    # the renderer builds its cameras by this name: the recording one stands in for it
    setattr(synthetic, "SimCamera", _Recorded)  # noqa: B010
    failed = 0

    def counted(index: int, truth: Truth | None, read: Read | None, frame: Any) -> None:
        nonlocal failed
        one = Tally()
        one.count(read, truth)
        if one.correct:
            return
        failed += 1
        outcome = "missed" if read is None else "unsure" if one.unsure else "wrong"
        camera, hand = drops[index - 1] if index else (None, False)   # index 0: a read before any card
        scene = "" if camera is None else \
            ", ".join(f"{k} {v:.2f}" for k, v in asdict(camera.conditions).items() if isinstance(v, float))
        shown = "no new card" if truth is None else \
            f"{truth.colour or 'wild'} {truth.name}" + (f" ({truth.side})" if truth.side else "")
        print(f"#{index} {shown}: {outcome}" + (f" as {read.describe()} {read.confidence:.2f}" if read else "")
              + f"; hand at the drop {hand}; {scene}")
        if out is not None and frame is not None:
            cv2.imwrite(str(out / f"{index:03d}-{outcome}.png"), frame)

    held_out(record, deck, seed, cards, Timing(), counted)
    print(f"{failed} failed reads")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
