"""Where a card lies in a view of the pile: its outline found in a mask (:func:`outline`), in a still photo
(:func:`still_outline`) or refined onto the card's own edges (:func:`refined`), and the card straightened to
:data:`SIZE` (:func:`rectify`). What the straightened card shows is :mod:`shooter.vision.card`'s."""

from __future__ import annotations

from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

SIZE = (80, 124)                     # the straightened card, w x h pixels (an Uno card is 56 x 87 mm)


EDGE = 5                             # the white border, pixels of the straightened card


ASPECT = (1.2, 2.0)                  # long over short side of an outline that may be a card (perspective)


FILL = 0.6                           # the mask must fill this much of the outline's quadrilateral (its hull 90 %)


Quad = npt.NDArray[np.float32]       # 4 x 2 corners: top left, top right, bottom right, bottom left


Image = npt.NDArray[np.uint8]


Pixel = TypeVar("Pixel", np.uint8, np.float32)


def channel_max(img: npt.NDArray[Pixel]) -> npt.NDArray[Pixel]:
    """Each pixel's brightest channel (the last axis, BGR): the same values as ``img.max(axis=-1)``, which numpy
    does as a slow reduce over an axis of 3 (1.5 ms on a card straightened for :func:`refined`, the elementwise
    maximum of the three planes 0.05 ms)."""
    out: npt.NDArray[Pixel] = np.maximum(np.maximum(img[..., 0], img[..., 1]), img[..., 2])
    return out


def channel_min(img: npt.NDArray[Pixel]) -> npt.NDArray[Pixel]:
    """Each pixel's darkest channel: ``img.min(axis=-1)``, as fast as :func:`channel_max`."""
    out: npt.NDArray[Pixel] = np.minimum(np.minimum(img[..., 0], img[..., 1]), img[..., 2])
    return out


def same_place(a: npt.ArrayLike, b: npt.ArrayLike) -> bool:
    """Two outlines (4 x 2 corners) of a card at the same place, turned the same way: each corner of one within a
    tenth of the other's shorter side of a corner of the other (either end first). A card put down lands at a
    random place and turn, so another card hardly ever lies just there."""
    qa, qb = np.asarray(a, np.float64).reshape(4, 2), np.asarray(b, np.float64).reshape(4, 2)
    short = float(np.linalg.norm(qb - np.roll(qb, -1, axis=0), axis=1).min())
    return any(float(np.linalg.norm(qa - np.roll(order, k, axis=0), axis=1).max()) < 0.1 * short
               for order in (qb, qb[::-1]) for k in range(4))


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
    quad = ordered(quad)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    ratio = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6)
    if not ASPECT[0] <= ratio <= ASPECT[1]:
        return None
    return quad


def _straightened(quad: Quad, hull: npt.NDArray[np.float32]) -> Quad | None:
    """The corners where the hull's four sides meet: a line fitted to the middle of each side (a card's
    corners are rounded, so the hull's own corner points lie inside the card's true corners)."""
    dense = _dense(hull)
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


def _dense(hull: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The hull's sides as points about a pixel apart (at least 2 a side, each from its first corner, the next
    corner left out), in order round the hull: what ``np.linspace(a, b, n, endpoint=False)`` gives side by side,
    to its last bit, made at once (a loop over the sides was most of the time of :func:`outline`, which a still's
    top card calls for every blob it looks at)."""
    delta = np.roll(hull, -1, axis=0) - hull
    n = np.maximum(2, np.linalg.norm(delta, axis=1).astype(int) + 1)
    side = np.repeat(np.arange(len(hull)), n)
    j = (np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)).astype(np.float32)   # the point's index on its side
    count = n.astype(np.float32)[side]
    # linspace's own arithmetic, in the hull's float32: j times the step, but j over n times the side on a side
    # along an axis (a step of 0 in x or y)
    along_axis = (delta == 0).any(axis=1)[side]
    offset = np.where(along_axis[:, None], (j / count)[:, None] * delta[side],
                      j[:, None] * (delta[side] / count[:, None]))
    return np.asarray(offset + hull[side], np.float32)


def ordered(quad: Quad) -> Quad:
    """Corners in the order top left, top right, bottom right, bottom left of a card standing upright: a short
    side first, going round the way that does not mirror the card."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        quad = np.roll(quad, -1, axis=0)
    a, b, d = quad[0], quad[1], quad[3]
    if (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]) < 0:
        quad = quad[[1, 0, 3, 2]]
    return np.ascontiguousarray(quad, np.float32)


