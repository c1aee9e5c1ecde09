"""The pile watcher: fed the camera's frames, it says when a new card has settled on the pile and what it is.

``PileWatcher(deck, region).feed(frame, now)`` returns a :class:`shooter.reads.Read` (the table's one kind of
read) on the frame in which a new card has lain still for ``settings.settle_s`` seconds, else None. It is pure:
no thread, no clock of its own (``now`` is the caller's clock), every threshold a named field of
:class:`WatchSettings`.

How: inside ``region`` (x, y, w, h: the ``[camera] pile`` setting) each frame is shrunk by ``settings.shrink``;
a frame that differs from the last one (motion: a hand, a card falling) restarts the stability window. Once the
view has been still for the window, it is compared with the view after the last card (the reference): the
comparison is made on colours divided by their neighbourhood's brightness, so that a shadow or a change of light
does not count as a change. A change big enough and shaped like a card (:func:`shooter.vision.card.outline`) is
the new card (it lies on top, whole); anything else (a hand at rest, a shadow) becomes the new reference and is
not read. The card is straightened, its ink compared with the deck's learned inks (nearest, and how much nearer
than the next), its symbol with each face's learned symbol (normalised correlation, both ends up, a few pixels
of slack); the read's confidence is the lower of the two. Below ``settings.sure`` the read is unsure: the caller
asks the table rather than act, and :attr:`Read.alternatives` lists the nearest other readings. A card whose
white the sensor clipped is looked at again in a darker frame when the caller sets the camera's exposure to
:attr:`PileWatcher.exposure` and says what each frame was taken at (``feed(frame, now, exposure)``).

:meth:`PileWatcher.seen` is the first half alone (the straightened card, for learning), :func:`read_still` reads
the top card of a single photo (``cards test DIR``), where there is no earlier view to compare with: the card is
found by its white board instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from ..reads import Read
from .card import (
    ASPECT,
    CLIPPED,
    SIZE,
    Features,
    Quad,
    channel_max,
    features,
    ordered,
    outline,
    rectify,
    refined,
    same_place,
    still_outline,
    turned,
)
from .templates import BLACK, Deck, Face

Frame = npt.NDArray[np.uint8]
Region = tuple[int, int, int, int]


@dataclass(frozen=True)
class WatchSettings:
    """The watcher's thresholds (levels are shares of the view's white, the 99th percentile of its brightest
    channel, so that a dim room and a bright one are watched alike)."""

    shrink: int = 2                  # frames are compared at 1/shrink of their size
    motion_level: float = 0.06       # a pixel that changed this much (a share of the view's white) moved
    motion_share: float = 0.002      # this share of the region moving is motion (restarts the window)
    settle_s: float = 0.25           # a new card must lie still this long before it is read
    change_level: float = 0.1        # a pixel that changed this much (a share of white) since the last card
    floor: float = 9.0               # ... but never less than this many levels (the sensor's noise)
    min_card_share: float = 0.02     # a card covers at least this share of the region
    sure: float = 0.5                # reads below this confidence are unsure
    symbol_sure: float = 0.3         # the symbol's match (mean-less correlation) that is half sure
    symbol_gap: float = 0.2          # its lead over the next face (a share of the most it could be) half sure
    apart_floor: float = 0.1         # ... the most counted no less than this (a lead of noise is no lead)
    apart_cap: float = 0.3           # ... and no more (faces unlike each other: a lead of 0.06 is half sure)
    ink_sure: float = 0.7            # the nearest ink's distance over the next one's that is half sure
    ink_noise: float = 0.05          # ... each distance counted this much larger (two inks both within the
                                     # sensor's noise of the read, 0.004 and 0.02 away, are not one sure)
    darker: float = 0.6              # a card whose white the sensor clipped is looked at again at this share of
                                     # the exposure it was seen at (a white past the top by up to 1.6 times comes
                                     # under it in one look; a lamp and a glare together take two or three)
    darkest: float = 0.15            # ... but never darker than this share of the camera's own exposure
    dim: float = 0.45                # a view whose white is under this share of the sensor's top, seen at less
                                     # than the camera's own exposure, is brightened by 1 / darker (a lamp turned
                                     # down; under 0.75 of the top then: a card it clipped before stays unclipped)
    darker_wait_s: float = 1.0       # a camera that has not taken a frame darker by then cannot: the card is read
                                     # from its first look


@dataclass(frozen=True)
class Seen:
    """A new card found on the pile: straightened, with its corners in the frame."""

    card: Frame
    quad: Quad
    exact: bool = True     # the outline lies on the card's own edges (else the change's: the read is unsure)


@dataclass(frozen=True)
class _LookAgain:
    """A card whose white the sensor clipped, to be looked at again once a darker frame has settled."""

    seen: Seen
    features: Features     # its first look's, read if the camera does not take a darker frame
    exposure: float        # the exposure it was seen at
    asked: float           # when the darker frame was asked for (the caller's clock)
    view: _Kept            # the view it was seen in


def _solid(moved: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """The pixels of ``moved`` that lie in a blob at least 3 pixels across (an opening): a hand or a card moves
    as a blob, while the sensor's noise and a phone's JPEG flicker along a patterned cloth's sharp edges (a
    stripe's edge, a check's) as lines a pixel or two wide, which would keep a still view moving."""
    return np.asarray(cv2.morphologyEx(moved.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)


def _shrunk(view: Frame | npt.NDArray[np.float32], shrink: int) -> npt.NDArray[np.float32]:
    h, w = view.shape[:2]
    small = cv2.resize(view, (max(1, w // shrink), max(1, h // shrink)), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small.astype(np.float32), (5, 5), 1.0), np.float32)  # noise is no motion


@dataclass(frozen=True)
class _Kept:
    """A settled view the watcher keeps (the reference, the one before it): shrunk, as changes are told by, and
    as the sensor gave it (float: NaN where not known), with the exposure it was taken at (a share of the
    camera's own)."""

    small: npt.NDArray[np.float32]
    pixels: npt.NDArray[np.float32]
    exposure: float

    @staticmethod
    def of(view: Frame, small: npt.NDArray[np.float32], exposure: float) -> _Kept:
        return _Kept(small, view.astype(np.float32), exposure)

    def at(self, exposure: float, shrink: int) -> _Kept:
        """This view as the camera sees it at ``exposure``: in proportion, up to the sensor's top; but where the
        sensor clipped it (a glare, a bright lamp on a white border) how much brighter it was is not known, and
        those pixels, the shrunk ones they went into and, through the blur, a shrunk pixel or two round those, are
        NaN (counted as unchanged). Else a card under one taken back after it was looked at darker, its white
        clipped in this view and seen now, was a change, and read."""
        if exposure == self.exposure:
            return self
        pixels = np.minimum(self.pixels * np.float32(exposure / self.exposure), np.float32(255.0))
        pixels[self.pixels >= CLIPPED] = np.nan
        return _Kept(_shrunk(pixels, shrink), pixels, exposure)


class PileWatcher:
    """Watches the pile in ``region`` of the frames fed to it (see the module docstring)."""

    def __init__(self, deck: Deck | None, region: Region, settings: WatchSettings = WatchSettings()):
        self.deck = deck
        self.region = region
        self.settings = settings
        self._last: npt.NDArray[np.float32] | None = None
        self._reference: _Kept | None = None
        self._still_since = 0.0
        self._checked = True
        self._primed = 0   # changes still to come that are no card put down (each the reference)
        self._before: _Kept | None = None   # the reference before the last change
        # the exposure asked of the camera, a share of its own (1): lowered to look again at a card whose white the
        # sensor clipped, raised again after a card read in a dim view (:meth:`feed`'s ``exposure``)
        self.exposure = 1.0
        self._taken_at = 1.0   # the exposure of the frame being read (as fed; 1 when not told)
        self._again: _LookAgain | None = None
        self._top_unlike: Quad | None = None   # a card came down on one waiting for a darker look: where that lay

    def reset(self) -> None:
        """Forget the pile: the next frame is the reference (a pile cleared away, the camera moved)."""
        self._last = self._reference = self._before = None
        self._primed = 0
        self._again, self._top_unlike, self.exposure = None, None, 1.0

    def settle(self) -> None:
        """The pile changed without a card put down: the next view that lies still for ``settings.settle_s`` is
        the reference, not read (a hand still over the pile is not taken for it). A card waiting to be looked at
        again is not read."""
        self._primed, self._checked = max(self._primed, 1), False
        self._again = self._top_unlike = None

    def settle_unless_still(self, at: float, *, anew: bool = False) -> None:
        """The pile may be changing at ``at`` (the caller's clock: a new game begins, or play does): if the view
        lay still then, as the frames seen before show it (for ``settings.settle_s``, counted from the first frame
        for the first view), it stays the reference, so a card put down after ``at`` is a new card; else as
        :meth:`settle`. Before the first frame, the first view is the reference as it is. ``anew``: a new game
        begins, and a flip of the old game whose pile was not turned over yet (:meth:`prime`) is forgotten."""
        if self._last is None or (self._checked and at - self._still_since >= self.settings.settle_s):
            if anew and self._checked:
                # a new game (``anew``): the turning over a flip of the old game primed for (no settle pending:
                # that is checked, consumed) will not come, so the new game's first change is a card put down
                self._primed = 0
            return
        self.settle()

    def take_back(self) -> None:
        """The last card read is being taken back (a wrong card): the view before it is the reference again, so
        the card it uncovers is no new card (and one put down meanwhile is)."""
        if self._before is not None:
            self._reference = self._before   # (seen at the exposure of the next frame: :meth:`feed`)

    def prime(self) -> None:
        """The pile is about to change without a card put down (a wrong card taken back, the pile turned over, a
        first card turned up): the next view that settles after a change is the reference, not read. Asked twice
        before the first change has settled (a void first card, and the one turned up after it), two changes are."""
        self._primed += 1

    def feed(self, frame: Frame, now: float, exposure: float | None = None) -> Read | None:
        """A :class:`Read` when a new card has settled in this frame, else None.

        ``exposure``: the exposure ``frame`` was taken at, a share of the camera's own (None: a camera whose
        exposure is not set). A card whose white the sensor clipped (its colour is then partly lost) is not read
        at once when the exposure is known: :attr:`exposure` asks for a darker one (``settings.darker``), and the
        card is read where it lies once a darker frame has been still for the settling window; from a frame no
        darker within ``settings.darker_wait_s``, as first seen. The exposure stays down for the cards after it
        (the light over a table does not change between cards), until a card is read in a view so dim
        (``settings.dim``) that a brighter one is better. The views the watcher keeps are seen at each frame's
        exposure (:meth:`_Kept.at`), so a change of exposure is no change of the pile."""
        if exposure is not None:
            self._taken_at = exposure
            if self._reference is not None and self._reference.exposure != exposure:
                self._reference = self._reference.at(exposure, self.settings.shrink)
        if self._again is not None:
            return self._look_again(frame, now, exposure)
        if self._top_unlike is not None:
            return self._newest_on_top(frame, now, exposure)
        seen = self.seen(frame, now)
        if seen is None or self.deck is None:
            return None
        return self._read(seen, exposure, now)

    def _read(self, seen: Seen, exposure: float | None, now: float) -> Read | None:
        """The card ``seen`` read; None while it waits for a darker look (its white clipped, the exposure known
        and not yet the darkest). A view that dim at less than the camera's own exposure asks for a brighter one."""
        assert self.deck is not None
        found = features(seen.card)
        if found.clipped and exposure is not None and exposure > self.settings.darkest * 1.01:
            self._darken(seen, found, exposure, now)
            return None
        if exposure is not None and exposure < 1.0 and self._white() < self.settings.dim * 255.0:
            self.exposure = min(1.0, exposure / self.settings.darker)
        return classify(self.deck, found, seen.quad, self.settings, exact=seen.exact)

    def _first_look(self, again: _LookAgain) -> Read:
        """The waiting card read from the frame it was first seen in."""
        assert self.deck is not None
        self._again = None
        return classify(self.deck, again.features, again.seen.quad, self.settings, exact=again.seen.exact)

    def _darken(self, seen: Seen, found: Features, exposure: float, now: float) -> None:
        assert self._reference is not None   # the view the card was just seen in
        self._again = _LookAgain(seen, found, exposure, now, self._reference)
        self.exposure = max(self.settings.darkest, exposure * self.settings.darker)
        # frames taken before the camera darkened show the card as it was seen: the look waits a whole window
        self._still_since, self._checked = now, False

    def _look_again(self, frame: Frame, now: float, exposure: float | None) -> Read | None:
        """The card waiting for a darker frame (:meth:`feed`), read once one has been still for the window."""
        again = self._again
        assert again is not None
        if self.deck is None:   # another edition's deck, none learned: the card is not read (as any other), and
            self.settle()       # the view it settles to is the reference (the one kept has it clipped: NaN)
            return None
        x, y, w, h = self.region
        view = frame[y:y + h, x:x + w]
        small = _shrunk(view, self.settings.shrink)
        still = self._still(small, now)
        if exposure is None or exposure >= again.exposure:
            if now - again.asked < self.settings.darker_wait_s:
                return None
            # the camera took no darker frame (it cannot set its exposure, or would not): the first look it is
            self.exposure, self._checked = again.exposure, True
            return self._first_look(again)
        # the view now, as it would have been at the exposure the card was seen at (brighter, clipped at the
        # sensor's top as that frame was), against that frame: changed, another card came down while this one
        # waited (or a hand rests over the pile). This one is read as first seen, and the new one is found as a
        # card of its own (else it was read in the old one's place, and then never)
        first_view = again.view
        brighter = np.minimum(view.astype(np.float32) * np.float32(again.exposure / exposure), np.float32(255.0))
        white = float(np.percentile(channel_max(first_view.small[::4, ::4]), 99))
        level = max(self.settings.floor, self.settings.change_level * white)
        moved = channel_max(np.abs(_shrunk(brighter, self.settings.shrink) - first_view.small)) > level
        # unchanged since the card settled: the first darker frame is read at once (the card lay still for the
        # window already; waiting another took a player's card 0.3 s longer); changed, it is judged once still
        if not still and moved.mean() > self.settings.motion_share:
            return None
        if moved.mean() > self.settings.min_card_share / 2:
            # the new card is then looked for as the one whole card on top, found by its white border (as in a
            # still: where the sensor clipped the views kept, its change cannot be told), on the next still frame
            self._top_unlike = again.seen.quad - np.asarray([x, y], np.float32)
            return self._first_look(again)
        self._again, self._checked = None, True
        offset = np.asarray([x, y], np.float32)
        first = again.seen.quad - offset
        fitted = refined(view, first)
        quad = first if fitted is None else fitted
        seen = Seen(rectify(view, quad), quad + offset, again.seen.exact if fitted is None else True)
        self._reference = _Kept.of(view, small, exposure)   # (the one before it is seen darker if taken back)
        return self._read(seen, exposure, now)

    def _newest_on_top(self, frame: Frame, now: float, exposure: float | None) -> Read | None:
        """The card that came down while the one under it waited for a darker look: the whole card on top, once
        the view is still, unless it is the one that waited (it lies where that one lay)."""
        x, y, w, h = self.region
        view = frame[y:y + h, x:x + w]
        small = _shrunk(view, self.settings.shrink)
        if not self._still(small, now):
            return None
        under, self._top_unlike = self._top_unlike, None
        self._reference, self._checked = _Kept.of(view, small, self._taken_at), True
        quad = still_outline(view, self.settings.min_card_share * w * h)
        fitted = None if quad is None or under is None or same_place(quad, under) else refined(view, quad)
        if fitted is None or self.deck is None:
            return None
        return self._read(Seen(rectify(view, fitted), fitted + np.asarray([x, y], np.float32)), exposure, now)

    def _white(self) -> float:
        """The view's white (its light): the 99th percentile of the reference's brightest channel."""
        assert self._reference is not None
        # (NaN: a view kept from before the camera darkened, where it was clipped)
        return float(np.nanpercentile(channel_max(self._reference.small[::4, ::4]), 99))

    def _still(self, small: npt.NDArray[np.float32], now: float) -> bool:
        """``small`` (the shrunk view now) against the last: whether the view has been still for the window."""
        assert self._last is not None
        level = max(self.settings.floor, self.settings.motion_level * self._white())
        moved = _solid(channel_max(np.abs(small - self._last)) > level)
        self._last = small
        if moved.mean() > self.settings.motion_share:
            self._still_since, self._checked = now, False
            return False
        return now - self._still_since >= self.settings.settle_s

    def seen(self, frame: Frame, now: float) -> Seen | None:
        """The new card straightened, on the frame in which it settled; else None."""
        x, y, w, h = self.region
        view = frame[y:y + h, x:x + w]
        small = _shrunk(view, self.settings.shrink)
        if self._last is None or self._reference is None:
            # the first view is the reference; a settle asked before it (the lid opened before the camera's first
            # frame) is done once the view lies still, not left pending for the next change (the first card)
            self._last, self._reference = small, _Kept.of(view, small, self._taken_at)
            self._still_since, self._checked = now, not self._primed
            return None
        if not self._still(small, now) or self._checked:
            return None
        self._checked = True
        white = self._white()
        if self._primed:
            self._reference, self._primed = _Kept.of(view, small, self._taken_at), self._primed - 1
            return None
        reference, self._before = self._reference, self._reference
        self._reference = _Kept.of(view, small, self._taken_at)
        found = locate(view, small, reference.small, white, self.settings)
        if found is None:
            return None
        quad, exact = found
        return Seen(rectify(view, quad), quad + np.asarray([x, y], np.float32), exact)


def locate(view: Frame, small: npt.NDArray[np.float32], reference: npt.NDArray[np.float32], white: float,
           settings: WatchSettings = WatchSettings()) -> tuple[Quad, bool] | None:
    """The corners (in ``view``'s pixels) of the new card that changed ``reference`` (the shrunk view after
    the last card) into ``small`` (the shrunk view now), and whether they lie on the card's own edges (else
    they are the change's, which may be off: the read is then unsure); None when the change is no card."""
    level = max(settings.floor, settings.change_level * white)
    changed = channel_max(np.abs(small - reference)) > level
    change = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    change = cv2.morphologyEx(change, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    coarse = outline(np.asarray(change * 255, np.uint8), settings.min_card_share * change.size)
    quad = None if coarse is None else np.asarray((coarse + 0.5) * settings.shrink - 0.5, np.float32)
    # not the card's own edges, or no card's shape (a card put on one of its colour, a black one on a black one,
    # changes only some of the view): the rectangle round the change (it all lies on the new card), then the
    # one whole card on top found by its white border as in a still (if the change lies on it); each counts
    # only once moved onto a card's edges
    mask = np.asarray(change, np.uint8)
    # the whole top card found by its white border, as in a still: the third guess and the newest of two below
    # both look for it, and it costs more than anything else a frame does (16 ms on the slowest frame of held-out
    # seed 1001, where it was found twice): found once, when first asked
    least = settings.min_card_share * view.shape[0] * view.shape[1]
    top_card = functools.cache(lambda: still_outline(view, least))
    for guess in range(3):
        start = quad if guess == 0 else _round_change(mask, settings) if guess == 1 else \
            _whole_top_card(mask, top_card, settings)
        fitted = None if start is None else refined(view, start)
        if fitted is not None:
            return fitted, True
    # two cards put down with no still view between them (a hand passed over the first): the change is both, of
    # no card's shape; the newest lies whole on top and is read (the one under it is missed)
    fitted = _newest_of_two(view, mask, reference, top_card, settings)
    if fitted is not None:
        return fitted, True
    return None if quad is None else (quad, False)


def _round_change(change: npt.NDArray[np.uint8], settings: WatchSettings) -> Quad | None:
    """The smallest rectangle round the change (in the view's pixels), if it has a card's size and proportions."""
    points = cv2.findNonZero(change)
    if points is None or len(points) < settings.min_card_share * change.size * 0.1:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    if w * h < settings.min_card_share * change.size or not ASPECT[0] <= max(w, h) / max(min(w, h), 1.0) <= ASPECT[1]:
        return None
    box = cv2.boxPoints(((cx, cy), (w + 1, h + 1), angle))
    return ordered(np.asarray((box + 0.5) * settings.shrink - 0.5, np.float32))


def _whole_top_card(change: npt.NDArray[np.uint8], top_card: Callable[[], Quad | None],
                    settings: WatchSettings) -> Quad | None:
    """The top card found as a still would be (``top_card``: :func:`~shooter.vision.card.still_outline` of the
    view): it counts only when the change lies inside that card (a hand at rest, partly over the pile, does
    not)."""
    if change.sum() < settings.min_card_share * change.size * 0.1:
        return None
    quad = top_card()
    if quad is None:
        return None
    inside = np.zeros(change.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round((quad + 0.5) / settings.shrink - 0.5).astype(np.int32), 1)
    return quad if (change & inside).sum() >= 0.9 * change.sum() else None


def _newest_of_two(view: Frame, change: npt.NDArray[np.uint8], reference: npt.NDArray[np.float32],
                   top_card: Callable[[], Quad | None], settings: WatchSettings) -> Quad | None:
    """The top card (``top_card``, as :func:`_whole_top_card`) when the change reaches past it: most of that
    card changed, and it was not the top card before (a hand's shadow or a hand at rest over the old top card
    changes it, but it lay there before)."""
    if change.sum() < settings.min_card_share * change.size:
        return None
    least = settings.min_card_share * view.shape[0] * view.shape[1]
    quad = top_card()
    if quad is None:
        return None
    small = np.round((quad + 0.5) / settings.shrink - 0.5).astype(np.int32)
    inside = np.zeros(change.shape, np.uint8)
    cv2.fillConvexPoly(inside, small, 1)
    if (change & inside).sum() < 0.5 * inside.sum():
        return None
    h, w = view.shape[:2]
    # (NaN: clipped in a view kept from before the camera darkened: as bright as the sensor shows)
    before = np.asarray(cv2.resize(np.clip(np.nan_to_num(reference, nan=255.0), 0, 255).astype(np.uint8), (w, h)),
                        np.uint8)
    old = still_outline(before, least)
    # the same card where it lay: each corner near one of the old outline's (which end is first may differ)
    if old is not None and float(np.linalg.norm(old[None] - quad[:, None], axis=2).min(axis=1).max()) \
            < 4.0 * settings.shrink:
        return None
    return refined(view, quad)


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


BLURS = (0.0, 1.0, 1.7)   # a learned symbol is also matched this much blurred (pixels): the read may be blurrier


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


@dataclass(frozen=True)
class StillCard:
    """The top card of one photo, straightened (``card``), where it lies in the photo (``quad``) and whether
    its outline was moved onto the card's own edges (``exact``; else what was straightened may be partly
    another card)."""

    card: npt.NDArray[np.uint8]
    quad: Quad
    exact: bool


def still_card(photo: Frame, region: Region | None = None,
               settings: WatchSettings = WatchSettings()) -> StillCard | None:
    """The top card of one photo (no earlier view): the one whole card-shaped field inside a white border
    (:func:`~shooter.vision.card.still_outline`), straightened; None when no card is found. ``cards test DIR``
    reads it, ``cards learn DIR`` learns from it."""
    x, y, w, h = region or (0, 0, photo.shape[1], photo.shape[0])
    view = photo[y:y + h, x:x + w]
    quad = still_outline(view, settings.min_card_share * w * h * 0.25)
    if quad is None:
        return None
    fitted = refined(view, quad)
    card = rectify(view, quad if fitted is None else fitted)
    if card.shape[:2] != (SIZE[1], SIZE[0]):  # pragma: no cover - rectify's size is fixed
        return None
    return StillCard(card, (quad if fitted is None else fitted) + np.asarray([x, y], np.float32), fitted is not None)


def read_still(deck: Deck, photo: Frame, region: Region | None = None,
               settings: WatchSettings = WatchSettings()) -> Read | None:
    """The top card of one photo (:func:`still_card`) read with ``deck``; None when no card is found."""
    found = still_card(photo, region, settings)
    if found is None:
        return None
    return classify(deck, features(found.card), found.quad, settings, exact=found.exact)
