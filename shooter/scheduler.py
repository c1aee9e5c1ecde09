"""Ejection scheduler: what one press of the button does (H-RANDOM).

Per press the scheduler answers ``0`` (nothing comes out) or ``n`` (a burst of
``n`` cards). It is pure: no clock, no I/O and no global :mod:`random`; all
chance comes from the :class:`random.Random` it is given, and only through its
``random()`` method, whose sequence Python guarantees to stay the same across
versions for the same seed. So a game is replayed exactly by the same seed,
the same profile and the same calls (presses and restarts) in the same order.

One call of :meth:`Scheduler.next_press` is one press (T-EXACT): the caller
asks exactly as many times as the rules owe and never "until something comes
out".

The pattern is a small state machine over runs. The state is the length of the
current run: ``blank_run`` (presses in a row that gave nothing) or
``shot_run`` (presses in a row that fired), counted since the last restart;
at most one of them is non-zero, and ``(0, 0)`` is the fresh state. A
:class:`Profile` gives the chance to fire in each state and the burst sizes;
the scheduler enforces the profile's hard run limits itself, *before* asking
for a chance: at the blank limit the press fires, at the shot limit it does
not, with no random draw. The limits therefore hold by construction, whatever
the chances and whatever the random stream.

:meth:`Scheduler.restart` (the lid was cycled, or the controller started)
resets the run counters, as the original launcher restarts its pattern: after
a restart the limits count from zero again, so "3 blanks, lid cycled, 3
blanks" is possible, exactly as on the original. The random stream is *not*
rewound: a reload does not replay the opening of the previous magazine.
"""

from __future__ import annotations

import json
import math
import random
import re
from bisect import bisect_right
from collections.abc import Mapping
from difflib import get_close_matches
from itertools import accumulate
from typing import Any

from shooter.errors import ConfigError

__all__ = [
    "BURST_MIN",
    "BURST_MAX",
    "Profile",
    "OriginalProfile",
    "CustomProfile",
    "UniformProfile",
    "Scheduler",
    "profile_from_config",
    "PROFILES",
]

#: Smallest and largest burst any profile may ask for (cards per press).
BURST_MIN = 1
BURST_MAX = 20

#: Where user profiles live in the config file.
CONFIG_SECTION = "scheduler.profiles"


# --------------------------------------------------------------------------------------------
# Profiles
# --------------------------------------------------------------------------------------------


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

    def _key(self) -> tuple:
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
    #: blanks in a row so far -> chance to fire; at 3 (the limit) it is forced.
    CHANCE_AFTER_BLANKS = (None, 0.30, 0.45)
    #: shots in a row so far -> chance to fire again; at 2 (the limit) it is forced not to.
    CHANCE_AFTER_SHOTS = (None, 0.125)
    MAX_BLANK_RUN = 3
    MAX_SHOT_RUN = 2
    #: burst size -> weight (they add up to 100, so these are percentages).
    BURST_WEIGHTS = {
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
            return self.CHANCE_AFTER_SHOTS[shot_run]
        if blank_run:
            return self.CHANCE_AFTER_BLANKS[blank_run]
        return self.START_CHANCE

    @property
    def expected_fire_rate(self) -> float:
        # A blank run has length >= k with the chance that none of the first k-1 blanks fired.
        mean_blank = survive = 1.0
        for chance in self.CHANCE_AFTER_BLANKS[1:]:
            survive *= 1 - chance
            mean_blank += survive
        mean_shot = survive = 1.0
        for chance in self.CHANCE_AFTER_SHOTS[1:]:
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
        self._fire_probability = clean["fire_probability"]
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

    def _key(self) -> tuple:
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


# --------------------------------------------------------------------------------------------
# The scheduler
# --------------------------------------------------------------------------------------------


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

    def __repr__(self) -> str:
        return (
            f"Scheduler(profile={self._profile!r}, blank_run={self._blank_run}, "
            f"shot_run={self._shot_run})"
        )


# --------------------------------------------------------------------------------------------
# Profiles from the config file
# --------------------------------------------------------------------------------------------

_CUSTOM_KEYS = ("fire_probability", "max_blank_run", "max_shot_run", "burst_weights")
_REQUIRED_KEYS = ("fire_probability", "burst_weights")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SIZE_KEY = re.compile(r"[1-9][0-9]*")


def _toml_key(key: str) -> str:
    """A key as it is written in a TOML dotted key (quoted unless bare)."""
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _got(value: Any) -> str:
    """What the user wrote, for an error message, in TOML terms."""
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"{shown!r} (a string)"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, (list, tuple)):
        return "an array"
    if value is None:
        return "nothing"
    return f"a {type(value).__name__}"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_probability(value: Any, where: str) -> float:
    if not _is_number(value) or not 0 <= value <= 1:  # also refuses nan
        raise ConfigError(f"{where}: must be a number between 0 and 1, got {_got(value)}")
    return float(value)


