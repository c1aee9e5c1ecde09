"""The profiles: the chance to fire in each state of the run, and the burst sizes."""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import accumulate
from typing import ClassVar

from ..errors import ConfigError
from .checks import BURST_MAX, BURST_MIN, _check_burst_size, _check_custom, _check_probability, _toml_key


class Profile:
    """A press pattern: the chance to fire per run state, hard run limits, burst sizes.

    Guarantees shared by every profile (enforced by :class:`Scheduler`, not by
    luck): never more than :attr:`max_blank_run` blanks in a row and never more
    than :attr:`max_shot_run` shots in a row (``None``: no limit), counted since
    the last restart; every burst is one of the sizes with a positive weight in
    :attr:`burst_weights`, all within ``BURST_MIN..BURST_MAX``.

    Subclasses implement :meth:`fire_chance` and :attr:`expected_fire_rate`.
    Profiles are immutable values; one profile may serve many schedulers.
    """

    def __init__(
        self,
        name: str,
        *,
        max_blank_run: int | None,
        max_shot_run: int | None,
        burst_weights: Mapping[int, float],
    ):
        sizes = sorted(size for size, weight in burst_weights.items() if weight > 0)
        if not sizes:
            raise ValueError("a profile needs at least one burst size with a positive weight")
        if not all(isinstance(s, int) and BURST_MIN <= s <= BURST_MAX for s in sizes):
            raise ValueError(f"burst sizes must be whole numbers from {BURST_MIN} to {BURST_MAX}")
        if max_blank_run == 0 and max_shot_run is not None:
            raise ValueError("max_blank_run 0 (always fire) needs max_shot_run None")
        if max_shot_run is not None and max_shot_run < 1:
            raise ValueError("max_shot_run must be at least 1 or None")
        self._name = name
        self._max_blank_run = max_blank_run
        self._max_shot_run = max_shot_run
        self._burst_weights = {size: burst_weights[size] for size in sizes}
        # Sampling table: only positive weights, so a zero-weight size can never come out.
        self._burst_sizes = tuple(sizes)
        self._burst_cumulative = tuple(accumulate(float(burst_weights[s]) for s in sizes))

    # -- what a profile is ---------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def max_blank_run(self) -> int | None:
        """Most presses in a row that give nothing (``None``: no limit; 0: every press fires)."""
        return self._max_blank_run

    @property
    def max_shot_run(self) -> int | None:
        """Most presses in a row that fire (``None``: no limit)."""
        return self._max_shot_run

    @property
    def burst_weights(self) -> dict[int, float]:
        """Burst size -> weight, positive weights only (a copy)."""
        return dict(self._burst_weights)

    @property
    def min_burst(self) -> int:
        return self._burst_sizes[0]

    @property
    def max_burst(self) -> int:
        return self._burst_sizes[-1]

    def burst_distribution(self) -> dict[int, float]:
        """Burst size -> probability, given that a press fires."""
        total = self._burst_cumulative[-1]
        return {size: weight / total for size, weight in self._burst_weights.items()}

    @property
    def expected_burst_size(self) -> float:
        """Mean cards per burst."""
        return sum(size * p for size, p in self.burst_distribution().items())

    def fire_chance(self, blank_run: int, shot_run: int) -> float:
        """Chance to fire in state (blank_run, shot_run), for states inside the limits.

        The scheduler never asks at a limit: there the answer is forced.
        """
        raise NotImplementedError

    @property
    def expected_fire_rate(self) -> float:
        """Long-run share of presses that fire (between restarts)."""
        raise NotImplementedError

    # -- value semantics ------------------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            type(self),
            self._name,
            self._max_blank_run,
            self._max_shot_run,
            tuple(self._burst_weights.items()),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


def _mean_run(continue_chance: float, limit: int | None) -> float:
    """Mean length of a run that, once started, goes on with ``continue_chance`` per press
    and stops at ``limit`` presses (None: no limit)."""
    if limit is None:
        return math.inf if continue_chance >= 1 else 1 / (1 - continue_chance)
    if continue_chance >= 1:
        return float(limit)
    return (1 - continue_chance**limit) / (1 - continue_chance)


def _rate(mean_shot_run: float, mean_blank_run: float) -> float:
    """Share of presses that fire when shot runs and blank runs alternate."""
    if math.isinf(mean_shot_run):
        return 1.0
    if math.isinf(mean_blank_run):
        return 0.0
    return mean_shot_run / (mean_shot_run + mean_blank_run)


