"""Measuring the recogniser: on the rendered held-out set (``cards bench --sim``, ``cards test --sim``); the
owner's own photos (``cards test DIR``) are read in :mod:`shooter.vision.photos`, counted by the same
:class:`Tally`.

A held-out run learns each edition from its learning set (seed ``seed``), then feeds the watcher every frame of
the held-out set (seed ``seed + 1000``, conditions the learning never saw) and counts, per card put down, whether
its read was correct, wrong (sure and not the card), unsure, or missing (no read at all); a read with no new card
is counted too (wrong if sure, else unsure). Times are the watcher's own per frame (CPU time of this thread, so
that other processes on the machine do not count), the rendering not included.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from sim.camera import HELD_OUT, LEARNING

from ..camera.reads import Read
from ..camera.words import CARD_STYLES, EXPOSURES, CardStyle, Exposure
from ..editions import Edition
from ..errors import ConfigError
from .latency import Latency, latency
from .learn import learn_sim
from .synthetic import Truth, held_out_set
from .templates import Deck
from .watcher import PileWatcher


@dataclass
class Tally:
    """Reads by outcome; ``cards`` put down (or photos)."""

    cards: int = 0
    reads: int = 0
    correct: int = 0
    wrong: int = 0
    unsure: int = 0
    missed: int = 0
    mistakes: list[str] = field(default_factory=list)

    def count(self, read: Read | None, truth: Truth | None) -> None:
        if truth is not None:
            self.cards += 1
        if read is None:
            self.missed += truth is not None
            return
        self.reads += 1
        right = truth is not None and (read.card, read.colour) == (truth.name, truth.colour) \
            and (truth.side is None or read.side == truth.side or truth.colour is None)
        if read.unsure:
            self.unsure += 1
        elif right:
            self.correct += 1
        else:
            self.wrong += 1
            shown = f"{truth.colour or 'wild'} {truth.name}" if truth else "no new card"
            self.mistakes.append(f"{shown} read as {read.describe()}")

    def add(self, other: Tally) -> None:
        for name in ("cards", "reads", "correct", "wrong", "unsure", "missed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.mistakes += other.mistakes

    def figures(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k != "mistakes"}
        out["correct_share"] = round(self.correct / self.cards, 4) if self.cards else None
        out["wrong_share"] = round(self.wrong / self.cards, 4) if self.cards else None
        return out


@dataclass
class Timing:
    frames: int = 0
    seconds: float = 0.0
    read_frames: int = 0
    read_seconds: float = 0.0
    worst: float = 0.0

    def took(self, spent: float, read: bool) -> None:
        """One frame (or photo) looked at for ``spent`` seconds; ``read``: a card was read in it."""
        self.frames += 1
        self.seconds += spent
        self.worst = max(self.worst, spent)
        if read:
            self.read_frames += 1
            self.read_seconds += spent

    def figures(self) -> dict[str, Any]:
        return {"frames": self.frames,
                "ms_per_frame": round(1e3 * self.seconds / self.frames, 2) if self.frames else None,
                "ms_per_read_frame": round(1e3 * self.read_seconds / self.read_frames, 2) if self.read_frames else None,
                "max_ms_per_frame": round(1e3 * self.worst, 2)}


# told of every card counted: (its index in the set from 1, what it was or None for a read of no new card, the
# read or None for a card missed, the frame it was read on or the last one before the next card)
Counted = Callable[[int, Truth | None, Read | None, Any], None]


def held_out(record: Edition, deck: Deck, seed: int, cards: int, timing: Timing,
             counted: Counted | None = None, fixed: float | None = None, style: str = CardStyle.PLAIN) -> Tally:
    """The edition's held-out set through a watcher of ``deck``, the camera at the exposure the watcher asks
    for; ``counted`` is told of each card as it is counted (benchmarks/vision_failures.py prints the ones not
    read right). ``fixed``: the camera at this exposure throughout instead, the watcher not told it (as a
    camera whose exposure cannot be set: 1 is its own). ``style``: how the cards are printed."""
    tally = Tally()
    watcher: PileWatcher | None = None
    pending: Truth | None = None
    index, last = 0, None
    scene = -1

    def exposure() -> float:   # the camera is told the exposure the watcher asks for, as the table's camera is
        return 1.0 if watcher is None else watcher.exposure

    def count(read: Read | None, truth: Truth | None, frame: Any) -> None:
        tally.count(read, truth)
        if counted is not None:
            counted(index, truth, read, frame)
    for shot in held_out_set(record, seed, cards, exposure=exposure if fixed is None else lambda: fixed,
                             style=style):
        if shot.scene != scene:   # a new camera over another table
            watcher, scene = PileWatcher(deck, shot.region), shot.scene
        assert watcher is not None
        if shot.dropped is not None:
            if pending is not None:
                count(None, pending, last)
            pending, index = shot.dropped, index + 1
        last = shot.frame
        start = time.thread_time()
        read = watcher.feed(shot.frame, shot.now, shot.exposure if fixed is None else None)
        spent = time.thread_time() - start
        timing.frames += 1
        timing.seconds += spent
        timing.worst = max(timing.worst, spent)
        if read is not None:
            timing.read_frames += 1
            timing.read_seconds += spent
            count(read, pending, shot.frame)
            pending = None
    if pending is not None:
        count(None, pending, last)
    return tally


def held_out_seed(seed: int, asked: int | None) -> int:
    """The held-out set's seed: ``asked``, by default the learning's ``seed`` + 1000; never the learning's own."""
    held = seed + 1000 if asked is None else asked
    if held == seed:
        raise ConfigError(f"--held-out-seed {held}: the learning's --seed; the held-out set must be rendered with "
                          f"a seed the learning never saw")
    return held


