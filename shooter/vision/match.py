"""Matching a straightened card to the learned deck: its ink against the learned inks (by hue, :func:`hue_points`),
its symbol against every learned look of each face of that kind (a correlation without the deck's mean symbol,
either end up, aligned, blurred), and the read's confidence (:func:`classify`). The pile watcher
(:mod:`shooter.vision.watcher`) and the photos' reader call it on what they straightened; learning
(:mod:`shooter.vision.learn`) asks how unlike two faces are (:func:`_apart`).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from ..camera.reads import Read
from .card import Features, turned
from .outline import Quad
from .settings import WatchSettings
from .templates import BLACK, Deck, Face

CHROMA_FULL = 0.12   # an ink this far from grey (its ratio to the white, less its mean) is surely coloured


def hue_points(bgr: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Where inks (rows of BGR) lie on the disk of hues: each one's direction from grey (the hue), its distance
    from the middle how surely it is coloured (1 from :data:`CHROMA_FULL` on; a wild's black near 0). The same
    whatever the light's level and a glare's wash: an ink seen as ``a * ink + b`` (a shadow scales it, a glare
    adds white) lies in the same direction."""
    # channel by channel, not reduced along rows of 3 (a mean, a norm): a clipped white gives up to some 200,000
    # possible inks, and numpy reduces a row of 3 (or 2) a dozen times slower; the same sums in the same order
    v = np.atleast_2d(np.asarray(bgr, np.float64))
    mean = (v[:, 0] + v[:, 1] + v[:, 2]) / 3
    b, g, r = v[:, 0] - mean, v[:, 1] - mean, v[:, 2] - mean
    xy = np.stack([(r - g) / np.sqrt(2.0), (2 * b - g - r) / np.sqrt(6.0)], axis=1)
    radius = np.sqrt(xy[:, 0] * xy[:, 0] + xy[:, 1] * xy[:, 1])[:, None]
    # each one's direction, scaled by how surely it is coloured; grey stays as it is (in place: fewer arrays of
    # 200,000 rows)
    out: npt.NDArray[np.float64] = xy / np.maximum(radius, 1e-9)
    out *= np.minimum(1.0, radius / CHROMA_FULL)
    grey = ~(radius[:, 0] > 1e-9)
    out[grey] = xy[grey]
    return out


def _ink(deck: Deck, seen: Features) -> list[tuple[str | None, str, float]]:
    """Every learned ink by distance: (side, colour or BLACK, distance), nearest first. Inks are compared by
    their place on the disk of hues (:func:`hue_points`): their hue, and a wild's black by being near grey. When
    the sensor clipped the white, the read ink is one of ``seen.possible`` (one for each colour of light that
    fits what was seen), and each learned ink's distance is the least to any of them."""
    names = [(None if side == "" else side, colour) for side, inks in deck.inks.items() for colour in inks]
    if not names:
        return []
    learned = hue_points([ref for inks in deck.inks.values() for ref in inks.values()])
    points = hue_points(seen.possible if seen.possible is not None else (seen.ink,))
    # squared distances by one product (a clipped white gives up to some 200,000 possible inks), a row per learned
    # ink (the least of a long row is quick to find; of a column, not)
    near2 = learned @ (2.0 * points).T
    np.subtract((points[:, 0] ** 2 + points[:, 1] ** 2)[None, :], near2, out=near2)
    far = np.sqrt(np.maximum(near2.min(axis=1) + (learned[:, 0] ** 2 + learned[:, 1] ** 2), 0.0))
    return sorted(((side, colour, float(d)) for (side, colour), d in zip(names, far, strict=True)),
                  key=lambda f: f[2])


