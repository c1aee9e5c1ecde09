"""What the bots of ``uno-shooter simulate`` (both families: :mod:`shooter.bots.simulate`,
:mod:`shooter.bots.simulate_exact`)
check of the controller after every line they send, besides their own checks of the cards (sim/bots.py)."""

from __future__ import annotations

from sim.bots import BotError

from ..app import App
from ..table.possible import table_impossible


def still_possible(app: App, line: str) -> None:
    """The game is a possible game of its edition (shooter/table/possible.py: what a saved game must be to be
    resumed), so every state a game passes through could be resumed after a stop."""
    problem = table_impossible(app.controller.table)
    if problem is not None:
        raise BotError(f"after {line!r} the game is not a possible game of its edition: {problem}")
