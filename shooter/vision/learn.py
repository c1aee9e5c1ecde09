"""Learning a deck: each face shown once to the camera, its symbol and ink kept as the deck's templates.

:func:`learn` builds a :class:`~shooter.vision.templates.Deck` from what was seen of each face (the features of
the straightened card and which face it was); an ink is the mean of every card seen in that colour. The owner's
session at the terminal (``uno-shooter cards learn``) and the simulated one (``--sim``: :func:`learn_sim`, the
learning set rendered from the edition records) both end here.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..camera_words import CardStyle
from ..editions import Edition
from .card import Features, features
from .synthetic import FaceSpec, Truth, faces_of, learning_set
from .templates import BLACK, Deck, Face
from .watcher import PileWatcher


def learn(seen: Iterable[tuple[FaceSpec, str | None, Features]]) -> Deck:
    """The deck learned from each face's features (``(face, colour it was shown in, features)``); a face seen
    more than once keeps its last symbol."""
    faces: dict[tuple[str, str | None], Face] = {}
    inks: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for spec, colour, f in seen:
        faces[(spec.name, spec.side)] = Face(spec.name, spec.side, spec.wild, f.symbol)
        inks.setdefault((spec.side or "", colour or BLACK), []).append(f.ink)
    deck = Deck(list(faces.values()))
    for (side, colour), values in inks.items():
        mean = np.mean(np.asarray(values), axis=0)
        deck.inks.setdefault(side, {})[colour] = (float(mean[0]), float(mean[1]), float(mean[2]))
    return deck


def learn_sim(record: Edition, seed: int, tries: int = 3,
              style: str = CardStyle.PLAIN) -> tuple[Deck, list[FaceSpec]]:
    """The deck learned from the rendered learning set of cards printed in ``style`` (the simulated owner shows
    each face once, and again those the watcher did not see settle, up to ``tries`` times); also the faces never
    seen."""
    specs = {(f.name, f.side): f for f in faces_of(record)}
    seen: list[tuple[FaceSpec, str | None, Features]] = []
    todo: list[FaceSpec] | None = None
    for attempt in range(tries):
        missed: list[FaceSpec] = []
        watcher: PileWatcher | None = None
        pending: Truth | None = None
        for shot in learning_set(record, seed + attempt, todo, style):
            if watcher is None or watcher.region != shot.region:
                watcher = PileWatcher(None, shot.region)
            if shot.dropped is not None:
                if pending is not None:
                    missed.append(specs[(pending.name, pending.side)])
                pending = shot.dropped
            card = watcher.seen(shot.frame, shot.now)
            if card is not None and pending is not None:
                seen.append((specs[(pending.name, pending.side)], pending.colour, features(card.card)))
                pending = None
        if pending is not None:
            missed.append(specs[(pending.name, pending.side)])
        if not missed:
            break
        todo = missed
    return learn(seen), missed