class OriginalProfile(Profile):
    """Behaves like the original Mattel launcher (H-RANDOM). The default.

    Hard guarantees (by construction, counted since the last restart): never
    more than 3 blanks in a row, so any 4k presses in a row hold at least k
    shots (fire rate >= 25% over every stretch whose length is a multiple of
    4); never more than 2 shots in a row (fire rate <= 2/3); bursts of 1..12
    cards.

    Statistical: about 35% of presses fire (:attr:`expected_fire_rate` =
    0.3505); blank runs are 1, 2 or 3 presses long with chances 30%, 31.5%,
    38.5%; a shot is followed by a second one in 1 case of 8; 83% of bursts are
    3..8 cards, 10% are 1..2 and 7% are the rare big ones of 9..12 (mean 5.27).

    The state machine: fresh state fires with chance 0.35; after 1 blank 0.30,
    after 2 blanks 0.45, after 3 blanks always; after 1 shot 0.125, after 2
    shots never.
    """

    START_CHANCE = 0.35
    #: blanks in a row so far (1, 2) -> chance to fire; at 3 (the limit) it is forced.
    CHANCE_AFTER_BLANKS = (0.30, 0.45)
    #: shots in a row so far (1) -> chance to fire again; at 2 (the limit) it is forced not to.
    CHANCE_AFTER_SHOTS = (0.125,)
    MAX_BLANK_RUN = 3
    MAX_SHOT_RUN = 2
    #: burst size -> weight (they add up to 100, so these are percentages).
    BURST_WEIGHTS: ClassVar[dict[int, float]] = {
        1: 3, 2: 7,
        3: 13, 4: 17, 5: 17, 6: 14, 7: 12, 8: 10,
        9: 3, 10: 2, 11: 1, 12: 1,
    }  # fmt: skip

    def __init__(self, name: str = "original"):
        super().__init__(
            name,
            max_blank_run=self.MAX_BLANK_RUN,
            max_shot_run=self.MAX_SHOT_RUN,
            burst_weights=self.BURST_WEIGHTS,
        )

    def fire_chance(self, blank_run: int, shot_run: int) -> float:
        if shot_run:
            return self.CHANCE_AFTER_SHOTS[shot_run - 1]
        if blank_run:
            return self.CHANCE_AFTER_BLANKS[blank_run - 1]
        return self.START_CHANCE

    @property
    def expected_fire_rate(self) -> float:
        # A blank run has length >= k with the chance that none of the first k-1 blanks fired.
        mean_blank = survive = 1.0
        for chance in self.CHANCE_AFTER_BLANKS:
            survive *= 1 - chance
            mean_blank += survive
        mean_shot = survive = 1.0
        for chance in self.CHANCE_AFTER_SHOTS:
            survive *= chance
            mean_shot += survive
        return _rate(mean_shot, mean_blank)

    def __repr__(self) -> str:
        return f"OriginalProfile(name={self.name!r})"


class CustomProfile(Profile):
    """A user profile: a fixed chance per press, within hard run limits, bursts by weight.

    Guarantees (by construction, counted since the last restart): never more
    than ``max_blank_run`` blanks in a row (0: every press fires; None: no
    limit), never more than ``max_shot_run`` shots in a row (None: no limit),
    and only burst sizes with a positive weight (sizes 1..20). Inside the
    limits each press fires with ``fire_probability`` regardless of the past,
    so the long-run fire rate is ``fire_probability`` pulled toward what the
    limits force (:attr:`expected_fire_rate`).

    ``burst_weights`` is a mapping {size: weight} or a sequence of weights for
    sizes 1, 2, 3, ... Invalid values raise :class:`ConfigError` naming
    ``<name>.<field>``.
    """

    def __init__(
        self,
        fire_probability: float,
        burst_weights: Mapping[int, float] | list[float] | tuple[float, ...],
        max_blank_run: int | None = None,
        max_shot_run: int | None = None,
        *,
        name: str = "custom",
        _where: str | None = None,
    ):
        table = {
            "fire_probability": fire_probability,
            "burst_weights": burst_weights,
            "max_blank_run": max_blank_run,
            "max_shot_run": max_shot_run,
        }
        clean = _check_custom(table, _where or _toml_key(name))
        self._fire_probability: float = clean["fire_probability"]
        super().__init__(
            name,
            max_blank_run=clean["max_blank_run"],
            max_shot_run=clean["max_shot_run"],
            burst_weights=clean["burst_weights"],
        )

    @property
    def fire_probability(self) -> float:
        return self._fire_probability

    def fire_chance(self, blank_run: int, shot_run: int) -> float:
        return self._fire_probability

    @property
    def expected_fire_rate(self) -> float:
        p = self._fire_probability
        if self.max_blank_run == 0:
            return 1.0
        if self.max_blank_run is None and self.max_shot_run is None:
            return p  # independent presses
        return _rate(_mean_run(p, self.max_shot_run), _mean_run(1 - p, self.max_blank_run))

    def _key(self) -> tuple[object, ...]:
        return super()._key() + (self._fire_probability,)

    def __repr__(self) -> str:
        return (
            f"CustomProfile(fire_probability={self.fire_probability!r}, "
            f"burst_weights={self.burst_weights!r}, max_blank_run={self.max_blank_run!r}, "
            f"max_shot_run={self.max_shot_run!r}, name={self.name!r})"
        )


class UniformProfile(CustomProfile):
    """Plain uniform: each press fires with ``fire_probability``, independent of the past.

    Guarantees: bursts only of ``min_burst..max_burst`` cards, every size equally
    likely; no run limits (long blank or shot runs can happen); fire rate =
    ``fire_probability``. Defaults: 0.35, 1..8.
    """

    def __init__(
        self,
        fire_probability: float = 0.35,
        min_burst: int = 1,
        max_burst: int = 8,
        *,
        name: str = "uniform",
    ):
        where = _toml_key(name)
        p = _check_probability(fire_probability, f"{where}.fire_probability")
        if p == 0:
            raise ConfigError(
                f"{where}.fire_probability: must be above 0, or the shooter never fires"
            )
        low = _check_burst_size(min_burst, f"{where}.min_burst")
        high = _check_burst_size(max_burst, f"{where}.max_burst")
        if low > high:
            raise ConfigError(
                f"{where}.max_burst: must not be below min_burst ({low}), got {high}"
            )
        self._min_max = (low, high)
        super().__init__(p, {size: 1 for size in range(low, high + 1)}, name=name, _where=where)

    def __repr__(self) -> str:
        low, high = self._min_max
        return (
            f"UniformProfile(fire_probability={self.fire_probability!r}, "
            f"min_burst={low}, max_burst={high}, name={self.name!r})"
        )


#: The built-in profiles by name. Shared, immutable values; do not add to this dict.
PROFILES: dict[str, Profile] = {
    "original": OriginalProfile(),
    "uniform": UniformProfile(),
}
