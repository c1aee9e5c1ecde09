"""The whole table as one JSON document, and back (for the state file).

Format (``"format": "uno-shooter/table"``, ``"version": 3``)::

    {"format": "uno-shooter/table", "version": 3,
     "options": {...RuleOptions...},
     "game": null or a snapshot (state.snapshot: what every game has, its "phase", and its rules
             family's own part under the family's name (shooter.editions: extreme or counting)),
     "history": [{"command": "play", "game": snapshot before it}, ...],   # oldest first
     "undo_blocker": null, "press" or "deal",   # what cleared the history (base.UNDO_BLOCKED)
     "shot": null or {"seat", "reason", "planned", "counted", "hand"},          # an exact shot out, not counted
     "interrupted": null or {"seat", "reason", "planned", "counted", "hand"}}   # one that was out at a stop

A file of an earlier version is migrated at start, one version at a time (:data:`MIGRATIONS`: each a small
function from version n's document to version n+1's), then checked as if it had been written today; a file of
a newer version than this controller writes is set aside, never migrated down. Version 1 (until the rules
families kept their own parts) had three shapes under its one number: before the exact editions (no
``variant`` and its fields), before the score sheet (no ``rounds``), and its last; its migration reads all three
(tests/saved_games holds a file of each, written by that code). Version 2 (until the Extreme family kept hand
counts, AT-HANDS) had no ``hands`` in the Extreme family's part: its migration gives every such part
``"hands": null`` (no counts kept; an Uno Attack round resumed from it counts again from its next round start).

Reading checks everything and raises :class:`StateFileError` with a message
that names the field, so the controller can keep the bad file aside and start
fresh instead of crashing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..editions.records import COUNTING, EXTREME, FORMAT1_EDITION, FORMAT1_VARIANT, VARIANTS, family_of
from ..errors import StateFileError
from .base import UNDO_BLOCKED, UNDO_LEVELS
from .loader import load_snapshot
from .options import RuleOptions
from .possible import impossible_saved, record_of
from .resume import still_owed
from .state import MAX_CARDS, PARTS, GameState, ShotOut, snapshot

if TYPE_CHECKING:
    from .core import TableCore

# the table this module writes and rebuilds (shooter.table.Table; its commands are no business of the file's)
Table = TypeVar("Table", bound="TableCore")

FORMAT = "uno-shooter/table"
VERSION = 3
UNDO_COMMANDS = ("round start", "play", "uno", "catch", "penalty", "set", "hand", "score",
                 "first", "pass", "challenge", "colour-found", "give")  # the last five: exact variants
KEYS = {"format", "version", "options", "game", "history", "undo_blocker", "shot", "interrupted"}
SHOT_KEYS = frozenset(ShotOut.__annotations__)
WHAT = "Saved table state"


def table_to_dict(table: Table) -> dict[str, Any]:
    """JSON data of a Table, undo history and options included."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "options": table.options.to_dict(),
        "game": table._snapshot(),
        # the entries themselves: made once per undoable command and never changed (persist.Store seals them)
        "history": list(table.history),
        "undo_blocker": table.undo_blocker,
        "shot": None if table.shot is None else dict(table.shot),
        "interrupted": None if table.interrupted is None else dict(table.interrupted),
    }


def table_from_dict(make: Callable[[RuleOptions], Table], data: object, counting: bool = True) -> Table:
    """Build a table (``make(options)``) from `table_to_dict` data of this version or an earlier one, checking
    every field.
    ``counting``: the shooter has the card-exit sensor (an exact game is resumed only with it).

    Whatever the data (wrong types anywhere, absurd numbers, deep nesting), the only error is a
    :class:`StateFileError`: a state file must never crash the controller at start.
    """
    try:
        return _table_from_dict(make, data, counting)
    except StateFileError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise StateFileError(f"{WHAT}: not valid ({type(exc).__name__}: {str(exc)[:200]}).") from None


