"""The pile watcher and the camera's exposure (shooter.vision.watcher, sim.camera): a card whose white the sensor
clipped is looked at again in a darker frame, where what the clipping hid (the lamp's colour, an ink's clipped
channel) is seen, and read sure and right where the first look could only ask; a camera that does not darken has
it read as first seen; the exposure stays down for the cards after it and comes up again in a dim view; the views
the watcher keeps follow it (a card taken back uncovers no new card); a card put down while one waits for its
darker look is read by itself. Rendered with the simulated
camera, whose sensor collects light in proportion to its exposure and clips at 255. Skipped without the vision
extra (numpy, OpenCV)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
cv2 = pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from shooter.camera.pile_camera import learned_from_renders  # noqa: E402
from shooter.editions import lookup  # noqa: E402
from shooter.vision import PileWatcher, faces_of  # noqa: E402
from shooter.vision.synthetic import physical  # noqa: E402
from sim.camera import HELD_OUT, Conditions, SimCamera  # noqa: E402

FLIP = lookup("flip")
QUIET = replace(HELD_OUT, hand_with_card=0.0, hands_per_second=0.0)   # no hands: each card settles at once


class Table:
    """A simulated camera over a pile and a watcher fed its frames, 0.1 s apart. ``darkens``: the camera is set to
    the exposure the watcher asks for before each frame (else it keeps its own); ``told``: the watcher is told the
    exposure each frame was taken at (else None, as for a camera whose exposure is not set)."""

    def __init__(self, deck, conditions, rng, *, darkens=True, told=True, side="light", pile=()):
        self.pile = list(pile)
        self.camera = SimCamera(self.pile, rng, QUIET, conditions=conditions)
        self.camera.side_up = side
        self.watcher = PileWatcher(deck, self.camera.region)
        self.darkens, self.told = darkens, told
        self.t = 0.0
        self.reads: list = []   # (time, read)
        self.asked: list[float] = []   # each exposure the watcher asked for, as it changed
        self.frames(4)   # the pile as it lies: the reference

    def frames(self, n: int) -> None:
        for _ in range(n):
            if self.darkens:
                self.camera.exposure = self.watcher.exposure
            read = self.watcher.feed(self.camera.capture(), self.t, self.camera.exposure if self.told else None)
            if read is not None:
                self.reads.append((self.t, read))
            if not self.asked or self.asked[-1] != self.watcher.exposure:
                self.asked.append(self.watcher.exposure)
            self.t = round(self.t + 0.1, 6)

    def put(self, face, colour, frames: int = 20) -> None:
        self.pile.append(physical(face, colour))
        self.frames(frames)


def glare_under_a_tinted_lamp(rng: random.Random) -> Conditions:
    """A tinted lamp whose glare, wide and strong, covers the whole pile: the border is the sensor's top in every
    channel at the camera's own exposure, and no part of it tells the lamp's colour (Flip's pinks and purples,
    oranges and yellows are then asked)."""
    warmth = rng.choice((-1, 1)) * rng.uniform(0.12, 0.25)
    return replace(Conditions.draw(HELD_OUT, rng), brightness=rng.uniform(0.95, 1.1), warmth=warmth,
                   glare=rng.uniform(0.5, 0.6), shadow=0.0, height_mm=rng.uniform(550.0, 600.0),
                   glare_at=(0.5 + rng.uniform(-0.03, 0.03), 0.5 + rng.uniform(-0.03, 0.03), rng.uniform(0.1, 0.14)))


def plain(rng: random.Random) -> Conditions:
    """A lamp well under the sensor's top, no glare."""
    return replace(Conditions.draw(HELD_OUT, rng), brightness=0.8, glare=0.0, shadow=0.0)


DARK = [f for f in faces_of(FLIP) if f.side == "dark" and not f.wild]


def reads_of(colour: str, seed: int, **table):
    rng = random.Random(f"exposure-{colour}-{seed}")
    face = rng.choice(DARK)
    on = Table(learned_from_renders(FLIP), glare_under_a_tinted_lamp(rng), rng, side="dark", **table)
    on.put(face, colour)
    return face, on


