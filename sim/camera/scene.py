"""The physical scene round the discard pile: where the camera hangs, the light, and a hand reaching over.

:class:`SceneSettings` holds the ranges the conditions are drawn from; :class:`Conditions` one draw of them,
fixed for a :class:`~sim.camera.SimCamera`'s session (a table's lamp and camera do not move between cards). The
camera is a pinhole camera ``height`` mm above the table, its axis tilted ``tilt`` degrees from vertical and aimed
at the pile's centre, turned ``roll`` degrees about its axis; :func:`table_to_image` is the homography that takes
the table's plane (mm, the pile's centre at the origin) into the image. The light is a brightness, a colour
temperature (gains on red and blue: :func:`lamp_colour`), a soft shadow (someone leaning over the table), a glare
spot (the lamp's reflection off the cards' gloss: the lamp's colour, not the card's), and the lens's vignetting;
then defocus and sensor noise.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Range = tuple[float, float]


@dataclass(frozen=True)
class SceneSettings:
    """The ranges a scene's conditions are drawn from (the learning uses :data:`LEARNING`, the held-out set
    :data:`HELD_OUT`: wider, never seen while learning)."""

    resolution: tuple[int, int] = (640, 480)
    height_mm: Range = (350.0, 550.0)        # camera above the table (docs/vision.md: 30-60 cm)
    tilt_deg: Range = (0.0, 25.0)            # its axis from vertical (docs/vision.md: at most 30)
    roll_deg: Range = (-180.0, 180.0)
    fov_deg: Range = (58.0, 70.0)            # horizontal field of view (Camera Module 3: 66, webcams 55-78)
    brightness: Range = (0.7, 1.2)
    warmth: Range = (-0.15, 0.15)            # < 0 cold (daylight), > 0 warm (a bulb)
    shadow: Range = (0.0, 0.45)              # how much light the shadow takes away at its darkest
    glare: Range = (0.0, 0.5)                # the glare spot's strength (1: saturates the sensor)
    blur_px: Range = (0.0, 1.0)              # defocus, the Gaussian's sigma in pixels
    noise: Range = (1.0, 4.0)                # sensor noise, standard deviation in 8-bit levels
    spread_mm: float = 22.0                  # a card lands this far from the pile's centre at most
    hand_with_card: float = 0.5              # the chance that the hand that put a card is seen leaving
    hands_per_second: float = 0.05           # hands reaching over the pile for nothing
    fps: float = 10.0                        # frames per second when no clock is given


LEARNING = SceneSettings(height_mm=(430.0, 470.0), tilt_deg=(5.0, 12.0), brightness=(0.9, 1.05),
                         warmth=(-0.03, 0.03), shadow=(0.0, 0.1), glare=(0.0, 0.1), blur_px=(0.2, 0.5),
                         noise=(1.5, 2.5), hand_with_card=0.0, hands_per_second=0.0)
HELD_OUT = SceneSettings(height_mm=(300.0, 600.0), tilt_deg=(0.0, 30.0), brightness=(0.55, 1.3),
                         warmth=(-0.25, 0.25), shadow=(0.0, 0.55), glare=(0.0, 0.7), blur_px=(0.0, 1.4),
                         noise=(1.0, 6.0), hand_with_card=0.6, hands_per_second=0.1)


@dataclass(frozen=True)
class Conditions:
    """One draw of a scene's settings: the camera's pose and lens, the light."""

    height_mm: float
    tilt_deg: float
    roll_deg: float
    fov_deg: float
    brightness: float
    warmth: float
    shadow: float
    glare: float
    blur_px: float
    noise: float
    shadow_at: tuple[float, float, float]    # the shadow's centre (fraction of the frame) and radius
    glare_at: tuple[float, float, float]     # the glare spot's centre and radius
    table: tuple[float, float, float]        # the table's BGR reflectance

    @staticmethod
    def draw(settings: SceneSettings, rng: random.Random) -> Conditions:
        def u(r: Range) -> float:
            return rng.uniform(*r)
        tables = ((0.30, 0.42, 0.55), (0.18, 0.25, 0.33), (0.25, 0.45, 0.22), (0.55, 0.55, 0.52),
                  (0.12, 0.12, 0.14), (0.45, 0.32, 0.22))
        table = rng.choice(tables)
        return Conditions(u(settings.height_mm), u(settings.tilt_deg), u(settings.roll_deg), u(settings.fov_deg),
                          u(settings.brightness), u(settings.warmth), u(settings.shadow), u(settings.glare),
                          u(settings.blur_px), u(settings.noise),
                          (rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.3, 0.7)),
                          (rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75), rng.uniform(0.05, 0.14)),
                          tuple(c * rng.uniform(0.85, 1.15) for c in table))  # type: ignore[arg-type]


def table_to_image(c: Conditions, size: tuple[int, int]) -> npt.NDArray[np.float64]:
    """The homography from the table (mm, the pile's centre at the origin) to the image (pixels)."""
    w, h = size
    f = (w / 2) / math.tan(math.radians(c.fov_deg) / 2)
    t = math.radians(c.tilt_deg)
    centre = np.array([0.0, -c.height_mm * math.tan(t), c.height_mm])
    forward = -centre / np.linalg.norm(centre)
    right = np.cross(forward, [0.0, 1.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    rot = np.stack([right, down, forward])
    ext = np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    a = math.radians(c.roll_deg)
    k = np.array([[f, 0.0, 0.0], [0.0, f, 0.0], [0.0, 0.0, 1.0]])
    turn = np.array([[math.cos(a), -math.sin(a), w / 2], [math.sin(a), math.cos(a), h / 2], [0.0, 0.0, 1.0]])
    m = turn @ k @ ext
    return np.asarray(m / m[2, 2], np.float64)


def light_map(c: Conditions, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The light falling on each pixel (BGR gains): brightness, colour temperature, vignetting, the shadow."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / float((w / 2) ** 2 + (h / 2) ** 2)
    level = c.brightness * (1.0 - 0.25 * r2)
    sx, sy, sr = c.shadow_at
    d = np.sqrt((xs / w - sx) ** 2 + (ys / h - sy) ** 2) / sr
    level *= 1.0 - c.shadow * np.clip(1.2 - d, 0.0, 1.0)   # soft-edged: full at its middle, none past 1.2 r
    return np.asarray(level[..., None] * lamp_colour(c), np.float32)


def lamp_colour(c: Conditions) -> npt.NDArray[np.float32]:
    """The lamp's colour as the sensor sees it (BGR gains): a warm bulb adds red and takes blue, daylight the
    other way. It is the lamp's colour, or the camera's white balance missing it; either way it acts alike on all
    the light the lens lets in, what the cards scatter and the glare off their gloss."""
    return np.asarray([1.0 - c.warmth, 1.0, 1.0 + c.warmth], np.float32)


def glare_map(c: Conditions, size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The glare spot (BGR), added to what the cards scatter: the lamp's reflection off their gloss, so in the
    lamp's colour (:func:`lamp_colour`), not the card's."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy, gr = c.glare_at
    d2 = ((xs / w - gx) ** 2 + (ys / h - gy) ** 2) / gr ** 2
    spot = c.glare * np.exp(-d2)
    return np.asarray(spot[..., None] * lamp_colour(c), np.float32)


SKIN = ((0.55, 0.66, 0.86), (0.42, 0.55, 0.78), (0.30, 0.42, 0.62), (0.18, 0.27, 0.42))


@dataclass
class Hand:
    """A hand reaching over the pile from one edge of the frame and back, over ``frames`` frames."""

    start: tuple[float, float]      # where it comes from (pixels, off the frame)
    over: tuple[float, float]       # the point over the pile it reaches
    began: float                    # scene time it appeared
    duration: float                 # seconds until it is gone
    skin: tuple[float, float, float]
    scale: float                    # pixels per mm over the pile
    leaving: bool                   # it starts over the pile (it just put a card) and only leaves

    def where(self, t: float) -> tuple[float, float] | None:
        """The palm's centre at scene time ``t``, None once it has gone."""
        phase = (t - self.began) / self.duration
        if phase < 0 or phase > 1:
            return None
        reach = 1.0 - phase if self.leaving else 1.0 - abs(2 * phase - 1)
        return (self.start[0] + (self.over[0] - self.start[0]) * reach,
                self.start[1] + (self.over[1] - self.start[1]) * reach)

    def draw(self, img: npt.NDArray[np.float32], t: float) -> Box | None:
        """Draws the arm, palm and fingers (lit as the scene is) and their shadow onto ``img``; returns the box of
        the pixels it changed (None: it has gone). Only that box is worked on: the blurs of the hand's outline
        are taken over crops (:func:`blurred_over`), so that each pixel comes out as over the whole frame."""
        at = self.where(t)
        if at is None:
            return None
        x, y = at
        ang = math.atan2(self.over[1] - self.start[1], self.over[0] - self.start[0])
        s = self.scale
        size = img.shape[1], img.shape[0]
        mask = np.zeros(img.shape[:2], np.uint8)
        end = (round(x - math.cos(ang) * 900 * s), round(y - math.sin(ang) * 900 * s))
        cv2.line(mask, end, (round(x), round(y)), 255, max(2, round(70 * s)))
        cv2.ellipse(mask, (round(x), round(y)), (round(50 * s), round(45 * s)), math.degrees(ang), 0, 360, 255, -1)
        for k in range(4):
            off = (k - 1.5) * 20 * s
            fx = x + math.cos(ang) * 60 * s - math.sin(ang) * off
            fy = y + math.sin(ang) * 60 * s + math.cos(ang) * off
            cv2.ellipse(mask, (round(fx), round(fy)), (round(35 * s), round(9 * s)), math.degrees(ang), 0, 360, 255,
                        -1)
        edge = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.0), np.uint8)
        on = _nonzero_box(edge)
        if on is None:
            return None
        # the cover (0..1) is edge / 255, worked out over the crops alone (elementwise: the same numbers)
        rolled = np.asarray(np.roll(edge, (round(25 * s), round(15 * s)), axis=(0, 1)), np.uint8)
        sigma = 12 * s + 1
        shaded = _nonzero_box(rolled)
        touched = on
        if shaded is not None:   # outside its reach the shadow's blur is 0, and the scene stays as it is
            near = grown(shaded, reach(sigma), size)
            shade = blurred_over(rolled, sigma, near)
            view = img[near[1]:near[3], near[0]:near[2]]
            view *= (1.0 - 0.45 * shade)[..., None]
            touched = union(touched, near)
        x0, y0, x1, y1 = on
        view = img[y0:y1, x0:x1]
        here = edge[y0:y1, x0:x1].astype(np.float32) / 255.0
        view *= (1.0 - here)[..., None]
        shading = 0.8 + 0.2 * blurred_over(edge, 8 * s + 1, on)
        view += (here * shading)[..., None] * np.asarray(self.skin, np.float32)
        return touched


Box = tuple[int, int, int, int]   # x0, y0, x1, y1: pixels from x0 and y0 up to (not including) x1 and y1

# A crop starts and ends on a multiple of LANES pixels across (or at the frame's edge): OpenCV's vectorised
# filters then take each pixel in the same lane as over the whole frame, and a crop's blur is the frame's bit
# for bit (a crop on other columns differs by a rounding in the last bit: tests/test_camera_frames.py)
LANES = 32


def reach(sigma: float) -> int:
    """How far (pixels) OpenCV's Gaussian blur of ``sigma`` reaches on a float image: its kernel's half width
    (``round(8 sigma + 1) | 1`` wide), or a pixel more."""
    return math.ceil(4 * sigma) + 1


def grown(box: Box, by: int, size: tuple[int, int]) -> Box:
    """``box`` grown by ``by`` pixels on every side, within a frame of ``size`` (w, h)."""
    x0, y0, x1, y1 = box
    return max(0, x0 - by), max(0, y0 - by), min(size[0], x1 + by), min(size[1], y1 + by)


def union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _nonzero_box(img: npt.NDArray[np.uint8]) -> Box | None:
    x, y, w, h = cv2.boundingRect(img)
    return None if w == 0 or h == 0 else (x, y, x + w, y + h)


def blurred_over(src: npt.NDArray[np.float32] | npt.NDArray[np.uint8], sigma: float,
                 box: Box) -> npt.NDArray[np.float32]:
    """``cv2.GaussianBlur(src, (0, 0), sigma)`` over ``box`` alone, as it is over the whole of ``src`` (its
    border reflected at the frame's edges): blurred from a crop that reaches past ``box`` as far as the kernel.
    A uint8 ``src`` is a coverage: its crop is blurred as ``src / 255`` (float32) would be."""
    h, w = src.shape[:2]
    x0, y0, x1, y1 = box
    r = reach(sigma)
    cx0, cx1 = max(0, x0 - r) // LANES * LANES, min(w, -(-(x1 + r) // LANES) * LANES)
    cy0, cy1 = max(0, y0 - r), min(h, y1 + r)
    part = src[cy0:cy1, cx0:cx1]
    crop = part.astype(np.float32) / 255.0 if part.dtype == np.uint8 else np.ascontiguousarray(part, np.float32)
    out = cv2.GaussianBlur(crop, (0, 0), sigma)
    return np.asarray(out[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0], np.float32)
