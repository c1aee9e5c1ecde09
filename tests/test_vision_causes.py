"""Held-out failures of the recogniser, each rendered on its own (tests/test_vision.py has the bench's set):
Flip's dark purple under a bright warm light, whose border's white the sensor clips (the ink's red was measured
against 255, not the white's true red, and came out between purple and pink: unsure); a pink under a bright cold
light, the white's blue and green clipped and no edge to tell their true level (unsure, or with its own blue
clipped too, a sure purple: wrong); two cards put down with no still view between them (a hand reached over the
pile before the first had settled: the change was both cards, of no card's shape, and neither was read), the
newest found by its white border, which a cold lamp tints (no border was found); an outline fitted across two
black cards, read as a card (wrong); a 0 and an 8, whose learned symbols were judged unlike as they lay, not as reads
are matched (every right read unsure); and an ink under a glare on the pile whose clipped channel turned its hue (a
glared orange read a sure yellow); and, with the glare in the lamp's colour, a glare over the whole pile that
hides the lamp's colour (a white clipped in every channel taken for a grey lamp's: purples read sure pinks, teals
sure greens, and a wild's black lifted to grey a sure blue). Skipped without the vision extra (numpy, OpenCV)."""

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


def dark_reads(deck, colour: str, light, scenes: str = "cold") -> list:
    """A random dark face of Flip in ``colour`` put down alone under ``light(rng)`` once for each of
    :data:`SEEDS`: the faces not read once and sure, with their reads (card, colour, confidence, unsure)."""
    dark = [f for f in faces_of(FLIP) if f.side == "dark" and not f.wild]
    got = []
    for seed in SEEDS:
        rng = random.Random(f"{scenes}-{colour}-{seed}")
        face = rng.choice(dark)
        reads, _camera = put_down(deck, FLIP, [(face, colour)], light(rng), rng)
        got.append((face.name, [(r.card, r.colour, r.confidence, r.unsure) for r in reads]))
    return [(name, reads) for name, reads in got if [(c, k, u) for c, k, _, u in reads] != [(name, colour, False)]]


@pytest.mark.parametrize("colour", ["purple", "pink"])
def test_flip_purple_and_pink_under_a_light_the_sensor_clips_are_read_sure(colour):
    wrong = dark_reads(learned_from_renders(FLIP), colour, warm_bright, "clipped")
    assert not wrong, f"{colour} under a clipped white, not read once and sure: {wrong}"


def test_a_card_put_down_while_a_hand_is_over_the_last_one_is_read_by_itself():
    # the newest card is found as a still finds its top card (the one whole field inside a white border); in dim
    # or blurred light a thin border over another card's may not be found whole (seed 2 here; 3 to 5 too before
    # the light's colour was divided out of the still's white): those are still missed (typed at the table), but
    # never read wrong
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
    assert missed == [2], f"the newest of two cards, not read sure and once: seeds {missed}"


def cold_bright(rng: random.Random, brightness: float = 1.18, warmth: float = -0.18) -> Conditions:
    """A held-out draw lit by a bright cold lamp (held-out seed 2002's Flip cards 51 and 55): the border's blue
    and green beyond the sensor's top and its red not, while a pink's red is as bright as the white's there (no
    border-to-field edge tells the white's true blue and green)."""
    return replace(Conditions.draw(HELD_OUT, rng), brightness=brightness, warmth=warmth, glare=0.0, shadow=0.0)


@pytest.mark.parametrize("colour", ["pink", "purple", "orange", "teal"])
def test_flip_dark_inks_under_a_cold_light_the_sensor_clips_in_two_channels_are_read_sure(colour):
    # a channel whose white was clipped, the ink's not, is known as an upper bound: each learned ink is compared
    # with what the read ink may truly be (the old code compared it as seen: a pink came out half purple, unsure)
    wrong = dark_reads(learned_from_renders(FLIP), colour, cold_bright)
    assert not wrong, f"{colour} under a cold clipped white, not read once and sure: {wrong}"


def test_a_pink_whose_own_blue_the_sensor_clipped_is_read_sure_not_purple():
    # at a brightness of 1.25 and warmth -0.2 (held-out seed 5005's Flip cards 99 and 131) the pink's own blue is
    # clipped too: that channel is known only to be at least the sensor's top over the white's true blue; as seen
    # (its blue as bright as its red) the ink lay nearer purple's hue, and the old code read 4 of 6 sure purples
    # (now: 5 sure pinks and one asked)
    missed = dark_reads(learned_from_renders(FLIP), "pink", lambda rng: cold_bright(rng, 1.25, -0.2))
    wrong = [(name, reads) for name, reads in missed if any(not u and k != "pink" for _, k, _, u in reads)]
    assert not wrong and len(missed) <= 1, f"pink with its blue clipped: read wrong {wrong}, not sure {missed}"