def _aligned(views: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
             learned: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The part of a symbol, ``views`` its two ends up (:func:`_both_ends`), that best lines up with ``learned``
    (a face's learned symbol less its margin, :class:`_Matching`)."""
    best, window = -2.0, learned
    for view in views:
        scores = cv2.matchTemplate(view, learned, cv2.TM_CCOEFF_NORMED)
        _, top, _, (x, y) = cv2.minMaxLoc(scores)
        if top > best:
            best, window = top, view[y:y + learned.shape[0], x:x + learned.shape[1]]
    return window


def _both_ends(symbol: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """A symbol as seen and turned end over end (the pile does not know which end is up): made once per read,
    for every face it is matched to."""
    return symbol, turned(symbol)


def _unit(v: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """``v`` flattened, less its mean, of length 1 (a correlation is then a dot product)."""
    a = v.astype(np.float64).ravel()
    a = a - a.mean()
    return np.asarray(a / (np.linalg.norm(a) + 1e-9), np.float64)


def _shorn(v: npt.NDArray[np.float32], mean: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``v`` as a unit vector without its part along the deck's mean symbol."""
    a = _unit(v)
    a = a - (a @ mean) * mean
    return np.asarray(a / (np.linalg.norm(a) + 1e-9), np.float64)


# a learned symbol is matched this much blurred (pixels). A far or defocused card is blurrier than the one learned:
# it is matched against the look learned from farther (:func:`shooter.vision.card.learned`), which reads it better
# than a blur of the near look did (docs/vision.md, "Figures of both styles": the blurs tried). Kept as a tuple: a
# new deck style may need a blur again
BLURS = (0.0,)


def _blurred(v: npt.NDArray[np.float32], sigma: float) -> npt.NDArray[np.float32]:
    return v if sigma <= 0 else np.asarray(cv2.GaussianBlur(v, (0, 0), sigma), np.float32)


class _Matching:
    """A deck's learned symbols made ready to match: each blurred by :data:`BLURS` and taken without the deck's
    mean symbol, with those means; and how unlike each pair of faces is (:meth:`apart`), kept once asked. Made
    once per deck, not per read (a deck changes only when it is learned again: then its faces hold other arrays,
    and this is made anew)."""

    def __init__(self, deck: Deck):
        self.symbols = [face.symbol for face in deck.faces]   # held, so that `fits` compares these very arrays
        # the mean of the faces' symbols of one polarity (a light map and a dark one share nothing)
        self.means = {(p, b): _unit(np.mean([_blurred(f.symbol, b)[4:-4, 4:-4] for f in deck.faces
                                             if f.polarity == p], axis=0))
                      for p in {f.polarity for f in deck.faces} for b in BLURS}
        # per face, each blur's learned symbol less its margin of 4 pixels (the slack a read is aligned in), as
        # matched, and without the mean; a blur of a face that learned no symbol (blank) is left out: it matches
        # nothing (its score stays 0)
        self.learned: dict[int, list[tuple[float, npt.NDArray[np.float32], npt.NDArray[np.float64]]]] = {}
        for f in deck.faces:
            ready = []
            for b in BLURS:
                learned = np.ascontiguousarray(_blurred(f.symbol, b)[4:-4, 4:-4])
                if float(learned.std()) >= 1e-3:
                    ready.append((b, learned, _shorn(learned, self.means[(f.polarity, b)])))
            self.learned[id(f.symbol)] = ready
        self._apart: dict[tuple[int, int], float] = {}

    def score(self, views: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], face: Face) -> float:
        """How well a symbol (a read's, or a learned one), ``views`` its two ends up (:func:`_both_ends`),
        matches ``face`` (see :func:`_scores`)."""
        best = 0.0
        for b, learned, shorn in self.learned[id(face.symbol)]:
            best = max(best, float(_shorn(_aligned(views, learned), self.means[(face.polarity, b)]) @ shorn))
        return best

    def apart(self, one: Face, other: Face) -> float:
        """1 less the match ``other`` gets when ``one``'s own learned symbol is read (see :func:`_apart`)."""
        key = (id(one.symbol), id(other.symbol))
        if key not in self._apart:
            self._apart[key] = 1.0 - self.score(_both_ends(one.symbol), other)
        return self._apart[key]

    def fits(self, deck: Deck) -> bool:
        return len(deck.faces) == len(self.symbols) and all(
            face.symbol is s for face, s in zip(deck.faces, self.symbols, strict=True))


_MATCHING: dict[int, _Matching] = {}   # by id(deck); `fits` makes a reused id harmless


def _matching(deck: Deck) -> _Matching:
    ready = _MATCHING.get(id(deck))
    if ready is None or not ready.fits(deck):
        if len(_MATCHING) >= 16:   # decks of tests and benches come and go: no more than a few are kept
            _MATCHING.clear()
        ready = _MATCHING[id(deck)] = _Matching(deck)
    return ready


def _scores(deck: Deck, seen: Features, faces: list[Face]) -> list[tuple[float, Face]]:
    """Each face's match: the correlation of the aligned symbol with the face's, both without what the mean of
    the deck's learned symbols shows (what every symbol shares, a blot in the middle, counts for none; taken
    away as a direction, so that a faint symbol and a bold one are compared alike); the best of the learned
    symbol as learned and blurred by :data:`BLURS` (a far or defocused card is blurrier than the one learned)."""
    ready = _matching(deck)
    views = {p: _both_ends(seen.map(p)) for p in {face.polarity for face in faces}}   # each face in its polarity
    return sorted(((ready.score(views[face.polarity], face), face) for face in faces), key=lambda sf: -sf[0])


def _apart(deck: Deck, one: Face, other: Face) -> float:
    """How unlike two faces' learned symbols are: the most a read of ``one`` can lead ``other`` by, which is
    the lead ``one``'s own learned symbol, read as a card's is (:func:`_scores`: either end up, aligned, blurred),
    has over ``other``. Not the two maps correlated as they lie: a card is learned whichever end up it was
    shown, and a 0 and an 8 learned opposite ends up then look far apart (1.23) although a perfect 0 leads
    the 8 by 0.09, and every right read of either came out unsure. Cached per pair of faces."""
    return _matching(deck).apart(one, other)


# the pixels two learned looks differ most on, a share of their pixels (:func:`_told_apart`)
TOLD_APART = 0.25


def _ncc(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    x = a.astype(np.float64) - float(a.mean())
    y = b.astype(np.float64) - float(b.mean())
    return float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y) + 1e-9))


def _told_apart(deck: Deck, seen: Features, one: Face, other: Face) -> float:
    """How much more a read looks like ``one`` than like ``other`` where their learned looks differ: on the
    :data:`TOLD_APART` of the pixels where the two looks (each scaled to its own spread) differ most, the read,
    aligned to each (:func:`_aligned`), correlated with each; the first less the second. The whole symbol's match
    counts the strokes two faces share too (a 5 and an 8, a 1 and a 7), and a far card's blur lowers both alike."""
    ready = _matching(deck)
    looks_a, looks_b = ready.learned[id(one.symbol)], ready.learned[id(other.symbol)]
    if not looks_a or not looks_b:
        return 0.0   # a face that learned no symbol (a blank) has no pixels to weigh: the whole match stands
    a, b = looks_a[0][1], looks_b[0][1]
    apart = np.abs((a - a.mean()) / (a.std() + 1e-9) - (b - b.mean()) / (b.std() + 1e-9))
    where = apart >= np.quantile(apart, 1.0 - TOLD_APART)
    on_a = _aligned(_both_ends(seen.map(one.polarity)), a)
    on_b = _aligned(_both_ends(seen.map(other.polarity)), b)
    return _ncc(on_a[where], a[where]) - _ncc(on_b[where], b[where])


def _half_at(value: float, half: float) -> float:
    """A confidence 0..1 that grows with ``value``: 0.5 at ``half``, 1 at twice it."""
    return float(np.clip(value / (2 * half), 0.0, 1.0))


def classify(deck: Deck, seen: Features, quad: Quad | None, settings: WatchSettings = WatchSettings(), *,
             exact: bool = True) -> Read:
    """The card ``seen`` is, by the deck's learned inks and symbols; unsure whatever they say when its outline
    was not found on its own edges (``exact`` False: what was straightened may be partly another card)."""
    inks = _ink(deck, seen)
    if not inks or not deck.faces:
        return Read("?", None, None, 0.0, unsure=True, quad=quad)
    side, colour, d1 = inks[0]
    d2 = next((d for s, c, d in inks[1:] if c != colour), d1 * 10 + 1.0)
    ink_conf = _half_at(1.0 - (d1 + settings.ink_noise) / (d2 + settings.ink_noise), 1.0 - settings.ink_sure)
    if seen.possible is not None:
        # the ink is one of many possible inks (a clipped white): a second colour within the sensor's noise of one
        # of them fits what was seen as well as the first (a wild's black lifted by a glare, 0.03 from a blue that
        # a warm lamp of the line would make grey, was read a blue skip at 0.58)
        ink_conf = min(ink_conf, settings.sure * d2 / settings.ink_noise)
    wild = colour == BLACK
    # every look of each face (one per colour it was learned in: a symbol printed in the card's colour looks
    # otherwise in each), the best of them
    fits = _scores(deck, seen, [f for f in deck.faces if f.wild == wild and (wild or f.side == side)])
    if not fits:
        return Read("?", None, side, 0.0, unsure=True, quad=quad)
    s1, best = fits[0]
    s2, next_face = next(((s, f) for s, f in fits[1:] if (f.name, f.side) != (best.name, best.side)), (0.0, None))
    # the lead as a share of the most it could be: two faces alike (a 0 and an 8) lead each other by little
    # however clearly one is seen
    apart = _apart(deck, best, next_face) if next_face is not None else 1.0
    lead = (s1 - s2) / float(np.clip(apart, settings.apart_floor, settings.apart_cap))
    symbol_conf = min(_half_at(s1, settings.symbol_sure), _half_at(lead, settings.symbol_gap))
    if symbol_conf < settings.sure and next_face is not None and s1 > s2:
        # a lead too small to be sure: the two nearest faces weighed again where their looks differ
        told = _told_apart(deck, seen, best, next_face)
        symbol_conf = max(symbol_conf, min(_half_at(s1, settings.symbol_sure), _half_at(told, settings.told_gap)))
    confidence = min(symbol_conf, ink_conf, 1.0 if exact else settings.sure * 0.98)
    shown = None if wild else colour
    rivals: list[tuple[float, Face]] = []   # the next faces, each once (a face not seen in this colour: all its looks)
    for s, f in fits[1:]:
        if (f.name, f.side) != (best.name, best.side) and all((f.name, f.side) != (g.name, g.side) for _, g in rivals):
            rivals.append((s, f))
    others = [(f.name, shown, round(min(_half_at(s, settings.symbol_sure), ink_conf), 2)) for s, f in rivals[:2]]
    second = next((c for _, c, _ in inks[1:] if c != colour), None)
    if second is not None and second != BLACK and not best.wild:
        others.append((best.name, second, round(1.0 - ink_conf, 2)))
    return Read(best.name, shown, best.side, round(confidence, 3), tuple(others[:3]),
                unsure=confidence < settings.sure, quad=quad)
