"""Learning from photos, measured: each edition learned from rendered phone photos, read on held-out ones.

    PYTHONPATH=. python benchmarks/vision_photos.py [--editions KEY,...] [--per-face N] [--photos N] [--seed S]
                                                    [--style plain|printed]

For each edition (default: every one) it renders the learning photos (every face ``--per-face`` times, coloured
faces in turn through the side's colours; seed S) and two held-out folders of ``--photos`` photos each (seed
S + 1000: a card alone on the table; S + 2000: three in ten lying on another card) with the simulated camera
(``shooter.vision.phone``: the owner's phone, written as JPEG files named as ``cards test`` names them), learns
the deck from the learning folder as ``cards learn DIR`` does, and reads both held-out folders as ``cards test
DIR`` does. For comparison the same held-out folders are read with the deck learned through the simulated
camera (``cards learn --sim``, in the same style, each coloured face in each of its colours as ``cards bench``
learns it). ``--style``: the cards printed in the simulator's own style (``plain``, the default) or drawn like
the printed cards (``printed``). One JSON object: per edition and folder, cards, correct, wrong, unsure, missed
and the mistakes; the totals under ``all``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from shooter.camera.words import CardStyle
from shooter.editions import records
from shooter.vision.learn import learn_sim
from shooter.vision.phone import write_held_out, write_learning
from shooter.vision.photos import learn_photos, test_photos

KEYS = ("cards", "correct", "wrong", "unsure", "missed")


def measure(keys: list[str], per_face: int, photos: int, seed: int, style: str = CardStyle.PLAIN) -> dict[str, Any]:
    chosen = [r for r in records() if r.key in keys] if keys else records()
    out: dict[str, Any] = {"per_face": per_face, "photos": photos, "seed": seed, "style": style, "editions": {}}
    total: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for record in chosen:
            root = Path(tmp) / record.key
            write_learning(record, root / "learn", seed, per_face, style=style)
            write_held_out(record, root / "alone", seed + 1000, photos, on_another=0.0, style=style)
            write_held_out(record, root / "on-another", seed + 2000, photos, on_another=0.3, style=style)
            warnings: list[str] = []
            deck, used = learn_photos(record, root / "learn", warnings.append)
            camera_deck, _ = learn_sim(record, 1, style=style, every_colour=True)
            figures: dict[str, Any] = {"learned_from": used, "left_out": warnings}
            for folder in ("alone", "on-another"):
                for name, learned in (("photos", deck), ("camera", camera_deck)):
                    result = test_photos(root / folder, learned, record)
                    figures[f"{folder}, learned from {name}"] = {**{k: result[k] for k in KEYS},
                                                                 "mistakes": result["mistakes"]}
                    row = total.setdefault(f"{folder}, learned from {name}", dict.fromkeys(KEYS, 0))
                    for k in KEYS:
                        row[k] += result[k]
            out["editions"][record.key] = figures
            print(f"{record.key}: done", file=sys.stderr, flush=True)
    out["all"] = total
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--editions", default="", help="edition keys, comma-separated (default: every one)")
    parser.add_argument("--per-face", type=int, default=2, help="learning photos a face (default 2)")
    parser.add_argument("--photos", type=int, default=200, help="held-out photos a folder (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the learning photos (default 1)")
    parser.add_argument("--style", choices=list(CardStyle), default=CardStyle.PLAIN,
                        help="how the cards are drawn: plain (the simulator's own, default) or printed")
    args = parser.parse_args(argv)
    print(json.dumps(measure([k for k in args.editions.split(",") if k], args.per_face, args.photos, args.seed,
                             args.style)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
