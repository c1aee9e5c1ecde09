"""The frame pump (shooter.camera.frame_pump): inline on the loop's one clock in virtual time; on the real clock
capture and recognition on a worker thread of its own, reads posted to the loop; closing is safe twice and
leaves no thread behind."""

from __future__ import annotations

import threading

import pytest

from hal import MonotonicClock, VirtualClock
from hal.camera import CameraError
from shooter.camera.frame_pump import FramePump
from shooter.camera.reads import Read
from shooter.loop import ControlLoop


class Frames:
    """A fake frame source: numbered frames, then none."""

    def __init__(self, count: int, fail_at: int | None = None) -> None:
        self.count, self.given, self.fail_at = count, 0, fail_at
        self.threads: set[str] = set()

    def capture(self) -> int | None:
        self.threads.add(threading.current_thread().name)
        if self.given >= self.count:
            return None
        self.given += 1
        if self.given == self.fail_at:
            raise OSError("the camera went away")
        return self.given


class EveryThird:
    """A fake watcher: a new card on every third frame; it notes when and on which thread it read."""

    def __init__(self) -> None:
        self.fed: list[tuple[int, float]] = []
        self.threads: set[str] = set()
        self.done = threading.Event()

    def feed(self, frame: int, now: float, exposure: float | None = None) -> Read | None:
        self.fed.append((frame, now))
        self.threads.add(threading.current_thread().name)
        return Read(str(frame % 9 + 1), "red") if frame % 3 == 0 else None


def test_in_virtual_time_frames_are_read_inline_at_the_interval_and_reads_reach_the_loop_in_order():
    clock = VirtualClock()
    loop = ControlLoop(clock)
    delivered: list[tuple[str, float]] = []
    watcher = EveryThird()
    pump = FramePump(Frames(7), watcher, loop=loop, deliver=lambda r: delivered.append((r.card, clock.now())),
                     interval=0.25)
    pump.start()
    loop.run_until_quiet()                     # an idle timer: the pump alone never keeps the loop busy
    assert clock.now() == 0.0 and watcher.fed == []
    loop.run_for(2.0)
    assert [f for f, _ in watcher.fed] == [1, 2, 3, 4, 5, 6, 7]
    assert [t for _, t in watcher.fed] == [0.25 * k for k in range(1, 8)]
    assert delivered == [("4", 0.75), ("7", 1.5)] and pump.frames == 7
    assert watcher.threads == {threading.current_thread().name}   # on the loop's own thread
    pump.close()
    pump.close()
    loop.run_for(2.0)
    assert len(watcher.fed) == 7 and not pump.running
    with pytest.raises(RuntimeError, match="starts once"):
        pump.start()


def test_on_the_real_clock_a_worker_thread_reads_frames_and_posts_reads_to_the_loop():
    loop = ControlLoop(MonotonicClock())
    delivered: list[str] = []
    on_loop: list[str] = []
    watcher, frames = EveryThird(), Frames(9, fail_at=2)
    logged: list[str] = []

    def deliver(read: Read) -> None:
        delivered.append(read.card)
        on_loop.append(threading.current_thread().name)
    pump = FramePump(frames, watcher, loop=loop, deliver=deliver, interval=0.005, log=logged.append)
    before = set(threading.enumerate())
    pump.start()
    try:
        assert loop.run_until(lambda: len(delivered) == 3, timeout=10.0), delivered   # bounded wait
    finally:
        pump.close()
        pump.close()
    assert delivered == ["4", "7", "1"]                             # frame 3 read, frame 2 failed, 6, 9
    assert watcher.threads == {"frame-pump"} and frames.threads == {"frame-pump"}
    assert on_loop == [threading.current_thread().name] * 3     # the loop took them, not the worker
    assert logged == ["uno-shooter: the camera's frame could not be read (the camera went away); trying on"]
    assert not pump.running and set(threading.enumerate()) <= before


def test_a_pump_needs_an_interval_above_zero():
    with pytest.raises(ValueError, match="above 0"):
        FramePump(Frames(1), EveryThird(), loop=ControlLoop(VirtualClock()), deliver=print, interval=0.0)


class Exposed(Frames):
    """A fake camera whose exposure can be set (``refuse``: it raises as a webcam that cannot does)."""

    def __init__(self, count: int, refuse: bool = False) -> None:
        super().__init__(count)
        self.refuse, self._exposure, self.set_to = refuse, 1.0, []

    @property
    def exposure(self) -> float:
        return self._exposure

    @exposure.setter
    def exposure(self, share: float) -> None:
        self.set_to.append(share)
        if self.refuse:
            raise CameraError("the webcam did not turn its automatic exposure off")
        self._exposure = share


class Darkens:
    """A fake watcher that asks for half the exposure of the frame it was fed, from the second frame on."""

    def __init__(self) -> None:
        self.fed: list[tuple[int, float | None]] = []
        self.exposure = 1.0

    def feed(self, frame: int, now: float, exposure: float | None = None) -> Read | None:
        self.fed.append((frame, exposure))
        if frame >= 2 and exposure is not None:
            self.exposure = exposure / 2
        return None


def test_each_frame_is_fed_with_the_exposure_it_was_taken_at_and_the_camera_set_to_the_one_asked_for():
    loop = ControlLoop(VirtualClock())
    camera, watcher = Exposed(4), Darkens()
    pump = FramePump(camera, watcher, loop=loop, deliver=print, interval=0.2)
    pump.start()
    loop.run_for(1.0)
    pump.close()
    assert watcher.fed == [(1, 1.0), (2, 1.0), (3, 0.5), (4, 0.25)]
    assert camera.set_to == [0.5, 0.25, 0.125]   # asked after frames 2, 3 and 4; never when already so


def test_a_camera_that_cannot_set_its_exposure_is_said_once_and_then_fed_as_one_without():
    loop = ControlLoop(VirtualClock())
    camera, watcher, logged = Exposed(4, refuse=True), Darkens(), []
    pump = FramePump(camera, watcher, loop=loop, deliver=print, interval=0.2, log=logged.append)
    pump.start()
    loop.run_for(1.0)
    pump.close()
    assert watcher.fed == [(1, 1.0), (2, 1.0), (3, None), (4, None)]   # the watcher then reads as first seen
    assert camera.set_to == [0.5]
    assert logged == ["uno-shooter: the camera cannot set its exposure (the webcam did not turn its automatic "
                      "exposure off): a card whose white it clips is read as first seen"]


def test_a_source_without_an_exposure_is_fed_none():
    loop = ControlLoop(VirtualClock())
    watcher = Darkens()
    pump = FramePump(Frames(3), watcher, loop=loop, deliver=print, interval=0.2)
    pump.start()
    loop.run_for(1.0)
    pump.close()
    assert watcher.fed == [(1, None), (2, None), (3, None)]
