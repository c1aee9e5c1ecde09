"""The pile watcher: fed the camera's frames, it says when a new card has settled on the pile and what it is.

``PileWatcher(deck, region).feed(frame, now)`` returns a :class:`Read` on the frame in which a new card has lain
still for ``settings.settle_s`` seconds, else None. It is pure: no thread, no clock of its own (``now`` is the
caller's clock), every threshold a named field of :class:`WatchSettings`.

How: inside ``region`` (x, y, w, h: the ``[camera] pile`` setting) each frame is shrunk by ``settings.shrink``;
a frame that differs from the last one (motion: a hand, a card falling) restarts the stability window. Once the
view has been still for the window, it is compared with the view after the last card (the reference): the
comparison is made on colours divided by their neighbourhood's brightness, so that a shadow or a change of light
does not count as a change. A change big enough and shaped like a card (:func:`shooter.vision.card.outline`) is
the new card (it lies on top, whole); anything else (a hand at rest, a shadow) becomes the new reference and is
not read. The card is straightened, its ink compared with the deck's learned inks (nearest, and how much nearer
than the next), its symbol with each face's learned symbol (normalised correlation, both ends up, a few pixels
of slack); the read's confidence is the lower of the two. Below ``settings.sure`` the read is unsure: the caller
asks the table rather than act, and :attr:`Read.alternatives` lists the nearest other readings.

:meth:`PileWatcher.seen` is the first half alone (the straightened card, for learning), :func:`read_still` reads
the top card of a single photo (``cards test DIR``), where there is no earlier view to compare with: the card is
found by its white board instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from .card import SIZE, Features, Quad, features, outline, rectify, turned
from .templates import BLACK, Deck, Face

Frame = npt.NDArray[np.uint8]
Region = tuple[int, int, int, int]


@dataclass(frozen=True)
class WatchSettings:
    """The watcher's thresholds (8-bit levels are of the shrunk, 0..255 frame)."""

    shrink: int = 2                  # frames are compared at 1/shrink of their size
    motion_level: float = 16.0       # a pixel that changed this much since the last frame moved
    motion_share: float = 0.002      # this share of the region moving is motion (restarts the window)
    settle_s: float = 0.25           # a new card must lie still this long before it is read
    change_level: float = 28.0       # a pixel that changed this much since the last card changed
    min_card_share: float = 0.02     # a card covers at least this share of the region
    sure: float = 0.5                # reads below this confidence are unsure
    symbol_floor: float = 0.45       # a symbol matching less than this is nothing learned
    symbol_gap: float = 0.12         # ... and must beat the next face by this much to be sure
    ink_gap: float = 0.5             # the nearest ink must be this much nearer than the next (a fraction)


@dataclass(frozen=True)
class Read:
    """What the watcher read: ``card`` as the protocol names it (``7``, ``skip``, ``wild``), ``colour`` (None for a
    wild), ``side`` (Flip's ``light``/``dark``, else None), ``confidence`` 0..1, ``unsure`` (below the
    threshold: ask, do not act), the nearest other readings ``(card, colour, confidence)``, and where the card
    was found (``quad``: its corners in the frame)."""

    card: str
    colour: str | None
    side: str | None
    confidence: float
    unsure: bool
    alternatives: tuple[tuple[str, str | None, float], ...] = ()
    quad: Quad | None = field(default=None, compare=False, repr=False)

    def describe(self) -> str:
        what = f"{self.colour} {self.card}" if self.colour else self.card
        return f"{what}{f' ({self.side})' if self.side else ''} {self.confidence:.2f}{' unsure' if self.unsure else ''}"


@dataclass(frozen=True)
class Seen:
    """A new card found on the pile: straightened, with its corners in the frame."""

    card: Frame
    quad: Quad


