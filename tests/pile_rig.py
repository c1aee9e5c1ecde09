"""A simulated shooter whose camera reports the discard pile, for the tests of shooter.camera.pile_reports.

Reads are given as data (:class:`shooter.camera.reads.Read`): no camera, no recogniser. :func:`top_card_reader` is a
TEST SEAM ONLY: it reads ``world.pile``'s top card exactly as it lies, standing in for the real path (camera
frames -> ``shooter.vision``'s recogniser -> reads), which the glue step wires with the frame pump.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from shooter.app import App
from shooter.camera.pile_reports import PileSettings, Report
from shooter.camera.reads import Read
from shooter.config import parse_config


class PileRig:
    """One controller on the simulator in virtual time, every console's events collected."""

    def __init__(self, report: str = "auto", *, seed: int = 4, threshold: float = 0.9,
                 state_dir: Path | None = None, sim_cards: int | None = None) -> None:
        config = parse_config({})
        if sim_cards is not None:
            config = replace(config, sim_cards=sim_cards)
        self.app = App(config, sim=True, virtual=True, seed=seed, state_dir=state_dir, log=lambda m: None)
        self.controller = self.app.controller
        self.controller.pile.settings = PileSettings(Report(report), threshold)   # the glue's: [camera] report
        self.events: list[dict[str, Any]] = []
        self.controller.add_sink(self.events.append)
        self.app.loop.run_until_quiet()

    def send(self, line: str) -> list[dict[str, Any]]:
        """The reply to ``line``, then the events it caused (as its console sees them)."""
        start = len(self.events)
        replies: list[dict[str, Any]] = []
        self.app.loop.post(lambda: self.controller.handle_line(line, replies.append))
        self.app.loop.run_until_quiet()
        return replies + self.events[start:]

    def see(self, read: Read) -> list[dict[str, Any]]:
        """A card put on the pile and read: the events every console gets."""
        start = len(self.events)
        self.app.loop.post(partial(self.controller.pile.take, read))
        self.app.loop.run_until_quiet()
        return self.events[start:]

    def status(self) -> dict[str, Any]:
        return self.send("status")[0]

    def close(self) -> None:
        self.app.close()


def top_card_reader(app: App) -> Callable[[], None]:
    """TEST SEAM ONLY: the table told what lies on top of ``world.pile`` by a reader that is never wrong and
    always sure (confidence 1.0). The real path is camera frames through the recogniser (the glue step's)."""
    world, pile = app.world, app.controller.pile
    assert world is not None

    def reports() -> None:
        top = world.pile[-1]
        face = world.face_up(top)
        read = Read(face.name, face.colour, side=world.pile_side if top is not face else None, confidence=1.0)
        app.loop.post(partial(pile.take, read))
        app.loop.run_until_quiet()
    return reports


def pile_rng(seed: int) -> random.Random:
    return random.Random(f"bots-{seed}")
