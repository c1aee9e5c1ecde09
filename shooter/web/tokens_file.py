"""The paired browsers' file (``web-tokens.json``) read back: its parse function for
:meth:`shooter.persist.Store.load_or_set_aside`, which sets a bad file aside (one log line) so that a bad
tokens file costs the pairings, never the start.

Format::

    {"tokens": [{"id": 1, "hash": "<sha256 hex of the token>", "label": "iPhone"}, ...], "next_id": 2}

``next_id`` (the id the next pairing gets; ids are never reused) may be missing (a file of an older
controller): then it is one more than the highest id.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict

from ..errors import StateFileError
from ..tap_ids import MAX_ID  # the largest id a browser's JSON (a double) still holds exactly

LABEL_LENGTH = 64         # a label as pairing gives it ("<name> (<device kind>)", cut to this length)
_HASH = re.compile(r"[0-9a-f]{64}")


class Token(TypedDict):
    """A paired browser as kept: its id, its token's SHA-256 (hex; never the token) and how it was shown."""

    id: int
    hash: str
    label: str


def _whole(value: object, lo: int) -> bool:
    return type(value) is int and lo <= value <= MAX_ID


def tokens_from_dict(data: dict[str, Any]) -> tuple[list[Token], int]:
    """The tokens (``{"id", "hash", "label"}`` each) and the next id; a StateFileError naming the field."""
    if not isinstance(data, dict) or not {"tokens"} <= set(data) <= {"tokens", "next_id"}:
        keys = sorted(map(str, data)) if isinstance(data, dict) else []
        raise StateFileError(f"Saved pairings: must be an object of tokens (and next_id), not of {keys[:4]}.")
    if not isinstance(data["tokens"], list):
        raise StateFileError("Saved pairings: tokens must be a list.")
    tokens: list[Token] = []
    for i, token in enumerate(data["tokens"]):
        if not isinstance(token, dict) or not {"id", "hash"} <= set(token) <= {"id", "hash", "label"}:
            raise StateFileError(f"Saved pairings: tokens[{i}] must be an object of id, hash and label.")
        label = token.get("label", "")
        if not _whole(token["id"], 1):
            raise StateFileError(f"Saved pairings: tokens[{i}].id must be a whole number 1..{MAX_ID}.")
        if not isinstance(token["hash"], str) or not _HASH.fullmatch(token["hash"]):
            raise StateFileError(f"Saved pairings: tokens[{i}].hash must be a SHA-256 in hex.")
        if not isinstance(label, str) or len(label) > LABEL_LENGTH:
            raise StateFileError(f"Saved pairings: tokens[{i}].label must be text of at most {LABEL_LENGTH} "
                                 f"characters.")
        if any(t["id"] == token["id"] for t in tokens):
            raise StateFileError(f"Saved pairings: tokens[{i}].id {token['id']} is given twice.")
        tokens.append(Token(id=token["id"], hash=token["hash"], label=label))
    after_max = max((t["id"] for t in tokens), default=0) + 1
    next_id = data.get("next_id", after_max)
    if not _whole(next_id, 0):
        raise StateFileError(f"Saved pairings: next_id must be a whole number 0..{MAX_ID}.")
    return tokens, max(next_id, after_max)   # never an id that a saved token holds
