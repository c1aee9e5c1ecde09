"""The simulated camera's frames as it first rendered them (the whole frame, every frame): the reference that
tests/test_camera_frames.py holds the faster renderer to. Kept as the first renderer had it, for that test only
(the held-out set of ``cards bench`` is rendered by sim.camera, and must not change with its speed)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from sim.camera import SimCamera
from sim.camera.scene import Hand


def draw_whole(hand: Hand, img, t: float) -> None:
    """Hand.draw as it was: the mask, its blurs and its shading over the whole frame."""
    at = hand.where(t)
    if at is None:
        return
    x, y = at
    ang = math.atan2(hand.over[1] - hand.start[1], hand.over[0] - hand.start[0])
    s = hand.scale
    mask = np.zeros(img.shape[:2], np.uint8)
    end = (round(x - math.cos(ang) * 900 * s), round(y - math.sin(ang) * 900 * s))
    cv2.line(mask, end, (round(x), round(y)), 255, max(2, round(70 * s)))
    cv2.ellipse(mask, (round(x), round(y)), (round(50 * s), round(45 * s)), math.degrees(ang), 0, 360, 255, -1)
    for k in range(4):
        off = (k - 1.5) * 20 * s
        fx = x + math.cos(ang) * 60 * s - math.sin(ang) * off
        fy = y + math.sin(ang) * 60 * s + math.cos(ang) * off
        cv2.ellipse(mask, (round(fx), round(fy)), (round(35 * s), round(9 * s)), math.degrees(ang), 0, 360, 255, -1)
    cover = cv2.GaussianBlur(mask, (0, 0), 1.0).astype(np.float32) / 255.0
    shade = cv2.GaussianBlur(np.roll(cover, (round(25 * s), round(15 * s)), axis=(0, 1)), (0, 0), 12 * s + 1)
    img *= (1.0 - 0.45 * shade)[..., None]
    img *= (1.0 - cover)[..., None]
    shading = 0.8 + 0.2 * cv2.GaussianBlur(cover, (0, 0), 8 * s + 1)
    img += (cover * shading)[..., None] * np.asarray(hand.skin, np.float32)


class WholeFrameCamera(SimCamera):
    """SimCamera with the first renderer's capture: every frame with a hand drawn and lit whole."""

    def capture(self):
        t = self.clock.now() if self.clock is not None else self._frames / self.settings.fps
        self._frames += 1
        self._follow_pile(t)
        self._random_hand(t)
        hands = [h for h in self._hands if h.where(t) is not None]
        if self._dirty is not None:   # the scene changed (a card put down): the still frame again
            self._lit, self._dirty = None, None
        if hands or self._lit is None:
            img = self._scene.copy()
            for hand in hands:
                draw_whole(hand, img, t)
            img = self._whole_optics(img)
            if not hands:
                self._lit = img
        else:
            img = self._lit
        self._hands = [h for h in self._hands if h.where(t) is not None or t < h.began]
        self._last_t = t
        cv2.setRNGSeed(int(self.noise.integers(2 ** 31)))
        noise = np.empty_like(img)
        cv2.randn(noise, np.zeros(3), np.full(3, self.conditions.noise))
        out = cv2.threshold(cv2.add(img, noise), 0.0, 0.0, cv2.THRESH_TOZERO)[1]
        return np.asarray(cv2.convertScaleAbs(out), np.uint8)

    def _whole_optics(self, img):
        lit = cv2.add(cv2.multiply(img, self._light), self._glare)
        if self.conditions.blur_px > 0.05:
            lit = np.asarray(cv2.GaussianBlur(lit, (0, 0), self.conditions.blur_px), np.float32)
        return np.multiply(lit, np.float32(255.0), dtype=np.float32)
