"""The camera over the discard pile: one small interface, a picamera2 backend (a Pi's camera) and an OpenCV
``VideoCapture`` backend (a USB webcam).

``open_camera(settings)`` builds the backend ``settings.backend`` names; ``capture()`` returns the newest frame
as an H x W x 3 BGR uint8 numpy array, at ``settings.resolution``. Like every part of the hal: ``close()`` is
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


class _Base:
    """close() safe twice, ``closed``, a context manager; capture() after close raises DeviceClosedError."""

    def __init__(self) -> None:
        self._closed = False

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

    def capture(self) -> Frame:
        self._check()
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError("the camera gave no frame")
        if (frame.shape[1], frame.shape[0]) != self.resolution:  # a webcam that ignored the size asked for
            frame = self._cv2.resize(frame, self.resolution, interpolation=self._cv2.INTER_AREA)
        return frame  # type: ignore[no-any-return]

    def _release(self) -> None:
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
