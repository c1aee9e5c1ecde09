"""The words of the camera's settings, each defined here once: the ``[sim] scene`` names (the config checks
them, the simulated camera maps them to its conditions), ``cards bench --exposure``'s (the CLI offers them,
the bench takes them) and ``cards bench --style``'s (the simulated camera's table of card styles,
``sim.camera.faces.STYLES``, is keyed by them).

It imports nothing, not numpy: the config and the CLI's parser read it on a shooter without the vision extra.
"""

from __future__ import annotations

from enum import StrEnum


class SimScene(StrEnum):
    """``[sim] scene``: the simulated camera's light, pose and hands (docs/vision.md)."""

    HELD_OUT = "held-out"   # the recogniser's held-out conditions (sim.camera's HELD_OUT): hands, glare, tilt
    LEARNING = "learning"   # those of the owner's learning session (sim.camera's LEARNING): steady, no hands


class Exposure(StrEnum):
    """``cards bench --exposure``: who chooses the held-out camera's exposure."""

    SET = "set"   # the camera takes the exposure the watcher asks for (darker, to look again), as the table's does
    OWN = "own"   # the camera keeps its own, as one whose exposure cannot be set


class CardStyle(StrEnum):
    """``cards bench --style``: how the simulated camera's cards are printed (docs/vision.md)."""

    PLAIN = "plain"       # the simulator's own: a white symbol with a black outline on the colour field
    PRINTED = "printed"   # drawn like the printed cards: a tilted white ellipse, the symbol in the card's colour


SIM_SCENES = tuple(SimScene)
CARD_STYLES = tuple(CardStyle)
EXPOSURES = tuple(Exposure)
