"""The latency bench's clock (shooter.vision.latency): a card is timed from when it lies on the pile in view, and a
hand (or its shadow) passing over it before its read starts the clock again when it has left; the simulated
camera says which frames showed a hand over a card (``SimCamera.covered``), from the pixels the hand changed."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from shooter.camera.pile_camera import learned_from_renders  # noqa: E402
from shooter.editions import lookup  # noqa: E402
from shooter.vision.latency import GOAL_S, latency  # noqa: E402
from shooter.vision.synthetic import faces_of, physical  # noqa: E402
from sim.camera import HELD_OUT, SimCamera  # noqa: E402

QUIET = replace(HELD_OUT, hand_with_card=0.0, hands_per_second=0.0)   # the hands these tests make alone


def covered_frames(over, seed: int) -> list[bool]:
    """Twelve frames of a card with a hand reaching ``over`` (a function of the card's pose: mm from the pile's
    centre, and where the hand comes from), and whether each showed it covered."""
    rng = random.Random(f"covered-{seed}")
    pile: list = []
    camera = SimCamera(pile, rng, QUIET)
    face = faces_of(lookup("classic"))[0]
    pile.append(physical(face, face.colours[0] if face.colours else None))
    camera.capture()
    assert not camera.covered()   # no hand yet
    camera.reach_over(*over(camera.placed_at()))
    covered = []
    for _ in range(12):
        camera.capture()
        covered.append(camera.covered())
    return covered


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_over_the_card_covers_it_and_one_across_the_table_does_not(seed):
    # over the card's own centre: some frames show it covered, and once the hand has gone none does
    over_card = covered_frames(lambda at: ((at.x, at.y), None), seed)
    assert any(over_card) and not over_card[-1], over_card

    # 120 mm off the card, coming in across (arm and fingers off it: tests/test_vision_watcher.py's hand elsewhere)
    def elsewhere(at):
        away = math.atan2(-at.y, -at.x) if math.hypot(at.x, at.y) > 1.0 else 0.0
        palm = (at.x + 150 * math.cos(away), at.y + 150 * math.sin(away))
        return palm, (palm[0] - 300 * math.sin(away), palm[1] + 300 * math.cos(away))
    assert not any(covered_frames(elsewhere, seed))


def test_a_card_a_hand_passes_over_is_timed_from_when_the_hand_left_and_counted_apart():
    # hands over the pile every half second or so: several pass over a card before its read; each such card is
    # counted (``covered``) and timed from the last frame that showed it under the hand, and from being put down
    # as well (``max_from_put_s``: longer). The cards in view are read within the goal either way.
    record = lookup("classic")
    deck = learned_from_renders(record)
    busy = replace(HELD_OUT, hand_with_card=0.0, hands_per_second=2.0)
    waited = latency(record, deck, 7, 12, settings=busy).figures()
    assert waited["played"] + waited["unsure"] + waited["unread"] == 12
    assert waited["covered"] >= 2, waited
    assert waited["max_from_put_s"] > waited["max_s"], waited
    assert waited["median_s"] <= GOAL_S, waited

    calm = latency(record, deck, 7, 6, settings=replace(HELD_OUT, hands_per_second=0.0)).figures()
    assert calm["covered"] == 0 and calm["max_from_put_s"] == calm["max_s"], calm
