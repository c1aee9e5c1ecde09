"""Checking the values of a scheduler profile, with messages that name the field."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError

#: Smallest and largest burst any profile may ask for (cards per press).
BURST_MIN = 1
BURST_MAX = 20

#: Where user profiles live in the config file.
CONFIG_SECTION = "scheduler.profiles"


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
    weight: float = value  # an int or a float, kept as given
    return weight


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
