"""The styles of the simulated cards, one table: how each style draws a face, the tables it lies on, and whether
the frames come as a phone camera's JPEG.

``plain`` is the simulator's own deck (:mod:`sim.camera.faces`: a white symbol with a black outline) on a table
of one colour, the frames as the sensor gives them (its frames are those of the first renderer, bit for bit).
``printed`` is drawn like the printed cards (:mod:`sim.camera.printed`) on wood, felt or a patterned cloth, each
frame through JPEG at a quality drawn per camera (a phone's artefacts: blocks, ringing round edges, colour at
half resolution). The names are ``shooter.camera.words.CardStyle``'s (tests/test_camera_words.py holds them
alike: the simulator imports nothing of the shooter).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from . import faces, printed

Texture = npt.NDArray[np.float32]
Draw = Callable[[str, str | None, str | None, str | None], tuple[faces.Image, faces.Mask]]

TABLES = ((0.30, 0.42, 0.55), (0.18, 0.25, 0.33), (0.25, 0.45, 0.22), (0.55, 0.55, 0.52), (0.12, 0.12, 0.14),
          (0.45, 0.32, 0.22))   # the plain style's tables: one colour each (BGR reflectance)


@dataclass(frozen=True)
class Style:
    """One style of card: ``draw(name, colour, side, look)`` gives a face and its outline; ``tables`` the kinds
    of table it is shown on (``flat``: one colour with a fine grain); ``jpeg`` the range of JPEG qualities its
    frames are compressed at (None: none)."""

    draw: Draw
    tables: tuple[str, ...]
    jpeg: tuple[int, int] | None


def _plain(name: str, colour: str | None, side: str | None, look: str | None) -> tuple[faces.Image, faces.Mask]:
    return faces.face(name, colour, side)   # the plain deck gives no card a look of its own


STYLES: dict[str, Style] = {
    "plain": Style(_plain, ("flat",), None),
    "printed": Style(printed.face, ("wood", "felt", "cloth"), (55, 90)),
}


def style(name: str) -> Style:
    """The style named ``name``; KeyError naming the styles there are."""
    if name not in STYLES:
        raise KeyError(f"no card style {name!r} (styles: {', '.join(STYLES)})")
    return STYLES[name]


def table_texture(kind: str, base: tuple[float, float, float], size: tuple[int, int], rng: random.Random,
                  noise: np.random.Generator) -> Texture:
    """A table of ``kind`` (not ``flat``, which the camera makes itself) round the colour ``base``: wood (grain
    in bands along one way, rings and knots), felt (a fine fuzz in a strong colour) or a patterned cloth (checks
    or stripes of two colours)."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    along = xs * math.cos(a) + ys * math.sin(a)
    across = -xs * math.sin(a) + ys * math.cos(a)
    fuzz = noise.standard_normal((h, w)).astype(np.float32)
    if kind == "wood":
        colour = np.asarray(rng.choice(((0.20, 0.36, 0.55), (0.12, 0.24, 0.40), (0.35, 0.52, 0.68))), np.float32)
        wobble = cv2.GaussianBlur(noise.standard_normal((h // 16 + 1, w // 16 + 1)).astype(np.float32), (0, 0), 1.0)
        wobble = cv2.resize(wobble, (w, h), interpolation=cv2.INTER_CUBIC)[:h, :w]
        period = rng.uniform(7.0, 16.0)
        grain = np.sin((across + 8.0 * wobble + 0.02 * along) * (2 * math.pi / period))
        level = 1.0 + 0.12 * grain + 0.03 * cv2.GaussianBlur(fuzz, (0, 0), 1.0)
        if rng.random() < 0.6:   # the seam between two planks
            seam = np.abs(((across + rng.uniform(0, 200)) % 200.0) - 100.0) < 1.2
            level[seam] *= 0.55
        return np.asarray(np.clip(colour * level[..., None], 0.0, 1.0), np.float32)
    if kind == "felt":
        colour = np.asarray(rng.choice(((0.22, 0.42, 0.12), (0.40, 0.20, 0.08), (0.14, 0.14, 0.45))), np.float32)
        level = 1.0 + 0.10 * cv2.GaussianBlur(fuzz, (0, 0), 0.7)
        return np.asarray(np.clip(colour * level[..., None], 0.0, 1.0), np.float32)
    one = np.asarray(base, np.float32)
    other = np.asarray(rng.choice(((0.20, 0.20, 0.55), (0.50, 0.30, 0.15), (0.15, 0.40, 0.40), (0.45, 0.45, 0.42))),
                       np.float32)
    period = rng.uniform(18.0, 40.0)
    if rng.random() < 0.5:   # checks
        pattern = ((np.floor(along / period) + np.floor(across / period)) % 2).astype(np.float32)
    else:                    # stripes
        pattern = (np.floor(across / period) % 2).astype(np.float32)
    pattern = cv2.GaussianBlur(pattern, (0, 0), 0.8)
    img = one * (1.0 - pattern[..., None]) + other * pattern[..., None]
    return np.asarray(np.clip(img * (1.0 + 0.05 * fuzz[..., None]), 0.0, 1.0), np.float32)


def jpeg(frame: npt.NDArray[np.uint8], quality: int) -> npt.NDArray[np.uint8]:
    """``frame`` as a phone camera's JPEG at ``quality`` gives it back."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise RuntimeError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
