"""``cards learn DIR``: a deck learned from a folder of the owner's photos, measured on photos it never saw;
bad input one line and exit 2, nothing learned. The photos are rendered by the simulated camera as a phone
takes them (shooter/vision/phone.py) and written as JPEG files named as ``cards test`` names them.
Skipped without the vision extra (numpy, OpenCV)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
cv2 = pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from shooter.editions import lookup  # noqa: E402
from shooter.vision import faces_of, load_templates, save_templates  # noqa: E402
from shooter.vision.phone import write_held_out, write_learning  # noqa: E402
from shooter.vision.photos import PhotoError, file_stem, learn_photos, name_photo  # noqa: E402
from shooter.vision.templates import TEMPLATES_FILE, Deck, Templates  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXTREME = lookup("extreme", "2016")
FLIP = lookup("flip")


def cards(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shooter", "cards", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Extreme's learning photos (every face twice: 34) and 60 held-out photos of another seed."""
    root = tmp_path_factory.mktemp("photos")
    write_learning(EXTREME, root / "learn", seed=11, per_face=2)
    write_held_out(EXTREME, root / "held-out", seed=1011, count=60, on_another=0.0)
    return root


def test_a_deck_learned_from_photos_reads_held_out_photos_of_them(folders, tmp_path):
    learnt = cards("learn", str(folders / "learn"), "--state-dir", str(tmp_path))
    assert learnt.returncode == 0, learnt.stderr
    assert learnt.stdout == f"17 faces of Uno Extreme learned from 34 photos; kept in {tmp_path / TEMPLATES_FILE}\n"
    # kept where learning through the camera keeps it, read back by the one loader
    deck = load_templates(tmp_path, log=pytest.fail).deck(EXTREME.key)
    assert {(f.name, f.side) for f in deck.faces} == {(f.name, f.side) for f in faces_of(EXTREME)}
    assert set(deck.inks[""]) == {"red", "yellow", "green", "blue", ""}
    tested = cards("test", str(folders / "held-out"), "--state-dir", str(tmp_path), "--json")
    assert tested.returncode == 0, tested.stderr
    result = json.loads(tested.stdout)
    assert result["cards"] == 60
    assert result["correct"] + result["wrong"] + result["unsure"] + result["missed"] == 60
    # measured (docs/vision.md, "Learning from photos"): these 60 are all read right; the bench's 200 a folder
    # (benchmarks/vision_photos.py) say how many more may be asked or missed
    assert result["correct"] >= 57 and result["wrong"] == 0, result


def test_a_deck_printed_like_the_cards_is_learned_from_photos_of_it_and_reads_held_out_ones(tmp_path):
    # issue 32: learned from one set of photos of a style, tested on held-out photos of that style
    learn, held = tmp_path / "learn", tmp_path / "held-out"
    printed = write_learning(EXTREME, learn, seed=11, per_face=2, style="printed")
    plain = write_learning(EXTREME, tmp_path / "plain", seed=11, per_face=2)
    assert [p.name for p in printed] == [p.name for p in plain]
    drawn = zip(printed, plain, strict=True)
    assert all(cv2.imread(str(a)).mean() != cv2.imread(str(b)).mean() for a, b in drawn), \
        "the printed style's photos are drawn otherwise than the plain ones"
    write_held_out(EXTREME, held, seed=1011, count=60, on_another=0.0, style="printed")
    learnt = cards("learn", str(learn), "--state-dir", str(tmp_path / "state"))
    assert learnt.returncode == 0, learnt.stderr
    tested = cards("test", str(held), "--state-dir", str(tmp_path / "state"), "--json")
    result = json.loads(tested.stdout)
    # measured (docs/vision.md, "What learning from photos measured"): these 60 are all read right; the bench's 200
    # a folder (benchmarks/vision_photos.py --style printed) say how many more may be asked or missed
    assert result["cards"] == 60 and result["correct"] >= 57 and result["wrong"] == 0, result


def test_the_deck_is_what_the_photos_show_a_face_misnamed_is_learned_as_named(folders, tmp_path):
    # the photos of red 7 named as red 1's and the other way round: the 7s of the held-out set are read as 1s
    swapped = tmp_path / "swapped"
    shutil.copytree(folders / "learn", swapped)
    for path in swapped.iterdir():
        face = name_photo(path, EXTREME).face.name
        if face in ("1", "7"):
            path.rename(path.with_name(path.name.replace(f"-{face}", "-x" + ("7" if face == "1" else "1"))))
    for path in swapped.iterdir():
        path.rename(path.with_name(path.name.replace("-x", "-")))
    warnings: list[str] = []
    deck, used = learn_photos(EXTREME, swapped, warnings.append)
    assert used == 34 - len(warnings)
    save_templates(tmp_path, Templates({EXTREME.key: deck}))
    result = json.loads(cards("test", str(folders / "held-out"), "--state-dir", str(tmp_path), "--json").stdout)
    sevens = {k: v for k, v in result["confusion"].items() if k.endswith(" 7")}
    assert sevens and all(set(row) <= {k.replace(" 7", " 1"), "unsure", "missed"} for k, row in sevens.items()) \
        and any(k.replace(" 7", " 1") in row for k, row in sevens.items()), sevens


