"""The scheduler: one answer per press, from a profile and a seeded random stream."""

from __future__ import annotations

import math
import random
from bisect import bisect_right

from .profiles import Profile

# Exact mode: the most cards one burst shoots. A hand of 7 at about 0.09 s per card plus the
# roller's spin-up is well under a second, far inside the motor's 3 s maximum on-time.
EXACT_BURST_MAX = 7


class Scheduler:
    """Decides, press by press, nothing (0) or a burst of n cards.

    ``profile`` gives the pattern, ``rng`` (a seeded :class:`random.Random`) all
    the chance. The scheduler holds only the run counters; see the module doc
    for replay and restart.
    """

    __slots__ = (
        "_profile",
        "_rng",
        "_blank_run",
        "_shot_run",
        "_blank_limit",
        "_shot_limit",
        "_fire_chance",
        "_sizes",
        "_cumulative",
        "_total",
    )

    def __init__(self, profile: Profile, rng: random.Random):
        if not isinstance(profile, Profile):
            raise TypeError(f"profile must be a Profile, got {type(profile).__name__}")
        if not isinstance(rng, random.Random):
            # Also refuses the random module itself: the global generator breaks replay.
            raise TypeError(f"rng must be a seeded random.Random, got {rng!r}")
        self._profile = profile
        self._rng = rng
        limit = profile.max_blank_run
        self._blank_limit = math.inf if limit is None else limit
        limit = profile.max_shot_run
        self._shot_limit = math.inf if limit is None else limit
        self._fire_chance = profile.fire_chance
        self._sizes = profile._burst_sizes
        self._cumulative = profile._burst_cumulative
        self._total = profile._burst_cumulative[-1]
        self._blank_run = 0
        self._shot_run = 0

    @property
    def profile(self) -> Profile:
        return self._profile

    @property
    def blank_run(self) -> int:
        """Presses in a row that gave nothing, since the last shot or restart."""
        return self._blank_run

    @property
    def shot_run(self) -> int:
        """Presses in a row that fired, since the last blank or restart."""
        return self._shot_run

    def restart(self) -> None:
        """Restart the pattern (lid cycled, controller started): run counters back to 0.

        The random stream goes on where it was; it is not rewound.
        """
        self._blank_run = 0
        self._shot_run = 0

    def next_press(self) -> int:
        """One press: 0 for nothing, else the number of cards in the burst."""
        blank_run = self._blank_run
        shot_run = self._shot_run
        # The hard limits come first and need no draw. While a shot run is on,
        # blank_run is 0, so "blank_run >= limit" there means a limit of 0: always fire.
        if blank_run >= self._blank_limit:
            fire = True
        elif shot_run >= self._shot_limit:
            fire = False
        else:
            chance = self._fire_chance(blank_run, shot_run)
            fire = chance >= 1.0 or (chance > 0.0 and self._rng.random() < chance)
        if not fire:
            self._blank_run = blank_run + 1
            self._shot_run = 0
            return 0
        self._blank_run = 0
        self._shot_run = shot_run + 1
        sizes = self._sizes
        if len(sizes) == 1:
            return sizes[0]
        index = bisect_right(self._cumulative, self._rng.random() * self._total)
        # random() < 1, but random() * total can round up to total itself.
        return sizes[index] if index < len(sizes) else sizes[-1]

    @staticmethod
    def exact(cards: int) -> int:
        """Exact mode (the exact variants, D-SERVE): the burst is planned at the owed count, served
        in bursts of at most EXACT_BURST_MAX cards so the motor stays inside its maximum on-time
        (the rest of a long draw is the next burst). No random draw: the random profiles stay
        Uno Extreme's, and the pattern's run counters are untouched."""
        if type(cards) is not int or cards < 1:
            raise ValueError(f"an exact burst needs a whole number of cards >= 1, not {cards!r}")
        return min(cards, EXACT_BURST_MAX)

    def __repr__(self) -> str:
        return (
            f"Scheduler(profile={self._profile!r}, blank_run={self._blank_run}, "
            f"shot_run={self._shot_run})"
        )