@pytest.mark.parametrize("colour", ["orange", "pink"])
def test_an_ink_whose_red_a_bright_warm_lamp_clipped_is_never_read_wrong(colour):
    # the other side of that: under the warmest brightest lamp (1.3, warmth 0.25) a dark orange's red is clipped,
    # and what the light's colour may be lets it pass for a light yellow too: it is asked (unsure; the old code,
    # taking the clipped red as seen, read them sure), never read as another colour. (Pink's needs the ink's
    # noise allowance too, WatchSettings.ink_noise: without it, two inks a few hundredths away from one of the
    # possible inks, one nearer, made a sure purple.)
    reads = [r for _, rs in dark_reads(learned_from_renders(FLIP), colour,
                                       lambda rng: replace(warm_bright(rng), brightness=1.3, warmth=0.25))
             for r in rs]
    assert all(k == colour or u for _, k, _, u in reads), f"{colour} under a warm clipped white read wrong: {reads}"


def test_the_newest_of_two_cards_under_a_tinted_light_is_found_by_its_white_border():
    # a cold lamp tints the border's white (37 % bluer than red at warmth -0.23): the white board a still's top
    # card is found by is looked for once the light's colour is divided out (the old code found no border at
    # all under such a light, and missed the newest of two cards put down with a hand between them)
    deck = learned_from_renders(ALL_WILD)
    faces = faces_of(ALL_WILD)
    got = []
    for seed in SEEDS:
        rng = random.Random(f"tinted-{seed}")
        first, second = rng.choice(faces), rng.choice(faces)
        light = replace(Conditions.draw(HELD_OUT, rng), warmth=-0.23, brightness=0.9, glare=0.0, shadow=0.0,
                        blur_px=0.5, height_mm=420.0, tilt_deg=10.0)
        reads, _camera = put_down(deck, ALL_WILD, [(first, None), (second, None)], light, rng, hand_between=True)
        got.append((seed, second.name, [(r.card, r.unsure) for r in reads]))
    missed = [g for g in got if g[2] != [(g[1], False)]]
    assert not missed, f"the newest of two cards under a cold light, not read sure and once: {missed}"


def test_an_outline_is_a_card_only_if_the_mounting_can_see_a_card_so():
    # card_shaped: every true outline of a card under the held-out mountings (30 to 60 cm, tilts up to 30°, every
    # roll and lens) passes; the outline fitted across two black cards under a cold light (the tinted test's
    # seed 3, where the old code read a forced swap as a sure skip two) does not
    from shooter.vision.outline import card_shaped
    from sim.camera.faces import HEIGHT, WIDTH
    rng = random.Random("shapes")
    for _ in range(150):
        conditions = replace(Conditions.draw(HELD_OUT, rng), tilt_deg=rng.uniform(0.0, 30.0))
        pile = [physical(faces_of(ALL_WILD)[0], None)]
        camera = SimCamera(pile, rng, HELD_OUT, conditions=conditions)
        camera.capture()
        corners = camera.corners().astype(np.float32)
        assert card_shaped(corners), f"a card seen at {conditions.tilt_deg:.1f}° tilt: {corners.tolist()}"
        assert card_shaped(corners[[1, 2, 3, 0]])       # whichever corner comes first
    across_two = np.asarray([[100, 159], [38, 159], [52, 30], [132, 55]], np.float32)
    assert not card_shaped(across_two)
    square = np.asarray([[0, 0], [WIDTH, 0], [WIDTH, WIDTH], [0, WIDTH]], np.float32)
    assert not card_shaped(square)
    assert card_shaped(np.asarray([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]], np.float32))


def glared(rng: random.Random) -> Conditions:
    """Held-out seed 5005's Flip scene of cards 171 to 178: a bright cold lamp, a shadow's edge across the pile and
    a glare spot at its side, so that the border's brighter part is the sensor's top in all three channels."""
    return replace(Conditions.draw(HELD_OUT, rng), brightness=1.29, warmth=-0.12, shadow=0.4, glare=0.3,
                   shadow_at=(0.5, 0.62, 0.3), glare_at=(0.5 + rng.uniform(-0.04, 0.04), 0.45, 0.08))


