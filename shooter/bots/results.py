"""What a bot game at the simulated table leaves (``uno-shooter simulate``): its result, and an exact variant's
with its shots. Apart from both simulators (:mod:`shooter.bots.simulate` plays the Extreme family's games and hands the
counting family's to :mod:`shooter.bots.simulate_exact`), so that neither imports the other's results."""

from __future__ import annotations

from dataclasses import dataclass, field

from .summary import Shot


@dataclass
class GameResult:
    seed: int
    winner: int
    totals: dict[str, int]  # by seat
    rounds: int
    lines: int
    virtual_seconds: float
    stats: dict[str, int] = field(default_factory=dict)
    # per press, in order: the cards the scheduler planned and the cards that came out (the summary's data;
    # not in the JSON line)
    planned: list[int] = field(default_factory=list, repr=False)
    ejected: list[int] = field(default_factory=list, repr=False)
    # simulate --vision: the camera's reads by outcome, and the error that stopped the game out of step (None:
    # in step); both left out of the JSON line of a game without the camera
    vision: dict[str, int] | None = None
    error: str | None = None

    def json(self) -> dict[str, object]:
        """The JSON line of ``uno-shooter simulate --json``."""
        return {k: v for k, v in self.__dict__.items() if k not in ("planned", "ejected")
                and (self.vision is not None or k not in ("vision", "error"))}


@dataclass
class ExactGameResult(GameResult):
    """A game of an exact variant: the GameResult (its JSON line unchanged) plus what the summary reads."""

    variant: str = ""  # the counting edition played (always given)
    # every `shot` event of the game, in order: (reason, planned, ejected, interrupted or None)
    shots: list[Shot] = field(default_factory=list, repr=False)

    def json(self) -> dict[str, object]:
        return {k: v for k, v in super().json().items() if k not in ("variant", "shots")}
