"""Learning a deck: each face shown once to the camera, its symbol and ink kept as the deck's templates.

:func:`learn` builds a :class:`~shooter.vision.templates.Deck` from what was seen of each face (the features of
the straightened card and which face it was); an ink is the mean of every card seen in that colour. The owner's
session at the terminal (``uno-shooter cards learn``) and the simulated one (``--sim``: :func:`learn_sim`, the
learning set rendered from the edition records) both end here.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..camera.words import CardStyle
from ..editions import Edition
from .card import LIGHT, POLARITIES, Features, learned
from .match import _apart
from .synthetic import FaceSpec, Truth, faces_of, learning_set
from .templates import BLACK, Deck, Face
from .watcher import PileWatcher


def learn(seen: Iterable[tuple[FaceSpec, str | None, Features]]) -> Deck:
    """The deck learned from each face's features (``(face, colour it was shown in, features)``): a look (a
    symbol) for each colour a face was seen in (a face seen again in one colour keeps its last look there), a read
    matched against every look of each face (a symbol printed in the card's colour is faint in yellow, bold in
    blue); a card's features taken by :func:`~shooter.vision.card.learned` add a look of it seen from farther.
    Which strokes carry the symbols (lighter than round them or darker: :func:`polarity`) is learned for
    the faces told apart together (a side's coloured faces, its wilds)."""
    shown: dict[tuple[str, str | None, str | None], tuple[FaceSpec, str | None, Features]] = {}
    inks: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    for spec, colour, f in seen:
        shown[(spec.name, spec.side, colour)] = (spec, colour, f)
        inks.setdefault((spec.side or "", colour or BLACK), []).append(f.ink)
    groups: dict[tuple[str | None, bool], list[tuple[FaceSpec, str | None, Features]]] = {}
    for look in shown.values():
        groups.setdefault((look[0].side, look[0].wild), []).append(look)
    chosen = {key: polarity(group) for key, group in groups.items()}
    deck = Deck([Face(spec.name, spec.side, spec.wild, f.map(chosen[(spec.side, spec.wild)]),
                      chosen[(spec.side, spec.wild)], None if spec.wild else colour)
                 for spec, colour, f in shown.values()])
    # and each card shown as seen from farther (shooter.vision.card.learned), a look of its own in that polarity
    deck.faces += [Face(spec.name, spec.side, spec.wild, f.far.map(chosen[(spec.side, spec.wild)]),
                        chosen[(spec.side, spec.wild)], None if spec.wild else colour)
                   for spec, colour, f in shown.values() if f.far is not None]
    for (side, colour), values in inks.items():
        mean = np.mean(np.asarray(values), axis=0)
        deck.inks.setdefault(side, {})[colour] = (float(mean[0]), float(mean[1]), float(mean[2]))
    return deck


def polarity(group: list[tuple[FaceSpec, str | None, Features]]) -> str:
    """The polarity (:data:`~shooter.vision.card.POLARITIES`) in which a group of faces told apart together
    differ most: each look's lead over the nearest look of another face, as a read is matched (either end up,
    aligned, blurred; :func:`~shooter.vision.match.classify`'s ``apart``), averaged over the group. A white
    digit on the colour differs most in its whiter strokes, a white glyph outlined in black on a wild's four
    colours in its less white ones; the deck tells which, the recogniser assumes neither."""
    if len({spec.name for spec, _, _ in group}) < 2:
        return LIGHT
    lead = {}
    for p in POLARITIES:
        faces = [Face(spec.name, spec.side, spec.wild, f.map(p), p, None if spec.wild else colour)
                 for spec, colour, f in group]
        deck = Deck(faces)
        lead[p] = float(np.mean([min(_apart(deck, one, other) for other in rivals(faces, one))
                                 for one in faces]))
    best = max(POLARITIES, key=lambda p: lead[p])
    return best if lead[best] > OTHER_LEAD * lead[LIGHT] else LIGHT


def rivals(faces: list[Face], one: Face) -> list[Face]:
    """The looks of the other faces ``one`` is told apart from (every look: a read is matched against all)."""
    return [f for f in faces if (f.name, f.side) != (one.name, one.side)]


# another map is chosen over the whiter strokes when it sets the faces this much further apart: the others also
# hold the outline round each stroke and the field round an ellipse, alike on every face as learned but less
# alike on a card read shaded, blurred or far
OTHER_LEAD = 1.15


def learn_sim(record: Edition, seed: int, tries: int = 3, style: str = CardStyle.PLAIN,
              every_colour: bool = False) -> tuple[Deck, list[FaceSpec]]:
    """The deck learned from the rendered learning set of cards printed in ``style`` (the simulated owner shows
    each face once, or with ``every_colour`` once in each of its colours, and again those the watcher did not see
    settle, up to ``tries`` times); also the faces never seen."""
    specs = {(f.name, f.side): f for f in faces_of(record)}
    seen: list[tuple[FaceSpec, str | None, Features]] = []
    todo: list[FaceSpec] | None = None
    for attempt in range(tries):
        missed: list[FaceSpec] = []
        watcher: PileWatcher | None = None
        pending: Truth | None = None
        for shot in learning_set(record, seed + attempt, todo, style, every_colour):
            if watcher is None or watcher.region != shot.region:
                watcher = PileWatcher(None, shot.region)
            if shot.dropped is not None:
                if pending is not None:
                    missed.append(specs[(pending.name, pending.side)])
                pending = shot.dropped
            card = watcher.seen(shot.frame, shot.now)
            if card is not None and pending is not None:
                seen.append((specs[(pending.name, pending.side)], pending.colour, learned(card.card)))
                pending = None
        if pending is not None:
            missed.append(specs[(pending.name, pending.side)])
        if not missed:
            break
        todo = missed
    return learn(seen), missed
