"""The simulated camera renders only what changed (the still pile through the lens once, a hand over the part it
covers), and its frames are those the first renderer made over the whole frame, pixel for pixel, for the same
seed and scene (tests/camera_reference.py): the held-out set of ``cards bench`` is rendered by it. Skipped without
the vision extra."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from sim.camera import HELD_OUT, LEARNING, SceneSettings, SimCamera  # noqa: E402
from sim.cards import COLOURS, DARK_COLOURS, Card, FlipCard  # noqa: E402
from tests.camera_reference import WholeFrameCamera, draw_whole  # noqa: E402

# hands over the pile in most frames, so that the hand's crops meet every edge of the frame
BUSY = replace(HELD_OUT, hand_with_card=1.0, hands_per_second=0.8)


def _card(rng: random.Random, k: int):
    if k % 5 == 4:
        return FlipCard(Card("number", rng.choice(COLOURS), rng.randint(1, 9)),
                        Card("skip-everyone", rng.choice(DARK_COLOURS)))
    return Card("number", rng.choice(COLOURS), rng.randint(1, 9)) if k % 3 else Card("wild")


def _frames(camera_class, settings: SceneSettings, seed: int, frames: int = 24):
    """``frames`` frames of a scene: cards put down, the pile turned over (Flip), cleared but its top card."""
    pile: list = []
    events = random.Random(seed + 1000)
    camera = camera_class(pile, random.Random(seed), settings)
    out, hands = [], 0
    for k in range(frames):
        if k % 4 == 0:
            pile.append(_card(events, k))
        if k == 9:
            camera.side_up = "dark"
        if k == 17:
            del pile[:-1]
        out.append(camera.capture())
        hands += bool(camera._hands)
    return out, hands


@pytest.mark.parametrize("settings, seeds", [(BUSY, [1, 2]), (HELD_OUT, [20]), (LEARNING, [30]),
                                             (replace(BUSY, resolution=(500, 370)), [40])],
                         ids=["busy", "held-out", "learning", "500x370"])
def test_the_frames_are_the_whole_frame_renderers_pixel_for_pixel(settings, seeds):
    hands = 0
    for seed in seeds:
        (fast, seen), (whole, _) = _frames(SimCamera, settings, seed), _frames(WholeFrameCamera, settings, seed)
        hands += seen
        for k, (a, b) in enumerate(zip(fast, whole, strict=True)):
            assert a.shape == b.shape and a.dtype == b.dtype
            assert np.array_equal(a, b), f"seed {seed} frame {k}: {int((a != b).sum())} values differ, " \
                                         f"by up to {int(np.abs(a.astype(int) - b.astype(int)).max())}"
    assert hands > 0 or settings is LEARNING   # frames with a hand were compared (the learning's have none)


def test_a_hand_is_drawn_and_lit_over_its_crop_as_over_the_whole_frame_bit_for_bit():
    # the frames above are rounded to 8 bits: here the light before the sensor, which must not differ in any bit
    # (a crop's blur on other columns than the frame's, or one that stops short of the kernel's reach, does)
    compared = 0
    for seed in (5, 6):
        pile: list = []
        events = random.Random(seed)
        camera = SimCamera(pile, random.Random(seed), BUSY)
        for k in range(16):
            if k % 4 == 0:
                pile.append(_card(events, k))
            camera.capture()
            t = (camera._frames - 1) / BUSY.fps
            hands = [h for h in camera._hands if h.where(t) is not None]
            if not hands:
                continue
            whole = camera._scene.copy()
            for hand in hands:
                draw_whole(hand, whole, t)
            expected = WholeFrameCamera._whole_optics(camera, whole)
            assert np.array_equal(camera._with_hands(camera._still(), hands, t), expected), f"seed {seed} frame {k}"
            compared += 1
    assert compared >= 8
