"""What the recogniser learned from the owner's deck: per deck, each face's symbol and each colour's ink.

A :class:`Deck` is one box (an edition record's ``key``): its :class:`Face` list (name as the protocol writes it,
the side it is printed on, whether it is a wild, and its symbol map) and the ink of each colour per side (the
field's BGR over the board's white; a wild's black under ``""``). :class:`Templates` holds the decks learned so
far. The file ``card-templates.json`` in the state directory keeps them (versioned; read back by the project's
one loader, ``Store.load_or_set_aside``, so a bad file is set aside with one line, never a crash):

    {"format": "uno-shooter/card-templates", "version": 1,
     "decks": {"extreme-2016": {"faces": [{"name": "7", "side": null, "wild": false, "polarity": "light",
                                           "colour": "red", "symbol": "<base64 of the map as bytes 0..255>"}, ...],
                                "inks": {"": {"red": [b, g, r], ..., "": [b, g, r]}}}}}
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import StateFileError
from ..persist import Store
from .card import LIGHT, POLARITIES, SYMBOL

TEMPLATES_FILE = "card-templates.json"
FORMAT, VERSION = "uno-shooter/card-templates", 1
BLACK = ""                      # the ink key of a wild's black field
Symbol = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Face:
    """One printed face: ``name`` as the protocol writes the card (``7``, ``skip``), ``side`` (Flip's
    ``light``/``dark``, else None), ``wild`` (no colour), its learned symbol map and whether that map holds the
    strokes lighter than round them or darker (``polarity``)."""

    name: str
    side: str | None
    wild: bool
    symbol: Symbol = field(compare=False, repr=False)
    polarity: str = LIGHT   # the map its symbol is matched on (card.POLARITIES; learned: shooter.vision.learn)
    # the colour this look of the face was learned in (None: a wild, or not known): a face seen in several colours
    # keeps a look of each, and a read is matched against every look (shooter.vision.learn)
    colour: str | None = None


@dataclass
class Deck:
    """One box's faces and inks (``inks[side or ""][colour or BLACK]``)."""

    faces: list[Face] = field(default_factory=list)
    inks: dict[str, dict[str, tuple[float, float, float]]] = field(default_factory=dict)

    def face_count(self) -> int:
        """How many faces were learned (a face learned in several colours has a look of each in ``faces``)."""
        return len({(f.name, f.side) for f in self.faces})

    def colours(self, side: str | None) -> dict[str, tuple[float, float, float]]:
        return self.inks.get(side or "", {})


@dataclass
class Templates:
    """The decks learned so far, by edition key (``extreme-2016``, ``flip``)."""

    decks: dict[str, Deck] = field(default_factory=dict)

    def deck(self, key: str) -> Deck:
        """The deck learned for edition ``key``; KeyError (naming what there is) when it was never learned."""
        if key not in self.decks:
            raise KeyError(f"no cards learned for {key} (learned: {', '.join(self.decks) or 'none'}; "
                           f"uno-shooter cards learn)")
        return self.decks[key]


def _symbol_bytes(symbol: Symbol) -> str:
    return base64.b64encode(np.round(symbol * 255).astype(np.uint8).tobytes()).decode("ascii")


def _symbol_of(text: object, where: str) -> Symbol:
    x0, x1, y0, y1 = SYMBOL
    if not isinstance(text, str):
        raise StateFileError(f"{where}: the symbol must be base64 text")
    raw = base64.b64decode(text.encode("ascii"), validate=True)
    if len(raw) != (x1 - x0) * (y1 - y0):
        raise StateFileError(f"{where}: the symbol has {len(raw)} bytes, not {(x1 - x0) * (y1 - y0)}")
    return (np.frombuffer(raw, np.uint8).reshape(y1 - y0, x1 - x0).astype(np.float32) / 255.0).copy()


def to_json(templates: Templates) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION,
            "decks": {key: {"faces": [{"name": f.name, "side": f.side, "wild": f.wild, "polarity": f.polarity,
                                       "colour": f.colour, "symbol": _symbol_bytes(f.symbol)} for f in deck.faces],
                            "inks": {side: {c: list(v) for c, v in inks.items()} for side, inks in deck.inks.items()}}
                      for key, deck in templates.decks.items()}}


def from_json(data: dict[str, Any]) -> Templates:
    """The templates a file holds; StateFileError naming the first thing wrong with it."""
    if data.get("format") != FORMAT:
        raise StateFileError(f"not a card templates file (format {data.get('format')!r})")
    if data.get("version") != VERSION:
        raise StateFileError(f"card templates of version {data.get('version')!r}; this program reads {VERSION}")
    decks = data.get("decks")
    if not isinstance(decks, dict):
        raise StateFileError("decks must be an object")
    out = Templates()
    for key, deck in decks.items():
        if not isinstance(deck, dict) or not isinstance(deck.get("faces"), list) \
                or not isinstance(deck.get("inks"), dict):
            raise StateFileError(f"deck {key}: must hold faces (a list) and inks (an object)")
        faces = []
        for i, f in enumerate(deck["faces"]):
            where = f"deck {key}, face {i}"
            if not isinstance(f, dict) or not isinstance(f.get("name"), str) or not isinstance(f.get("wild"), bool) \
                    or not (f.get("side") is None or isinstance(f.get("side"), str)):
                raise StateFileError(f"{where}: needs a name, a side (or null) and wild (true or false)")
            polarity = f.get("polarity", LIGHT)   # (a file from before polarities were learned: light)
            if polarity not in POLARITIES:
                raise StateFileError(f"{where}: polarity must be one of {', '.join(POLARITIES)}, not {polarity!r}")
            colour = f.get("colour")   # (a file from before looks were kept per colour: none)
            if not (colour is None or isinstance(colour, str)):
                raise StateFileError(f"{where}: colour must be a colour's name or null")
            faces.append(Face(f["name"], f["side"], f["wild"], _symbol_of(f.get("symbol"), where), polarity, colour))
        inks: dict[str, dict[str, tuple[float, float, float]]] = {}
        for side, colours in deck["inks"].items():
            if not isinstance(colours, dict):
                raise StateFileError(f"deck {key}: inks of side {side!r} must be an object")
            inks[side] = {}
            for colour, bgr in colours.items():
                if not (isinstance(bgr, list) and len(bgr) == 3
                        and all(isinstance(v, (int, float)) and 0 <= v <= 4 for v in bgr)):
                    raise StateFileError(f"deck {key}: ink {colour!r} must be three numbers 0..4")
                inks[side][colour] = (float(bgr[0]), float(bgr[1]), float(bgr[2]))
        out.decks[key] = Deck(faces, inks)
    return out


def load(state_dir: Path, log: Callable[[str], None]) -> Templates:
    """The templates kept in ``state_dir`` (none learned yet: empty); a bad file is set aside, said in one
    line to ``log``, and the templates start empty."""
    found = Store(state_dir, name=TEMPLATES_FILE).load_or_set_aside(
        from_json, log=log, fresh="no cards are learned (uno-shooter cards learn)")
    return found if found is not None else Templates()


def save(state_dir: Path, templates: Templates) -> Path:
    """Writes the templates (atomically, as every state file); returns the file's path."""
    store = Store(state_dir, name=TEMPLATES_FILE)
    store.save(to_json(templates))
    return store.path