def _check_run_limit(value: Any, where: str, minimum: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ConfigError(
            f"{where}: must be a whole number of presses, {minimum} or more "
            f"(leave it out for no limit), got {_got(value)}"
        )
    return value


def _check_burst_size(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not BURST_MIN <= value <= BURST_MAX:
        raise ConfigError(
            f"{where}: must be a whole number of cards from {BURST_MIN} to {BURST_MAX}, "
            f"got {_got(value)}"
        )
    return value


def _check_weight(value: Any, where: str) -> float:
    if not _is_number(value) or not 0 <= value < math.inf:
        raise ConfigError(f"{where}: must be a number, 0 or more, got {_got(value)}")
    return value


def _check_burst_weights(value: Any, where: str) -> dict[int, float]:
    weights: dict[int, float] = {}
    if isinstance(value, Mapping):
        for key, weight in value.items():
            if isinstance(key, int) and not isinstance(key, bool):
                size = key
            elif isinstance(key, str) and _SIZE_KEY.fullmatch(key):
                size = int(key)
            else:
                size = None
            key_where = f"{where}.{_toml_key(str(key))}"
            if size is None or not BURST_MIN <= size <= BURST_MAX:
                raise ConfigError(
                    f"{key_where}: a burst size must be a whole number of cards from "
                    f"{BURST_MIN} to {BURST_MAX}, got {_got(key)}"
                )
            if size in weights:
                raise ConfigError(f"{key_where}: burst size {size} is given twice")
            weights[size] = _check_weight(weight, key_where)
    elif isinstance(value, (list, tuple)):
        if not 1 <= len(value) <= BURST_MAX:
            raise ConfigError(
                f"{where}: an array gives the weights of burst sizes 1, 2, ... and must hold "
                f"1 to {BURST_MAX} of them, got {len(value)}"
            )
        for index, weight in enumerate(value):
            weights[index + 1] = _check_weight(weight, f"{where}[{index}] (burst size {index + 1})")
    else:
        raise ConfigError(
            f"{where}: must be a table of burst size = weight, e.g. {{ 3 = 2, 4 = 1 }}, "
            f"or an array of weights for sizes 1, 2, ..., got {_got(value)}"
        )
    total = sum(weights.values())  # the same sum the sampler builds
    if math.isinf(total):
        raise ConfigError(
            f"{where}: the weights add up to more than a float holds; scale them down"
        )
    if not total > 0:
        raise ConfigError(f"{where}: at least one weight must be above 0")
    return weights


def _check_custom(table: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Validate a custom profile's fields; ConfigError names ``where.<field>``."""
    p = _check_probability(table["fire_probability"], f"{where}.fire_probability")
    max_blank = _check_run_limit(table.get("max_blank_run"), f"{where}.max_blank_run", 0)
    max_shot = _check_run_limit(table.get("max_shot_run"), f"{where}.max_shot_run", 1)
    weights = _check_burst_weights(table["burst_weights"], f"{where}.burst_weights")
    if max_blank == 0:
        if max_shot is not None:
            raise ConfigError(
                f"{where}.max_blank_run: 0 means every press fires, which contradicts "
                f"max_shot_run = {max_shot}; raise max_blank_run or leave out max_shot_run"
            )
        if p != 1:
            raise ConfigError(
                f"{where}.fire_probability: max_blank_run = 0 makes every press fire, so "
                f"fire_probability must be 1, got {_got(table['fire_probability'])}"
            )
    if p == 0 and max_blank is None:
        raise ConfigError(
            f"{where}.fire_probability: 0 without a max_blank_run means the shooter never "
            f"fires; give a fire_probability above 0 or set max_blank_run"
        )
    return {
        "fire_probability": p,
        "max_blank_run": max_blank,
        "max_shot_run": max_shot,
        "burst_weights": weights,
    }


def profile_from_config(name: str, table: dict) -> Profile:
    """Build the user profile ``[scheduler.profiles.<name>]`` from its TOML table.

    Keys: ``fire_probability`` (0..1, required), ``burst_weights`` (required: a
    table ``{ 3 = 2, 4 = 1 }`` of size = weight, or an array of weights for
    sizes 1, 2, ...; sizes 1..20, weights >= 0, at least one > 0),
    ``max_blank_run`` (0 or more; leave out for no limit) and ``max_shot_run``
    (1 or more; leave out for no limit). Returns a :class:`CustomProfile`;
    raises :class:`ConfigError` naming the full field path, e.g.
    ``scheduler.profiles.party.fire_probability: must be a number between 0 and
    1, got 1.5``.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    where = f"{CONFIG_SECTION}.{_toml_key(name)}"
    if not name:
        raise ConfigError(f"{where}: a profile needs a name that is not empty")
    if name in PROFILES:
        raise ConfigError(
            f"{where}: {name!r} is a built-in profile; give your profile another name"
        )
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: must be a table of profile settings, got {_got(table)}")
    unknown = sorted((key for key in table if key not in _CUSTOM_KEYS), key=str)
    if unknown:
        first = str(unknown[0])
        close = get_close_matches(first, _CUSTOM_KEYS, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        also = f"; also unknown: {', '.join(map(str, unknown[1:]))}" if unknown[1:] else ""
        raise ConfigError(
            f"{where}.{_toml_key(first)}: unknown key ({hint}known keys: "
            f"{', '.join(_CUSTOM_KEYS)}){also}"
        )
    for key in _REQUIRED_KEYS:
        if key not in table:
            raise ConfigError(f"{where}.{key}: missing; every custom profile needs it")
    return CustomProfile(
        table["fire_probability"],
        table["burst_weights"],
        table.get("max_blank_run"),
        table.get("max_shot_run"),
        name=name,
        _where=where,
    )


#: The built-in profiles by name. Shared, immutable values; do not add to this dict.
PROFILES: dict[str, Profile] = {
    "original": OriginalProfile(),
    "uniform": UniformProfile(),
}
