"""What a card seen on the pile shows, once :mod:`shooter.vision.outline` found its outline and straightened it
to a canonical size (long side vertical; which end is up is not known: the symbol is matched both ways).

:func:`features` reads what the recogniser compares: the board's white (the light's own colour and level, so
that the rest is measured against it), the field's ink as a fraction of that white (the colour), and the symbol
as maps of the card's middle: the strokes whiter than round them and those less white (a white digit on the
colour, or one in the colour on a white ellipse: which map tells a deck's faces apart is learned,
:data:`POLARITIES`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from .outline import EDGE, Image, channel_max, channel_min

# the middle of the card where the large symbol is printed (the corner marks are outside it): x0, x1, y0, y1
SYMBOL = (15, 65, 31, 93)
SYMBOL_BLUR = 0.8                    # the symbol's map is blurred this much (pixels), so that noise is not matched
# the corner marks (the small symbol, top left and turned over bottom right), x0, x1, y0, y1 with a pixel to spare
MARKS = ((5, 24, 5, 29), (56, 75, 95, 119))

# the polarities of a symbol's map, measured on each pixel's least channel (a white is high in all three): its
# strokes whiter than round them (light: a white symbol on the colour, as the plain deck's) or less white (dark: a
# symbol in the card's colour on a white ellipse, a black outline). Which one tells a deck's faces apart is learned
LIGHT, DARK = "light", "dark"
POLARITIES = (LIGHT, DARK)


@dataclass(frozen=True)
class Features:
    """What a straightened card shows: ``ink`` (the field's BGR over the board's white) and ``symbol`` (the
    middle's strokes whiter than round them, 0..1, ``SYMBOL``'s size; ``others``: its other polarities' maps)."""

    ink: tuple[float, float, float]
    symbol: npt.NDArray[np.float32]
    # when the sensor clipped the white in a channel no edge could work out, or the ink itself: the inks it may
    # truly be, under each colour of light that fits the border and with each clipped channel of the ink across
    # what it may be (:func:`_possible_inks`: rows of BGR); None: the ink is ``ink``
    possible: npt.NDArray[np.float64] | None = None
    # the sensor clipped the border's white in a channel (or the ink's): what the card truly shows there is lost,
    # and a darker exposure would see it (:class:`~shooter.vision.watcher.PileWatcher` looks again)
    clipped: bool = False
    # the middle's other maps by polarity (``symbol`` is the :data:`LIGHT` one): its strokes darker than round
    # them; a deck's faces are matched on the one that tells them apart best (learned: shooter.vision.learn)
    others: dict[str, npt.NDArray[np.float32]] = field(default_factory=dict)
    # a card shown to learn from: the same card as seen from farther (:func:`learned`), a look of its own
    far: Features | None = None

    def map(self, polarity: str) -> npt.NDArray[np.float32]:
        """The symbol's map of ``polarity`` (one of :data:`POLARITIES`; one not measured: blank)."""
        if polarity == LIGHT:
            return self.symbol
        found = self.others.get(polarity)
        return found if found is not None else np.zeros_like(self.symbol)


FAR = 0.5   # a learned card is also learned as if seen from this much farther (its size a share of the learned)


def far_look(card: Image, share: float = FAR) -> Image:
    """The straightened card as a camera farther away would show it: shrunk to ``share`` of its size (each pixel
    the mean of those it covers, as a sensor's is) and straightened back to the canonical size."""
    h, w = card.shape[:2]
    small = cv2.resize(card, (round(w * share), round(h * share)), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), card.dtype)


def learned(card: Image) -> Features:
    """The features of a card shown to learn from, with those of the same card seen from farther (``far``): a far
    card's few pixels (a digit some 15 by 20 at 60 cm) mix its strokes otherwise than a blur of the near look
    does, so a face keeps a look of each (:func:`shooter.vision.learn.learn`)."""
    return replace(features(card), far=features(far_look(card)))


