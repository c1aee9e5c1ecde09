"""The pile watcher: fed the camera's frames, it says when a new card has settled on the pile and what it is.

``PileWatcher(deck, region).feed(frame, now)`` returns a :class:`shooter.camera.reads.Read` (the table's one kind of
read) on the frame in which a new card has lain still for ``settings.settle_s`` seconds, else None. It is pure:
no thread, no clock of its own (``now`` is the caller's clock), every threshold a named field of
:class:`WatchSettings`.

How: inside ``region`` (x, y, w, h: the ``[camera] pile`` setting) each frame is shrunk by ``settings.shrink``; a
frame that differs from the last one (motion: a hand, a card falling) restarts the stability window, and each pixel
keeps when it last moved. Once the view has been still for the window, it is compared with the view after the last
card (the reference): the comparison is made on colours divided by their neighbourhood's brightness, so that a
shadow or a change of light does not count as a change. A change big enough and shaped like a card
(:func:`shooter.vision.outline.outline`) is the new card (it lies on top, whole); anything else (a hand at rest, a
shadow) becomes the new reference and is not read. While a part of the view still moves (a hand reaching over
another part of the pile), a change whose card and the pixels round it have lain still for the window is read as
well (the window kept per part of the view, :meth:`PileWatcher._partly_still`); the reference then takes the view
over that card alone. The card is straightened and matched to the deck (:func:`shooter.vision.match.classify`): its
ink compared with the deck's learned inks (nearest, and how much nearer than the next), its symbol with each face's
learned looks (normalised correlation, both ends up, a few pixels of slack); the read's confidence is the lower
of the two. Below ``settings.sure`` the read is unsure: the caller
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

from ..camera.reads import Read
from .card import (
    CLIPPED,
    Features,
    read_features,
)
from .match import classify, hue_points
from .outline import (
    ASPECT,
    SIZE,
    Quad,
    channel_max,
    ordered,
    outline,
    rectify,
    refined,
    same_place,
    still_outline,
)
from .settings import WatchSettings
from .templates import Deck

# classify, hue_points and WatchSettings stay importable from here, as before they had modules of their own
__all__ = ["Frame", "PileWatcher", "Region", "Seen", "StillCard", "WatchSettings", "classify", "hue_points", "locate",
           "read_still", "still_card"]

Frame = npt.NDArray[np.uint8]
Region = tuple[int, int, int, int]

# shrunk pixels round a card read while something moves elsewhere that must not have moved within the settling
# window (a hand's blurred edge and its shadow move less than the motion level: :meth:`PileWatcher._partly_still`)
PART_MARGIN = 4


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
        # when each pixel of the shrunk view last moved (the settling window kept per part of the view: a card
        # lying still is read while a hand moves elsewhere, :meth:`_partly_still`)
        self._moved_at: npt.NDArray[np.float64] | None = None
        # no card is read while a part of the view moves, until the whole view has lain still: a card found so
        # wanted a darker look, or the last card is being taken back (:meth:`take_back`)
        self._whole_only = False

    def reset(self) -> None:
        """Forget the pile: the next frame is the reference (a pile cleared away, the camera moved)."""
        self._last = self._reference = self._before = None
        self._moved_at = None
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
        # the hand that takes it away may pass anywhere: the pile is judged as a whole until it lies still (else
        # the card, still there while the hand moves elsewhere, was found again in every frame, each time told
        # to be no new card and the view before it made the reference again)
        self._whole_only = True

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
        x, y, w, h = self.region
        view = frame[y:y + h, x:x + w]
        small = _shrunk(view, self.settings.shrink)
        seen = self._settled(view, small, now)
        if self.deck is None:
            return None
        if seen is None:
            return self._partly_still(view, small, now, exposure)
        return self._read(seen, exposure, now)

    def _partly_still(self, view: Frame, small: npt.NDArray[np.float32], now: float,
                      exposure: float | None) -> Read | None:
        """A new card read while something moves elsewhere in the view (a hand reaching over another part of the
        pile): the settling window kept per part of the view. The change since the reference, the parts that moved
        within the window and a margin round them (:data:`PART_MARGIN`) left out, is read when it is a card's
        shape moved onto a card's own edges, none of it or of the margin round it moved within the window. The
        reference then takes the view over that card (and the margin) alone: the rest, a hand in it, stays as it
        was (else the hand's going was a change: no card's shape, or through the rectangle round it the edges
        of a card under it). A card not found so waits for the whole view to lie still, as before: a change of
        no card's outline on its own edges, a pile changing without a card put down (primed), a card being taken
        back, a white the sensor clipped (looked at again darker once all is still)."""
        if self._checked or self._primed or self._whole_only or self._moved_at is None or self._reference is None:
            return None
        s = self.settings
        recent = np.asarray((now - self._moved_at) < s.settle_s, np.uint8)
        if not recent.any():   # nothing moved within the window: the whole view is judged when its window ends
            return None
        margin = np.ones((2 * PART_MARGIN + 1, 2 * PART_MARGIN + 1), np.uint8)
        near_motion = cv2.dilate(recent, margin) > 0
        # the reference as it was but where something moved within the window (and round it): there the view now,
        # no change; the change left is found as when the whole view lies still (:func:`locate`), on a card's edges
        reference = np.where(near_motion[..., None], small, self._reference.small)
        located = locate(view, small, reference, self._white(), s)
        if located is None or not located[1]:
            return None
        fitted = located[0]
        card = np.zeros(recent.shape, np.uint8)
        cv2.fillConvexPoly(card, np.round((fitted + 0.5) / s.shrink - 0.5).astype(np.int32), 1)
        card = np.asarray(cv2.dilate(card, margin), np.uint8)
        if (card & recent).any():   # the card as fitted reaches where something moved
            return None
        x, y = self.region[:2]
        seen = Seen(rectify(view, fitted), fitted + np.asarray([x, y], np.float32), True)
        found = read_features(seen.card)
        if found.clipped and exposure is not None and exposure > s.darkest * 1.01:
            self._whole_only = True   # looked at again darker, once the whole view is still
            return None
        over = cv2.resize(card, (view.shape[1], view.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
        pixels = np.where(over[..., None], view.astype(np.float32), self._reference.pixels)
        self._before = self._reference
        self._reference = _Kept(_shrunk(pixels, s.shrink), pixels, self._reference.exposure)
        return self._read(seen, exposure, now, found)

    def _read(self, seen: Seen, exposure: float | None, now: float, found: Features | None = None) -> Read | None:
        """The card ``seen`` read (``found``: its features if already taken); None while it waits for a darker
        look (its white clipped, the exposure known and not yet the darkest). A view that dim at less than the
        camera's own exposure asks for a brighter one."""
        assert self.deck is not None
        found = read_features(seen.card) if found is None else found
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
        if self._moved_at is None or self._moved_at.shape != moved.shape:
            self._moved_at = np.full(moved.shape, -np.inf)
        self._moved_at[moved > 0] = now
        if moved.mean() > self.settings.motion_share:
            self._still_since, self._checked = now, False
            return False
        return now - self._still_since >= self.settings.settle_s

    def seen(self, frame: Frame, now: float) -> Seen | None:
        """The new card straightened, on the frame in which the whole view settled; else None."""
        x, y, w, h = self.region
        view = frame[y:y + h, x:x + w]
        return self._settled(view, _shrunk(view, self.settings.shrink), now)

    def _settled(self, view: Frame, small: npt.NDArray[np.float32], now: float) -> Seen | None:
        """:meth:`seen` of the region's ``view`` (``small``: shrunk)."""
        x, y = self.region[:2]
        if self._last is None or self._reference is None:
            # the first view is the reference; a settle asked before it (the lid opened before the camera's first
            # frame) is done once the view lies still, not left pending for the next change (the first card)
            self._last, self._reference = small, _Kept.of(view, small, self._taken_at)
            self._still_since, self._checked = now, not self._primed
            return None
        if not self._still(small, now) or self._checked:
            return None
        self._checked, self._whole_only = True, False
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
    """The top card found as a still would be (``top_card``: :func:`~shooter.vision.outline.still_outline` of the
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
    (:func:`~shooter.vision.outline.still_outline`), straightened; None when no card is found. ``cards test DIR``
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
    return classify(deck, read_features(found.card), found.quad, settings, exact=found.exact)
