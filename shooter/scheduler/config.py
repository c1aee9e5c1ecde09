"""User profiles from the config file: ``[scheduler.profiles.NAME]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from .checks import _CUSTOM_KEYS, _REQUIRED_KEYS, CONFIG_SECTION, _got, _toml_key
from .profiles import PROFILES, CustomProfile, Profile


def profile_from_config(name: str, table: dict[str, Any]) -> Profile:
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
        from difflib import get_close_matches  # for a mistyped key only
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
