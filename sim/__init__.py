"""The simulator: a gpiozero pin factory on virtual time, wired to a physical model
of the shooter. Plugs in under ``hal``; never imports ``shooter``."""

from .cards import COLOURS, Card, make_deck
from .launcher import Launcher
from .params import SimParams
from .pins import SimFactory, SimPin
from .world import ShooterWorld

__all__ = ["SimFactory", "SimPin", "ShooterWorld", "SimParams", "Launcher", "Card", "COLOURS", "make_deck"]