@pytest.mark.parametrize("colour", ["pink", "purple", "teal"])
def test_a_card_whose_bright_border_is_clipped_in_every_channel_is_read_by_its_border_middle(colour):
    # the white was the border's brighter part (its 80th percentile): clipped in all three channels it says
    # nothing of the light's colour (the old code took it so, and a pink's red came out low: half purple, or a
    # sure purple); the border's median does
    wrong = dark_reads(learned_from_renders(FLIP), colour, glared)
    assert not wrong, f"{colour} under a glare over its border, not read once and sure: {wrong}"


CLASSIC = lookup("classic")


def test_how_unlike_two_faces_are_does_not_depend_on_which_end_up_each_was_learned():
    # `_apart` (the most a read can lead the next face by) once correlated the two learned maps as they lie;
    # reads are matched either end up and aligned, and in the deck learned from renders the 0 and the 8 were
    # learned opposite ends up: 1.23 apart (capped at 0.3), while a perfect 0 leads the 8 by 0.09, so right
    # reads of either were unsure. The same deck with its 8 learned the other end up must say the same.
    from shooter.vision.card import turned
    from shooter.vision.match import _apart
    from shooter.vision.templates import Deck
    deck = learned_from_renders(CLASSIC)
    zero, eight = (next(f for f in deck.faces if f.name == n) for n in ("0", "8"))
    # every look of the 8 (a coloured face is learned in each of its colours) the other end up
    turned_faces = [replace(f, symbol=turned(f.symbol)) if f.name == "8" else f for f in deck.faces]
    other_end = turned_faces[deck.faces.index(eight)]
    flipped = Deck(turned_faces, deck.inks)
    as_learned, other_way = _apart(deck, zero, eight), _apart(flipped, zero, other_end)
    # (within 0.03: turning the 8's looks moves the deck's mean symbol, which every match is taken without; the
    # defect this guards put the two 0.2 apart)
    assert abs(as_learned - other_way) < 0.03, (as_learned, other_way)
    assert as_learned < 0.2, f"a 0 and an 8 are alike: {as_learned:.3f} apart"


def far_and_soft(rng: random.Random) -> Conditions:
    """A held-out draw with the camera high and a little out of focus (the symbol small and soft), no glare or
    shadow: where a 0 and an 8 are hardest to tell."""
    return replace(Conditions.draw(HELD_OUT, rng), height_mm=rng.uniform(480.0, 560.0),
                   blur_px=rng.uniform(1.0, 1.3), glare=0.0, shadow=0.0)


@pytest.mark.parametrize("name", ["0", "8"])
def test_a_small_soft_0_or_8_is_read_sure_and_right(name):
    deck = learned_from_renders(CLASSIC)
    face = next(f for f in faces_of(CLASSIC) if f.name == name)
    got = []
    for seed in SEEDS:
        rng = random.Random(f"far-{name}-{seed}")
        colour = rng.choice(["red", "yellow", "green", "blue"])
        reads, _camera = put_down(deck, CLASSIC, [(face, colour)], far_and_soft(rng), rng)
        got.append((seed, colour, [(r.card, r.colour, r.confidence, r.unsure) for r in reads]))
    missed = [g for g in got if [(c, k, u) for c, k, _, u in g[2]] != [(name, g[1], False)]]
    assert not missed, f"small soft {name}s not read once, sure and right: {missed}"


def glare_on_the_pile(rng: random.Random, glare: float) -> Conditions:
    """A bright lamp (1.25) whose glare spot lies on the pile itself: the border clipped in every channel, and
    where the glare lifts the field an orange's red or a teal's green is the sensor's top while the others rise."""
    return replace(Conditions.draw(HELD_OUT, rng), brightness=1.25, warmth=rng.uniform(-0.1, 0.1), glare=glare,
                   shadow=0.0, glare_at=(0.5 + rng.uniform(-0.06, 0.06), 0.5 + rng.uniform(-0.06, 0.06),
                                         rng.uniform(0.06, 0.12)))


