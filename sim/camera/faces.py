"""The printed faces of the simulated cards: what a card looks like, drawn with OpenCV from its name and colour.

A face is drawn the way an Uno card is printed: a rounded card of white board, a white border round a field of
ink in the card's colour (black for a wild), one large central symbol in white with a black outline, and the
same symbol small in two opposite corners (the lower one turned over, as printed). A number card's symbol is its
digit (a 6 and a 9 underlined, as on real cards); every other face gets a glyph made of a few strokes and
shapes, generated from the face's name (and its side, for Flip's dark side), so the same face always looks the
same and different faces differ, as different faces of a box do. Nothing here knows a rule or an edition: the
caller says which faces exist (``shooter.vision.synthetic`` from the edition records).

Faces are drawn at :data:`PX_PER_MM` pixels per millimetre of a 56 x 87 mm card and cached.
"""

from __future__ import annotations

import math
import random
import zlib
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

CARD_MM = (56.0, 87.0)      # width, height of an Uno card
CORNER_MM = 4.0             # the radius of its rounded corners
BORDER_MM = 3.5             # the white border round the colour field
PX_PER_MM = 3.0
WIDTH, HEIGHT = round(CARD_MM[0] * PX_PER_MM), round(CARD_MM[1] * PX_PER_MM)

Image = npt.NDArray[np.float32]   # H x W x 3 BGR reflectance, 0..1
Mask = npt.NDArray[np.float32]    # H x W coverage, 0..1

# Ink colours as BGR reflectance (0..1): the light side's four, Uno Flip's dark side's four, a wild's black and
# the board's white. The simulator's colour names (sim.cards.COLOURS, DARK_COLOURS).
INKS: dict[str | None, tuple[float, float, float]] = {
    "red": (0.16, 0.16, 0.84), "yellow": (0.12, 0.78, 0.94), "green": (0.24, 0.63, 0.16), "blue": (0.75, 0.35, 0.08),
    "pink": (0.67, 0.31, 0.92), "teal": (0.59, 0.59, 0.08), "orange": (0.08, 0.47, 0.96),
    "purple": (0.55, 0.16, 0.43), None: (0.10, 0.10, 0.11),
}
WHITE = (0.94, 0.94, 0.93)


