"""The ``printed`` style of the simulated cards: drawn the way printed Uno cards look, not the way the recogniser
was first written for (:mod:`sim.camera.faces` draws the ``plain`` one).

A face: the white border round the field of ink (black for a wild), and in the middle a white ellipse tilted
about 30 degrees with the large symbol in the card's own colour over a black drop shadow; the digits bold and
italic; the corner indices white with a black outline, the top-left one upright and the bottom-right one turned
over. A wild's middle is an oval of the side's four colours on its black field, its symbol white with a black
outline. A card with a look of its own (``look`` "hit": an Extreme hit card, named by the caller from the
edition records) has a jagged burst in place of the ellipse; Uno Flip's dark side has a black ellipse, the symbol
in the card's colour outlined in white (its wilds: a white rim round their oval). Nothing here knows a rule or an
edition.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from ..cards import COLOURS, DARK_COLOURS
from .faces import (
    BORDER_MM,
    CORNER_MM,
    HEIGHT,
    INKS,
    PX_PER_MM,
    WHITE,
    WIDTH,
    Image,
    Mask,
    _rounded_rect,
    _stamp,
    symbol,
)

TILT_DEG = 30.0          # the ellipse's long axis from the card's long side
ELLIPSE = (0.36, 0.25)   # its half axes: a share of the card's height, of its width
SHADOW_PX = 5            # the drop shadow's offset (face pixels, down and right)
SLANT = 0.22             # an italic digit's slant (its top leans right by this share of its height)
HIT = "hit"              # the look of an Extreme hit card
DARK = "dark"            # Uno Flip's dark side


def _italic_digit(text: str, w: int, h: int) -> npt.NDArray[np.uint8]:
    """A bold italic digit as a w x h mask (6 and 9 underlined, as printed)."""
    mask = np.zeros((h, w), np.uint8)
    font, thick = cv2.FONT_HERSHEY_TRIPLEX, max(3, w // 6)
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = min(0.86 * w / tw, 0.72 * h / th)
    thick = max(3, round(thick * scale * 1.1))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = ((w - tw) // 2 - round(SLANT * th / 2), (h + th) // 2 - (h // 10 if text in ("6", "9") else 0))
    cv2.putText(mask, text, org, font, scale, 255, thick, cv2.LINE_AA)
    if text in ("6", "9"):
        y = org[1] + h // 10
        cv2.rectangle(mask, (org[0], y), (org[0] + tw, y + max(3, h // 12)), 255, -1)
    shear = np.array([[1.0, -SLANT, SLANT * h / 2], [0.0, 1.0, 0.0]], np.float32)   # the top leans right
    return np.asarray(cv2.warpAffine(mask, shear, (w, h), flags=cv2.INTER_LINEAR), np.uint8)


@lru_cache(maxsize=512)
def _symbol(name: str, side: str | None, w: int, h: int) -> npt.NDArray[np.uint8]:
    """The printed symbol: a bold italic digit for a number card, else the face's glyph (:func:`symbol`)."""
    return _italic_digit(name, w, h) if name.isdigit() else symbol(name, side, w, h)


def _middle(look: str | None) -> npt.NDArray[np.uint8]:
    """The shape in the card's middle (255 inside): the tilted ellipse, or a hit card's jagged burst."""
    mask = np.zeros((HEIGHT, WIDTH), np.uint8)
    centre = (WIDTH / 2, HEIGHT / 2)
    a, b = ELLIPSE[0] * HEIGHT, ELLIPSE[1] * WIDTH
    turn = math.radians(TILT_DEG)
    if look == HIT:   # a burst of 14 points, its tips on the ellipse, its notches well inside it
        pts = []
        for k in range(28):
            t = k * math.pi / 14
            r = 1.0 if k % 2 == 0 else 0.72
            x, y = r * b * math.sin(t), r * a * math.cos(t)
            pts.append((centre[0] + x * math.cos(turn) + y * math.sin(turn),
                        centre[1] - x * math.sin(turn) + y * math.cos(turn)))
        cv2.fillPoly(mask, [np.round(np.asarray(pts)).astype(np.int32)], 255, cv2.LINE_AA)
    else:
        cv2.ellipse(mask, (round(centre[0]), round(centre[1])), (round(b), round(a)), -TILT_DEG, 0, 360, 255, -1,
                    cv2.LINE_AA)
    return mask


