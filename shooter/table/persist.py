"""The whole table as one JSON document, and back (for the state file).

Format (``"format": "uno-shooter/table"``, ``"version": 1``)::

    {"format": "uno-shooter/table", "version": 1,
     "options": {...RuleOptions...},
     "game": null or a snapshot (GameState fields + "phase"),
     "history": [{"command": "play", "game": snapshot before it}, ...],   # oldest first
     "undo_blocker": null, "press" or "deal"}   # what cleared the history (base.UNDO_BLOCKED)

Reading checks everything and raises :class:`StateFileError` with a message
that names the field, so the controller can keep the bad file aside and start
fresh instead of crashing.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from shooter.errors import StateFileError

from .base import UNDO_BLOCKED
from .options import RuleOptions
from .state import load_snapshot, snapshot

if TYPE_CHECKING:
    from .table import Table

FORMAT = "uno-shooter/table"
VERSION = 1
UNDO_LEVELS = 50  # undo keeps at most this many snapshots
UNDO_COMMANDS = ("round start", "play", "uno", "catch", "penalty", "set", "hand", "score",
                 "first", "pass", "challenge", "colour-found", "give")  # the last five: exact variants
KEYS = {"format", "version", "options", "game", "history", "undo_blocker"}


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
    }


def table_from_dict(cls: type[Table], data: object, rng: random.Random | None) -> Table:
    """Build a `cls` (Table) from `table_to_dict` data, checking every field.

    Whatever the data (wrong types anywhere, absurd numbers, deep nesting), the only error is a
    :class:`StateFileError`: a state file must never crash the controller at start.
    """
    try:
        return _table_from_dict(cls, data, rng)
    except StateFileError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise StateFileError(f"Saved table state: not valid ({type(exc).__name__}: {str(exc)[:200]}).") from None


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


def _table_from_dict(cls: type[Table], data: object, rng: random.Random | None) -> Table:
    data = check_envelope(data, fmt=FORMAT, version=VERSION, keys=KEYS, what="Saved table state")
    try:
        options = RuleOptions.from_dict(data["options"])
    except (TypeError, ValueError) as exc:
        raise StateFileError(f"Saved table state: {exc}") from None
    table = cls(options=options, rng=rng)
    if data["game"] is not None:
        table.game, phase = load_snapshot(data["game"], "game")
        if table.game.exact:
            # the cards in the hands and the magazine cannot be recounted after a restart
            raise StateFileError(f"Saved table state: a {table.game.variant} game is not resumed (its hand "
                                 f"counts and the magazine cannot be recounted); it is kept aside.")
        table.machine.set_state(phase)
    table.history = _history(data["history"], data["game"] is not None)
    for i, entry in enumerate(table.history):
        # undo goes back within the one game (game new clears the history): an entry of another game
        # would resume it, an exact variant's too
        if table.game is not None and (entry["game"]["variant"], entry["game"]["players"]) != (
                table.game.variant, table.game.players):
            raise StateFileError(f"Saved table state: history[{i}].game is not a state of the saved game "
                                 f"(a {entry['game']['variant']} game of {entry['game']['players']} seats).")
    if data["undo_blocker"] is not None and data["undo_blocker"] not in UNDO_BLOCKED:
        raise StateFileError(f"Saved table state: undo_blocker must be null or one of "
                             f"{', '.join(map(repr, UNDO_BLOCKED))}.")
    table.undo_blocker = data["undo_blocker"]
    return table


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
        history.append({"command": entry["command"], "game": snapshot(game, phase)})
    return history