def _rounded_rect(h: int, w: int, inset: float, radius: float) -> Mask:
    """A filled rounded rectangle ``inset`` px inside an h x w canvas, anti-aliased (drawn at 4x, shrunk)."""
    s = 4
    big = np.zeros((h * s, w * s), np.uint8)
    x0, y0, x1, y1 = round(inset * s), round(inset * s), round((w - inset) * s) - 1, round((h - inset) * s) - 1
    r = max(1, round(radius * s))
    cv2.rectangle(big, (x0 + r, y0), (x1 - r, y1), 255, -1)
    cv2.rectangle(big, (x0, y0 + r), (x1, y1 - r), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _digit(mask: npt.NDArray[np.uint8], text: str) -> None:
    h, w = mask.shape
    font, thick = cv2.FONT_HERSHEY_DUPLEX, max(2, w // 9)
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thick)
    scale = min(0.78 * w / tw, 0.62 * h / th)
    thick = max(2, round(thick * scale * 0.9))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = ((w - tw) // 2, (h + th) // 2 - (h // 10 if text in ("6", "9") else 0))
    cv2.putText(mask, text, org, font, scale, 255, thick, cv2.LINE_AA)
    if text in ("6", "9"):  # printed underlined, so that a card upside down is not the other digit
        y = org[1] + h // 10
        cv2.rectangle(mask, (org[0], y), (org[0] + tw, y + max(3, h // 14)), 255, -1)


def _glyph(mask: npt.NDArray[np.uint8], key: str) -> None:
    """Strokes and shapes chosen by a generator seeded from the face's name: the same face, the same glyph."""
    h, w = mask.shape
    rng = random.Random(zlib.crc32(key.encode("utf-8")))
    thick = max(3, w // 10)

    def pt(x: float, y: float) -> tuple[int, int]:
        return round(x * (w - 1)), round(y * (h - 1))

    shapes = rng.sample(("arrow", "disc", "ring", "bar", "triangle", "chevron", "square", "cross"), 3)
    for i, shape in enumerate(shapes):
        cx, cy = 0.5 + rng.uniform(-0.18, 0.18), (0.22, 0.5, 0.78)[i] + rng.uniform(-0.06, 0.06)
        size, angle = rng.uniform(0.16, 0.26), rng.uniform(0, math.pi)
        dx, dy = math.cos(angle) * size, math.sin(angle) * size * w / h
        if shape == "arrow":
            cv2.line(mask, pt(cx - dx, cy - dy), pt(cx + dx, cy + dy), 255, thick, cv2.LINE_AA)
            tip = np.array([pt(cx + 1.5 * dx, cy + 1.5 * dy), pt(cx + dx - dy, cy + dy + dx),
                            pt(cx + dx + dy, cy + dy - dx)], np.int32)
            cv2.fillPoly(mask, [tip], 255, cv2.LINE_AA)
        elif shape == "disc":
            cv2.circle(mask, pt(cx, cy), round(size * w * 0.7), 255, -1, cv2.LINE_AA)
        elif shape == "ring":
            cv2.circle(mask, pt(cx, cy), round(size * w * 0.8), 255, thick, cv2.LINE_AA)
        elif shape == "bar":
            cv2.line(mask, pt(cx - 1.4 * dx, cy - 1.4 * dy), pt(cx + 1.4 * dx, cy + 1.4 * dy), 255, thick * 2,
                     cv2.LINE_AA)
        elif shape == "triangle":
            tri = [pt(cx + math.cos(angle + k * 2.094) * size, cy + math.sin(angle + k * 2.094) * size * w / h)
                   for k in range(3)]
            cv2.fillPoly(mask, [np.array(tri, np.int32)], 255, cv2.LINE_AA)
        elif shape == "chevron":
            pts = np.array([pt(cx - dx - dy, cy - dy + dx), pt(cx, cy), pt(cx + dx - dy, cy + dy + dx)], np.int32)
            cv2.polylines(mask, [pts], False, 255, thick, cv2.LINE_AA)
        elif shape == "square":
            box = cv2.boxPoints(((cx * (w - 1), cy * (h - 1)), (size * w * 1.2, size * w * 1.2), math.degrees(angle)))
            cv2.fillPoly(mask, [box.astype(np.int32)], 255, cv2.LINE_AA)
        else:  # cross
            cv2.line(mask, pt(cx - dx, cy - dy), pt(cx + dx, cy + dy), 255, thick, cv2.LINE_AA)
            cv2.line(mask, pt(cx + dy, cy - dx), pt(cx - dy, cy + dx), 255, thick, cv2.LINE_AA)


@lru_cache(maxsize=512)
def symbol(name: str, side: str | None, w: int, h: int) -> npt.NDArray[np.uint8]:
    """The face's symbol as a w x h mask (255 = ink): its digit for a number card, else its glyph."""
    mask = np.zeros((h, w), np.uint8)
    if name.isdigit():
        _digit(mask, name)
    else:
        _glyph(mask, name if side in (None, "light") else f"{side}:{name}")
    return mask


def _stamp(img: Image, mask: npt.NDArray[np.uint8], x: int, y: int, outline: int) -> None:
    """White ``mask`` with a black outline ``outline`` px wide, onto ``img`` at (x, y)."""
    h, w = mask.shape
    ink = mask.astype(np.float32) / 255.0
    edge = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * outline + 1,) * 2)).astype(np.float32)
    edge /= 255.0
    region = img[y:y + h, x:x + w]
    region *= (1.0 - edge)[..., None]
    region += edge[..., None] * np.float32(0.05)
    region *= (1.0 - ink)[..., None]
    region += ink[..., None] * np.asarray(WHITE, np.float32)


@lru_cache(maxsize=512)
def face(name: str, colour: str | None, side: str | None = None) -> tuple[Image, Mask]:
    """The card's face (BGR reflectance) and its outline (coverage), ``HEIGHT`` x ``WIDTH``, cached; ``colour``
    None is a wild's black field. Raises KeyError for a colour no ink is known for."""
    ink = INKS[colour]
    card = _rounded_rect(HEIGHT, WIDTH, 0.0, CORNER_MM * PX_PER_MM)
    field = _rounded_rect(HEIGHT, WIDTH, BORDER_MM * PX_PER_MM, (CORNER_MM - 1.5) * PX_PER_MM)
    img = np.empty((HEIGHT, WIDTH, 3), np.float32)
    img[:] = WHITE
    img *= (1.0 - field)[..., None]
    img += field[..., None] * np.asarray(ink, np.float32)
    sw, sh = round(WIDTH * 0.56), round(HEIGHT * 0.46)
    _stamp(img, symbol(name, side, sw, sh), (WIDTH - sw) // 2, (HEIGHT - sh) // 2, outline=3)
    cw, ch = round(WIDTH * 0.2), round(HEIGHT * 0.17)
    small = symbol(name, side, cw, ch)
    m = round((BORDER_MM + 1.0) * PX_PER_MM)
    _stamp(img, small, m, m, outline=1)
    turned = np.ascontiguousarray(small[::-1, ::-1])
    _stamp(img, turned, WIDTH - m - cw, HEIGHT - m - ch, outline=1)
    img.flags.writeable = False
    card.flags.writeable = False
    return img, card
