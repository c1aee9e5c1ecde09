"""The simulated camera over the discard pile: it renders the pile of physical cards as a camera sees it.

``SimCamera(pile, rng, settings).capture()`` returns the current frame (H x W x 3, BGR, uint8), as
``hal.camera``'s cameras do. ``pile`` is the caller's list of physical cards (:class:`sim.cards.Card`,
:class:`sim.cards.FlipCard`), oldest first: whoever plays appends a card to it (the bots, a test), and the camera
sees it on its next frame, dropped on top of the pile at a random place near the pile's centre and turned at
random. A card taken away (the pile cleared) is gone from the next frame. A Flip card shows the side
:attr:`SimCamera.side_up` names (the whole pile turns over when the table flips).

It is a model of the scene, not of the answer: each card's face is drawn (:mod:`sim.camera.faces`) onto the
table's plane, which the camera's homography takes into the image; the frame is then lit (brightness, colour
temperature, vignetting, a shadow, a glare spot), blurred (defocus) and noised (the sensor). A hand leaves the
pile over a few frames after some cards are put down, and now and then one reaches over it for nothing. Every
random choice comes from ``rng`` (a :class:`random.Random`) and a numpy generator seeded from it.

Rendering does only what changed: the still pile goes through the lens once (again where a card is put down, and
whole when cards are taken away), and a hand is drawn and lit over the part of the frame it changes, from crops
that give each pixel as the whole frame would (tests/test_camera_frames.py holds the frames to the first,
whole-frame renderer's, bit for bit).

Time: with a ``clock`` (``hal.Clock``) the scene's time is the clock's (the hand moves in that time); without
one, each capture is one frame of ``settings.fps`` later.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from ..cards import Card, FlipCard, TableCard
from . import faces, styles
from .scene import (
    HELD_OUT,
    LANES,
    LEARNING,
    SKIN,
    Box,
    Conditions,
    Hand,
    SceneSettings,
    blurred_over,
    glare_map,
    grown,
    light_map,
    reach,
    table_to_image,
    union,
)

if TYPE_CHECKING:
    from hal.clock import Clock

__all__ = ["HELD_OUT", "LEARNING", "STYLES", "Conditions", "Pose", "SceneSettings", "SimCamera"]

STYLES = styles.STYLES

Frame = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Pose:
    """Where a card lies on the table: its centre (mm from the pile's centre) and its turn (degrees)."""

    x: float
    y: float
    angle: float


def _face_to_table(pose: Pose) -> npt.NDArray[np.float64]:
    """From a face's pixels (:mod:`sim.camera.faces`) to the table's mm where the card lies at ``pose``."""
    s, a = faces.PX_PER_MM, math.radians(pose.angle)
    # the face's rows run down the card, the table's y away from the camera's bottom edge: seen from above, a
    # face's "down" is the table's -y (else the camera would see the card mirrored)
    turn = np.array([[math.cos(a) / s, math.sin(a) / s, pose.x], [math.sin(a) / s, -math.cos(a) / s, pose.y],
                     [0.0, 0.0, 1.0]])
    return np.asarray(turn @ np.array([[1.0, 0.0, -faces.WIDTH / 2], [0.0, 1.0, -faces.HEIGHT / 2], [0.0, 0.0, 1.0]]),
                      np.float64)


COVER = 0.02   # a hand or its shadow changed the scene this much (0..1) where it covers a card (:meth:`covered`)


class SimCamera:
    """A camera over a simulated pile (see the module docstring)."""

    def __init__(self, pile: Sequence[TableCard], rng: random.Random, settings: SceneSettings = HELD_OUT, *,
                 clock: Clock | None = None, conditions: Conditions | None = None, style: str = "plain",
                 looks: Mapping[str, str] | None = None):
        self.pile = pile
        self.rng = rng
        self.settings = settings
        self.clock = clock
        self.conditions = conditions or Conditions.draw(settings, rng)
        self.noise = np.random.default_rng(rng.getrandbits(63))
        # the cards' style (sim.camera.styles) and the faces with a look of their own in it (name: look); the
        # plain style draws nothing more at random, so that its frames stay what they were
        self.style = styles.style(style)
        self.looks = dict(looks or {})
        self.table_kind = rng.choice(self.style.tables) if len(self.style.tables) > 1 else self.style.tables[0]
        self.jpeg = rng.randint(*self.style.jpeg) if self.style.jpeg is not None else None
        self.side_up = "light"
        self.size = settings.resolution
        self.homography = table_to_image(self.conditions, self.size)
        self.scale = self._px_per_mm()
        self._light = light_map(self.conditions, self.size)
        self._glare = glare_map(self.conditions, self.size)
        self._table = self._table_texture()
        self._scene = self._table.copy()
        self._placed: list[tuple[TableCard, Pose]] = []
        self._shown_side = self.side_up
        self._hands: list[Hand] = []
        self._frames = 0
        self._last_t = 0.0
        self._lit: npt.NDArray[np.float32] | None = None   # the still scene through the lens
        self._dirty: Box | None = None   # where the scene changed since _lit was worked out
        self.hand_in_view = False   # a hand was over the scene in the last frame
        self._hand_over: tuple[Box, npt.NDArray[np.bool_]] | None = None   # its box, and the pixels it changed
        # the sensor's exposure (time and gain) as a share of the camera's own: the light it collects scales with
        # it before it clips at 255; the noise does not (the sensor's read noise is the same however long it looks)
        self.exposure = 1.0
        self.closed = False

    # -- the camera's interface, as hal's cameras have it
    def capture(self) -> Frame:
        """The current frame of the scene."""
        t = self.clock.now() if self.clock is not None else self._frames / self.settings.fps
        self._frames += 1
        self._follow_pile(t)
        self._random_hand(t)
        hands = [h for h in self._hands if h.where(t) is not None]
        self.hand_in_view = bool(hands)
        self._hand_over = None
        img = self._still()
        if hands:
            img = self._with_hands(img, hands, t)
        self._hands = [h for h in self._hands if h.where(t) is not None or t < h.began]
        self._last_t = t
        if self.exposure != 1.0:
            img = np.multiply(img, np.float32(self.exposure), dtype=np.float32)
        # the sensor: cv2's generator (fast) seeded from ours, so that a seed gives the same frames; drawn as one
        # channel (the same numbers as three of the same spread, sooner), added and rounded into 0..255 at once
        cv2.setRNGSeed(int(self.noise.integers(2 ** 31)))
        noise = np.empty((img.shape[0], img.shape[1] * 3), np.float32)
        cv2.randn(noise, np.zeros(1), np.full(1, self.conditions.noise))
        frame = np.asarray(cv2.add(img, noise.reshape(img.shape), dtype=cv2.CV_8U), np.uint8)
        return frame if self.jpeg is None else styles.jpeg(frame, self.jpeg)

    def _still(self) -> npt.NDArray[np.float32]:
        """The still scene (the pile, no hand) through the lens: worked out once until the pile changes."""
        if self._lit is None:
            self._lit = self._optics(self._scene, (0, 0, *self.size))
        elif self._dirty is not None:   # cards put down since: the lens's view changed as far as its blur spreads
            blur = self.conditions.blur_px
            near = grown(self._dirty, reach(blur) if blur > 0.05 else 0, self.size)
            self._lit[near[1]:near[3], near[0]:near[2]] = self._optics(self._scene, near)
        self._dirty = None
        return self._lit

    def _with_hands(self, lit: npt.NDArray[np.float32], hands: list[Hand], t: float) -> npt.NDArray[np.float32]:
        """The frame with ``hands`` over the scene: the still frame ``lit`` but where the hands changed the scene
        (and as far as the lens's blur spreads that), which alone goes through the lens again."""
        scene = self._scene.copy()
        touched: Box | None = None
        for hand in hands:
            box = hand.draw(scene, t)
            if box is not None:
                touched = box if touched is None else union(touched, box)
        if touched is None:
            return lit
        x0, y0, x1, y1 = touched
        # where a hand or its shadow lay in this frame (for :meth:`covered`: a bench's clock, never the recogniser):
        # the scene changed by more than 2 % (the shadow's blurred tail, fainter, is no cover)
        change = np.abs(scene[y0:y1, x0:x1] - self._scene[y0:y1, x0:x1]).max(axis=2)
        self._hand_over = (touched, change > COVER)
        blur = self.conditions.blur_px
        near = grown(touched, reach(blur) if blur > 0.05 else 0, self.size)
        img = lit.copy()
        img[near[1]:near[3], near[0]:near[2]] = self._optics(scene, near)
        return img

    def _optics(self, img: npt.NDArray[np.float32], box: Box) -> npt.NDArray[np.float32]:
        """What reaches the sensor (0..255) over ``box`` of the scene ``img``: the scene lit, the glare on it,
        through a lens out of focus (each pixel as if the whole frame were worked out)."""
        blur = self.conditions.blur_px
        x0, y0, x1, y1 = box
        if blur > 0.05:   # the lens spreads light as far as its blur reaches: light that crop, blur it over box
            crop = grown(box, reach(blur), self.size)
            cx0, cx1 = crop[0] // LANES * LANES, min(self.size[0], -(-crop[2] // LANES) * LANES)
            cy0, cy1 = crop[1], crop[3]
        else:
            cx0, cy0, cx1, cy1 = box
        lit = self._lit_over(img, (cx0, cy0, cx1, cy1))
        if blur > 0.05:
            lit = blurred_over(lit, blur, (x0 - cx0, y0 - cy0, x1 - cx0, y1 - cy0))
        return np.multiply(lit, np.float32(255.0), dtype=np.float32)

    def _lit_over(self, img: npt.NDArray[np.float32], box: Box) -> npt.NDArray[np.float32]:
        """The scene lit (the light's gains, the glare added) over ``box``."""
        x0, y0, x1, y1 = box
        part = np.ascontiguousarray(img[y0:y1, x0:x1])
        light, glare = self._light[y0:y1, x0:x1], self._glare[y0:y1, x0:x1]
        return np.asarray(cv2.add(cv2.multiply(part, light), glare), np.float32)

    def reach_over(self, over_mm: tuple[float, float] | None = None,
                   from_mm: tuple[float, float] | None = None) -> None:
        """A hand reaches over the pile for nothing, from now on (as one now and then does at random): over a random
        point near the pile's centre from a random side, or over ``over_mm`` (mm from the pile's centre, on the
        table) coming from ``from_mm`` (a point of the table off the frame: a test's hand that keeps off a card)."""
        self._hand(self.clock.now() if self.clock is not None else self._frames / self.settings.fps, None,
                   leaving=False, over_mm=over_mm, from_mm=from_mm)

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> SimCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- where things are
    @property
    def region(self) -> tuple[int, int, int, int]:
        """The part of the frame the pile can lie in, as ``[camera] pile`` gives it: x, y, w, h (pixels)."""
        reach = self.settings.spread_mm + math.hypot(*faces.CARD_MM) / 2 + 8.0
        pts = np.array([[[reach * math.cos(a), reach * math.sin(a)]] for a in np.linspace(0, 2 * math.pi, 24)])
        img = cv2.perspectiveTransform(pts.astype(np.float64), self.homography).reshape(-1, 2)
        w, h = self.size
        x0, y0 = max(0, int(img[:, 0].min())), max(0, int(img[:, 1].min()))
        x1, y1 = min(w, math.ceil(img[:, 0].max())), min(h, math.ceil(img[:, 1].max()))
        return x0, y0, x1 - x0, y1 - y0

    def corners(self, index: int = -1) -> npt.NDArray[np.float64]:
        """The image corners of the card at ``index`` of the pile as placed (for the docs' pictures and the
        tests that check where the recogniser looked, never for the recogniser)."""
        _, pose = self._placed[index]
        w, h = faces.WIDTH, faces.HEIGHT
        corners = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64)
        return np.asarray(cv2.perspectiveTransform(corners, self.homography @ _face_to_table(pose))[0], np.float64)

    def covered(self, index: int = -1) -> bool:
        """Whether a hand or its shadow lay over the card at ``index`` of the pile in the last frame (the latency
        bench's: a card under a hand is not in view; never for the recogniser)."""
        if self._hand_over is None or not self._placed:
            return False
        (x0, y0, _, _), changed = self._hand_over
        card = np.zeros(changed.shape, np.uint8)
        corners = self.corners(index) - np.asarray([x0, y0], np.float64)
        cv2.fillConvexPoly(card, np.round(corners).astype(np.int32), 1)
        return bool((changed & (card > 0)).any())

    def placed_at(self, index: int = -1) -> Pose:
        """Where the card at ``index`` of the pile lies on the table (for the tests, never for the recogniser)."""
        return self._placed[index][1]

    def _px_per_mm(self) -> float:
        pts = cv2.perspectiveTransform(np.array([[[0.0, 0.0], [10.0, 0.0]]]), self.homography)[0]
        return float(np.linalg.norm(pts[1] - pts[0]) / 10.0)

    # -- the scene
    def _table_texture(self) -> npt.NDArray[np.float32]:
        if self.table_kind != "flat":
            return styles.table_texture(self.table_kind, self.conditions.table, self.size, self.rng, self.noise)
        w, h = self.size
        grain = self.noise.standard_normal((h // 8 + 1, w // 8 + 1)).astype(np.float32)
        grain = np.asarray(cv2.resize(cv2.GaussianBlur(grain, (0, 0), 1.5), (w, h), interpolation=cv2.INTER_CUBIC),
                           np.float32)[:h, :w]
        base = np.asarray(self.conditions.table, np.float32)
        return np.clip(base * (1.0 + 0.08 * grain[..., None]), 0.0, 1.0).astype(np.float32)

    def _follow_pile(self, t: float) -> None:
        """Put the pile's new cards on top; start again from the table if cards were taken away or it turned."""
        pile = list(self.pile)
        known = [c for c, _ in self._placed]
        if self._shown_side != self.side_up or known != pile[:len(known)]:
            poses = {id(c): p for c, p in self._placed}
            self._scene = self._table.copy()
            self._lit, self._dirty = None, None
            self._placed = []
            self._shown_side = self.side_up
            for card in pile:
                self._drop(card, poses.get(id(card)))
            return
        for card in pile[len(known):]:
            pose = self._drop(card, None)
            if self.rng.random() < self.settings.hand_with_card:
                self._hand(t, pose, leaving=True)

    def _drop(self, card: TableCard, pose: Pose | None) -> Pose:
        if pose is None:
            r = self.settings.spread_mm * math.sqrt(self.rng.random())
            a = self.rng.uniform(0, 2 * math.pi)
            pose = Pose(r * math.cos(a), r * math.sin(a), self.rng.uniform(0, 360))
        self._placed.append((card, pose))
        shown = card.side(self.side_up) if isinstance(card, FlipCard) else card
        self._paint(shown, pose, None if not isinstance(card, FlipCard) else self.side_up)
        return pose

    def _paint(self, card: Card, pose: Pose, side: str | None) -> None:
        """The card's face onto the scene: its small shadow on what lies below, then the card."""
        img, cover = self.style.draw(card.name, card.colour, side, self.looks.get(card.name))
        s = faces.PX_PER_MM
        m = self.homography @ _face_to_table(pose)
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0], [faces.WIDTH, 0], [faces.WIDTH, faces.HEIGHT], [0, faces.HEIGHT]]], np.float64), m)[0]
        w, h = self.size
        x0, y0 = max(0, int(corners[:, 0].min()) - 4), max(0, int(corners[:, 1].min()) - 4)
        x1, y1 = min(w, int(corners[:, 0].max()) + 6), min(h, int(corners[:, 1].max()) + 6)
        if x1 <= x0 or y1 <= y0:
            return
        shift = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]]) @ m
        # pre-blurred so that shrinking it does not alias (a lens integrates over each pixel)
        soften = max(0.0, 0.5 / max(self.scale / s, 1e-3) - 0.5)
        src, src_cover = (cv2.GaussianBlur(img, (0, 0), soften), cv2.GaussianBlur(cover, (0, 0), soften)) \
            if soften > 0.3 else (img, cover)
        dsize = (x1 - x0, y1 - y0)
        patch = cv2.warpPerspective(src, shift, dsize, flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(src_cover, shift, dsize, flags=cv2.INTER_LINEAR)
        region = self._scene[y0:y1, x0:x1]
        shade = cv2.GaussianBlur(np.roll(alpha, (2, 1), axis=(0, 1)), (0, 0), 1.2)
        region *= (1.0 - 0.25 * shade)[..., None]          # the card's edge throws a thin shadow
        region *= (1.0 - alpha)[..., None]
        region += patch * alpha[..., None]
        box = (x0, y0, x1, y1)
        self._dirty = box if self._dirty is None else union(self._dirty, box)

    def _hand(self, t: float, pose: Pose | None, leaving: bool, over_mm: tuple[float, float] | None = None,
              from_mm: tuple[float, float] | None = None) -> None:
        w, h = self.size
        if over_mm is not None:
            over = cv2.perspectiveTransform(np.array([[over_mm]], np.float64), self.homography)[0, 0]
        elif pose is None:
            over = cv2.perspectiveTransform(np.array([[[self.rng.uniform(-30, 30), self.rng.uniform(-30, 30)]]]),
                                            self.homography)[0, 0]
        else:
            over = cv2.perspectiveTransform(np.array([[[pose.x, pose.y]]]), self.homography)[0, 0]
        a = self.rng.uniform(0, 2 * math.pi)
        far = 0.9 * math.hypot(w, h)
        start = (w / 2 + far * math.cos(a), h / 2 + far * math.sin(a))
        if from_mm is not None:
            fx, fy = cv2.perspectiveTransform(np.array([[from_mm]], np.float64), self.homography)[0, 0]
            start = (float(fx), float(fy))
        frame = 1.0 / self.settings.fps
        self._hands.append(Hand(start, (float(over[0]), float(over[1])), t, self.rng.uniform(4, 9) * frame,
                                self.rng.choice(SKIN), self.scale, leaving))

    def _random_hand(self, t: float) -> None:
        # a hand that reached over the pile while no frame was taken (a camera that sleeps between changes) has
        # gone again: only one that began within a hand's longest reach (9 frames) can be seen now
        dt = min(max(0.0, t - self._last_t), 9 / self.settings.fps)
        if self.settings.hands_per_second and self.rng.random() < self.settings.hands_per_second * dt:
            self._hand(t, None, leaving=False)