# a strip of another card taken in by an outline (a card lying on one of its own colour: the outline moved onto
# the edges of both): on one side, past the card's border and a band of field, a second line of border across
# most of the side (:func:`trimmed`). Shares of the side's length, pixels of the straightened card
NESTED_LINE = 0.6      # the second line is whiter than the field over this much more of the side than round it
NESTED_BAND = 3        # ... with at least this many pixels of field between the two borders
NESTED_MIN = 8         # ... and lies this deep at least (a border's own soft edge lies shallower)
NESTED_DEEP = 26       # depths looked at from each side


def _nested(card: Image) -> tuple[int, int] | None:
    """Where a second border lies inside the card's own (:data:`NESTED_LINE`): (side: top, bottom, left,
    right; its depth), or None. Measured on each pixel's least channel (a border's white is high in all three),
    each depth's share of the side (less a tenth at each end: the corners) whiter than halfway from the card's
    darker fifth to its border's white."""
    m = channel_min(card.astype(np.float32)).astype(np.float32)
    h, w = m.shape
    white = float(np.median(np.concatenate([m[:2].ravel(), m[-2:].ravel(), m[:, :2].ravel(), m[:, -2:].ravel()])))
    level = (white + float(np.quantile(m, 0.2))) / 2
    a, b, deep = h // 10, w // 10, NESTED_DEEP
    sides = (m[:deep, b:w - b], m[h - deep:, b:w - b][::-1], m[a:h - a, :deep].T, m[a:h - a, w - deep:][:, ::-1].T)
    best, where = NESTED_LINE, None
    for k, side in enumerate(sides):
        share = (side > level).mean(axis=1)   # by depth
        edge = next((d for d in range(deep) if share[d] < 0.5), deep)   # where the card's own border ends
        for d in range(max(edge + NESTED_BAND, NESTED_MIN), deep - 2):
            if int((share[edge:d] < 0.35).sum()) < NESTED_BAND:
                continue
            lead = min(share[d] - share[edge:d].min(), share[d] - share[d + 1:].min())
            if lead > best:
                best, where = lead, (k, d)
    return where


def trimmed(card: Image) -> Image:
    """The straightened card without a strip of another card its outline took in (:func:`_nested`: cut at the
    second border and straightened back to the canonical size); the card as it is when there is none. A red 8 on
    a red card, its outline taking in a strip of the card under it, matched a 6 at 0.78 (its digit off its
    place), sure."""
    found = _nested(card)
    if found is None:
        return card
    k, d = found
    h, w = card.shape[:2]
    cut = (card[d:], card[:h - d], card[:, d:], card[:, :w - d])[k]
    return np.asarray(cv2.resize(cut, (w, h), interpolation=cv2.INTER_LINEAR), card.dtype)


def read_features(card: Image) -> Features:
    """The features of a card read on the pile: of the card :func:`trimmed` of a strip of another one."""
    return features(trimmed(card))