@pytest.mark.parametrize("colour", ["orange", "teal", "purple", "pink", "yellow"])
def test_an_ink_under_a_glare_on_the_pile_is_never_read_wrong(colour):
    # a glare adds white to every channel alike, and the hue of a * ink + b is the ink's only while no channel
    # is clipped: a glared orange's red stops at the sensor's top while its green and blue rise, and with the
    # border's white clipped in every channel too, orange and yellow both fit what is seen (the old code read
    # 11 of these 16 oranges sure yellows); a clipped channel is now known only as at least what was seen, up to
    # the most an ink reflects plus the white a glare may have added, and such a read is asked. A teal's green
    # clipped where the glare is and its blue not turned green (seed 6 at 0.4, with that rule alone): the ink is
    # measured on the part of the field clear of the sensor's top
    side = "light" if colour == "yellow" else "dark"
    faces = [f for f in faces_of(FLIP) if f.side == side and not f.wild]
    deck, wrong = learned_from_renders(FLIP), []
    for glare in (0.4, 0.69):
        for seed in range(8):
            rng = random.Random(f"glare-{colour}-1.25-{glare}-{seed}")
            face = rng.choice(faces)
            reads, _camera = put_down(deck, FLIP, [(face, colour)], glare_on_the_pile(rng, glare), rng)
            wrong += [(glare, seed, face.name, r.describe()) for r in reads
                      if not r.unsure and (r.card, r.colour) != (face.name, colour)]
    assert not wrong, f"a glared {colour} read wrong: {wrong}"


def glare_under_a_tinted_lamp(rng: random.Random) -> Conditions:
    """A tinted lamp (warm or cold, 0.12 to 0.25) whose glare spot, wide and strong, covers the whole pile: the
    border is the sensor's top in every channel and no part of it tells the lamp's colour."""
    warmth = rng.choice((-1, 1)) * rng.uniform(0.12, 0.25)
    return replace(Conditions.draw(HELD_OUT, rng), brightness=rng.uniform(0.95, 1.1), warmth=warmth,
                   glare=rng.uniform(0.5, 0.6), shadow=0.0, height_mm=rng.uniform(550.0, 600.0),
                   glare_at=(0.5 + rng.uniform(-0.03, 0.03), 0.5 + rng.uniform(-0.03, 0.03), rng.uniform(0.1, 0.14)))


@pytest.mark.parametrize("colour", ["purple", "pink", "teal"])
def test_an_ink_under_a_glare_that_hides_the_lamps_colour_is_never_read_wrong(colour):
    # the glare is the lamp's reflection, in the lamp's colour; where it lifts the whole border to the sensor's
    # top, the white tells nothing of that colour, and an ink measured against a warm lamp's white taken for grey
    # turns redder (a purple read a sure pink, seed 7007 of the held-out Flip set: 5 wrong in one scene, with a
    # teal read a sure green of the other side): every lamp on the warm-to-cold line is tried, and such a read is
    # asked when they disagree
    faces = [f for f in faces_of(FLIP) if f.side == "dark" and not f.wild]
    deck, wrong = learned_from_renders(FLIP), []
    for seed in range(10):
        rng = random.Random(f"tinted-glare-{colour}-{seed}")
        face = rng.choice(faces)
        reads, _camera = put_down(deck, FLIP, [(face, colour)], glare_under_a_tinted_lamp(rng), rng)
        wrong += [(seed, face.name, r.describe()) for r in reads
                  if not r.unsure and (r.card, r.colour, r.side) != (face.name, colour, "dark")]
    assert not wrong, f"a {colour} under a glare in the lamp's colour read wrong: {wrong}"


def glare_over_a_black_field(rng: random.Random) -> Conditions:
    """Held-out seed 4004's Flip scene of cards 65 to 69: a strong glare (0.6 to 0.7) over the whole pile under a
    lamp near neutral, the border the sensor's top in every channel, a black field lifted to grey."""
    return replace(Conditions.draw(HELD_OUT, rng), brightness=rng.uniform(0.85, 0.95), warmth=rng.uniform(-0.1, 0.1),
                   glare=rng.uniform(0.6, 0.7), shadow=0.0, glare_at=(0.5 + rng.uniform(-0.03, 0.03),
                                                                   0.5 + rng.uniform(-0.03, 0.03),
                                                                   rng.uniform(0.1, 0.14)))


def test_a_wild_under_a_glare_that_hides_the_lamps_colour_is_never_read_a_colour():
    # a white clipped in every channel leaves the lamp's colour open (every lamp of the line is tried), and a
    # black field lifted to grey by the glare is, against a warm lamp of the line, as near a blue: a wild was read
    # a sure blue skip (0.58). Two colours that both fit a possible ink within the sensor's noise are now asked
    faces = [f for f in faces_of(FLIP) if f.wild]
    deck, wrong = learned_from_renders(FLIP), []
    for seed in range(12):
        rng = random.Random(f"glared-black-{seed}")
        face = rng.choice(faces)
        reads, _camera = put_down(deck, FLIP, [(face, None)], glare_over_a_black_field(rng), rng)
        wrong += [(seed, face.name, r.describe()) for r in reads if not r.unsure and r.colour is not None]
    assert not wrong, f"a wild under a glare that hides the lamp's colour read as a colour: {wrong}"