def test_flip_is_learned_from_photos_both_sides_a_wild_named_by_its_side(tmp_path):
    learn, held = tmp_path / "learn", tmp_path / "held-out"
    write_learning(FLIP, learn, seed=5)
    files = {p.name for p in learn.iterdir()}
    assert {"light-wild.jpg", "dark-wild.jpg", "wild-draw-colour.jpg", "wild-draw-two.jpg"} <= files
    assert {"red", "yellow", "green", "blue", "pink", "teal", "orange", "purple"} == \
        {n.split("-")[0] for n in files} - {"light", "dark", "wild"}
    write_held_out(FLIP, held, seed=1005, count=30, on_another=0.0)
    out = cards("learn", str(learn), "--variant", "flip", "--state-dir", str(tmp_path / "state"))
    assert out.returncode == 0 and "30 faces of Uno Flip learned from 30 photos" in out.stdout, out.stderr
    result = json.loads(cards("test", str(held), "--variant", "flip", "--state-dir", str(tmp_path / "state"),
                              "--json").stdout)
    assert result["correct"] >= 27 and result["wrong"] == 0, result
    assert any(face.endswith("(dark)") for face in result["confusion"])
    # a wild printed on both sides needs its side in the name
    with pytest.raises(PhotoError, match=r"wild\.jpg: Uno Flip prints wild on more than one side: name it "
                                         r"light-wild\.jpg or dark-wild\.jpg"):
        name_photo(Path("wild.jpg"), FLIP)


def test_the_names_are_derived_from_the_edition_record():
    for record in (EXTREME, FLIP, lookup("classic"), lookup("all-wild")):
        for face in faces_of(record):
            for colour in face.colours or (None,):
                stem = file_stem(record, face, colour)
                for name in (f"{stem}.jpg", f"{stem}_2.PNG", f"{stem.upper()}_kitchen light.jpeg"):
                    photo = name_photo(Path(name), record)
                    assert (photo.face, photo.colour) == (face, colour), name
    assert name_photo(Path("wild-hit4.png"), EXTREME).face.name == "hit4"
    assert name_photo(Path("wild-draw-four.jpg"), lookup("classic")).face.name == "wild-draw-four"
    assert name_photo(Path("dark-pink-5.jpg"), FLIP).face.side == "dark"
    for bad in ("red-wild.jpg", "purple-7.jpg", "pink-hit2.jpg", "7.jpg", "light-pink-5.jpg"):
        with pytest.raises(PhotoError, match="no card of this deck is named"):
            name_photo(Path(bad), FLIP if "pink" in bad else EXTREME)


def _one_line_exit_2(out: subprocess.CompletedProcess[str], *words: str) -> None:
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, (out.stdout, out.stderr)
    assert out.stderr.startswith("uno-shooter: ")
    for word in words:
        assert word in out.stderr, (word, out.stderr)


def test_bad_input_is_one_line_exit_2_and_nothing_is_learned(folders, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    save_templates(state, Templates({"classic": Deck()}))   # a deck learned before: kept untouched
    before = (state / TEMPLATES_FILE).read_bytes()
    photos = tmp_path / "photos"

    def learn_refused(*words: str) -> None:
        _one_line_exit_2(cards("learn", str(photos), "--state-dir", str(state)), *words, "nothing was learned")
        assert (state / TEMPLATES_FILE).read_bytes() == before

    learn_refused("no such directory")
    photos.write_text("a file")
    learn_refused("not a directory")
    photos.unlink()
    photos.mkdir()
    (photos / "notes.txt").write_text("not a photo")
    learn_refused("no photos (.jpg, .jpeg, .png, .bmp) in it")
    shutil.copytree(folders / "learn", photos, dirs_exist_ok=True)
    (photos / "purple-77.jpg").write_bytes((photos / "red-1.jpg").read_bytes())
    learn_refused("purple-77.jpg: no card of this deck is named 'purple-77'", "red-1.jpg")
    (photos / "purple-77.jpg").unlink()
    (photos / "red-7_9.jpg").write_bytes(b"not a jpeg")
    learn_refused("red-7_9.jpg: not an image OpenCV can read")
    (photos / "red-7_9.jpg").unlink()
    os.mkfifo(photos / "red-7_9.jpg")   # a FIFO does not block the learning
    learn_refused("red-7_9.jpg: cannot be read (not a regular file)")
    (photos / "red-7_9.jpg").unlink()
    for path in photos.glob("*-hit2*"):
        path.unlink()
    learn_refused("no usable photo of 1 face of Uno Extreme: hit2")
    shutil.copytree(folders / "learn", photos, dirs_exist_ok=True)
    for path in photos.glob("blue-*"):   # every face is still shown, but no blue card
        path.rename(path.with_name(path.name.replace("blue-", "red-").replace(".jpg", "_blue.jpg")))
    learn_refused("no usable photo of a blue card")
    _one_line_exit_2(cards("learn", str(photos), "--sim", "--state-dir", str(state)), "DIR of photos or --sim")
    assert (state / TEMPLATES_FILE).read_bytes() == before


def test_a_photo_with_no_card_is_a_warning_and_the_rest_is_learned(folders, tmp_path):
    photos, state = tmp_path / "photos", tmp_path / "state"
    shutil.copytree(folders / "learn", photos)
    table = np.full((480, 640, 3), (40, 60, 90), np.uint8)   # the bare table: no card in it
    cv2.imwrite(str(photos / "red-7_table.jpg"), table)
    state.mkdir()
    save_templates(state, Templates({"classic": Deck()}))
    out = cards("learn", str(photos), "--state-dir", str(state))
    assert out.returncode == 0, out.stderr
    assert out.stderr == "uno-shooter: red-7_table.jpg: no card found (the whole card, a border of table round " \
                         "it); left out\n"
    assert "learned from 34 photos" in out.stdout
    kept = load_templates(state, log=pytest.fail)
    assert set(kept.decks) == {"classic", EXTREME.key}   # another deck learned before is kept
