"""Draws docs/vision-style-plain.png and docs/vision-style-printed.png: the same faces in each card style of the
simulated camera (``sim.camera.styles.STYLES``), as its renderer draws them: a red 7, a blue 6, a green skip, a
yellow Hit 2 (an Extreme hit card: a look of its own in the printed style), a wild and a Flip dark-side teal 3.
Run: python docs/vision_styles.py"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shooter.editions import lookup  # noqa: E402
from shooter.vision.synthetic import faces_of, looks_of  # noqa: E402
from sim.camera.styles import STYLES  # noqa: E402

FACES = [("7", "red", None), ("6", "blue", None), ("skip", "green", None), ("hit2", "yellow", None),
         ("wild", None, None), ("3", "teal", "dark")]


def strip(name: str) -> np.ndarray:
    """The faces side by side in style ``name``, at half the renderer's size, on a light grey."""
    looks = looks_of(faces_of(lookup("extreme", "2016")))   # the hit cards' look, from the edition records
    tiles = []
    for card, colour, side in FACES:
        img, cover = STYLES[name].draw(card, colour, side, looks.get(card))
        rgb = np.clip(img * cover[..., None] + 0.85 * (1.0 - cover[..., None]), 0.0, 1.0)
        tiles.append(cv2.resize((rgb * 255).astype(np.uint8), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA))
        tiles.append(np.full((tiles[-1].shape[0], 6, 3), 217, np.uint8))
    return np.hstack(tiles[:-1])


def main() -> None:
    for name in STYLES:
        out = ROOT / "docs" / f"vision-style-{name}.png"
        cv2.imwrite(str(out), strip(name), [cv2.IMWRITE_PNG_COMPRESSION, 9])
        print(out)


if __name__ == "__main__":
    main()
