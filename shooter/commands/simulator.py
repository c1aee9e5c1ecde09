"""The simulator as the consoles reach it: the ``sim`` commands (button, lid, jam, load, wait, pile)
and, for the exact variants, a magazine filled with exactly the declared deck.

Only here does the shooter touch ``sim``'s world (``sim`` never imports the shooter)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..editions.records import DARK_COLOURS, LIGHT_COLOURS
from ..errors import BadArgument, NotSimulated
from .dispatch import Reply

if TYPE_CHECKING:
    from sim import ShooterWorld

    from ..launcher import Launcher
    from ..loop import ControlLoop
    from ..table import Table


class SimulatedHardware:
    """The simulator's world behind the controller (``--sim``): what the ``sim`` commands drive, with the
    launcher whose magazine count a load adds to and the loop whose virtual time a wait lets pass."""

    def __init__(self, world: ShooterWorld, *, launcher: Launcher, loop: ControlLoop, table: Table) -> None:
        self.world = world
        self.launcher = launcher
        self.loop = loop
        self.table = table   # the game's deck: which cards `sim pile` can put down

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


def sim_pile(sim: SimulatedHardware | None, card: str, colour: str | None = None) -> Reply:
    """A card of the game's deck (the side up) put on top of the simulated discard pile, as a player puts one
    down: what the simulated camera sees next (``[camera] backend = "sim"``). A wild has no colour printed."""
    from sim.cards import Card  # only the simulator's own commands reach sim's world
    simulated = _simulated(sim)
    table = simulated.table
    game = table.status()
    side = table.record.side(None if game is None else game.get("side"))
    name = card.lower()
    if name.isdecimal():
        if int(name) not in side.digits:
            raise BadArgument(f"this deck has no number card {name} (it has {', '.join(map(str, side.digits))})")
        wild = False
    elif name in side.cards and name != "number":
        wild = side.cards[name].wild
    else:
        known = [*map(str, side.digits), *(c for c in side.cards if c != "number")]
        raise BadArgument(f"this deck has no card {card!r} (its cards: {', '.join(known)})")
    colours = DARK_COLOURS if side.name == "dark" else LIGHT_COLOURS
    if wild and colour is not None:
        raise BadArgument(f"{name} is a wild: no colour is printed on it (colour= is for coloured cards)")
    if not wild and colour not in colours:
        got = "none" if colour is None else repr(colour)
        raise BadArgument(f"{name} needs colour= one of {', '.join(colours)}, got {got}")
    physical = Card("number", colour, value=int(name)) if name.isdecimal() else Card(name, colour)
    simulated.world.put_on_pile(physical)
    return {"card": name, "colour": colour, "pile": len(simulated.world.pile)}
