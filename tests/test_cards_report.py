"""``cards test DIR --json``'s confusion and ``--report OUT``'s contact sheet: every photo not read right, with
its pictures and figures, on a page that is escaped, needs no network and fits a phone. Skipped without the
vision extra (numpy, OpenCV)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
cv2 = pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from shooter.camera.reads import Read  # noqa: E402
from shooter.editions import lookup  # noqa: E402
from shooter.vision import save_templates  # noqa: E402
from shooter.vision.phone import write_learning  # noqa: E402
from shooter.vision.photos import PhotoRead, learn_photos, name_photo  # noqa: E402
from shooter.vision.report import ContactSheet  # noqa: E402
from shooter.vision.templates import Templates  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXTREME = lookup("extreme", "2016")
ODD = "green-1_<b>&'\"x.jpg"   # a free part of a name that HTML must not take for markup


def cards(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "shooter", "cards", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """A deck learned from photos and a test folder: photos of faces read right, a green 7 misnamed green 1
    (``ODD``: a sure wrong read), a bare table (no card found)."""
    root = tmp_path_factory.mktemp("report")
    learn = root / "learn"
    write_learning(EXTREME, learn, seed=21)
    deck, _ = learn_photos(EXTREME, learn, pytest.fail)
    state = root / "state"
    state.mkdir()
    save_templates(state, Templates({EXTREME.key: deck}))
    test = root / "test"
    test.mkdir()
    for name in ("red-1.jpg", "yellow-2.jpg", "green-3.jpg", "wild.jpg"):
        shutil.copy(learn / name, test / name)
    shutil.copy(learn / "green-7.jpg", test / ODD)
    cv2.imwrite(str(test / "blue-9_table.jpg"), np.full((480, 640, 3), (40, 60, 90), np.uint8))
    return state, test


class Page(HTMLParser):
    """The contact sheet as parsed: each figure's class, its pictures and its text; every tag and link."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: list[dict] = []
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "figure":
            self.figures.append({"class": attrs.get("class"), "img": [], "text": []})
        elif tag == "img" and self.figures:
            self.figures[-1]["img"].append(attrs)

    def handle_data(self, data):
        self.text.append(data)
        if self.figures:
            self.figures[-1]["text"].append(data)


