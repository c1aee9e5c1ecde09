"""The camera over the discard pile: one small interface, a picamera2 backend (a Pi's camera) and an OpenCV
``VideoCapture`` backend (a USB webcam).

``open_camera(settings)`` builds the backend ``settings.backend`` names; ``capture()`` returns the newest frame
as an H x W x 3 BGR uint8 numpy array, at ``settings.resolution``. ``exposure`` is the exposure frames are taken
at, a share of the camera's own (1: its automatic exposure, as it starts); setting it below 1 fixes the exposure
at that share of the one the automatic exposure had settled on (the pile watcher looks again, darker, at a card
whose white the sensor clipped), and 1 hands it back to the automatic exposure. A camera that cannot set it raises
:class:`CameraError` and its ``exposure`` is None from then on. Like every part of the hal: ``close()`` is
safe twice, ``closed`` says so, a camera is a context manager, and its errors are :class:`CameraError`
(a :class:`hal.HalError`). numpy, OpenCV and picamera2 are imported only here, when a camera is opened (the
``vision`` extra: ``pip install '.[vision]'``; picamera2 comes with Raspberry Pi OS), so a shooter without a
camera never loads them. The simulator's camera (``sim.camera.SimCamera``) has the same ``capture()``; the
composition root picks it for ``backend = "sim"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .errors import DeviceClosedError, HalError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Frame = npt.NDArray[np.uint8]

BACKENDS = ("picamera2", "opencv", "sim")


class CameraError(HalError):
    """The camera could not be opened or gave no frame."""


@dataclass(frozen=True)
class CameraSettings:
    """Which camera and how: ``device`` is the OpenCV device index or path (``0``, ``/dev/video0``) or the
    picamera2 camera number."""

    backend: str = "picamera2"
    device: int | str = 0
    resolution: tuple[int, int] = (640, 480)


class Camera(Protocol):
    """What the recogniser needs of a camera."""

    def capture(self) -> Frame: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def exposure(self) -> float | None: ...
    @exposure.setter
    def exposure(self, share: float) -> None: ...


def _checked_share(share: float) -> float:
    if not 0.01 <= share <= 1.0:
        raise CameraError(f"an exposure is a share of the camera's own, 0.01 to 1: got {share!r}")
    return float(share)


class _Base:
    """close() safe twice, ``closed``, a context manager; capture() after close raises DeviceClosedError."""

    def __init__(self) -> None:
        self._closed = False
        self._exposure: float | None = 1.0   # None: the camera cannot set it

    @property
    def exposure(self) -> float | None:
        """The exposure frames are taken at, a share of the camera's own (1); None: it cannot be set."""
        return self._exposure

    @exposure.setter
    def exposure(self, share: float) -> None:
        self._check()
        share = _checked_share(share)
        if self._exposure is None or share == self._exposure:
            return
        try:
            self._expose(share)
        except CameraError:
            self._exposure = None
            raise
        self._exposure = share

    def _expose(self, share: float) -> None:  # pragma: no cover - each backend's own
        raise NotImplementedError

    @property
    def closed(self) -> bool:
        return self._closed

    def _check(self) -> None:
        if self._closed:
            raise DeviceClosedError("the camera is closed")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._release()

    def _release(self) -> None:  # pragma: no cover - each backend's own
        raise NotImplementedError

    def __enter__(self) -> _Base:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class OpenCVCamera(_Base):
    """A USB webcam through OpenCV's ``VideoCapture``."""

    def __init__(self, settings: CameraSettings):
        super().__init__()
        try:
            import cv2
        except ImportError as exc:
            raise CameraError(f"camera backend opencv needs OpenCV (pip install '.[vision]'): {exc}") from None
        self._cv2 = cv2
        self._cap: Any = cv2.VideoCapture(settings.device)
        if not self._cap.isOpened():
            self._cap.release()
            self._closed = True
            raise CameraError(f"camera {settings.device!r} cannot be opened (is it plugged in? ls /dev/video*)")
        w, h = settings.resolution
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
        self.resolution = settings.resolution
        self._own: tuple[float, float] | None = None   # the automatic exposure's mode and the exposure it chose

    # V4L2's exposure modes as OpenCV's V4L2 backend passes them on (1 manual, 3 automatic); older OpenCVs took
    # 0.25 for manual and 0.75 for automatic. Webcams differ: each is tried, and the exposure read back.
    MANUAL = (1.0, 0.25)

    def _expose(self, share: float) -> None:
        cv2, cap = self._cv2, self._cap
        if share == 1.0:   # the camera's own: its automatic exposure again
            if self._own is not None and not cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, self._own[0]):
                raise CameraError("the webcam did not turn its automatic exposure back on")
            self._own = None
            return
        if self._own is None:
            mode, chosen = cap.get(cv2.CAP_PROP_AUTO_EXPOSURE), cap.get(cv2.CAP_PROP_EXPOSURE)
            if not chosen > 0:
                raise CameraError(f"the webcam reports no exposure ({chosen!r}): it cannot be set")
            if not any(cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, manual) for manual in self.MANUAL):
                raise CameraError("the webcam did not turn its automatic exposure off")
            self._own = (mode, chosen)
        own = self._own[1]
        wanted = own * share
        if not cap.set(cv2.CAP_PROP_EXPOSURE, wanted) or abs(cap.get(cv2.CAP_PROP_EXPOSURE) - wanted) > 0.5 * wanted:
            self._automatic()   # left in manual, it would keep this exposure (V4L2's controls outlive us)
            raise CameraError(f"the webcam did not take the exposure {wanted:g} (its own {own:g})")

    def _automatic(self) -> None:
        """The automatic exposure back on, as best it goes (a webcam's controls outlive the program)."""
        if self._own is not None:
            self._cap.set(self._cv2.CAP_PROP_AUTO_EXPOSURE, self._own[0])
            self._own = None

    def capture(self) -> Frame:
        self._check()
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError("the camera gave no frame")
        if (frame.shape[1], frame.shape[0]) != self.resolution:  # a webcam that ignored the size asked for
            frame = self._cv2.resize(frame, self.resolution, interpolation=self._cv2.INTER_AREA)
        return frame  # type: ignore[no-any-return]

    def _release(self) -> None:
        self._automatic()
        self._cap.release()


