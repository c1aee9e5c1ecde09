"""The printed card style (sim.camera.printed, sim.camera.styles) and the recogniser on it: every edition's faces
drawn from the records in both styles, the hit cards and Flip's dark side with looks of their own; a deck printed
so is learned and read (the symbol's polarity learned, a striped cloth not taken for motion); the latency a
player feels, measured through the frame pump on the virtual clock, within its goal. Small sizes."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from shooter.camera.words import CARD_STYLES  # noqa: E402
from shooter.editions import lookup, records  # noqa: E402
from shooter.errors import StateFileError  # noqa: E402
from shooter.vision.bench import Timing, bench, held_out  # noqa: E402
from shooter.vision.card import LIGHT, POLARITIES  # noqa: E402
from shooter.vision.latency import GOAL_S, latency  # noqa: E402
from shooter.vision.learn import learn_sim  # noqa: E402
from shooter.vision.synthetic import faces_of, looks_of  # noqa: E402
from shooter.vision.templates import Templates, from_json, to_json  # noqa: E402
from sim.camera import SimCamera  # noqa: E402
from sim.camera.printed import HIT  # noqa: E402
from sim.camera.styles import STYLES  # noqa: E402


def test_the_styles_are_the_camera_words_and_each_draws_every_face_of_every_edition():
    assert tuple(STYLES) == CARD_STYLES
    for record in records():
        looks = looks_of(faces_of(record))
        for spec in faces_of(record):
            colour = None if spec.wild else spec.colours[0]
            drawn = {name: style.draw(spec.name, colour, spec.side, looks.get(spec.name))[0]
                     for name, style in STYLES.items()}
            assert not np.allclose(drawn["plain"], drawn["printed"]), (record.key, spec.name)


def test_the_extreme_hit_cards_and_flips_dark_side_have_looks_of_their_own():
    looks = looks_of(faces_of(lookup("extreme", "2016")))
    assert looks == {"hit2": HIT, "extreme-hit": HIT, "hit4": HIT}   # from the records' effects, no hand list
    draw = STYLES["printed"].draw
    plain_middle, hit_middle = draw("2", "yellow", None, None)[0], draw("2", "yellow", None, HIT)[0]
    assert not np.allclose(plain_middle, hit_middle)
    light, dark = draw("3", "teal", "light", None)[0], draw("3", "teal", "dark", None)[0]
    h, w = light.shape[:2]
    # the light side's ellipse is white round the symbol, the dark side's black
    middle = (slice(h // 2 - 60, h // 2 + 60), slice(w // 2 - 30, w // 2 + 30))
    assert light[middle].mean() > dark[middle].mean() + 0.3


def test_a_printed_cameras_frames_are_jpeg_and_its_tables_wood_felt_or_cloth():
    import random
    kinds = set()
    for seed in range(12):
        camera = SimCamera([], random.Random(seed), style="printed")
        assert camera.jpeg is not None and 55 <= camera.jpeg <= 90
        kinds.add(camera.table_kind)
    assert kinds == {"wood", "felt", "cloth"}
    assert SimCamera([], random.Random(1)).jpeg is None   # plain: as the sensor gives it


@pytest.fixture(scope="module")
def printed_deck():
    return learn_sim(lookup("extreme", "2016"), 1, style="printed", every_colour=True)


def test_a_deck_printed_like_the_cards_is_learned_whole_and_read_right():
    # Extreme 2010's held-out seed 1001, 40 cards: four scenes, the last on a striped cloth whose edges flicker
    # through the sensor's noise and the JPEG (taken for motion, none of its ten cards was ever read). The goals,
    # at least 99.5 % correct and at most 0.1 % wrong, on 40 cards are all 40 right (a blue 2 was asked, 0.26,
    # while each face was learned in one colour only)
    record = lookup("extreme", "2010")
    deck, missed = learn_sim(record, 1, style="printed", every_colour=True)
    assert missed == []
    tally = held_out(record, deck, 1001, 40, Timing(), style="printed")
    assert tally.cards == 40 and tally.correct == 40, tally.figures()


def test_a_digit_printed_in_yellow_is_matched_against_a_look_learned_in_yellow():
    # a digit in the card's own colour on the white ellipse looks otherwise in each colour: a yellow one is faint
    # (a phone's JPEG keeps its colour at half the resolution), a blue one bold. Learned in one colour a face (the
    # recogniser before), Attack 1998's held-out seed 1001 asked two of its first 40 cards, a yellow 5 (0.06) and
    # a yellow 4 (0.36): matched against a 3 and a 6 learned in bolder colours. Each face learned in each of its
    # colours, a read matched against every look of each face, all 40 are read right
    record = lookup("attack", "1998")
    deck, _ = learn_sim(record, 1, style="printed", every_colour=True)
    five = next(f for f in faces_of(record) if f.name == "5")
    assert {f.colour for f in deck.faces if f.name == "5"} == set(five.colours)   # a look in each of its colours
    tally = held_out(record, deck, 1001, 40, Timing(), style="printed")
    assert tally.cards == 40 and tally.correct == 40, tally.figures()


def test_the_symbols_polarity_is_learned_and_kept_in_the_templates(printed_deck):
    deck, _ = printed_deck
    assert {f.polarity for f in deck.faces} <= set(POLARITIES)
    back = from_json(to_json(Templates({"extreme-2016": deck}))).deck("extreme-2016")
    assert [(f.name, f.polarity, f.colour) for f in back.faces] == [(f.name, f.polarity, f.colour) for f in deck.faces]
    assert {f.colour for f in deck.faces if not f.wild} == {"red", "yellow", "green", "blue"}   # a look per colour
    data = to_json(Templates({"extreme-2016": deck}))
    del data["decks"]["extreme-2016"]["faces"][0]["polarity"]   # a file from before polarities: light
    del data["decks"]["extreme-2016"]["faces"][0]["colour"]     # ... and before looks per colour: none
    assert from_json(data).deck("extreme-2016").faces[0].polarity == LIGHT
    assert from_json(data).deck("extreme-2016").faces[0].colour is None
    data["decks"]["extreme-2016"]["faces"][0]["polarity"] = "sideways"
    with pytest.raises(StateFileError, match=r"face 0: polarity must be one of light, dark, not 'sideways'"):
        from_json(data)


def test_a_card_at_rest_is_played_within_half_a_second_on_the_virtual_clock(printed_deck):
    deck, _ = printed_deck
    waited = latency(lookup("extreme", "2016"), deck, 2001, 10, "printed").figures()
    assert waited["played"] + waited["unsure"] == 10 and waited["unread"] == 0
    assert waited["median_s"] <= GOAL_S and waited["p90_s"] <= GOAL_S, waited


def test_the_bench_says_its_style_and_latency_and_refuses_a_style_it_does_not_know():
    out = bench([lookup("classic")], 1, 2, style="printed", latency_cards=2)
    assert out["style"] == "printed" and out["cards"] == 2 and out["latency"]["cards"] == 2
    assert out["editions"]["classic"]["latency"]["frame_interval_s"] == 0.1
    from shooter.errors import ConfigError
    with pytest.raises(ConfigError, match=r"style 'glossy': one of plain, printed"):
        bench([lookup("classic")], 1, 2, style="glossy")


def test_each_card_shown_is_also_learned_as_seen_from_farther(printed_deck):
    # a far card (35 to 45 pixels wide: its digit some 15 by 20) mixes its strokes otherwise than a blur of the
    # near look does: Extreme 2016's held-out seed 1002 asked its 34th card, a blue 5 far away (0.35, between 5, 8
    # and 3), while each card shown was learned as seen (matched blurred 0, 1 and 1.7 pixels). Each card shown is
    # now also learned as if seen from twice as far (shooter.vision.card.learned), a look of its own: all 40 right
    deck, _ = printed_deck
    looks = [(f.name, f.colour) for f in deck.faces]
    assert all(looks.count(look) == 2 for look in looks)   # the card as seen, and as seen from farther
    tally = held_out(lookup("extreme", "2016"), deck, 1002, 40, Timing(), style="printed")
    assert tally.cards == 40 and tally.correct == 40, tally.figures()


def test_a_strip_of_the_card_underneath_that_the_outline_took_in_is_cut_away_before_reading():
    # Flip's red 8 on a red card (held-out seed 1001, card 129): its outline, moved onto the edges of both, took in
    # a strip of the card under it, the digit lay off its place and matched a 6 (0.78 against the 8's 0.67), sure
    import cv2

    from shooter.vision.card import features, trimmed
    from shooter.vision.outline import SIZE
    w, h = SIZE

    def straightened(name, colour, side):
        drawn = STYLES["printed"].draw(name, colour, side, None)[0]
        return cv2.resize(np.clip(drawn * 255, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_AREA)

    eight, under = straightened("8", "red", "light"), straightened("6", "red", "light")
    for strip in (9, 12):
        # the strip below the card: the card under it, its field and then its border outermost
        taken = np.vstack([cv2.resize(eight, (w, h - strip), interpolation=cv2.INTER_AREA), under[h - strip:]])
        cut = trimmed(taken)
        assert np.abs(cut.astype(float) - eight).mean() < np.abs(taken.astype(float) - eight).mean() / 2, strip
        same = np.corrcoef(features(cut).symbol.ravel(), features(eight).symbol.ravel())[0, 1]
        assert same > 0.9, (strip, same)
    # a card straightened on its own edges is read as it is, every face of every side in each of its colours
    for spec in faces_of(lookup("flip")):
        for colour in (None,) if spec.wild else spec.colours:
            card = straightened(spec.name, colour, spec.side)
            assert trimmed(card) is card, (spec.name, colour, spec.side)


def test_a_small_lead_is_weighed_again_where_the_two_nearest_faces_differ():
    # Attack 1998's held-out seed 1001 asked its 52nd card, a far yellow 1 (0.25: its 1 led a 2 by 0.02 of the
    # whole symbol, the strokes they share counted too); where the learned 1 and 2 differ it leads by some 0.08
    # (shooter.vision.match._told_apart): 58 of the first 60 right, 57 before; none wrong
    record = lookup("attack", "1998")
    deck, _ = learn_sim(record, 1, style="printed", every_colour=True)
    tally = held_out(record, deck, 1001, 60, Timing(), style="printed")
    assert tally.cards == 60 and tally.correct >= 58 and tally.wrong == 0, tally.figures()


def test_a_small_lead_over_a_face_that_learned_no_symbol_is_not_weighed_again():
    # a blank card learned as a flat map has no learned look to weigh a read's pixels against (an IndexError in
    # the watcher before): the whole symbol's match stands, and the read is as sure as it was
    from shooter.vision.card import features
    from shooter.vision.match import _told_apart
    from shooter.vision.outline import SIZE
    from shooter.vision.templates import Deck, Face
    w, h = SIZE
    card = np.full((h, w, 3), 230, np.uint8)
    card[20:-20, 10:-10] = (40, 40, 200)
    card[60:90, 40:60] = 250
    seen = features(card)
    wild = Face("wild", None, True, seen.symbol)
    blank = Face("blank", None, True, np.zeros_like(seen.symbol))
    deck = Deck([wild, blank])
    assert _told_apart(deck, seen, wild, blank) == 0.0
    assert _told_apart(deck, seen, blank, wild) == 0.0
