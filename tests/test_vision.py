"""The recogniser on the simulated camera: learning, reading the held-out set, hands, the templates file, the
cards commands and the [camera] config. Skipped without the vision extra (numpy, OpenCV)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
cv2 = pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from shooter.config import parse_config  # noqa: E402
from shooter.editions import lookup  # noqa: E402
from shooter.errors import ConfigError  # noqa: E402
from shooter.vision import PileWatcher, faces_of, learn_sim, load_templates, read_still, save_templates  # noqa: E402
from shooter.vision.bench import Timing, bench, held_out  # noqa: E402
from shooter.vision.synthetic import physical  # noqa: E402
from shooter.vision.templates import TEMPLATES_FILE, Templates  # noqa: E402
from sim.camera import HELD_OUT, LEARNING, SimCamera  # noqa: E402
from tests.test_startup import imported  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXTREME = lookup("extreme", "2016")


@pytest.fixture(scope="module")
def deck():
    learned, missed = learn_sim(EXTREME, 1)
    assert not missed, missed
    return learned


def test_every_face_of_every_edition_is_listed_from_the_records_both_flip_sides():
    flip = faces_of(lookup("flip"))
    assert {f.side for f in flip} == {"light", "dark"}
    assert ("wild-draw-colour", "dark") in {(f.name, f.side) for f in flip}
    assert [f.name for f in faces_of(EXTREME)][:9] == [str(d) for d in range(1, 10)]
    assert all(f.wild and not f.colours for f in faces_of(lookup("all-wild")))


def test_learning_sees_each_face_once_and_keeps_its_symbol_and_the_inks(deck):
    assert {(f.name, f.side) for f in deck.faces} == {(f.name, f.side) for f in faces_of(EXTREME)}
    assert set(deck.inks[""]) == {"red", "yellow", "green", "blue", ""}


def test_the_held_out_set_is_read_with_no_sure_mistake(deck):
    # measured on 40 cards of the held-out set: what the watcher reads sure is right, the rest is unsure
    told: list = []
    tally = held_out(EXTREME, deck, seed=2024, cards=40, timing=Timing(),
                     counted=lambda index, truth, read, frame: told.append((index, truth, read, frame.shape)))
    assert tally.cards == 40
    # each card counted is told once, in order, with its frame (benchmarks/vision_failures.py prints from it)
    assert [i for i, truth, _, _ in told if truth is not None] == list(range(1, 41))
    assert sum(1 for _, truth, read, _ in told if truth is not None and read is not None and not read.unsure
               and (read.card, read.colour) == (truth.name, truth.colour)) == tally.correct
    assert all(shape == (480, 640, 3) for *_, shape in told)
    assert tally.wrong == 0, tally.mistakes
    assert tally.correct >= 38, tally.figures()   # 95 %; the bench measures the real share on 1,000 cards


def test_a_read_is_made_once_per_card_when_it_settled_not_while_a_hand_is_over_it(deck):
    pile: list = []
    camera = SimCamera(pile, random.Random(5), replace(HELD_OUT, hand_with_card=1.0, hands_per_second=0.0))
    watcher = PileWatcher(deck, camera.region)
    reads = []
    t = 0.0
    from sim.cards import Card
    for card in (Card("number", "red", 3), Card("skip", "green")):
        pile.append(card)
        for _ in range(16):
            frame = camera.capture()
            got = watcher.feed(frame, t)
            if got is not None:
                reads.append((t, got))
            t += 0.1
    assert len(reads) == 2
    assert reads[0][0] > 0.3   # not before the hand had gone and the card lay still


def test_hands_reaching_over_the_pile_for_nothing_are_not_read(deck):
    from sim.cards import Card
    pile = [Card("number", "blue", 5)]
    camera = SimCamera(pile, random.Random(8), replace(HELD_OUT, hands_per_second=3.0, hand_with_card=0.0))
    watcher = PileWatcher(deck, camera.region)
    frames = [camera.capture() for _ in range(60)]
    reads = [watcher.feed(frame, i * 0.1) for i, frame in enumerate(frames)]
    x, y, w, h = camera.region
    moved = [np.abs(f[y:y + h, x:x + w].astype(int) - frames[0][y:y + h, x:x + w]).max() > 80 for f in frames]
    assert sum(moved) >= 5   # hands were over the pile
    assert [r for r in reads if r is not None] == []


def test_a_wild_put_squarely_on_a_wild_is_read_not_missed(deck):
    # black on black near the same place: the change is the symbol and slivers of border, no card's shape; the
    # watcher then looks for the one whole card on top and reads it, rather than saying nothing
    from sim.cards import Card
    missed = []
    for seed in range(8):
        pile = [Card("wild")]
        camera = SimCamera(pile, random.Random(seed), replace(LEARNING, spread_mm=3.0))
        watcher = PileWatcher(deck, camera.region)
        t = 0.0
        for card in (Card("blank"), Card("extreme-hit"), Card("wild")):
            for _ in range(6):
                assert watcher.feed(camera.capture(), t) is None
                t += 0.1
            pile.append(card)
            reads = []
            for _ in range(8):
                reads.append(watcher.feed(camera.capture(), t))
                t += 0.1
            got = [r for r in reads if r is not None]
            if [(r.card, r.unsure) for r in got] != [(card.name, False)]:
                missed.append((seed, card.name, [r.describe() for r in got]))
    assert missed == []


def test_a_still_of_two_cards_is_read_by_its_top_card_whole_field(deck):
    # cards test DIR: one photo, no earlier view; the card below shows its field cut by the top card's
    rng = random.Random(5)
    faces = [f for f in faces_of(EXTREME) if not f.wild]
    right = wrong = 0
    for _ in range(8):
        pile: list = []
        camera = SimCamera(pile, rng, LEARNING)
        for _ in range(2):
            face = rng.choice(faces)
            colour = rng.choice(face.colours)
            pile.append(physical(face, colour))
        read = read_still(deck, camera.capture())
        assert read is not None, f"no card found in a still of two cards ({colour} {face.name} on top)"
        if (read.card, read.colour) == (face.name, colour):
            right += 1
        elif not read.unsure:
            wrong += 1
    assert wrong == 0 and right >= 6


def test_the_templates_file_round_trips_and_a_bad_one_is_set_aside_in_one_line(deck, tmp_path):
    save_templates(tmp_path, Templates({EXTREME.key: deck}))
    back = load_templates(tmp_path, log=pytest.fail)
    again = back.deck(EXTREME.key)
    assert [f.name for f in again.faces] == [f.name for f in deck.faces]
    assert np.allclose(again.faces[0].symbol, deck.faces[0].symbol, atol=1 / 255)
    data = json.loads((tmp_path / TEMPLATES_FILE).read_text())
    data["version"] = 99
    (tmp_path / TEMPLATES_FILE).write_text(json.dumps(data))
    lines: list[str] = []
    assert load_templates(tmp_path, log=lines.append).decks == {}
    assert len(lines) == 1 and "version 99" in lines[0] and "kept it as" in lines[0]
    assert list(tmp_path.glob(f"{TEMPLATES_FILE}.bad-*"))


def _cards(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shooter", "cards", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_cards_test_refuses_bad_input_in_one_line(deck, tmp_path):
    save_templates(tmp_path, Templates({EXTREME.key: deck}))
    photos = tmp_path / "photos"
    photos.mkdir()
    out = _cards("test", str(tmp_path / "nowhere"), "--state-dir", str(tmp_path))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "no such directory" in out.stderr
    (photos / "purple-77.png").write_bytes(b"")
    out = _cards("test", str(photos), "--state-dir", str(tmp_path))
    assert out.returncode == 2 and "purple-77.png: no card of this deck" in out.stderr
    (photos / "purple-77.png").unlink()
    (photos / "red-7.png").write_bytes(b"not a png")
    out = _cards("test", str(photos), "--state-dir", str(tmp_path))
    assert out.returncode == 2 and "red-7.png: not an image" in out.stderr
    out = _cards("test", "--state-dir", str(tmp_path))
    assert out.returncode == 2 and "DIR of photos or --sim" in out.stderr


def test_cards_learn_sim_keeps_the_templates_and_test_sim_reports_json(tmp_path):
    out = _cards("learn", "--sim", "--state-dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "17 faces of Uno Extreme learned" in out.stdout and (tmp_path / TEMPLATES_FILE).exists()
    out = _cards("test", "--sim", "--cards", "5", "--json")
    result = json.loads(out.stdout)
    assert result["cards"] == 5 and result["correct"] + result["wrong"] + result["unsure"] + result["missed"] >= 5
    assert set(result["editions"]) == {"extreme-2016"} and result["ms_per_frame"] > 0


def test_cards_bench_takes_another_held_out_seed_but_never_the_learnings():
    out = _cards("bench", "--sim", "--variant", "all-wild", "--cards", "3", "--held-out-seed", "7", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert (result["seed"], result["held_out_seed"], result["cards"]) == (1, 7, 3)
    assert set(result["editions"]) == {"all-wild"} and result["exposure"] == "set"
    out = _cards("bench", "--sim", "--variant", "all-wild", "--cards", "3", "--exposure", "own", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["exposure"] == "own", out.stderr
    with pytest.raises(ConfigError, match="exposure 'manual': one of set, own"):
        bench([], 1, 1, exposure="manual")   # the function itself, as the CLI's choices say
    out = _cards("bench", "--sim", "--exposure", "manual")
    assert out.returncode == 2 and "--exposure: invalid choice: 'manual'" in out.stderr and out.stdout == ""
    out = _cards("bench", "--sim", "--seed", "4", "--held-out-seed", "4")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--held-out-seed 4: the learning's --seed" \
        in out.stderr and out.stdout == ""


def test_the_camera_section_is_checked_key_by_key_with_one_line_errors():
    assert parse_config({}).camera is None
    cam = parse_config({"camera": {"backend": "opencv", "device": "/dev/video0", "pile": [10, 10, 300, 300],
                                   "report": "auto"}}).camera
    assert cam is not None and cam.pile == (10, 10, 300, 300) and cam.report == "auto"
    for table, key in (({"backend": "gopro"}, "camera.backend"), ({"report": "maybe"}, "camera.report"),
                       ({"resolution": [640]}, "camera.resolution"), ({"pile": [600, 0, 100, 100]}, "camera.pile"),
                       ({"device": True}, "camera.device"), ({"zoom": 2}, "camera.zoom")):
        with pytest.raises(ConfigError, match=key.replace(".", r"\.")) as caught:
            parse_config({"camera": table})
        assert "\n" not in str(caught.value)


def test_a_shooter_without_a_camera_loads_neither_numpy_nor_opencv():
    modules = imported(["run", "--sim", "--console", "stdio", "--clock", "virtual"])
    assert not modules & {"numpy", "cv2", "shooter.vision", "hal.camera", "sim.camera"}


@pytest.mark.parametrize("edition", ["1998", "106"])
def test_the_simulated_camera_learns_and_reads_uno_attacks_faces_from_its_record(edition):
    # an edition is data: Uno Attack's faces come from its record as Extreme's do (no face named here but to
    # check the record's own: the 106 printing has no Trade Hands)
    record = lookup("attack", edition)
    faces = {f.name for f in faces_of(record)}
    assert faces == {*map(str, record.side().digits), *(n for n in record.side().cards if n != "number")}
    assert ("trade-hands" in faces) == (edition == "1998")
    learned, missed = learn_sim(record, 1)
    assert not missed, missed
    assert {(f.name, f.side) for f in learned.faces} == {(f.name, f.side) for f in faces_of(record)}
    tally = held_out(record, learned, seed=2024, cards=30, timing=Timing())
    assert tally.cards == 30 and tally.wrong == 0, tally.mistakes
    assert tally.correct >= 27, tally.figures()