def features(card: Image) -> Features:
    """The card's ink and symbol, measured against its own board's white."""
    img = card.astype(np.float32)
    h, w = img.shape[:2]
    # the board's white: the border's ring (its printed white, the outline is refined onto the card's edges),
    # its brighter part (a shadow or a glare across the card); from the whitest pixels inside the outline when
    # the ring is not white (an outline that took in the table)
    ring = np.zeros((h, w), bool)
    ring[1:4, :] = ring[-4:-1, :] = ring[:, 1:4] = ring[:, -4:-1] = True
    ring[:8, :8] = ring[:8, -8:] = ring[-8:, :8] = ring[-8:, -8:] = False   # the rounded corners
    white = np.percentile(img[ring], 80, axis=0)
    middling = np.median(img[ring], axis=0)
    clipped = bool((white >= CLIPPED).any())
    glared = bool((white >= CLIPPED).all())   # a glare over the border, or a lamp past the sensor's top
    # a glare may have lifted the field too where the border's brighter part is at the sensor's top in every
    # channel, or as near it as a pixel the sensor may have clipped (a glare the colour of a warm lamp left one
    # border's blue at 249 of 255)
    glare_may_lift = bool((white >= TOP_SEEN).all())
    if glared and not (middling >= CLIPPED).all():
        # the brighter part is the sensor's top in every channel (a glare over the border, a bright lamp on half
        # of a shaded card): it tells nothing of the light's colour; the border's middle part does
        white = middling
    inner = img[3:-3, 3:-3].reshape(-1, 3)
    top, low = channel_max(inner), channel_min(inner)
    # the ring's brightest channel against the inner pixels' brightest (like with like: a cold lamp's white is
    # 0.65 as red as it is blue, and its red against the blue of a glare on the field took a true white border,
    # seen darker than the sensor's top, for the table)
    if white.max() < 0.6 * float(np.percentile(top, 99)):
        neutral = inner[(low > 0.5 * top) & (top > 0.5 * np.percentile(top, 99))]   # not a wild's black
        pool = neutral if len(neutral) > 200 else inner
        bright = channel_max(pool)
        white = np.median(pool[bright >= np.percentile(bright, 70)], axis=0)
    white = np.maximum(white, 12.0)
    # the field's ink as the camera gives it (the field clear of its edge, the symbol and the corner marks; the
    # median: a speck of glare or of the table is outvoted)
    field = np.zeros((h, w), bool)
    field[EDGE + 2:h - EDGE - 2, EDGE + 2:w - EDGE - 2] = True
    x0, x1, y0, y1 = SYMBOL
    field[y0:y1, x0:x1] = False
    for mx0, mx1, my0, my1 in MARKS:
        field[my0:my1, mx0:mx1] = False
    # where a glare (white added to every channel alike) lifted a channel past the sensor's top, the others alone
    # went on rising and the hue turned (a glared teal's green clipped: green); those pixels are no measure of
    # the ink while enough of the field is clear of the top in every channel (each pixel judged blurred: the glare
    # is smooth, and the sensor's noise in a channel near the top is not chosen by)
    pixels, smooth = img[field], np.asarray(cv2.GaussianBlur(img, (0, 0), 2.0), np.float32)[field]
    used = channel_max(smooth) < TOP_SEEN
    if used.mean() < CLEAR_SHARE:
        used[:] = True
    ink_levels = np.median(pixels[used], axis=0)
    # the symbol is white as the border is (clipped alike): measured against the white as seen
    # the middle's whiteness measured against the border's white (clipped alike); the symbol is whatever strokes
    # stand out of it, lighter than their surroundings or darker: which of the two a deck prints its symbols in
    # (a white one on the colour, or one in the card's colour on a white ellipse) is learned, not assumed
    light, dark = symbol_maps(np.ascontiguousarray(channel_min(img[y0:y1, x0:x1] / white), np.float32))
    # the edge tells a clipped channel of the white by the ink beside it, the field's: not where a glare over the
    # whole card lifts the field's middle more than its edge (a warm lamp's glare: the border's white, its median
    # too, near the top in every channel, its blue at 248, and the green worked out at 258 of a true 330 took the
    # lamp for nearly grey, and a purple read a sure pink)
    near_top = bool((white >= TOP_SEEN).all())
    unclipped = white if near_top else _unclipped_white(img, white, middling, ink_levels)
    ink = ink_levels / unclipped
    possible = _possible_inks(white, unclipped, ink_levels, glare_may_lift)
    return Features((float(ink[0]), float(ink[1]), float(ink[2])), light, possible,
                    clipped or possible is not None, {DARK: dark})


STROKES = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (23, 23))   # a stroke is narrower than this (pixels)


def symbol_maps(middle: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The strokes of the card's middle (its whiteness, 0..1) that are lighter than their surroundings (a
    top-hat) and those that are darker (a black-hat): a glare's slow rise across the card is taken away either
    way. Each blurred to one sharpness whatever the camera's focus and distance."""
    up = cv2.morphologyEx(middle, cv2.MORPH_TOPHAT, STROKES)
    down = cv2.morphologyEx(middle, cv2.MORPH_BLACKHAT, STROKES)
    # the strokes' whiteness as it is (0..1), not stretched: stretched (0.12 to 0.42 made 0 to 1) a small blurred
    # digit's strokes and the gaps between them were clipped to one blob (a printed 3 and 5 then alike)
    return tuple(np.asarray(cv2.GaussianBlur(np.clip(m, 0.0, 1.0), (0, 0), SYMBOL_BLUR), np.float32)
                 for m in (up, down))  # type: ignore[return-value]


