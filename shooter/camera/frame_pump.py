"""The frame loop: frames of the discard pile to the recogniser, and its reads to the control loop.

A :class:`FramePump` takes any frame source (``capture()``: the next frame, or None when there is none) and any
watcher (``feed(frame, now, exposure)``: a :class:`~shooter.camera.reads.Read` once a new card has settled on the pile,
else None), both :class:`typing.Protocol`\\ s, so the camera's backends and the recogniser plug in as they are.

Exposure: a source with an ``exposure`` (the hal's cameras, the simulated camera: a share of the camera's own)
has each frame fed with the exposure it was taken at, and is set to the one the watcher asks for (its
``exposure``) before the next frame; a source that refuses (:class:`hal.camera.CameraError`) is said once in the
log and then fed as one without (None: the watcher reads what it is given).

Recognition takes 50-150 ms a frame: on the real clock the pump runs capture and recognition on a worker thread
of its own, off the control loop, so a press is served while a frame is being read; the thread only posts a
read (callbacks only enqueue). In virtual time (the simulator, tests) it runs inline on the loop, a frame every
``interval`` seconds of the one clock (an idle timer: a pump alone never keeps the loop from settling).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from hal.clock import Timer
from hal.errors import HalError

from ..loop import ControlLoop
from .reads import Read

FRAME_INTERVAL = 0.1    # seconds between the table's frames: the camera's 10 a second (a card read within 0.5 s)


class FrameSource(Protocol):
    """What frames come from: a camera of the hardware layer, the simulated camera, a test's list."""

    def capture(self) -> Any: ...


class Watcher(Protocol):
    """What reads frames: the recogniser (it keeps its own state between frames)."""

    def feed(self, frame: Any, now: float, exposure: float | None = None) -> Read | None: ...


def exposure_of(thing: object) -> float | None:
    """The exposure a source takes frames at, or a watcher asks for (a share of the camera's own); None for one
    that has none (a test's list of frames, a camera that cannot set it)."""
    share = getattr(thing, "exposure", None)
    return None if share is None else float(share)


class FramePump:
    """Frames from ``source`` through ``watcher`` every ``interval`` seconds; each read to ``deliver`` on the
    loop. :meth:`start` it; :meth:`close` stops it (safe twice; the thread is joined)."""

    def __init__(self, source: FrameSource, watcher: Watcher, *, loop: ControlLoop,
                 deliver: Callable[[Read], None], interval: float = FRAME_INTERVAL,
                 log: Callable[[str], None] | None = None):
        if not interval > 0.0:
            raise ValueError(f"the frame interval must be above 0 s, got {interval!r}")
        self.source, self.watcher, self.loop, self.deliver = source, watcher, loop, deliver
        self.interval = interval
        self.log = log or (lambda message: None)
        self.frames = 0
        self._timer: Timer | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._failed = False
        self._refused = False   # the source refused an exposure: it is fed as one without

    def start(self) -> None:
        """Begin pumping: inline on the loop in virtual time, on a worker thread on the real clock."""
        if self._stop.is_set() or self._timer is not None or self._thread is not None:
            raise RuntimeError("a frame pump starts once")
        if self.loop.virtual:
            self._timer = self.loop.clock.call_later(self.interval, self._inline, idle=True, name="frame")
        else:
            self._thread = threading.Thread(target=self._worker, name="frame-pump", daemon=True)
            self._thread.start()

    def _one(self) -> Read | None:
        """One frame captured and read (None: no frame, or no new card)."""
        frame = self.source.capture()
        if frame is None:
            return None
        self.frames += 1
        taken = None if self._refused else exposure_of(self.source)
        read = self.watcher.feed(frame, self.loop.clock.now(), taken)
        wanted = exposure_of(self.watcher)
        if taken is not None and wanted is not None and wanted != taken:
            try:
                self.source.exposure = wanted   # type: ignore[attr-defined]  # has one: exposure_of said so
            except HalError as exc:   # the watcher reads as first seen; the shooter goes on
                self._refused = True
                self.log(f"uno-shooter: the camera cannot set its exposure ({exc}): a card whose white it clips "
                         f"is read as first seen")
        return read

    def _inline(self) -> None:
        if self._stop.is_set():
            return
        read = self._one()   # on the loop already: the read is taken at once
        if read is not None:
            self.deliver(read)
        self._timer = self.loop.clock.call_later(self.interval, self._inline, idle=True, name="frame")

    def _worker(self) -> None:
        # the real clock's own pace: the wait is also how close() wakes the thread at once
        while not self._stop.wait(self.interval):
            try:
                read = self._one()
            except Exception as exc:   # a camera that fails must not kill the shooter: say so once, go on
                if not self._failed:
                    self.log(f"uno-shooter: the camera's frame could not be read ({exc}); trying on")
                self._failed = True
                continue
            self._failed = False
            if read is not None:
                self.loop.post(partial(self.deliver, read))

    def close(self, wait: float = 5.0) -> None:
        """Stop pumping and join the worker (at most ``wait`` seconds: a frame being read ends first)."""
        self._stop.set()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(wait)

    @property
    def running(self) -> bool:
        """The worker thread is alive (real clock) or a frame is scheduled (virtual time)."""
        return (self._thread is not None and self._thread.is_alive()) or self._timer is not None
