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


class ExposureCapture(FakeCapture):
    """A V4L2 webcam's exposure as OpenCV shows it: automatic (mode 3) with the exposure it chose (156, in 100 us
    units) until set manual (1); ``takes_manual``: the mode values it accepts for manual (a webcam that has no
    manual exposure accepts none)."""

    def __init__(self, device, takes_manual=(1.0,)):
        super().__init__(device)
        self.takes_manual = takes_manual
        self.props = {cv2.CAP_PROP_AUTO_EXPOSURE: 3.0, cv2.CAP_PROP_EXPOSURE: 156.0}

    def get(self, prop):
        return self.props.get(prop, 0.0)

    def set(self, prop, value):
        if prop == cv2.CAP_PROP_AUTO_EXPOSURE and value not in (3.0, *self.takes_manual):
            return False
        if prop == cv2.CAP_PROP_EXPOSURE and self.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0:
            return False   # the automatic exposure owns it
        self.props[prop] = value
        return True


def test_a_webcams_exposure_is_a_share_of_the_one_its_automatic_exposure_chose_and_1_hands_it_back(monkeypatch):
    made = []
    monkeypatch.setattr(cv2, "VideoCapture", lambda d: made.append(ExposureCapture(d, (0.25,))) or made[-1])
    with OpenCVCamera(CameraSettings("opencv", 0)) as cam:
        fake = made[0]
        assert cam.exposure == 1.0 and fake.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0   # untouched at start
        cam.exposure = 0.5
        # manual (this one takes an older OpenCV's 0.25), at half of what the automatic exposure chose
        assert fake.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 0.25 and fake.props[cv2.CAP_PROP_EXPOSURE] == 78.0
        cam.exposure = 0.25
        assert fake.props[cv2.CAP_PROP_EXPOSURE] == 39.0 and cam.exposure == 0.25   # of its own, not of the last
        cam.exposure = 1.0
        assert fake.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0 and cam.exposure == 1.0
        with pytest.raises(CameraError, match=r"0\.01 to 1"):
            cam.exposure = 0.0
        assert cam.exposure == 1.0   # a bad share changes nothing
    with pytest.raises(DeviceClosedError):
        cam.exposure = 0.5


def test_a_webcam_without_a_manual_exposure_says_so_once_and_has_none_from_then_on(monkeypatch):
    monkeypatch.setattr(cv2, "VideoCapture", lambda d: ExposureCapture(d, ()))
    cam = OpenCVCamera(CameraSettings("opencv", 0))
    with pytest.raises(CameraError, match="did not turn its automatic exposure off") as caught:
        cam.exposure = 0.6
    assert isinstance(caught.value, HalError) and "\n" not in str(caught.value)
    assert cam.exposure is None
    cam.exposure = 0.6   # not asked of the webcam again
    assert cam.exposure is None
    cam.close()


class ExposedPicamera2(FakePicamera2):
    """The fake picamera2 with its controls: the metadata of the newest frame and set_controls."""

    def __init__(self, number: int):
        super().__init__(number)
        self.controls: list[dict] = []

    def capture_metadata(self):
        return {"ExposureTime": 20000, "AnalogueGain": 2.5, "Lux": 300.0}

    def set_controls(self, controls):
        self.controls.append(dict(controls))


def test_a_pi_cameras_exposure_fixes_the_time_its_automatic_exposure_chose_at_a_share_and_1_hands_it_back(
        monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=ExposedPicamera2))
    with open_camera(CameraSettings("picamera2", 0)) as cam:
        fake = FakePicamera2.made[-1]
        cam.exposure = 0.6
        cam.exposure = 0.36
        cam.exposure = 1.0
        assert fake.controls == [{"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5},
                                 {"AeEnable": False, "ExposureTime": 7200, "AnalogueGain": 2.5},
                                 {"AeEnable": True}]


def test_a_pi_camera_that_refuses_a_control_has_no_exposure_from_then_on(monkeypatch):
    class Refusing(ExposedPicamera2):
        def set_controls(self, controls):
            raise RuntimeError("Control AeEnable is not advertised by libcamera")
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Refusing))
    with open_camera(CameraSettings("picamera2", 0)) as cam:
        with pytest.raises(CameraError, match=r"did not take the exposure 0\.6 of its own.*not advertised"):
            cam.exposure = 0.6
        assert cam.exposure is None


def test_the_simulated_sensor_collects_light_in_proportion_to_its_exposure_and_clips_at_its_top():
    from dataclasses import replace

    from sim.camera import Conditions

    def frame(exposure):
        rng = random.Random(3)
        bright = replace(Conditions.draw(HELD_OUT, rng), brightness=1.6, warmth=0.2, noise=0.0, glare=0.0, shadow=0.0)
        camera = SimCamera([Card("number", "blue", 4)], rng, HELD_OUT, conditions=bright)
        camera.exposure = exposure
        return camera.capture().astype(float)
    full, half = frame(1.0), frame(0.5)
    seen = (full > 20) & (full < 250)
    assert np.abs(half[seen] - full[seen] / 2).max() <= 0.5 + 1e-9   # in proportion (rounded to a level)
    top = full == 255   # the card's white, its red and green past the top at the camera's own exposure
    assert top.sum() > 1000 and (half[top] < 255).mean() > 0.95 and (half[top] >= 127).all()


def test_a_webcam_left_in_manual_exposure_gets_its_automatic_exposure_back_on_a_refusal_and_on_close(monkeypatch):
    class NoValue(ExposureCapture):   # manual mode, but no exposure value taken
        def set(self, prop, value):
            return False if prop == cv2.CAP_PROP_EXPOSURE else super().set(prop, value)
    made = []
    monkeypatch.setattr(cv2, "VideoCapture", lambda d: made.append(NoValue(d)) or made[-1])
    cam = OpenCVCamera(CameraSettings("opencv", 0))
    with pytest.raises(CameraError, match="did not take the exposure"):
        cam.exposure = 0.15
    assert made[0].props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0 and cam.exposure is None
    cam.close()
    monkeypatch.setattr(cv2, "VideoCapture", lambda d: made.append(ExposureCapture(d)) or made[-1])
    cam = OpenCVCamera(CameraSettings("opencv", 0))
    cam.exposure = 0.6
    assert made[1].props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1.0
    cam.close()   # V4L2's controls outlive the program: the next start would take 0.6 for the webcam's own
    assert made[1].props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0 and made[1].released
