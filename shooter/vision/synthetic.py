"""Rendered card sets from the edition records: what the simulated owner shows while learning, and the
held-out set the recogniser is measured on.

:func:`faces_of` lists every face an edition prints (each digit of its number cards, each other card, per side,
in the side's colours: the light side's four or Flip's dark four). :func:`learning_set` shows each face once
(coloured faces in turn through the side's colours, so every ink is seen) under :data:`sim.camera.LEARNING`;
:func:`held_out_set` drops random faces under :data:`sim.camera.HELD_OUT` (camera heights, tilts, light, glare,
blur and noise the learning never saw, another seed), a new scene (camera, light, table) every
``per_scene`` cards. Both yield the frames in order, as a camera would, each with its time and, on the frame
after a card was put down, what that card is (the truth, for the learning and the count; the recogniser
never sees it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from sim.camera import HELD_OUT, LEARNING, SceneSettings, SimCamera
from sim.camera.printed import HIT
from sim.cards import COLOURS, DARK_COLOURS, Card, FlipCard, TableCard

from ..camera.words import CardStyle
from ..editions import Edition
from ..editions.records import NUMBER, Effect

LOOKS = {Effect.HIT: HIT, Effect.EXTREME_HIT: HIT}   # the effects whose cards have a look of their own


@dataclass(frozen=True)
class FaceSpec:
    """One printed face of an edition: ``name`` as the protocol writes it, its side (None for a one-sided
    deck), whether it is a wild, the colours it is printed in."""

    name: str
    side: str | None
    wild: bool
    colours: tuple[str, ...]
    look: str | None = None   # a look of its own in the printed style (``hit``: an Extreme hit card)


@dataclass(frozen=True)
class Truth:
    """The card that was put down: what a correct read says."""

    name: str
    colour: str | None
    side: str | None


@dataclass(frozen=True)
class Shot:
    """One frame of a rendered set: the image, its time, and the card put down just before it (or None); the
    scene it belongs to (a new camera, light and table: counted from 0) and the exposure it was taken at (a
    share of the camera's own)."""

    frame: npt.NDArray[np.uint8]
    now: float
    dropped: Truth | None
    region: tuple[int, int, int, int]
    scene: int = 0
    exposure: float = 1.0


# the exposure to take the next frame at (a share of the camera's own), asked before each frame: the pile
# watcher's :attr:`~shooter.vision.PileWatcher.exposure`, as a camera that sets its exposure is told it
Exposure = Callable[[], float]


def side_colours(record: Edition, index: int) -> tuple[str, ...]:
    """The colours of the record's side ``index``: the light side's four, or Uno Flip's dark four."""
    return (COLOURS if index == 0 else DARK_COLOURS)[:record.colours]


def faces_of(record: Edition) -> list[FaceSpec]:
    """Every face the edition prints, side by side, in the record's order."""
    out: list[FaceSpec] = []
    for i, side in enumerate(record.sides):
        colours = side_colours(record, i)
        for card in side.cards.values():
            if card.name == NUMBER:
                out += [FaceSpec(str(d), side.name, False, colours) for d, n in side.digits.items() if n]
            elif card.count != 0:   # a card the box does not hold (Extreme 2010's Hit 4) is not shown
                out.append(FaceSpec(card.name, side.name, card.wild, () if card.wild else colours,
                                    LOOKS.get(card.effect)))
    return out


def looks_of(faces: Sequence[FaceSpec]) -> dict[str, str]:
    """The faces with a look of their own, by name (what :class:`~sim.camera.SimCamera` is told)."""
    return {f.name: f.look for f in faces if f.look is not None}


def physical(spec: FaceSpec, colour: str | None) -> TableCard:
    """The simulator's physical card for a face (a Flip card: that face on its side, a plain back)."""
    card = Card("number", colour, value=int(spec.name)) if spec.name.isdigit() else Card(spec.name, colour)
    if spec.side is None:
        return card
    back = Card("blank")
    return FlipCard(card, back) if spec.side == "light" else FlipCard(back, card)


def _shot(camera: SimCamera, t: float, dropped: Truth | None, scene: int, exposure: Exposure | None) -> Shot:
    """The camera's next frame, at the exposure ``exposure`` asks for (None: as it is; a camera starts at its
    own, so a scene's first frame is taken at that)."""
    if exposure is not None:
        camera.exposure = exposure()
    frame = camera.capture()
    return Shot(frame, t, dropped, camera.region, scene, camera.exposure)


def _render(drops: Sequence[tuple[FaceSpec, str | None]], settings: SceneSettings, rng: random.Random,
            side: str | None, per_scene: int, exposure: Exposure | None = None, scene: int = 0,
            again: bool = False, style: str = CardStyle.PLAIN, looks: dict[str, str] | None = None) -> Iterator[Shot]:
    frame_s = 1.0 / settings.fps
    window = math.ceil(0.25 / frame_s)
    # a hand may leave over up to 9 frames; then the settling window, and two frames to spare; ``again``: time
    # for a card to be looked at again darker as well (the frame the camera darkens in, another window, a spare)
    after = 9 + window + 2 + (window + 2 if again else 0)
    t = 0.0
    for start in range(0, len(drops), per_scene):
        pile: list[TableCard] = []
        camera = SimCamera(pile, rng, settings, style=style, looks=looks)
        camera.side_up = side or "light"
        for k in range(3):
            yield _shot(camera, t, None, scene, exposure if k else None)
            t += frame_s
        for spec, colour in drops[start:start + per_scene]:
            pile.append(physical(spec, colour))
            truth = Truth(spec.name, colour, spec.side)
            for k in range(after):
                yield _shot(camera, t, truth if k == 0 else None, scene, exposure)
                t += frame_s
        t += 10.0   # the next scene starts a while later
        scene += 1


def _sides(record: Edition) -> list[str | None]:
    return [s.name for s in record.sides]


def learning_set(record: Edition, seed: int, only: Sequence[FaceSpec] | None = None,
                 style: str = CardStyle.PLAIN, every_colour: bool = False) -> Iterator[Shot]:
    """Each face of the edition (or of ``only``) put on the pile once, side by side (coloured faces in turn
    through the side's colours), under the learning's conditions, printed in ``style``; ``every_colour``: each
    coloured face once in each of its colours (a symbol printed in the card's own colour looks otherwise in each:
    a yellow digit on a white ellipse is faint, a blue one bold)."""
    rng = random.Random(seed)
    faces = faces_of(record) if only is None else list(only)
    looks = looks_of(faces_of(record))
    for side in _sides(record):
        mine = [f for f in faces if f.side == side]
        drops = [(f, c) for f in mine for c in (f.colours or (None,))] if every_colour else \
            [(f, f.colours[i % len(f.colours)] if f.colours else None) for i, f in enumerate(mine)]
        if drops:
            yield from _render(drops, LEARNING, rng, side, per_scene=len(drops), style=style, looks=looks)


def held_out_set(record: Edition, seed: int, cards: int, per_scene: int = 10,
                 settings: SceneSettings = HELD_OUT, exposure: Exposure | None = None,
                 style: str = CardStyle.PLAIN) -> Iterator[Shot]:
    """``cards`` random faces of the edition (in random colours, the sides taking turns scene by scene) put
    down one after another under the held-out conditions, 1.9 s apart (time for a card whose white the sensor
    clipped to be looked at again darker); each frame at the exposure ``exposure`` asks for (by default the
    camera's own, not set); the cards printed in ``style``."""
    rng = random.Random(seed)
    faces = faces_of(record)
    looks = looks_of(faces)
    sides = _sides(record)
    done = 0
    scene = 0
    while done < cards:
        side = sides[scene % len(sides)]
        mine = [f for f in faces if f.side == side]
        n = min(per_scene, cards - done)
        drops = []
        for _ in range(n):
            f = rng.choice(mine)
            drops.append((f, rng.choice(f.colours) if f.colours else None))
        yield from _render(drops, settings, rng, side, per_scene=n, exposure=exposure, scene=scene, again=True,
                           style=style, looks=looks)
        done += n
        scene += 1
