"""Two held-out failures of the recogniser, each rendered on its own (tests/test_vision.py has the bench's set):
Flip's dark purple under a bright warm light, whose border's white the sensor clips (the ink's red was measured
against 255, not the white's true red, and came out between purple and pink: unsure), and two cards put down
with no still view between them (a hand reached over the pile before the first had settled: the change was
both cards, of no card's shape, and neither was read). Skipped without the vision extra (numpy, OpenCV)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
cv2 = pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from shooter.editions import lookup  # noqa: E402
from shooter.pile_camera import learned_from_renders  # noqa: E402
from shooter.vision import PileWatcher, faces_of  # noqa: E402
from shooter.vision.synthetic import physical  # noqa: E402
from sim.camera import HELD_OUT, Conditions, SimCamera  # noqa: E402

FLIP, ALL_WILD = lookup("flip"), lookup("all-wild")
SEEDS = range(6)


def put_down(deck, record, cards, conditions, rng, *, hand_between: bool = False):
    """``cards`` ((face, colour) pairs) put on the pile one after another, each given time to settle (unless
    ``hand_between``: a hand reaches over the pile just after the first, and the second is put down while it is
    there); the watcher's reads and the camera."""
    settings = replace(HELD_OUT, hand_with_card=0.0, hands_per_second=0.0)   # the hands this test makes alone
    pile: list = []
    camera = SimCamera(pile, rng, settings, conditions=conditions)
    camera.side_up = cards[0][0].side or "light"
    watcher = PileWatcher(deck, camera.region)
    t, reads = 0.0, []

    def frames(n: int) -> None:
        nonlocal t
        for _ in range(n):
            read = watcher.feed(camera.capture(), t)
            if read is not None:
                reads.append(read)
            t += 0.1
    frames(4)
    for i, (face, colour) in enumerate(cards):
        pile.append(physical(face, colour))
        if hand_between and i == 0:
            camera.reach_over()   # over the pile for 0.4 to 0.9 s: the first card never lies still long enough
            frames(2)
            continue
        frames(12)
    return reads, camera


def warm_bright(rng: random.Random) -> Conditions:
    """A held-out draw of the scene lit by a bright warm lamp (the border's red and green beyond the sensor's
    top), no glare or shadow (a glare clips every channel alike; that is another case)."""
    return replace(Conditions.draw(HELD_OUT, rng), brightness=1.3, warmth=0.25, glare=0.0, shadow=0.0)


@pytest.mark.parametrize("colour", ["purple", "pink"])
def test_flip_purple_and_pink_under_a_light_the_sensor_clips_are_read_sure(colour):
    deck = learned_from_renders(FLIP)
    dark = [f for f in faces_of(FLIP) if f.side == "dark" and not f.wild]
    got = []
    for seed in SEEDS:
        rng = random.Random(f"clipped-{colour}-{seed}")
        face = rng.choice(dark)
        reads, _camera = put_down(deck, FLIP, [(face, colour)], warm_bright(rng), rng)
        got.append((face.name, [(r.card, r.colour, r.confidence, r.unsure) for r in reads]))
    wrong = [(name, reads) for name, reads in got if [(c, k, u) for c, k, _, u in reads] != [(name, colour, False)]]
    assert not wrong, f"{colour} under a clipped white, not read once and sure: {wrong}"


def test_a_card_put_down_while_a_hand_is_over_the_last_one_is_read_by_itself():
    # the newest card is found as a still finds its top card (the one whole field inside a white border); in dim
    # or blurred light a thin border over another card's may not be found whole (seeds 2 to 5 here): those are
    # still missed (typed at the table), but never read wrong
    deck = learned_from_renders(ALL_WILD)
    faces = faces_of(ALL_WILD)
    missed, wrong = [], []
    for seed in SEEDS:
        rng = random.Random(f"two-{seed}")
        first, second = rng.choice(faces), rng.choice(faces)
        reads, _camera = put_down(deck, ALL_WILD, [(first, None), (second, None)], Conditions.draw(HELD_OUT, rng),
                                 rng, hand_between=True)
        got = [(r.card, r.unsure) for r in reads]
        if got != [(second.name, False)]:
            missed.append(seed)
        if any(not unsure and card != second.name for card, unsure in got) or len(got) > 1:
            wrong.append((seed, first.name, second.name, [r.describe() for r in reads]))
    assert not wrong, f"two cards put down with no still view between them, read wrong: {wrong}"
    assert missed == [2, 3, 4, 5], f"the newest of two cards, not read sure and once: seeds {missed}"