class Picamera2Camera(_Base):
    """A Raspberry Pi camera (Camera Module 3 or any libcamera camera) through picamera2."""

    def __init__(self, settings: CameraSettings):
        super().__init__()
        try:
            import numpy as np
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(f"camera backend picamera2 needs picamera2 and numpy (on Raspberry Pi OS: "
                              f"apt install python3-picamera2): {exc}") from None
        self._np = np
        try:
            self._cam: Any = Picamera2(int(settings.device))
            # "RGB888" is picamera2's name for frames whose bytes are B, G, R: OpenCV's order
            config = self._cam.create_video_configuration(main={"size": tuple(settings.resolution),
                                                                "format": "RGB888"})
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # picamera2 raises RuntimeError and others of its own
            self._closed = True
            raise CameraError(f"camera {settings.device!r} cannot be opened: {exc}") from None
        self._own: tuple[int, float] | None = None   # the exposure time (us) and gain the automatic exposure chose

    def _expose(self, share: float) -> None:
        try:
            if share == 1.0:   # the camera's own: its automatic exposure again
                self._cam.set_controls({"AeEnable": True})
                self._own = None
                return
            if self._own is None:   # what the automatic exposure settled on, from the newest frame's metadata
                found = self._cam.capture_metadata()
                self._own = (int(found["ExposureTime"]), float(found["AnalogueGain"]))
            time_us, gain = self._own
            self._cam.set_controls({"AeEnable": False, "ExposureTime": max(1, round(time_us * share)),
                                    "AnalogueGain": gain})
        except Exception as exc:  # picamera2's own errors, a metadata without the exposure
            raise CameraError(f"the camera did not take the exposure {share:g} of its own: {exc!r}") from None

    def capture(self) -> Frame:
        self._check()
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraError(f"the camera gave no frame: {exc}") from None
        return self._np.ascontiguousarray(frame[:, :, :3])

    def _release(self) -> None:
        try:
            self._cam.stop()
        finally:
            self._cam.close()


def open_camera(settings: CameraSettings) -> OpenCVCamera | Picamera2Camera:
    """The camera ``settings.backend`` names (``sim`` is the composition root's: ``sim.camera.SimCamera``)."""
    if settings.backend == "opencv":
        return OpenCVCamera(settings)
    if settings.backend == "picamera2":
        return Picamera2Camera(settings)
    raise CameraError(f"camera backend {settings.backend!r} is not a hardware camera (hardware: opencv, picamera2)")
