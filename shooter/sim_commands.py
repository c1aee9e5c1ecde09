"""The simulator as the consoles reach it: the ``sim`` commands (button, lid, jam, load, wait)
and, for the exact variants, a magazine filled with exactly the declared deck.

Only here does the shooter touch ``sim``'s world (``sim`` never imports the shooter)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dispatch import Reply
from .errors import CommandError

if TYPE_CHECKING:
    from sim import ShooterWorld

    from .controller import Controller


class SimulatedHardware:
    """The simulator's world behind the controller (``--sim``): what the ``sim`` commands drive."""

    def __init__(self, world: ShooterWorld) -> None:
        self.world = world

    def fill_magazine(self, deck: int) -> None:
        """D-DEAL on the simulator: the magazine holds the declared deck (bots load their own real cards)."""
        launcher = self.world.launcher
        if len(launcher.magazine) != deck:
            launcher.unload()
            launcher.take_out()
            self.world.load(deck)


def _world(ctl: Controller) -> ShooterWorld:
    if ctl.sim is None:
        raise CommandError("not-simulated", "this command needs the simulated hardware (--sim)")
    return ctl.sim.world


def sim_button(ctl: Controller, hold: float | None = None) -> None:
    _world(ctl).press_button(hold)


def sim_lid_open(ctl: Controller) -> None:
    _world(ctl).open_lid()


def sim_lid_close(ctl: Controller) -> None:
    _world(ctl).close_lid()


def sim_jam(ctl: Controller) -> None:
    _world(ctl).arm_jam()


def sim_load(ctl: Controller, cards: int) -> Reply:
    _world(ctl).load(cards)
    ctl.launcher.load(cards)
    return {"cards": ctl.launcher.cards}


def sim_wait(ctl: Controller, seconds: float) -> None:
    _world(ctl)
    if not ctl.loop.virtual:
        raise CommandError("bad-argument", "sim wait needs --clock virtual; in real time, just wait")
    target = ctl.clock.now() + seconds
    ctl.clock.call_at(target, lambda: None, name="sim-wait")  # keeps the loop busy until then