def _quarters(inside: npt.NDArray[np.uint8], colours: tuple[str, ...]) -> Image:
    """The middle painted in four colours, a quarter each (turned with the ellipse), as a wild's oval is."""
    h, w = inside.shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = (np.degrees(np.arctan2(ys - h / 2, xs - w / 2)) + TILT_DEG + 360.0) % 360.0
    which = (angle // 90).astype(np.int32) % len(colours)
    img = np.zeros((h, w, 3), np.float32)
    for i, colour in enumerate(colours):
        img[which == i] = INKS[colour]
    return img


def _paint(img: Image, mask: npt.NDArray[np.uint8], bgr: tuple[float, float, float] | Image) -> None:
    """``mask`` (0..255) painted onto ``img`` in ``bgr`` (a colour, or an image of colours)."""
    cover = (mask.astype(np.float32) / 255.0)[..., None]
    img *= 1.0 - cover
    img += cover * np.asarray(bgr, np.float32)


def _shifted(mask: npt.NDArray[np.uint8], by: int) -> npt.NDArray[np.uint8]:
    out = np.zeros_like(mask)
    out[by:, by:] = mask[:-by, :-by]
    return out


@lru_cache(maxsize=512)
def face(name: str, colour: str | None, side: str | None = None, look: str | None = None) -> tuple[Image, Mask]:
    """The printed card's face (BGR reflectance) and its outline (coverage), ``HEIGHT`` x ``WIDTH``, cached;
    ``colour`` None is a wild. Raises KeyError for a colour no ink is known for."""
    dark = side == DARK
    ink = INKS[colour]
    card = _rounded_rect(HEIGHT, WIDTH, 0.0, CORNER_MM * PX_PER_MM)
    field = _rounded_rect(HEIGHT, WIDTH, BORDER_MM * PX_PER_MM, (CORNER_MM - 1.5) * PX_PER_MM)
    img = np.empty((HEIGHT, WIDTH, 3), np.float32)
    img[:] = WHITE
    _paint(img, np.round(field * 255).astype(np.uint8), ink)
    middle = _middle(look)
    sw, sh = round(WIDTH * 0.56), round(HEIGHT * 0.46)
    big = np.zeros((HEIGHT, WIDTH), np.uint8)
    x, y = (WIDTH - sw) // 2, (HEIGHT - sh) // 2
    big[y:y + sh, x:x + sw] = _symbol(name, side, sw, sh)
    if colour is None:   # a wild: the side's four colours in the middle, the symbol white with a black outline
        _paint(img, middle, _quarters(middle, DARK_COLOURS if dark else COLOURS))
        if dark:   # the dark side's wild: a white rim round its oval
            rim = np.asarray(cv2.morphologyEx(middle, cv2.MORPH_GRADIENT, np.ones((5, 5), np.uint8)), np.uint8)
            _paint(img, rim, WHITE)
        _stamp(img, big[y:y + sh, x:x + sw], x, y, outline=3)
    else:
        if dark:   # the dark side: a black ellipse, the symbol in the card's colour outlined in white
            _paint(img, middle, (0.06, 0.06, 0.07))
            _paint(img, np.asarray(cv2.dilate(big, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))), np.uint8),
                   WHITE)
        else:
            _paint(img, middle, WHITE)
            _paint(img, _shifted(big, SHADOW_PX), (0.05, 0.05, 0.05))
        _paint(img, big, ink)
    cw, ch = round(WIDTH * 0.2), round(HEIGHT * 0.17)
    small = _symbol(name, side, cw, ch)
    m = round((BORDER_MM + 1.0) * PX_PER_MM)
    _stamp(img, small, m, m, outline=2)
    _stamp(img, np.ascontiguousarray(small[::-1, ::-1]), WIDTH - m - cw, HEIGHT - m - ch, outline=2)
    img.flags.writeable = False
    card.flags.writeable = False
    return img, card
