"""The camera the config names, and learning from it at the terminal (``uno-shooter cards learn``).

:func:`camera_from_config` is the composition root's one place that turns ``[camera]`` into a camera: a hal
camera (picamera2, opencv) or, for ``backend = "sim"`` (and ``--sim``), :class:`sim.camera.SimCamera` over the
pile list it is given. :func:`learn_live` names each face in turn on the terminal and learns it from the first
card that settles on the pile.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TextIO

from hal.camera import Camera, CameraSettings, open_camera
from hal.clock import MonotonicClock
from sim.cards import TableCard

from ..config import CameraConfig
from ..editions import Edition
from .card import learned
from .learn import learn
from .synthetic import FaceSpec, faces_of
from .templates import Deck
from .watcher import PileWatcher


def camera_from_config(camera: CameraConfig, pile: Sequence[TableCard] | None = None,
                       rng: random.Random | None = None) -> Camera:
    """The camera ``[camera]`` names; ``backend = "sim"`` renders ``pile`` (seeded by ``rng``)."""
    if camera.backend == "sim":
        from sim.camera import HELD_OUT, SimCamera
        return SimCamera([] if pile is None else pile, rng or random.Random(0), HELD_OUT)
    return open_camera(CameraSettings(camera.backend, camera.device, camera.resolution))


def region_of(camera: CameraConfig) -> tuple[int, int, int, int]:
    """``[camera] pile``, or the whole frame."""
    return camera.pile or (0, 0, camera.resolution[0], camera.resolution[1])


def learn_live(record: Edition, camera: CameraConfig, out: TextIO) -> tuple[Deck, list[FaceSpec]]:
    """Each face of the deck named on ``out``, learned from the card that then settles on the pile."""
    clock = MonotonicClock()
    seen = []
    faces = faces_of(record)
    with camera_from_config(camera) as cam:  # type: ignore[attr-defined]
        watcher = PileWatcher(None, region_of(camera))
        for i, face in enumerate(faces):
            colour = face.colours[i % len(face.colours)] if face.colours else None
            side = f" ({face.side} side up)" if face.side else ""
            print(f"[{i + 1}/{len(faces)}] put {colour or 'a wild'} {face.name}{side} on the pile, then let go",
                  file=out, flush=True)
            while True:   # the camera paces the loop: capture() waits for its next frame
                card = watcher.seen(cam.capture(), clock.now())
                if card is not None:
                    seen.append((face, colour, learned(card.card)))
                    break
    return learn(seen), []
