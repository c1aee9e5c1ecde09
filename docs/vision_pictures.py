"""Draws docs/vision-*.png: rendered frames of the simulated pile (easy, glare, tilt, a hand) with what the
recogniser found drawn on them (the outline it straightened, its read), and a card whose white the sensor clipped,
first seen and looked at again darker (vision-darker.png). Run: python docs/vision_pictures.py"""

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


def looked_at(deck, darkens: bool) -> tuple[np.ndarray, object, float]:
    """Flip's dark purple 5 under a warm lamp whose glare covers the pile (the border clipped in every channel):
    the frame it was read on, the read, the exposure; ``darkens``: the camera takes the exposure the watcher asks
    for (it looks again, darker), else it keeps its own (the first look)."""
    from shooter.vision.synthetic import FaceSpec, physical
    rng = random.Random(zlib.crc32(b"darker"))
    settings = replace(HELD_OUT, hand_with_card=0.0, hands_per_second=0.0)
    conditions = replace(Conditions.draw(settings, rng), brightness=1.05, warmth=0.2, glare=0.55, shadow=0.0,
                         tilt_deg=8.0, height_mm=560.0, glare_at=(0.5, 0.5, 0.12))
    pile: list = []
    camera = SimCamera(pile, rng, settings, conditions=conditions)
    camera.side_up = "dark"
    watcher = PileWatcher(deck, camera.region)
    t, read, shown = 0.0, None, None
    for k in range(24):
        if k == 4:   # the bare table first: the reference
            pile.append(physical(FaceSpec("5", "dark", False, ("purple",)), "purple"))
        if darkens:
            camera.exposure = watcher.exposure
        frame = camera.capture()
        got = watcher.feed(frame, t, camera.exposure if darkens else None)
        t += 0.1
        if got is not None:
            read, shown = got, frame.copy()
    assert shown is not None and read is not None
    return shown, read, camera.exposure


def darker(deck) -> np.ndarray:
    """The first look and the look again, side by side (the pile's part of each frame)."""
    panels = []
    for darkens, title in ((False, "first look"), (True, "looked at again")):
        frame, read, exposure = looked_at(deck, darkens)
        x0, y0 = 170, 90
        panel = np.ascontiguousarray(frame[y0:y0 + 300, x0:x0 + 300])
        if read.quad is not None:   # type: ignore[attr-defined]
            quad = read.quad - np.asarray([x0, y0], np.float32)   # type: ignore[attr-defined]
            cv2.polylines(panel, [quad.astype(np.int32)], True, (0, 255, 0), 2)
        lines = (f"{title}: exposure {exposure:.2f}", f"read: {read.describe()}")  # type: ignore[attr-defined]
        for colour, width in (((0, 0, 0), 4), ((255, 255, 255), 1)):
            for k, line in enumerate(lines):
                cv2.putText(panel, line, (8, 22 + 22 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, width, cv2.LINE_AA)
        panels.append(panel)
    return np.hstack([panels[0], np.full((300, 6, 3), 255, np.uint8), panels[1]])


def main() -> None:
    deck, _ = learn_sim(lookup("extreme", "2016"), 1)
    for name, (changes, hand) in SCENES.items():
        cv2.imwrite(str(ROOT / "docs" / f"vision-{name}.png"), picture(name, changes, hand, deck))
    flip, _ = learn_sim(lookup("flip"), 1)
    cv2.imwrite(str(ROOT / "docs" / "vision-darker.png"), darker(flip))


if __name__ == "__main__":
    main()