def parsed(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def test_the_json_has_each_faces_confusion_beside_the_old_keys(setup):
    state, test = setup
    out = cards("test", str(test), "--state-dir", str(state), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    for key in ("cards", "reads", "correct", "wrong", "unsure", "missed", "correct_share", "wrong_share",
                "ms_per_frame", "mistakes"):
        assert key in result, key
    assert (result["cards"], result["correct"], result["wrong"], result["missed"]) == (6, 4, 1, 1)
    # per face the file names: what it was read as, how many times; a sure read by its face, else unsure/missed
    assert result["confusion"] == {"red 1": {"red 1": 1}, "green 1": {"green 7": 1}, "yellow 2": {"yellow 2": 1},
                                   "green 3": {"green 3": 1}, "wild": {"wild": 1}, "blue 9": {"missed": 1}}
    assert len(result["mistakes"]) == 1 and result["mistakes"][0].startswith("green 1 read as green 7 ")
    assert "report" not in result


def test_the_report_shows_every_photo_not_read_right_with_its_pictures_and_figures(setup, tmp_path):
    state, test = setup
    report = tmp_path / "sheet" / "deeper"
    out = cards("test", str(test), "--state-dir", str(state), "--report", str(report))
    assert out.returncode == 0, out.stderr
    assert f"report             {report / 'index.html'}\n" in out.stdout
    page = parsed(report / "index.html")
    shown = {fig["class"]: fig for fig in page.figures}
    assert sorted(shown) == ["missed", "wrong"]   # the photos read right are not on the sheet
    wrong = " ".join(shown["wrong"]["text"])
    assert ODD in wrong and "green 1" in wrong and "read as green 7" in " ".join(wrong.split())
    read = json.loads(cards("test", str(test), "--state-dir", str(state), "--json").stdout)
    sure = read["mistakes"][0].rsplit(" ", 1)[1]
    assert sure in wrong and "(sure)" in wrong   # how sure, as the JSON's mistakes say it
    assert "no card found" in " ".join(shown["missed"]["text"]) and "blue-9_table.jpg" in \
        " ".join(shown["missed"]["text"])
    # the wrong read shows the photo and the straightened card, both files beside the page; the missed one its photo
    for fig, count in ((shown["wrong"], 2), (shown["missed"], 1)):
        assert len(fig["img"]) == count
        for img in fig["img"]:
            src = img["src"]
            assert not src.startswith(("/", "http:", "https:", "file:")) and ".." not in src
            picture = cv2.imread(str(report / src))
            assert picture is not None and picture.shape[0] > 20, src
            assert img.get("alt")
    assert shown["wrong"]["img"][0]["alt"] == ODD
    # escaped: the odd name is text, never a tag
    assert not [t for t, _ in page.tags if t == "b"]
    # offline and on a phone: no script, no stylesheet or picture from elsewhere, a viewport
    assert not [t for t, _ in page.tags if t in ("script", "link", "iframe")]
    assert all(not str(v).startswith(("http:", "https:", "//")) for _, attrs in page.tags for v in attrs.values())
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in page.tags
    assert ("meta", {"charset": "utf-8"}) in page.tags
    assert "cards 6" in " ".join(page.text) and "wrong 1" in " ".join(page.text)


def test_an_unsure_read_shows_how_sure_and_its_next_readings(tmp_path):
    sheet = ContactSheet(tmp_path / "sheet", "a <title> & more")
    photo = name_photo(Path("red-7.jpg"), EXTREME)
    pixels = np.full((300, 400, 3), 90, np.uint8)
    quad = np.asarray([[100, 50], [200, 50], [200, 200], [100, 200]], np.float32)
    read = Read("1", "red", None, 0.31, (("7", "red", 0.29), ("7", "yellow", 0.12)), unsure=True, quad=quad)
    sheet.add(PhotoRead(photo, read, np.full((124, 80, 3), 200, np.uint8)), pixels)
    sheet.add(PhotoRead(photo, Read("7", "red", None, 0.97, quad=quad), None), pixels)   # right: not shown
    page_path = sheet.write({"cards": 2, "correct": 1, "wrong": 0, "unsure": 1, "missed": 0,
                             "confusion": {"red 7": {"red 7": 1, "unsure": 1}}})
    page = parsed(page_path)
    assert [f["class"] for f in page.figures] == ["unsure"]
    text = " ".join(page.figures[0]["text"])
    for words in ("red-7.jpg", "red 7", "red 1", "0.31 (unsure)", "red 7 0.29, yellow 7 0.12"):
        assert words in text, words
    assert [src for src in (i["src"] for i in page.figures[0]["img"])] == ["thumbs/0001.jpg", "thumbs/0001-card.png"]
    assert "a <title> & more" in page.text and "<title>" not in page_path.read_text().split("</title>", 1)[1]
    # the confusion's faces not always read right are listed under the sheet
    assert "unsure 1, red 7 1" in " ".join(page.text) or "red 7 1, unsure 1" in " ".join(page.text)


def test_a_report_folder_that_is_a_file_is_one_line_exit_2_and_nothing_is_read(setup, tmp_path):
    state, test = setup
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    for where in (taken, taken / "sheet"):
        out = cards("test", str(test), "--state-dir", str(state), "--report", str(where))
        assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
        assert out.stderr.startswith(f"uno-shooter: --report {where}: not a directory")
    assert taken.read_text() == "keep me"
    # a bad folder of photos writes no sheet
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "purple-77.jpg").write_bytes(b"")
    out = cards("test", str(tmp_path / "photos"), "--state-dir", str(state), "--report", str(tmp_path / "new"))
    assert out.returncode == 2 and "purple-77.jpg: no card of this deck" in out.stderr
    assert not (tmp_path / "new").exists()
    out = cards("test", "--sim", "--report", str(tmp_path / "new"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--report is for a DIR of photos" in out.stderr
