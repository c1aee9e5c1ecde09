"""Draws docs/vision-*.png: rendered frames of the simulated pile (easy, glare, tilt, a hand) with what the
recogniser found drawn on them (the outline it straightened, its read). Run: python docs/vision_pictures.py"""

from __future__ import annotations

import random
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shooter.editions import lookup  # noqa: E402
from shooter.vision import PileWatcher, learn_sim  # noqa: E402
from sim.camera import HELD_OUT, Conditions, SimCamera  # noqa: E402
from sim.cards import Card  # noqa: E402

SCENES = {  # name: (what is changed from a plain draw, the cards put down)
    "easy": ({"tilt_deg": 5.0, "glare": 0.0, "shadow": 0.0, "brightness": 1.0, "blur_px": 0.3, "noise": 2.0}, 0.0),
    "glare": ({"glare": 0.6, "glare_at": (0.5, 0.5, 0.12), "brightness": 1.1}, 0.0),
    "tilt": ({"tilt_deg": 30.0, "height_mm": 320.0, "shadow": 0.5, "brightness": 0.65, "warmth": 0.2}, 0.0),
    "hand": ({"tilt_deg": 12.0}, 1.0),
}
CARDS = [Card("number", "green", 3), Card("hit2", "yellow"), Card("number", "blue", 8), Card("number", "red", 6)]


def picture(name: str, changes: dict, hand: float, deck) -> np.ndarray:
    rng = random.Random(zlib.crc32(name.encode()))
    settings = replace(HELD_OUT, hand_with_card=hand, hands_per_second=0.0)
    conditions = replace(Conditions.draw(settings, rng), **changes)
    pile: list = []
    camera = SimCamera(pile, rng, settings, conditions=conditions)
    watcher = PileWatcher(deck, camera.region)
    t, shown, read = 0.0, None, None
    for card in CARDS:
        pile.append(card)
        for k in range(16):
            frame = camera.capture()
            got = watcher.feed(frame, t)
            t += 0.1
            if card is CARDS[-1] and hand and k == 2:
                shown = frame.copy()   # the hand still over the pile: nothing is read yet
            if got is not None:
                read = got
                if shown is None or not hand:
                    shown = frame.copy()
    assert shown is not None
    x, y, w, h = camera.region
    cv2.rectangle(shown, (x, y), (x + w, y + h), (255, 255, 255), 1)
    if read is not None and read.quad is not None:
        cv2.polylines(shown, [read.quad.astype(np.int32)], True, (0, 255, 0), 2)
        text = f"read: {read.describe()}"
    else:
        text = "read: nothing"
    for colour, width in (((0, 0, 0), 4), ((255, 255, 255), 1)):
        cv2.putText(shown, text, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.65, colour, width, cv2.LINE_AA)
        cv2.putText(shown, f"{name}: top card red 6", (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 0.55, colour, width,
                    cv2.LINE_AA)
    return shown


def main() -> None:
    deck, _ = learn_sim(lookup("extreme", "2016"), 1)
    for name, (changes, hand) in SCENES.items():
        cv2.imwrite(str(ROOT / "docs" / f"vision-{name}.png"), picture(name, changes, hand, deck))


if __name__ == "__main__":
    main()
