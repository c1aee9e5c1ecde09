"""``uno-shooter simulate --vision``: the bots never report a play; the table learns each one from the camera.

The bots play in pile mode (:meth:`sim.bots.CardsAtTable.pile_mode`): they put their cards on the simulated pile
(``world.pile``) and press and call Uno as always. The App's ``[camera]`` is the simulated one (``backend =
"sim"``, ``report = "auto"``): the camera renders the pile, the frame pump runs inline in virtual time, and the
watcher's reads go to the table as in a real shooter (:mod:`shooter.camera.pile_camera`). Nothing here tells the table
what was played: :func:`watch` only lets the table's time run until the camera has read the card just put down
(or a few seconds pass), and tallies each read against the card that lies there:

* ``correct``: sure enough to be played on its own, and the card put down;
* ``wrong``: sure enough, and not the card (it is played: the player sees it, takes it back with ``undo`` and
  types the play; one that cannot be taken back puts the game out of step, and the bots say so);
* ``unsure``: asked on the phones; the bots answer as a player would with one tap (``seen confirm`` of the
  reading that is the card; none is: the read rejected and, unless the card's own read waited behind it, the
  play typed);
* ``missed``: a card put down that no read followed within :data:`READ_WAIT` seconds: the player types the play
  (the table did not move on), as at a real table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sim.bots import BotError, CardsAtTable, Message

from ..app import App
from ..camera.reads import Read
from ..config import CameraConfig, Config

READ_WAIT = 4.0   # virtual seconds a card put down may take to be read (it settles in well under one)


def vision_config(config: Config) -> Config:
    """``config`` with the simulated camera over the pile, reporting every sure read as a play."""
    return replace(config, camera=CameraConfig(backend="sim", report="auto"))


@dataclass
class Tally:
    """The reads of one game by outcome (see the module docstring)."""

    threshold: float
    reads: int = 0
    correct: int = 0
    wrong: int = 0
    unsure: int = 0
    missed: int = 0
    truth: tuple[str, str | None] | None = None   # the card put down and not read yet

    def count(self, read: Read) -> None:
        self.reads += 1
        truth, self.truth = self.truth, None
        if read.unsure or read.confidence < self.threshold:
            self.unsure += 1
        elif truth == (read.card, read.colour):
            self.correct += 1
        else:
            self.wrong += 1

    def json(self) -> dict[str, int]:
        return {"reads": self.reads, "correct": self.correct, "wrong": self.wrong, "unsure": self.unsure,
                "missed": self.missed}


def watch(app: App) -> tuple[Tally, Callable[[], bool]]:
    """The tally of ``app``'s camera and the bots' ``reports``: time runs until the card just put down is read."""
    camera, world = app.camera, app.world
    if camera is None or world is None:
        raise RuntimeError(f"simulate --vision needs the simulated camera: {app.controller.pile.unavailable}")
    tally = Tally(app.controller.pile.settings.threshold)
    camera.on_read = tally.count
    counts = app.controller.pile.counts

    def reports() -> bool:
        face = world.face_up(world.pile[-1])
        tally.truth = (face.name, face.colour)
        before = counts["reads"]
        read = app.loop.run_until(lambda: counts["reads"] > before, READ_WAIT)
        if not read:
            tally.missed += 1
            tally.truth = None
        app.loop.run_until_quiet()
        return read
    return tally, reports


def play_watched(app: App, bots: CardsAtTable, vision: bool,
                 play: Callable[[], Message]) -> tuple[Message, dict[str, Any]]:
    """``play()`` the game; with ``vision`` in pile mode, told only by the camera. Returns the final game and
    what a ``--vision`` game adds to its result: the tally, and the error that stopped the game out of step
    (the bots' :class:`~sim.bots.BotError`; None: it stayed in step to its end)."""
    if not vision:
        return play(), {}
    tally, reports = watch(app)
    bots.pile_mode(reports)
    try:
        game, error = play(), None
    except BotError as exc:
        game, error = app.controller.table.status() or {}, " ".join(str(exc).split())
    return game, {"vision": tally.json(), "error": error}