def _light_taken_out(img: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``img`` with the light's colour divided out: the pale bright pixels (the cards' white borders, a glare)
    made grey. A cold or a warm lamp tints the border's white (under a bluish light of 1.23 blue to 0.77 red it
    is 37 % bluer than red), and the white board is looked for as pixels that are nearly grey."""
    brightest, least = channel_max(img), channel_min(img)
    pale = (least > 0.5 * brightest) & (brightest >= np.percentile(brightest, 99)) & (brightest > 8.0)
    if int(pale.sum()) < 20:
        return img
    white = np.median(img[pale], axis=0)
    return np.asarray(img * (float(white.max()) / np.maximum(white, 1.0)), np.float32)


def still_outline(view: Image, min_area: float) -> Quad | None:
    """The corners of the top card of a photo of the pile (no earlier view to compare with), or None.

    The top card is the one lying whole: its field (the ink inside the white border) is the only field of the
    pile that is a whole card-shaped quadrilateral (the cards below show theirs cut by the cards above). The
    fields are the blobs of not-white that the white board encloses; the largest one that fills a card-shaped
    quadrilateral is taken and
    grown by the border's width to the card's outline."""
    img = _light_taken_out(view.astype(np.float32))
    h, w = img.shape[:2]
    brightest, least = channel_max(img), channel_min(img)
    # the white nearby (the light differs across a photo: vignetting, a shadow): the brightest pixel around
    k = max(15, (min(w, h) // 12) | 1)
    level = cv2.GaussianBlur(cv2.dilate(brightest, np.ones((k, k), np.uint8)), (0, 0), k / 3) + 1.0
    board = (least / level > 0.6) & ((brightest - least) / level < 0.3) \
        & (least > 0.45 * (float(np.percentile(brightest, 99.5)) + 1.0))
    inside = np.asarray(~board, np.uint8) * 255
    contours, _ = cv2.findContours(inside, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    best: tuple[float, Quad] | None = None
    for blob in contours:
        area = cv2.contourArea(blob)
        bx, by, bw, bh = cv2.boundingRect(blob)
        if area < min_area * 0.7 or bx == 0 or by == 0 or bx + bw >= w or by + bh >= h:  # the table, a speck
            continue
        one = np.zeros((h, w), np.uint8)
        cv2.drawContours(one, [blob], -1, 255, -1)
        quad = outline(one, min_area * 0.7)
        # the whole field fills its quadrilateral; one cut by a card above leaves a bite out of it
        fill = area / max(float(cv2.contourArea(quad)), 1.0) if quad is not None else 0.0
        if quad is not None and fill > 0.93 and (best is None or area > best[0]):
            best = (area, quad)
    if best is None:
        return None
    # the field's corners to the card's: the field is the card less the border on each side
    cw, ch = SIZE
    border = (EDGE, EDGE * ch / cw * 56.0 / 87.0)
    field = np.array([[border[0], border[1]], [cw - 1 - border[0], border[1]], [cw - 1 - border[0], ch - 1 - border[1]],
                      [border[0], ch - 1 - border[1]]], np.float32)
    card = np.array([[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]], np.float32)
    back = cv2.getPerspectiveTransform(field, best[1])
    return np.asarray(cv2.perspectiveTransform(card[None], back)[0], np.float32)


def rectify(frame: Image, quad: Quad) -> Image:
    """The card inside ``quad`` (frame pixels), straightened to :data:`SIZE`."""
    w, h = SIZE
    target = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    return np.asarray(cv2.warpPerspective(frame, cv2.getPerspectiveTransform(quad, target), SIZE,
                                          flags=cv2.INTER_AREA), np.uint8)


# the outline refined on the field's edge: the straightened card at REFINE times SIZE with MARGIN pixels (of SIZE)
# round it; each side's field edge is looked for this far (pixels of SIZE) either side of where the outline puts it
REFINE, MARGIN, REACH = 2, 10, 8.0


def _card_to_field() -> npt.NDArray[np.float64]:
    """The homography from a card's outline corners (SIZE's pixels) to its field's (the border taken off)."""
    cw, ch = SIZE
    border = (EDGE, EDGE * ch / cw * 56.0 / 87.0)
    field = np.array([[border[0], border[1]], [cw - 1 - border[0], border[1]], [cw - 1 - border[0], ch - 1 - border[1]],
                      [border[0], ch - 1 - border[1]]], np.float32)
    card = np.array([[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(card, field), np.float64)


def refined(frame: Image, quad: Quad) -> Quad | None:
    """``quad`` (a card's outline in ``frame``, some pixels off: the change it made takes in its thin shadow, an
    outline from a shrunk view is coarse, a card on one of its colour changes little) moved onto the card's own
    edges (:func:`_edges`), again from where that put it until it stays put; None when the card's edges are not
    found (no white border round a field there: no card, or not all of it)."""
    scale = _px_per_size(quad)
    start = quad
    for _ in range(4):
        moved = _edges(frame, quad)
        if moved is None:
            return None
        step = float(np.abs(moved - quad).max())
        quad = moved
        if step < 0.2 * scale:
            break
    if float(np.abs(quad - start).max()) > 3 * REACH * scale:
        return None
    area, was = cv2.contourArea(quad), cv2.contourArea(start)
    return quad if 0.6 * was < area < 1.6 * was and card_shaped(quad) else None


# opposite sides of a card seen from a tilt of 30° differ by about 6 %; an outline fitted a few pixels off on a
# small card, by up to 25 %: more than this is no card's outline
SKEW = 1.3


def card_shaped(quad: Quad) -> bool:
    """Whether ``quad`` can be a card as the mounting sees one: opposite sides of about one length (perspective
    from a tilt of up to 30° makes the far one a little shorter; within :data:`SKEW` of each other) and the long
    over the short within :data:`ASPECT`. Edges fitted across two cards (black on black) make other shapes."""
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    if min(sides) < 1.0:
        return False
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return max(sides[0], sides[2]) / min(sides[0], sides[2]) <= SKEW \
        and max(sides[1], sides[3]) / min(sides[1], sides[3]) <= SKEW \
        and ASPECT[0] <= max(a, b) / min(a, b) <= ASPECT[1]


def _edges(frame: Image, quad: Quad) -> Quad | None:
    """One step of :func:`refined`: the edge between the white border and the field (always there, whatever lies
    under the card: white under white hides the card's outer edge) found along each side of the straightened
    card, a line fitted to each, the card's outline the field's grown by the border; None when a side's edge is
    not found along most of it."""
    cw, ch = SIZE
    s, m = REFINE, MARGIN
    target = np.array([[m, m], [cw - 1 + m, m], [cw - 1 + m, ch - 1 + m], [m, ch - 1 + m]], np.float32) * s
    to_warp = cv2.getPerspectiveTransform(quad, target)
    size = ((cw + 2 * m) * s, (ch + 2 * m) * s)
    warped = cv2.warpPerspective(frame, to_warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    least = cv2.GaussianBlur(channel_min(np.asarray(warped, np.uint8)).astype(np.float32), (0, 0), 0.7)
    fx, fy = EDGE, EDGE * ch / cw * 56.0 / 87.0            # where the field's edge lies, pixels of SIZE
    steps = np.arange(-REACH, REACH + 0.01, 1.0 / s)
    lines = []
    # the sides: (across: 1 for a profile down a column, 0 along a row; where the edge is expected; which way
    # is inward; the stretch of the side looked at, clear of the corners and of the corner marks)
    for across, at, inward, lo, hi in ((1, fy, 1, 0.3, 0.88), (0, cw - 1 - fx, -1, 0.12, 0.74),
                                       (1, ch - 1 - fy, -1, 0.12, 0.7), (0, fx, 1, 0.26, 0.88)):
        length = cw if across == 1 else ch
        # 14 profiles across the side, one a row of `profs`, each outside in: done as arrays at once (a loop over
        # them made a dozen small numpy calls a profile; 1.25 ms a call of _edges then, 0.93 now), with the loop's
        # arithmetic in its precisions (a float32 profile compared with its halfway rounded to float32)
        us = np.linspace(lo * length, hi * length, 14)
        pos = np.round((at + inward * steps + m) * s).astype(int)
        at_us = np.round((us + m) * s).astype(int)
        profs = least[np.ix_(pos, at_us)].T if across == 1 else least[np.ix_(at_us, pos)]
        rows = np.arange(len(us))
        # the border's white (the brightest of the profile), then inward the first fall below halfway to the
        # field's ink: the edge, however blurred (a blurred step crosses its halfway at the step)
        k = profs.argmax(axis=1)
        inward_of_white = np.arange(len(pos))[None, :] >= k[:, None]
        peak, ink = profs[rows, k], np.where(inward_of_white, profs, np.inf).min(axis=1)
        half = (peak.astype(np.float64) + ink) / 2
        below = inward_of_white & (profs < half.astype(np.float32)[:, None])
        good = (peak - ink >= 12.0) & below.any(axis=1)
        j = below.argmax(axis=1)                                # the first below halfway
        fall = np.maximum((profs[rows, j - 1] - profs[rows, j]).astype(np.float64), 1e-6)
        frac = (profs[rows, j - 1].astype(np.float64) - half) / fall
        pts = np.stack([us, at + inward * (steps[j - 1] + frac / s)], axis=1)[good]
        if len(pts) < 7:
            return None
        for _ in range(2):                                   # a line, then without its outliers
            slope, icpt = np.polyfit(pts[:, 0], pts[:, 1], 1)
            off = np.abs(pts[:, 1] - (slope * pts[:, 0] + icpt))
            keep = off <= max(0.75, 2.5 * float(np.median(off)))
            if keep.sum() < 7:
                return None
            pts = pts[keep]
        slope, icpt = np.polyfit(pts[:, 0], pts[:, 1], 1)
        if abs(slope) > 0.35:
            return None
        lines.append((float(slope), float(icpt)))
    # the field's corners where the sides meet (SIZE's pixels), then back into the frame through the outline
    (a0, b0), (a1, b1), (a2, b2), (a3, b3) = lines   # top: y = a0 x + b0; right: x = a1 y + b1; bottom; left

    def meet(ay: float, by: float, ax: float, bx: float) -> tuple[float, float]:
        # y = ay x + by and x = ax y + bx
        y = (ay * bx + by) / (1 - ay * ax)
        return ax * y + bx, y
    field = np.array([meet(a0, b0, a3, b3), meet(a0, b0, a1, b1), meet(a2, b2, a1, b1), meet(a2, b2, a3, b3)],
                     np.float64)
    card = cv2.perspectiveTransform(field[None], np.linalg.inv(_card_to_field()))[0]
    out = cv2.perspectiveTransform(((card + m) * s)[None], np.linalg.inv(to_warp))[0]
    return np.ascontiguousarray(out, np.float32)


def _px_per_size(quad: Quad) -> float:
    """The frame's pixels per pixel of SIZE along the card's long side."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return float((sides[1] + sides[3]) / 2 / SIZE[1])
