"""A card seen on the pile: its outline found in a mask, straightened to a canonical size, and its features.

The top card of the pile is the newest one and lies whole; :func:`outline` finds its four corners in a mask of
where it is (the change it made to the pile, or its white board in a still photo), :func:`rectify` warps it to
:data:`SIZE` (long side vertical; which end is up is not known: the symbol is matched both ways), and
:func:`features` reads what the recogniser compares: the board's white (the light's own colour and level, so
that the rest is measured against it), the field's ink as a fraction of that white (the colour), and the symbol
as a map of how white each pixel of the card's middle is (the digit or glyph printed in white).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

SIZE = (80, 124)                     # the straightened card, w x h pixels (an Uno card is 56 x 87 mm)
# the middle of the card where the large symbol is printed (the corner marks are outside it): x0, x1, y0, y1
SYMBOL = (15, 65, 31, 93)
EDGE = 5                             # the white border, pixels of the straightened card
ASPECT = (1.2, 2.0)                  # long over short side of an outline that may be a card (perspective)
FILL = 0.6                           # the mask must fill this much of the outline's quadrilateral (its hull 90 %)

Quad = npt.NDArray[np.float32]       # 4 x 2 corners: top left, top right, bottom right, bottom left
Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Features:
    """What a straightened card shows: ``ink`` (the field's BGR over the board's white) and ``symbol`` (the
    middle's whiteness, 0..1, ``SYMBOL``'s size)."""

    ink: tuple[float, float, float]
    symbol: npt.NDArray[np.float32]


def outline(mask: npt.NDArray[np.uint8], min_area: float) -> Quad | None:
    """The corners of the largest card-shaped blob of ``mask`` (in its pixels), or None when its largest blob
    is no card: too small, not four-sided, not filled, not a card's proportions (a hand, a shadow)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    blob = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(blob)
    area = cv2.contourArea(hull)
    if area < min_area:
        return None
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32)
            break
        if len(approx) < 4:
            return None
    if quad is None:
        return None
    quad = _straightened(quad, hull.reshape(-1, 2).astype(np.float32))
    if quad is None:
        return None
    qarea = cv2.contourArea(quad)
    if qarea <= 0 or not 0.9 <= area / qarea <= 1.1 or cv2.contourArea(blob) / qarea < FILL:
        return None
    quad = _ordered(quad)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    ratio = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6)
    if not ASPECT[0] <= ratio <= ASPECT[1]:
        return None
    return quad


def _straightened(quad: Quad, hull: npt.NDArray[np.float32]) -> Quad | None:
    """The corners where the hull's four sides meet: a line fitted to the middle of each side (a card's
    corners are rounded, so the hull's own corner points lie inside the card's true corners)."""
    ring = np.concatenate([hull, hull[:1]])
    dense = np.concatenate([np.linspace(a, b, max(2, int(np.linalg.norm(b - a)) + 1), endpoint=False)
                            for a, b in itertools.pairwise(ring)])
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 2:
            return None
        d = d / length
        line = None
        for tolerance in (max(3.0, 0.15 * length), 1.5):   # loosely round the first guess, then the fitted line
            rel = dense - a
            along = rel @ d
            off = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0])
            near = dense[(along > 0.15 * length) & (along < 0.85 * length) & (off < tolerance)]
            if len(near) < 2:
                if line is None:
                    return None
                break
            line = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
            d, a = line[:2] * np.sign(line[:2] @ d), line[2:] - line[:2] * np.sign(line[:2] @ d) * (
                (line[2:] - a) @ (line[:2] * np.sign(line[:2] @ d)))
        assert line is not None
        vx, vy, x0, y0 = line
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        det = u[0] * -v[1] + v[0] * u[1]
        if abs(det) < 1e-6:
            return None
        t = ((q[0] - p[0]) * -v[1] + v[0] * (q[1] - p[1])) / det
        corners.append(p + t * u)
    return np.asarray(corners, np.float32)


def _ordered(quad: Quad) -> Quad:
    """Corners in the order top left, top right, bottom right, bottom left of a card standing upright: a short
    side first, going round the way that does not mirror the card."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    a, b, d = quad[0], quad[1], quad[3]
    if (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]) < 0:
        quad = quad[[1, 0, 3, 2]]
    return np.ascontiguousarray(quad, np.float32)


def rectify(frame: Image, quad: Quad) -> Image:
    """The card inside ``quad`` (frame pixels), straightened to :data:`SIZE`."""
    w, h = SIZE
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    return np.asarray(cv2.warpPerspective(frame, cv2.getPerspectiveTransform(quad, target), SIZE,
                                          flags=cv2.INTER_AREA), np.uint8)


def features(card: Image) -> Features:
    """The card's ink and symbol, measured against its own board's white."""
    img = card.astype(np.float32)
    e = EDGE
    ring = np.concatenate([img[2:e - 1, 8:-8].reshape(-1, 3), img[2 - e:-2, 8:-8].reshape(-1, 3),
                           img[8:-8, 2:e - 1].reshape(-1, 3), img[8:-8, 2 - e:-2].reshape(-1, 3)])
    bright = ring.sum(axis=1)
    board = ring[bright >= np.median(bright)]   # the brighter half: an outline a pixel off takes in the table
    white = np.maximum(np.median(board, axis=0), 12.0)
    ratio = img / white
    least = ratio.min(axis=2)
    x0, x1, y0, y1 = SYMBOL
    # white strokes above their surroundings (a top-hat: a glare's slow rise across the field is taken away),
    # then blurred to one sharpness whatever the camera's focus and distance
    middle = np.ascontiguousarray(least[y0:y1, x0:x1], np.float32)
    strokes = cv2.morphologyEx(middle, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (23, 23)))
    symbol = cv2.GaussianBlur(np.clip((strokes - 0.12) / 0.3, 0.0, 1.0), (0, 0), 1.5).astype(np.float32)
    field = np.ones(least.shape, bool)
    field[:e + 2, :] = field[-e - 2:, :] = field[:, :e + 2] = field[:, -e - 2:] = False
    field[y0:y1, x0:x1] = False
    field &= least < 0.55
    inks = ratio[field] if field.sum() > 50 else ratio[e + 2:-e - 2, e + 2:-e - 2].reshape(-1, 3)
    ink = np.median(inks, axis=0)
    return Features((float(ink[0]), float(ink[1]), float(ink[2])), symbol)


def turned(symbol: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The symbol map of the card turned end over end (the pile does not know which end is up)."""
    return np.ascontiguousarray(symbol[::-1, ::-1])
