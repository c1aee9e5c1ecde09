"""The latency a player feels: from a card at rest on the pile to its ``play``, on the virtual clock.

The table's path, as a shooter runs it in virtual time (:mod:`shooter.camera.pile_camera`): the simulated camera over
the pile (on the loop's clock), a :class:`~shooter.camera.frame_pump.FramePump` taking a frame every
:data:`~shooter.camera.frame_pump.FRAME_INTERVAL` seconds and feeding it to the :class:`~shooter.vision.PileWatcher`,
which asks the camera for its exposure; the pump delivers a read on the loop. There the table's
``PileReports.take`` sends the camera's ``play`` line in the same callback, at the same virtual time (a sure
read; an unsure one is asked on the phones, and no play follows by itself): the time of the delivery is the
time of the ``play`` event. Measured from the moment the card lies on the pile in view: the hand that put it gone
(the scene's other hands, reaching over the pile now and then, still come), at a random moment between two
frames; when one of those hands (or its shadow) passes over the card before it is read, from the last frame that
showed it so (a card under a hand is not seen, by any camera: ``covered`` counts those cards, and ``from_put``
their time from being put down as well). No wall clock is read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from hal.clock import Clock, VirtualClock
from sim.camera import HELD_OUT, SceneSettings, SimCamera
from sim.cards import TableCard

from ..camera.frame_pump import FRAME_INTERVAL, FramePump
from ..camera.reads import Read
from ..camera.words import CardStyle
from ..editions import Edition
from ..loop import ControlLoop
from .synthetic import faces_of, looks_of, physical
from .templates import Deck
from .watcher import PileWatcher

GOAL_S = 0.5      # the most a player should wait for the table to take the card (docs/vision.md)
WAIT_S = 2.0      # a read is looked for this long after each card (then the next is put down, a random share of
                  # a frame later)


@dataclass
class Latency:
    """The seconds from each card at rest to its play (``played``); cards whose read was unsure (no play by
    itself) or that were never read are counted apart."""

    played: list[float] = field(default_factory=list)
    unsure: int = 0
    unread: int = 0
    covered: int = 0    # played cards a hand or its shadow passed over before the read (timed from when it left)
    from_put: list[float] = field(default_factory=list)   # each played card's time from being put down

    def add(self, other: Latency) -> None:
        self.played += other.played
        self.unsure += other.unsure
        self.unread += other.unread
        self.covered += other.covered
        self.from_put += other.from_put

    def figures(self) -> dict[str, Any]:
        times = sorted(self.played)

        def at(share: float) -> float | None:
            return round(times[min(len(times) - 1, int(share * len(times)))], 3) if times else None
        return {"cards": len(times) + self.unsure + self.unread, "played": len(times), "unsure": self.unsure,
                "unread": self.unread, "median_s": at(0.5), "p90_s": at(0.9), "max_s": at(1.0),
                "mean_s": round(sum(times) / len(times), 3) if times else None,
                "within_goal": round(sum(t <= GOAL_S + 1e-9 for t in times) / len(times), 4) if times else None,
                "covered": self.covered, "max_from_put_s": round(max(self.from_put), 3) if self.from_put else None,
                "goal_s": GOAL_S, "frame_interval_s": FRAME_INTERVAL}


def latency(record: Edition, deck: Deck, seed: int, cards: int, style: str = CardStyle.PLAIN,
            settings: SceneSettings = HELD_OUT, per_scene: int = 10) -> Latency:
    """``cards`` random faces of the edition put on the pile one by one under ``settings`` (a new camera, light
    and table every ``per_scene``), each read through the frame pump at the table's frame rate (see the module
    docstring)."""
    rng = random.Random(seed)
    faces = faces_of(record)
    looks = looks_of(faces)
    sides = [s.name for s in record.sides]
    quiet = replace(settings, hand_with_card=0.0)   # measured from the hand gone: none leaves with the card
    out = Latency()
    done, scene = 0, 0
    while done < cards:
        side = sides[scene % len(sides)]
        mine = [f for f in faces if f.side == side]
        loop = ControlLoop(VirtualClock())
        pile: list[TableCard] = []
        camera = SimCamera(pile, rng, quiet, clock=loop.clock, style=style, looks=looks)
        camera.side_up = side or "light"
        watcher = PileWatcher(deck, camera.region)
        waiting = _Waiting()
        reads: list[Read] = []

        def deliver(read: Read, waiting: _Waiting = waiting, reads: list[Read] = reads,
                    clock: Clock = loop.clock) -> None:
            if waiting.put_at is not None:
                reads.append(read)
                if not read.unsure:
                    out.played.append(clock.now() - waiting.in_view_since())
                    out.from_put.append(clock.now() - waiting.put_at)
                    out.covered += waiting.covered_at is not None
                waiting.clear()
        pump = FramePump(_Watched(camera, waiting), watcher, loop=loop, deliver=deliver, interval=FRAME_INTERVAL)
        pump.start()
        loop.run_for(1.0)   # the bare table seen settle: the reference
        for _ in range(min(per_scene, cards - done)):
            loop.run_for(rng.uniform(0.0, FRAME_INTERVAL))   # between two frames, anywhere
            spec = rng.choice(mine)
            colour = rng.choice(spec.colours) if spec.colours else None
            before = len(reads)
            waiting.put(loop.clock.now())
            pile.append(physical(spec, colour))
            loop.run_for(WAIT_S)
            if len(reads) == before:
                out.unread += 1
                waiting.clear()
            elif reads[-1].unsure:
                out.unsure += 1
            done += 1
        pump.close()
        scene += 1
    return out


@dataclass
class _Waiting:
    """The card waiting for its read: when it was put down, and the last frame (if any) that showed a hand or its
    shadow over it since; None and None when no card waits."""

    put_at: float | None = None
    covered_at: float | None = None

    def put(self, now: float) -> None:
        self.put_at, self.covered_at = now, None

    def clear(self) -> None:
        self.put_at = self.covered_at = None

    def in_view_since(self) -> float:
        """When the card last came into view: put down, or uncovered."""
        assert self.put_at is not None
        return self.covered_at if self.covered_at is not None else self.put_at


class _Watched:
    """The camera as the pump sees it: its frames, and its exposure read and set through to the camera; noting in
    ``waiting`` the last frame in which a hand or its shadow lay over the card waiting for its read."""

    def __init__(self, camera: SimCamera, waiting: _Waiting) -> None:
        self.camera, self.waiting = camera, waiting

    def capture(self) -> Any:
        frame = self.camera.capture()
        if self.waiting.put_at is not None and self.camera.covered():
            self.waiting.covered_at = self.camera.clock.now() if self.camera.clock is not None else self.waiting.put_at
        return frame

    @property
    def exposure(self) -> float:   # the exposure the pump feeds each frame with
        return self.camera.exposure

    @exposure.setter
    def exposure(self, share: float) -> None:   # the exposure the watcher asks for
        self.camera.exposure = share