# a lamp's colour runs from warm to cold: its BGR is a level times (1 - w, 1, 1 + w) (a bulb's w about 0.2, daylight
# about -0.2, as a camera balanced between them sees them), the colours between lying on that line. The w looked
# at for a white the sensor clipped (the held-out scenes' lamps reach 0.25; from 0.4 on, a pink whose red is
# clipped could be any purple), 0.01 apart (a white clipped in every channel leaves the whole line open, and the
# hue turns with w: at 0.025 apart a glared purple came out 0.002 from pink and 0.027 from purple, read pink):
WARMTHS = np.linspace(-0.3, 0.3, 61)
FIT = 0.04          # the white's channels seen must lie this near (a share) the light's line at a w
INK_TOP = 1.05      # the most an ink reflects of the board's white in a channel (an orange's red: 1.03)
LOST_STEPS = 9      # the shares tried for a channel in which the ink itself was clipped
LIGHT_TOP = 1.3     # the most a light's white is past the sensor's top (a camera's exposure keeps it near)
LEVELS = 5          # the light's levels tried from the sensor's top to LIGHT_TOP times it


def _possible_inks(white: npt.NDArray[np.float32], unclipped: npt.NDArray[np.float32],
                   ink: npt.NDArray[np.float32],
                   glare_may_lift: bool = False) -> npt.NDArray[np.float64] | None:
    """The inks the field may truly be when the sensor clipped something: the ink over each light that fits
    what the border shows (:func:`_lights`), with each channel the ink itself was clipped in (a dark orange's
    red under a bright lamp, a glare over the field) known only as at least the sensor's top over that light,
    and at most :data:`INK_TOP` of it plus, when ``glare_may_lift``, the share of the light a glare may have
    added to the field (the lamp's light, added alike to every channel's share, leaves the hue as it is until a
    channel reaches the sensor's top; a glared orange's red stops there while its green and blue rise, and it
    looks yellow), tried across that range.
    None (the ink is as measured) when nothing is clipped."""
    lost = ink >= TOP_SEEN
    lights = _lights(white, unclipped, bool(lost.any()))
    if not lights:
        return None
    share = np.asarray(ink, np.float64) / np.asarray(lights, np.float64)      # one row a light
    # a glare adds the lamp's light (a share of it alike in every channel) to what the ink scatters: at most as
    # much as the channel the sensor did not clip and the ink darkest in shows
    top = np.full(len(share), INK_TOP)
    if glare_may_lift and not lost.all():
        top += share[:, ~lost].min(axis=1)
    steps = np.linspace(0.0, 1.0, LOST_STEPS)
    ranges = []
    for c in range(3):   # each light's range in the channel (one value where the ink was not clipped)
        low = np.minimum(share[:, c], top)
        ranges.append(low[:, None] + (top - low)[:, None] * steps if lost[c] else share[:, c:c + 1])
    b, g, r = ranges[0][:, :, None, None], ranges[1][:, None, :, None], ranges[2][:, None, None, :]
    return np.stack(np.broadcast_arrays(b, g, r), axis=-1).reshape(-1, 3)


