"""Phone photos rendered by the simulated camera: a folder of JPEG files named as ``cards learn DIR`` and
``cards test DIR`` read them, so that learning from photos is measured on photos it never saw
(tests/test_cards_learn.py, ``python benchmarks/vision_photos.py``).

:data:`PHONE` are the ranges of an owner's phone held over one card on the table (nearer than the mounted
camera, some tilt, a room's light, a little glare and blur, no hand in the picture); every photo is a new
draw of them (:class:`sim.camera.SimCamera`), written as a JPEG of a phone's quality. :func:`write_learning`
shows every face ``per_face`` times, coloured faces in turn through the side's colours (so every ink is seen);
:func:`write_held_out` ``count`` random faces in random colours, now and then on another card.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import cv2

from sim.camera import LEARNING, SceneSettings, SimCamera
from sim.cards import TableCard

from ..camera.words import CardStyle
from ..editions import Edition
from .photos import file_stem
from .synthetic import FaceSpec, faces_of, looks_of, physical

PHONE = replace(LEARNING, height_mm=(220.0, 380.0), tilt_deg=(0.0, 20.0), brightness=(0.6, 0.95),
                warmth=(-0.1, 0.1), shadow=(0.0, 0.3), glare=(0.0, 0.25), blur_px=(0.0, 0.8), noise=(1.0, 3.0))
JPEG_QUALITY = 85          # a phone's JPEG (its artefacts) rather than a lossless file


def _write(folder: Path, record: Edition, face: FaceSpec, colour: str | None, under: list[TableCard],
           rng: random.Random, settings: SceneSettings, taken: dict[str, int], style: str) -> Path:
    camera = SimCamera([*under, physical(face, colour)], rng, settings, style=style,
                       looks=looks_of(faces_of(record)))
    camera.side_up = face.side or "light"
    stem = file_stem(record, face, colour)
    taken[stem] = taken.get(stem, 0) + 1
    path = folder / (f"{stem}.jpg" if taken[stem] == 1 else f"{stem}_{taken[stem]}.jpg")
    if not cv2.imwrite(str(path), camera.capture(), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
        raise OSError(f"{path}: could not be written")
    return path


def write_learning(record: Edition, folder: Path, seed: int, per_face: int = 1,
                   settings: SceneSettings = PHONE, style: str = CardStyle.PLAIN) -> list[Path]:
    """Every face of the edition photographed ``per_face`` times, alone on the table, into ``folder``; the cards
    printed in ``style``."""
    rng, taken = random.Random(seed), dict[str, int]()
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, face in enumerate(faces_of(record)):
        for k in range(per_face):
            colour = face.colours[(i + k) % len(face.colours)] if face.colours else None
            out.append(_write(folder, record, face, colour, [], rng, settings, taken, style))
    return out


def write_held_out(record: Edition, folder: Path, seed: int, count: int, settings: SceneSettings = PHONE,
                   on_another: float = 0.3, style: str = CardStyle.PLAIN) -> list[Path]:
    """``count`` random faces of the edition in random colours (a share ``on_another`` of them on another card
    of the same side), into ``folder``; the cards printed in ``style``."""
    rng, taken = random.Random(seed), dict[str, int]()
    folder.mkdir(parents=True, exist_ok=True)
    faces = faces_of(record)
    out = []
    for _ in range(count):
        face = rng.choice(faces)
        colour = rng.choice(face.colours) if face.colours else None
        under: list[TableCard] = []
        if rng.random() < on_another:
            other = rng.choice([f for f in faces if f.side == face.side])
            under.append(physical(other, rng.choice(other.colours) if other.colours else None))
        out.append(_write(folder, record, face, colour, under, rng, settings, taken, style))
    return out