def bench(records: Iterable[Edition], seed: int, cards: int, asked: int | None = None, *,
          exposure: str = Exposure.SET, style: str = CardStyle.PLAIN, latency_cards: int = 40) -> dict[str, Any]:
    """One JSON-ready object: the totals, per edition, the time per frame, and what was measured on. The
    held-out set's seed is ``asked``, by default ``seed + 1000`` (:func:`held_out_seed`); ``exposure``: ``set``
    (the camera at the exposure the watcher asks for) or ``own`` (at its own throughout); ``style``: how the
    cards are printed (``plain``, ``printed``: learned and read in that style); ``latency_cards``: cards per
    edition put down through the frame pump at the table's frame rate, each timed from at rest to its play
    (:mod:`shooter.vision.latency`, the held-out conditions and seed; 0: none)."""
    if exposure not in EXPOSURES:
        raise ConfigError(f"exposure {exposure!r}: one of {', '.join(EXPOSURES)}")
    if style not in CARD_STYLES:
        raise ConfigError(f"style {style!r}: one of {', '.join(CARD_STYLES)}")
    held = held_out_seed(seed, asked)
    total, timing, waits = Tally(), Timing(), Latency()
    editions: dict[str, Any] = {}
    for record in records:
        deck, missed = learn_sim(record, seed, style=style, every_colour=True)
        tally = held_out(record, deck, held, cards, timing, fixed=None if exposure == Exposure.SET else 1.0,
                         style=style)
        waited = latency(record, deck, held, latency_cards, style) if latency_cards > 0 else Latency()
        editions[record.key] = {**tally.figures(), "faces_learned": deck.face_count(),
                                "looks_learned": len(deck.faces), "faces_not_learned":
                                [f.name for f in missed], "latency": waited.figures()}
        total.add(tally)
        waits.add(waited)
    return {**total.figures(), **timing.figures(), "latency": waits.figures(), "editions": editions,
            "mistakes": total.mistakes[:20],
            "resolution": list(HELD_OUT.resolution), "seed": seed, "held_out_seed": held, "exposure": exposure,
            "style": style,
            "learning_settings": asdict(LEARNING), "held_out_settings": asdict(HELD_OUT)}