def _lights(white: npt.NDArray[np.float32], unclipped: npt.NDArray[np.float32],
            lost: bool) -> list[npt.NDArray[np.float64]]:
    """The colours of light (BGR, in the sensor's levels) that fit the border's white: when the sensor clipped
    some of its channels and no edge worked them out (:func:`_unclipped_white`), each light on the warm-to-cold
    line (:data:`WARMTHS`) that gives the white's other channels as seen and is brighter than the sensor's top
    in the clipped ones; when it clipped all three (a glare over the border, a lamp past the top), each light
    on that line from the dimmest that clips all three up to :data:`LIGHT_TOP` times as bright; when it clipped
    none and the ink was (``lost``), the white as seen. None else (the ink is as measured)."""
    left = (white >= CLIPPED) & (unclipped <= white)
    levels = np.linspace(1.0, LIGHT_TOP, LEVELS)
    if left.all():
        # the white is the sensor's top in every channel: it tells neither the light's level nor its colour, and
        # the ink's hue, measured against the light, turns with the light's colour (a purple against a warm
        # lamp's white taken for grey reads pink): each light on the line, at each level from the dimmest that
        # clips all three channels
        out_all = []
        for w in WARMTHS:
            tint = np.asarray([1.0 - w, 1.0, 1.0 + w], np.float64)
            dimmest = float(np.max(np.asarray(unclipped, np.float64) / tint)) * tint
            out_all += [dimmest * k for k in levels]
        return out_all
    if not left.any():
        return [np.asarray(unclipped, np.float64)] if lost else []
    seen = ~left
    out = []
    for w in WARMTHS:
        tint = np.asarray([1.0 - w, 1.0, 1.0 + w], np.float64)
        level = float(np.mean(unclipped[seen] / tint[seen]))
        light = level * tint
        if np.abs(light[seen] / unclipped[seen] - 1.0).max() > FIT or (light[left] < unclipped[left]).any():
            continue
        out.append(np.where(left, light, unclipped))
    return out


CLEAR_SHARE = 0.2   # the share of the field clear of the sensor's top its ink is measured on (else all of it)
CLIPPED = 250.0   # a border's white this bright (of the sensor's 255, less its noise) may be brighter than seen
TOP_SEEN = CLIPPED - 10.0   # a pixel's channel (or an ink's) this bright may have been clipped by the sensor
BAND = 2, 11      # the rows (columns) of the straightened card, from its edge, that hold the border-to-field edge
# the stretch of each side's band looked at, clear of the rounded corners and the corner marks (top left and
# bottom right): top, right, bottom, left, from the side's start
BAND_SPANS = ((26, 72), (8, 94), (8, 54), (30, 116))


def _unclipped_white(img: npt.NDArray[np.float32], white: npt.NDArray[np.float32], middling: npt.NDArray[np.float32],
                     ink: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The border's white (``white``; ``middling``: its median) with each channel the sensor clipped (a bright
    warm light: the white's red is more than 255 can say, so the ink's red measured against 255 comes out too
    high and a purple turns to pink) worked out from the edge between the border and the field. A pixel there
    mixes the border's white and the field's ink in one proportion in every channel (the lens's blur and the
    pixel's area do it before the sensor clips), so in the pixels where a clipped channel is not clipped, its
    rise from the ink over the least clipped channel's rise is the white's over the ink's in the one over the
    other. Channels not clipped, or with no such pixels (no blur, an ink as bright as the white), are kept as
    seen."""
    clipped = white >= CLIPPED
    ref = int(np.argmin(middling))                   # the least clipped channel (by the border's median)
    if not clipped.any() or middling[ref] >= CLIPPED:
        return white                                 # nothing clipped, or nothing else to go by
    span = float(white[ref] - ink[ref])
    if span < 40.0:                                  # an ink as bright as the white there: no edge to go by
        return white
    h, w = img.shape[:2]
    lo, hi = BAND
    (t0, t1), (r0, r1), (b0, b1), (l0, l1) = BAND_SPANS
    band = np.concatenate([img[lo:hi, t0:t1].reshape(-1, 3), img[r0:r1, w - hi:w - lo].reshape(-1, 3),
                           img[h - hi:h - lo, b0:b1].reshape(-1, 3), img[l0:l1, lo:hi].reshape(-1, 3)])
    rise = band - ink
    share = rise[:, ref] / span                      # how much of the white the pixel holds
    out = white.copy()
    for c in np.nonzero(clipped)[0]:
        if c == ref:
            continue
        mixed = (share > 0.2) & (share < 0.9) & (band[:, c] < TOP_SEEN) & (band[:, ref] < TOP_SEEN)
        if mixed.sum() < 12:
            continue
        seen = float(np.median(rise[mixed, c] / rise[mixed, ref]))
        out[c] = max(float(white[c]), float(ink[c]) + seen * span)
    return out


def turned(symbol: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The symbol map of the card turned end over end (the pile does not know which end is up)."""
    return np.ascontiguousarray(symbol[::-1, ::-1])


