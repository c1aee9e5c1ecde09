"""The camera in the hal (picamera2 against a fake module, OpenCV against a fake VideoCapture) and the simulated
camera (sim/camera: a rendered scene, seeded, physical). Skipped without the vision extra (numpy, OpenCV)."""

from __future__ import annotations

import random
import sys
import types
from typing import ClassVar

import pytest

np = pytest.importorskip("numpy", reason="the vision extra is not installed (pip install '.[vision]')")
cv2 = pytest.importorskip("cv2", reason="the vision extra is not installed (pip install '.[vision]')")

from hal import HalError  # noqa: E402
from hal.camera import CameraError, CameraSettings, OpenCVCamera, Picamera2Camera, open_camera  # noqa: E402
from hal.errors import DeviceClosedError  # noqa: E402
from sim.camera import HELD_OUT, LEARNING, SimCamera  # noqa: E402
from sim.cards import Card, FlipCard  # noqa: E402


class FakePicamera2:
    """What picamera2 does that the backend uses: configure a size and a format, start, capture, stop, close."""

    made: ClassVar[list[FakePicamera2]] = []

    def __init__(self, number: int):
        self.number, self.config, self.started, self.closed = number, None, False, False
        FakePicamera2.made.append(self)

    def create_video_configuration(self, main):
        return {"main": main}

    def configure(self, config):
        self.config = config

    def start(self):
        self.started = True

    def capture_array(self, stream):
        w, h = self.config["main"]["size"]
        frame = np.zeros((h, w, 4), np.uint8)   # XBGR8888-like: a fourth byte the backend drops
        frame[..., 0] = 10   # B
        frame[..., 2] = 200  # R
        return frame

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


def test_the_picamera2_backend_configures_the_size_gives_bgr_frames_and_closes(monkeypatch):
    # picamera2 cannot run here (no libcamera): a fake module stands in for it, checking what the backend asks
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    with open_camera(CameraSettings("picamera2", 1, (320, 240))) as cam:
        fake = FakePicamera2.made[-1]
        assert fake.number == 1 and fake.started
        assert fake.config["main"] == {"size": (320, 240), "format": "RGB888"}   # B, G, R bytes: OpenCV's order
        frame = cam.capture()
        assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
        assert frame[0, 0, 0] == 10 and frame[0, 0, 2] == 200 and frame.flags["C_CONTIGUOUS"]
    assert cam.closed and fake.closed and not fake.started
    cam.close()   # safe twice
    with pytest.raises(DeviceClosedError):
        cam.capture()


def test_without_picamera2_the_error_is_one_line_in_the_hals_tree(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)   # import fails
    with pytest.raises(CameraError, match="needs picamera2") as caught:
        Picamera2Camera(CameraSettings())
    assert isinstance(caught.value, HalError) and "\n" not in str(caught.value)


class FakeCapture:
    def __init__(self, device, opened=True, shape=(480, 640)):
        self.device, self.opened, self.shape, self.released, self.props = device, opened, shape, False, {}

    def isOpened(self):
        return self.opened

    def set(self, prop, value):
        self.props[prop] = value

    def read(self):
        return True, np.full((*self.shape, 3), 7, np.uint8)

    def release(self):
        self.released = True


def test_the_opencv_backend_asks_for_the_size_resizes_a_webcam_that_ignores_it_and_closes(monkeypatch):
    made = []
    monkeypatch.setattr(cv2, "VideoCapture", lambda d: made.append(FakeCapture(d, shape=(720, 1280))) or made[-1])
    cam = OpenCVCamera(CameraSettings("opencv", "/dev/video0", (640, 480)))
    assert made[0].device == "/dev/video0" and made[0].props[cv2.CAP_PROP_FRAME_WIDTH] == 640
    assert cam.capture().shape == (480, 640, 3)
    cam.close()
    cam.close()
    assert made[0].released and cam.closed


def test_a_webcam_that_is_not_there_is_a_camera_error(monkeypatch):
    monkeypatch.setattr(cv2, "VideoCapture", lambda d: FakeCapture(d, opened=False))
    with pytest.raises(CameraError, match="cannot be opened"):
        OpenCVCamera(CameraSettings("opencv", 3))


def _red_share(frame, camera):
    x, y, w, h = camera.region
    view = frame[y:y + h, x:x + w].astype(int)
    return float(((view[..., 2] > view[..., 1] + 60) & (view[..., 2] > view[..., 0] + 60)).mean())


def test_the_simulated_camera_renders_what_is_put_on_the_pile_and_nothing_else():
    pile: list = []
    camera = SimCamera(pile, random.Random(4), LEARNING)
    empty = camera.capture()
    assert empty.shape == (480, 640, 3) and empty.dtype == np.uint8
    assert _red_share(empty, camera) < 0.001
    pile.append(Card("number", "red", 7))
    with_card = camera.capture()
    assert _red_share(with_card, camera) > 0.05            # a red field where the card fell
    corners = camera.corners()
    inside = cv2.pointPolygonTest(corners.astype(np.float32), tuple(corners.mean(axis=0)), False)
    assert inside > 0
    pile.clear()   # the pile taken away: the next frame is the table again
    assert _red_share(camera.capture(), camera) < 0.001


def test_the_same_seed_renders_the_same_frames_and_another_seed_other_ones():
    def frames(seed):
        pile = [Card("skip", "blue")]
        camera = SimCamera(pile, random.Random(seed), HELD_OUT)
        return [camera.capture() for _ in range(3)]
    a, b, c = frames(9), frames(9), frames(10)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not (a[0] == c[0]).all()
    assert not (a[0] == a[1]).all()   # sensor noise: no two frames alike


def test_a_flip_card_shows_the_side_that_is_up():
    card = FlipCard(Card("number", "red", 4), Card("number", "teal", 4))
    camera = SimCamera([card], random.Random(2), LEARNING)
    light = camera.capture()
    camera.side_up = "dark"
    dark = camera.capture()
    assert _red_share(light, camera) > 0.05 and _red_share(dark, camera) < 0.001