@pytest.mark.parametrize("colour", ["purple", "pink", "orange", "teal"])
def test_a_card_whose_white_the_sensor_clipped_is_read_again_darker_sure_and_right(colour):
    # at the camera's own exposure the white is clipped in every channel: the lamp's colour is unknown and the
    # inks whose hues overlap across the lamps it may be are asked (the first look); a darker frame sees the white
    # and the ink as they are
    asked_first, wrong = 0, []
    for seed in range(6):
        face, first = reads_of(colour, seed, told=False)
        asked_first += sum(r.unsure for _, r in first.reads)
        face, table = reads_of(colour, seed)
        got = [(r.card, r.colour, r.side, r.unsure) for _, r in table.reads]
        if got != [(face.name, colour, "dark", False)]:
            wrong.append((seed, face.name, got))
        assert table.asked[0] == 1.0 and min(table.asked) < 1.0   # it asked for a darker frame
    assert not wrong, f"a {colour} looked at again not read once, sure and right: {wrong}"
    if colour in ("purple", "pink"):
        assert asked_first >= 3   # the scenes are the hard case: the first look alone asks about many of them


def test_a_camera_that_does_not_darken_has_the_card_read_as_first_seen_once_the_wait_is_over():
    _, first = reads_of("purple", 1, told=False)
    _, table = reads_of("purple", 1, darkens=False)
    assert len(first.reads) == len(table.reads) == 1
    (t_first, read_first), (t_late, read_late) = first.reads[0], table.reads[0]
    assert read_late == read_first   # the first look's read
    wait = table.watcher.settings.darker_wait_s
    assert wait <= t_late - t_first <= wait + 0.1 + 1e-9
    assert table.watcher.exposure == 1.0   # it asks no more than the camera gives


def test_a_card_the_sensor_did_not_clip_is_read_at_once_and_the_exposure_left_alone():
    rng = random.Random("plain")
    face = rng.choice(DARK)
    conditions = plain(rng)
    told = Table(learned_from_renders(FLIP), conditions, random.Random(5), side="dark")
    told.put(face, "teal")
    blind = Table(learned_from_renders(FLIP), conditions, random.Random(5), side="dark", told=False)
    blind.put(face, "teal")
    assert told.asked == [1.0] and told.reads == blind.reads and len(told.reads) == 1
    assert (told.reads[0][1].card, told.reads[0][1].colour) == (face.name, "teal")


def test_the_exposure_stays_down_for_the_next_cards():
    rng = random.Random("two under a glare")
    table = Table(learned_from_renders(FLIP), glare_under_a_tinted_lamp(rng), rng, side="dark")
    first, second = rng.sample(DARK, 2)
    table.put(first, "purple")
    darker = table.watcher.exposure
    assert darker < 1.0 and len(table.reads) == 1
    looked_at = len(table.asked)
    table.put(second, "pink")
    assert [(r.card, r.colour, r.unsure) for _, r in table.reads] == \
        [(first.name, "purple", False), (second.name, "pink", False)]
    assert all(share <= darker for share in table.asked[looked_at - 1:])   # from there, not from the top again
    table.watcher.settle()   # the lid: the light has not changed, nor the exposure
    table.frames(10)
    assert table.watcher.exposure <= darker and len(table.reads) == 2


def test_a_card_read_in_a_dim_view_at_a_lowered_exposure_brightens_it_and_the_change_is_no_card():
    # a lamp turned down after the exposure came down for a glare: each card read in a view under 0.45 of the
    # sensor's top asks for 1 / 0.6 more, up to the camera's own; the views kept are seen at each frame's exposure,
    # so the brighter view is no change of the pile (else the card on top was read again, or the next one missed)
    rng = random.Random("dim")
    dim = replace(Conditions.draw(HELD_OUT, rng), brightness=0.6, glare=0.0, shadow=0.0, warmth=0.0)
    table = Table(learned_from_renders(FLIP), dim, rng, side="dark")
    table.watcher.exposure = 0.36
    table.frames(4)
    cards = rng.sample(DARK, 3)
    for face in cards:
        table.put(face, "teal")
    assert [(r.card, r.colour, r.unsure) for _, r in table.reads] == [(f.name, "teal", False) for f in cards]
    assert table.asked[:3] == [1.0, 0.36, 0.6] and table.asked[-1] == 1.0


