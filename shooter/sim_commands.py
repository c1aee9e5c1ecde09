"""The simulator as the consoles reach it: the ``sim`` commands (button, lid, jam, load, wait)
and, for the exact variants, a magazine filled with exactly the declared deck.

Only here does the shooter touch ``sim``'s world (``sim`` never imports the shooter)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dispatch import Reply
from .errors import BadArgument, NotSimulated

if TYPE_CHECKING:
    from sim import ShooterWorld

    from .launcher import Launcher
    from .loop import ControlLoop


class SimulatedHardware:
    """The simulator's world behind the controller (``--sim``): what the ``sim`` commands drive, with the
    launcher whose magazine count a load adds to and the loop whose virtual time a wait lets pass."""

    def __init__(self, world: ShooterWorld, *, launcher: Launcher, loop: ControlLoop) -> None:
        self.world = world
        self.launcher = launcher
        self.loop = loop

    def fill_magazine(self, deck: int) -> None:
        """D-DEAL on the simulator: the magazine holds the declared deck (bots load their own real cards)."""
        launcher = self.world.launcher
        if len(launcher.magazine) != deck:
            launcher.unload()
            launcher.take_out()
            self.world.load(deck)


def _simulated(sim: SimulatedHardware | None) -> SimulatedHardware:
    if sim is None:
        raise NotSimulated("this command needs the simulated hardware (--sim)")
    return sim


def sim_button(sim: SimulatedHardware | None, hold: float | None = None) -> None:
    _simulated(sim).world.press_button(hold)


def sim_lid_open(sim: SimulatedHardware | None) -> None:
    _simulated(sim).world.open_lid()


def sim_lid_close(sim: SimulatedHardware | None) -> None:
    _simulated(sim).world.close_lid()


def sim_jam(sim: SimulatedHardware | None) -> None:
    _simulated(sim).world.arm_jam()


def sim_load(sim: SimulatedHardware | None, cards: int) -> Reply:
    simulated = _simulated(sim)
    simulated.world.load(cards)
    simulated.launcher.load(cards)
    return {"cards": simulated.launcher.cards}


def sim_wait(sim: SimulatedHardware | None, seconds: float) -> None:
    loop = _simulated(sim).loop
    if not loop.virtual:
        raise BadArgument("sim wait needs --clock virtual; in real time, just wait")
    target = loop.clock.now() + seconds
    loop.clock.call_at(target, lambda: None, name="sim-wait")  # keeps the loop busy until then