def check_envelope(data: object, *, fmt: str, version: int, keys: set[str], what: str) -> dict[str, Any]:
    """A state file's outer object: its ``format``, its ``version`` and exactly ``keys``, or a
    :class:`StateFileError` saying which (``what`` names the file: "Saved table state")."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise StateFileError(f"{what}: not one (the format is not {fmt!r}).")
    if type(data.get("version")) is not int or data["version"] != version:
        raise StateFileError(f"{what}: version {data.get('version')!r}; this controller reads version {version}.")
    if set(data) != keys:
        key = sorted(keys ^ set(data))[0]
        raise StateFileError(f"{what}: field {key!r} is {'missing' if key in keys else 'unknown'}.")
    return data


def upgrade(data: object, *, fmt: str, version: int, migrations: Mapping[int, Callable[[dict[str, Any]],
            dict[str, Any]]], what: str) -> object:
    """A state file's document as this controller's ``version``: migrated up one version at a time by
    ``migrations`` (version n -> a function giving version n+1's document). A newer version is refused
    (StateFileError: set aside, never migrated down); so is one older than the oldest migration."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        return data   # check_envelope names what it is not
    found = data.get("version")
    if type(found) is not int:
        return data
    if found > version:
        raise StateFileError(f"{what}: version {found} is newer than this controller's (it reads versions "
                             f"{min(migrations, default=version)} to {version}); it is not migrated down.")
    if found < version and found not in migrations:
        raise StateFileError(f"{what}: version {found} is older than any this controller migrates (versions "
                             f"{min(migrations, default=version)} to {version}).")
    while found < version:
        data = migrations[found](data)
        found += 1
        data["version"] = found
    return data


# --- migrations: version n's document -> version n+1's ------------------------------------------------------------
# Version 1's fields of the exact editions and its score sheet, as a file saved before they were added held them
# (and its Extreme family's, which every version-1 game carried).
_V1_DEFAULTS: dict[str, Any] = {"variant": FORMAT1_VARIANT, "start": None, "side": None, "hands": None, "drawn": None,
                                "challenge": None, "uno_windows": [], "uno_penalty": 2, "deck": None, "rounds": [],
                                "edition": FORMAT1_EDITION, "last_play": None}
# Version 2's parts of the rules families (its Extreme family kept no hand counts): what the migration from
# version 1 makes, whatever today's parts (state.PARTS) hold
_V2_PARTS: dict[str, frozenset[str]] = {EXTREME: frozenset({"edition", "last_play"}),
                                        COUNTING: PARTS[COUNTING].fields}


def _v1_snapshot(data: object) -> object:
    """A version-1 game snapshot (any of its three shapes) as version 2's: the rules family's own fields
    grouped under its name. The other family's fields go if they hold their defaults (an Extreme game's
    ``uno_penalty`` always: it was the options' copy, and no Extreme rule reads it); anything else is left
    where the check of version 2 names it."""
    if not isinstance(data, dict):
        return data
    game = {**_V1_DEFAULTS, **data}
    variant = game["variant"]   # a variant not registered: the check of version 2 names it
    family = family_of(variant) if isinstance(variant, str) and variant in VARIANTS else EXTREME
    if family == EXTREME:
        game.pop("uno_penalty")
    game[family] = {key: game.pop(key) for key in sorted(_V2_PARTS[family])}
    for other, fields in _V2_PARTS.items():
        for key in fields if other != family else ():
            if key in game and game[key] == _V1_DEFAULTS[key]:
                del game[key]
    last = game[family].get("last_play")
    if isinstance(last, dict) and "before" in last:
        game[family]["last_play"] = {**last, "before": _v1_snapshot(last["before"])}
    return game


def _from_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: each rules family's own fields grouped in every snapshot; no shot out, none interrupted
    (version 1 saved none: its exact games were never resumed)."""
    history = data.get("history")
    if isinstance(history, list):
        history = [{**entry, "game": _v1_snapshot(entry.get("game"))} if isinstance(entry, dict) else entry
                   for entry in history]
    return {**data, "game": _v1_snapshot(data.get("game")), "history": history, "shot": None,
            "interrupted": None}


def _v2_snapshot(data: object) -> object:
    """A version-2 game snapshot as version 3's: an Extreme family's part (and its last play's game before)
    keeps no hand counts (``hands`` null); anything else is left where the check of version 3 names it."""
    if not isinstance(data, dict) or not isinstance(data.get(EXTREME), dict):
        return data
    part = {"hands": None, **data[EXTREME]}
    last = part.get("last_play")
    if isinstance(last, dict) and "before" in last:
        part["last_play"] = {**last, "before": _v2_snapshot(last["before"])}
    return {**data, EXTREME: part}


def _from_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 -> 3: the Extreme family's part of every snapshot gains its hand counts, none kept."""
    history = data.get("history")
    if isinstance(history, list):
        history = [{**entry, "game": _v2_snapshot(entry.get("game"))} if isinstance(entry, dict) else entry
                   for entry in history]
    return {**data, "game": _v2_snapshot(data.get("game")), "history": history}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_v1, 2: _from_v2}


def _table_from_dict(make: Callable[[RuleOptions], Table], data: object, counting: bool) -> Table:
    data = upgrade(data, fmt=FORMAT, version=VERSION, migrations=MIGRATIONS, what=WHAT)
    data = check_envelope(data, fmt=FORMAT, version=VERSION, keys=KEYS, what=WHAT)
    try:
        options = RuleOptions.from_dict(data["options"])
    except (TypeError, ValueError) as exc:
        raise StateFileError(f"{WHAT}: {exc}") from None
    table = make(options)
    if data["game"] is not None:
        table.game, phase = load_snapshot(data["game"], "game")
        possible(table.game, phase, "game")
        if table.game.exact and not counting:
            # the cards of an exact game are counted (the sensor rule: exact.py); without it nothing goes on
            raise StateFileError(f"{WHAT}: a {table.game.variant} game counts its cards with the card-exit "
                                 f"sensor, and none is configured (pins.exit_sensor); fit it to resume the game.")
        table.machine.set_state(phase)
    table.history = _history(data["history"], data["game"] is not None)
    for i, entry in enumerate(table.history):
        # undo goes back within the one game (game new clears the history): an entry of another game
        # would resume it
        if table.game is not None and (entry["game"]["variant"], entry["game"]["players"]) != (
                table.game.variant, table.game.players):
            raise StateFileError(f"{WHAT}: history[{i}].game is not a state of the saved game "
                                 f"(a {entry['game']['variant']} game of {entry['game']['players']} seats).")
    if data["undo_blocker"] is not None and data["undo_blocker"] not in UNDO_BLOCKED:
        raise StateFileError(f"{WHAT}: undo_blocker must be null or one of "
                             f"{', '.join(map(repr, UNDO_BLOCKED))}.")
    table.undo_blocker = data["undo_blocker"]
    shot, interrupted = (_shot(table, data[key], key) for key in ("shot", "interrupted"))
    if shot is not None and interrupted is not None:
        raise StateFileError(f"{WHAT}: shot and interrupted cannot both be set (a press resolves the "
                             f"interrupted entry before the next shot).")
    # a shot that was out when the controller stopped: its cards were not counted; it is reported until the
    # table confirms the hand or a press finishes the entry (Table.interrupted)
    table.interrupted = shot or interrupted
    return table


def possible(game: GameState, phase: str, where: str) -> None:
    """A saved game (``where``: the game, an undo level) must be a possible game of its edition
    (shooter/table/possible.py), else a StateFileError in one line: the file is set aside like a corrupt one."""
    problem = impossible_saved(game, phase)
    if problem is not None:
        record = record_of(game)
        title = record.title if record is not None else game.variant
        raise StateFileError(f"{WHAT}: {where} is not a possible game of {title}: {problem}.")


def _shot(table: Table, value: object, key: str) -> ShotOut | None:
    """A saved exact shot (out, or interrupted): for the head of the owed queue of an exact game."""
    if value is None:
        return None
    game = table.game
    if not isinstance(value, dict) or set(value) != SHOT_KEYS:
        raise StateFileError(f"{WHAT}: {key} must be null or an object with {', '.join(sorted(SHOT_KEYS))}.")
    head = None if game is None or not game.exact else game.head
    if game is None or head is None:
        raise StateFileError(f"{WHAT}: {key} names a shot, but no exact game owes one.")
    if key == "shot" and (value["seat"], value["reason"]) != (head.seat, head.reason):
        raise StateFileError(f"{WHAT}: shot is not a shot for the head of the owed queue (seat {head.seat}, "
                             f"{head.reason}).")
    if not still_owed(game, cast(ShotOut, value)):
        raise StateFileError(f"{WHAT}: {key} names an entry that is not owed (seat {value['seat']!r}, "
                             f"{value['reason']!r}).")
    for name in ("planned", "counted", "hand"):
        number = value[name]
        if type(number) is not int or not (1 if name == "planned" else 0) <= number <= MAX_CARDS:
            raise StateFileError(f"{WHAT}: {key}.{name} must be a whole number of cards, not {number!r}.")
    return cast(ShotOut, dict(value))


def _history(value: object, have_game: bool) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > UNDO_LEVELS:
        raise StateFileError(f"Saved table state: history must be a list of at most {UNDO_LEVELS} entries.")
    if value and not have_game:
        raise StateFileError("Saved table state: there is an undo history but no game.")
    history = []
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) != {"command", "game"} or entry["command"] not in UNDO_COMMANDS:
            raise StateFileError(
                f"Saved table state: history[{i}] must be an object with an undoable command and a game.")
        game, phase = load_snapshot(entry["game"], f"history[{i}].game")
        possible(game, phase, f"history[{i}].game")
        history.append({"command": entry["command"], "game": snapshot(game, phase)})
    return history