def _shrunk(view: Frame, shrink: int) -> npt.NDArray[np.float32]:
    h, w = view.shape[:2]
    return cv2.resize(view, (max(1, w // shrink), max(1, h // shrink)), interpolation=cv2.INTER_AREA).astype(
        np.float32)


class PileWatcher:
    """Watches the pile in ``region`` of the frames fed to it (see the module docstring)."""

    def __init__(self, deck: Deck | None, region: Region, settings: WatchSettings = WatchSettings()):
        self.deck = deck
        self.region = region
        self.settings = settings
        self._last: npt.NDArray[np.float32] | None = None
        self._reference: npt.NDArray[np.float32] | None = None
        self._still_since = 0.0
        self._checked = True

    def reset(self) -> None:
        """Forget the pile: the next frame is the reference (a pile cleared away, the camera moved)."""
        self._last = self._reference = None

    def feed(self, frame: Frame, now: float) -> Read | None:
        """A :class:`Read` when a new card has settled in this frame, else None."""
        seen = self.seen(frame, now)
        if seen is None or self.deck is None:
            return None
        return classify(self.deck, features(seen.card), seen.quad, self.settings)

    def seen(self, frame: Frame, now: float) -> Seen | None:
        """The new card straightened, on the frame in which it settled; else None."""
        x, y, w, h = self.region
        view = frame[y:y + h, x:x + w]
        small = _shrunk(view, self.settings.shrink)
        if self._last is None or self._reference is None:
            self._last, self._reference = small, small
            self._still_since, self._checked = now, True
            return None
        moved = np.abs(small - self._last).max(axis=2) > self.settings.motion_level
        self._last = small
        if moved.mean() > self.settings.motion_share:
            self._still_since, self._checked = now, False
            return None
        if self._checked or now - self._still_since < self.settings.settle_s:
            return None
        self._checked = True
        change = (np.abs(small - self._reference).max(axis=2) > self.settings.change_level).astype(np.uint8)
        self._reference = small
        change = cv2.morphologyEx(change, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        change = cv2.morphologyEx(change, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        quad = outline(change * 255, self.settings.min_card_share * change.size)
        if quad is None:
            return None
        s = self.settings.shrink
        full = np.asarray((quad + 0.5) * s - 0.5, np.float32)
        return Seen(rectify(view, full), full + np.asarray([x, y], np.float32))


def _ink(deck: Deck, ink: tuple[float, float, float], settings: WatchSettings,
         ) -> list[tuple[str | None, str, float]]:
    """Every learned ink by distance: (side, colour or BLACK, distance), nearest first."""
    found = [(None if side == "" else side, colour, float(np.linalg.norm(np.subtract(ink, ref))))
             for side, inks in deck.inks.items() for colour, ref in inks.items()]
    return sorted(found, key=lambda f: f[2])


def _match(symbol: npt.NDArray[np.float32], face: Face) -> float:
    """How well ``symbol`` (either end up) matches a face's learned symbol: normalised correlation, the best
    over a few pixels of shift."""
    t = face.symbol[4:-4, 4:-4]
    if float(t.std()) < 1e-3:
        return 0.0
    best = -1.0
    for view in (symbol, turned(symbol)):
        best = max(best, float(cv2.matchTemplate(view, t, cv2.TM_CCOEFF_NORMED).max()))
    return best


def classify(deck: Deck, seen: Features, quad: Quad | None, settings: WatchSettings = WatchSettings()) -> Read:
    """The card ``seen`` is, by the deck's learned inks and symbols."""
    inks = _ink(deck, seen.ink, settings)
    if not inks or not deck.faces:
        return Read("?", None, None, 0.0, True, (), quad)
    side, colour, d1 = inks[0]
    d2 = next((d for s, c, d in inks[1:] if c != colour), d1 * 10 + 1.0)
    ink_conf = float(np.clip(1.0 - d1 / (settings.ink_gap * d2 + 1e-9), 0.0, 1.0))
    wild = colour == BLACK
    scores = sorted(((_match(seen.symbol, f), f) for f in deck.faces), key=lambda sf: -sf[0])
    fits = [(s, f) for s, f in scores if f.wild == wild and (wild or f.side == side)]
    if not fits:
        return Read("?", None, side, 0.0, True, tuple((f.name, None, 0.0) for _, f in scores[:2]), quad)
    s1, best = fits[0]
    s2 = next((s for s, f in fits[1:] if (f.name, f.side) != (best.name, best.side)), 0.0)
    span = 1.0 - settings.symbol_floor
    symbol_conf = float(np.clip((s1 - settings.symbol_floor) / (span / 2), 0, 1)
                        * np.clip((s1 - s2) / settings.symbol_gap, 0, 1))
    confidence = min(symbol_conf, ink_conf)
    shown = None if wild else colour
    others: list[tuple[str, str | None, float]] = []
    for s, f in fits[1:3]:
        others.append((f.name, shown, round(float(np.clip((s - settings.symbol_floor) / span, 0, 1)), 2)))
    second = next(((sd, c) for sd, c, _ in inks[1:] if c != colour), None)
    if second is not None and second[1] != BLACK and not best.wild:
        others.append((best.name, second[1], round(1.0 - ink_conf, 2)))
    return Read(best.name, shown, best.side, round(confidence, 3), confidence < settings.sure,
                tuple(others[:3]), quad)


def read_still(deck: Deck, photo: Frame, region: Region | None = None,
               settings: WatchSettings = WatchSettings()) -> Read | None:
    """The top card of one photo (no earlier view): the largest card-shaped blob of white board with what it
    encloses; None when no card is found."""
    x, y, w, h = region or (0, 0, photo.shape[1], photo.shape[0])
    view = photo[y:y + h, x:x + w]
    img = view.astype(np.float32)
    level = np.percentile(img.max(axis=2), 99) + 1.0
    least = img.min(axis=2) / level
    spread = (img.max(axis=2) - img.min(axis=2)) / level
    board = ((least > 0.55) & (spread < 0.2)).astype(np.uint8) * 255
    filled = board.copy()
    contours, _ = cv2.findContours(board, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(filled, contours, -1, 255, -1)
    k = max(3, (min(w, h) // 60) | 1)
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    quad = outline(filled, settings.min_card_share * w * h * 0.25)
    if quad is None:
        return None
    card = rectify(view, quad)
    if card.shape[:2] != (SIZE[1], SIZE[0]):  # pragma: no cover - rectify's size is fixed
        return None
    return classify(deck, features(card), quad + np.asarray([x, y], np.float32), settings)