def test_a_card_looked_at_again_and_taken_back_uncovers_no_new_card():
    # the view before the card (the reference again when it is taken back) was seen at the camera's own exposure:
    # it is kept as the darker camera sees it, else the whole pile under it changed and its top card was read
    rng = random.Random("taken back")
    under, wrong_card = rng.sample(DARK, 2)
    table = Table(learned_from_renders(FLIP), glare_under_a_tinted_lamp(rng), rng, side="dark",
                  pile=[physical(under, "teal")])
    table.put(wrong_card, "orange")
    assert len(table.reads) == 1 and table.watcher.exposure < 1.0
    table.watcher.take_back()
    table.pile.pop()
    table.frames(10)
    assert len(table.reads) == 1, [r.describe() for _, r in table.reads]


def test_an_orange_under_a_cold_lamp_and_a_glare_seen_darker_is_read_orange():
    # held-out Flip seed 1001, card 31: at 0.6 of the camera's own exposure the border's white is no longer clipped
    # (BGR 182, 151, 118 under a cold lamp), and its red, 0.65 of its blue, was held against the blue of the glare
    # on the field (219): the border was taken for the table, the white looked for among the field's glared
    # pixels, and the orange read a sure yellow 7. The ring's brightest channel is held against the brightest now
    wrong = []
    for seed in range(6):
        rng = random.Random(f"cold-glare-{seed}")
        face = rng.choice(DARK)
        cold = replace(Conditions.draw(HELD_OUT, rng), brightness=0.78, warmth=-0.21, shadow=0.0,
                       glare=rng.uniform(0.45, 0.55), height_mm=rng.uniform(400.0, 450.0),
                       glare_at=(0.5 + rng.uniform(-0.02, 0.02), 0.5 + rng.uniform(-0.02, 0.02), 0.06))
        table = Table(learned_from_renders(FLIP), cold, rng, side="dark", darkens=False, told=False)
        table.camera.exposure = 0.6
        table.put(face, "orange")
        wrong += [(seed, face.name, r.describe()) for _, r in table.reads
                  if (r.card, r.colour) != (face.name, "orange")]
    assert not wrong, f"an orange seen darker under a cold lamp's glare read wrong: {wrong}"


def test_a_card_put_down_while_the_last_one_waits_for_its_darker_look_is_read_by_itself():
    # the card waiting (A) is read as first seen (asked, here) once the view has changed since it was seen, and
    # the new card (B) as the whole card on top (its change cannot be told where the sensor clipped the views kept);
    # A's darker look read B where A lay, a sure wrong read 3 times in 4 (A a 9, read a sure teal skip-everyone).
    # B is not found when the white-border search finds no whole card (seed 1, under this glare): typed at the table
    wrong, b_read = [], 0
    for seed in range(4):
        rng = random.Random(f"two at once-{seed}")
        a, b = rng.sample(DARK, 2)
        table = Table(learned_from_renders(FLIP), glare_under_a_tinted_lamp(rng), rng, side="dark")
        table.put(a, "purple", frames=4)   # A seen and waiting for a darker frame when B comes down
        assert table.watcher.exposure < 1.0 and table.reads == []
        table.put(b, "teal")
        got = [(r.card, r.colour, r.unsure) for _, r in table.reads]
        b_read += (b.name, "teal", False) in got
        wrong += [(seed, a.name, b.name, got) for card, colour, unsure in got
                  if not unsure and (card, colour) not in ((a.name, "purple"), (b.name, "teal"))]
    assert not wrong, f"two cards, the first waiting for a darker look, read wrong: {wrong}"
    assert b_read >= 3


@pytest.mark.parametrize("meanwhile", ["settle", "no deck"])
def test_a_card_waiting_for_its_darker_look_is_not_read_when_the_pile_settles_anew_or_its_deck_goes(meanwhile):
    # the lid (settle: the view it settles to is the reference) or another edition with no learned deck: the card
    # waiting is dropped, as any card would be then (typed at the table), and the watcher watches on
    rng = random.Random("waiting-0")
    face = rng.choice(DARK)
    table = Table(learned_from_renders(FLIP), glare_under_a_tinted_lamp(rng), rng, side="dark")
    table.put(face, "purple", frames=4)   # settled on its fourth frame: the darker look asked, not yet taken
    assert table.watcher.exposure < 1.0 and table.reads == []   # waiting
    if meanwhile == "settle":
        table.watcher.settle()
    else:
        table.watcher.deck = None
    table.frames(20)
    assert table.reads == []
    table.watcher.deck = learned_from_renders(FLIP)
    second = next(f for f in DARK if f.name != face.name)
    table.put(second, "teal")
    assert [(r.card, r.colour, r.unsure) for _, r in table.reads] == [(second.name, "teal", False)]
