"""The owner's photos of the deck (``cards learn DIR``, ``cards test DIR``): which card each file names, the
image in it, and what reading or learning them found (docs/vision.md, "Your own photos").

A photo is named by the card it shows: the card's colour, a dash and its name as the protocol writes it
(``red-7.jpg``, ``blue-draw-two.png``); a wild by its name, ``wild-`` in front or not (``wild.jpg``,
``wild-hit4.png``, ``wild-draw-four.jpg``); anything after an underscore is free, for more photos of one face
(``red-7_2.jpg``, ``red-7_kitchen.jpg``). Uno Flip's side may go in front (``dark-wild.jpg``,
``light-wild.jpg``): a wild printed on both sides needs it, a coloured card's colour tells it. The names
accepted are derived from the edition's record (:func:`~shooter.vision.synthetic.faces_of`), never listed here.

Every name in a folder is checked before any photo is read, so a misnamed file is said (one line) before any
work. A photo is read as a regular file of at most :data:`MAX_BYTES` (a FIFO named ``red-7.jpg`` does not
block), and shrunk to :data:`MAX_SIDE` pixels on its longer side (a phone's 12 megapixels are read as the
camera's frames are: the card a few hundred pixels tall).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from ..camera.reads import Read
from ..editions import Edition
from ..files import NotAFile, read_regular
from .bench import Tally, Timing
from .card import features, learned, read_features
from .learn import learn
from .match import classify
from .synthetic import FaceSpec, Truth, faces_of
from .templates import Deck
from .watcher import Frame, StillCard, still_card

SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
MAX_BYTES = 64 * 1024 * 1024      # a phone's photo is a few MB; a larger file is no photo of a card
MAX_SIDE = 1024                   # photos are shrunk to this many pixels on their longer side


class PhotoError(Exception):
    """A folder of photos or a photo in it that cannot be used (its name, its content), said in one line."""


@dataclass(frozen=True)
class Photo:
    """One photo of the folder and the face it names, in ``colour`` (None for a wild)."""

    path: Path
    face: FaceSpec
    colour: str | None

    @property
    def truth(self) -> Truth:
        return Truth(self.face.name, self.colour, self.face.side)

    @property
    def label(self) -> str:
        return label(self.face.name, self.colour, self.face.side)


def label(card: str, colour: str | None, side: str | None) -> str:
    """A face as the confusion and the report name it: ``red 7``, ``wild``, ``pink 5 (dark)``, ``wild (light)``
    (the side when the deck has two), as :meth:`~shooter.camera.reads.Read.describe` writes a read."""
    return f"{colour + ' ' if colour else ''}{card}{f' ({side})' if side else ''}"


def names(record: Edition) -> dict[str, list[tuple[FaceSpec, str | None]]]:
    """Every file name (its stem, lower case, before any ``_``) that names a face of the record, with the
    face and colour it names; a stem that names more than one (Flip's ``wild``: either side) lists them all."""
    out: dict[str, list[tuple[FaceSpec, str | None]]] = {}
    for face in faces_of(record):
        stems = [(f"{c}-{face.name}", c) for c in face.colours] if face.colours else \
            [(face.name, None), (f"wild-{face.name}", None)]
        for stem, colour in stems:
            for named in ([stem, f"{face.side}-{stem}"] if face.side else [stem]):
                if (face, colour) not in out.setdefault(named, []):
                    out[named].append((face, colour))
    return out


def examples(record: Edition) -> str:
    """Two file names for the record's faces (a coloured one, a wild), for an error's hint."""
    faces = faces_of(record)
    shown = [f"{f.colours[0]}-{f.name}.jpg" for f in faces if f.colours][:1] \
        + [f"{f.name}.jpg" if f.name.startswith("wild") else f"wild-{f.name}.jpg" for f in faces if f.wild][-1:]
    return ", ".join(shown)


def photo_files(directory: Path) -> list[Path]:
    """The photos in ``directory`` (:data:`SUFFIXES`), sorted by name; PhotoError for a missing folder, a path
    that is no folder, a folder with no photo."""
    if not directory.exists():
        raise PhotoError(f"{directory}: no such directory")
    if not directory.is_dir():
        raise PhotoError(f"{directory}: not a directory (a folder of photos named by card)")
    files = sorted(p for p in directory.iterdir() if p.suffix.lower() in SUFFIXES and not p.name.startswith("."))
    if not files:
        raise PhotoError(f"{directory}: no photos ({', '.join(SUFFIXES)}) in it")
    return files


def name_photo(path: Path, record: Edition, known: dict[str, list[tuple[FaceSpec, str | None]]] | None = None) \
        -> Photo:
    """The face a photo's file name names (module docstring); PhotoError naming the file when it names none of
    the record's, or more than one."""
    stem = path.stem.lower().split("_")[0]
    found = (known if known is not None else names(record)).get(stem, [])
    if not found:
        raise PhotoError(f"{path.name}: no card of this deck is named {stem!r} (name photos like "
                         f"{examples(record)}: a colour, a dash, the card's name)")
    if len(found) > 1:
        sides = " or ".join(f"{face.side}-{stem}{path.suffix}" for face, _ in found)
        raise PhotoError(f"{path.name}: {record.title} prints {stem} on more than one side: name it {sides}")
    return Photo(path, *found[0])


def named_photos(directory: Path, record: Edition) -> list[Photo]:
    """Every photo in ``directory`` with the face it names, every name checked before any photo is read."""
    known = names(record)
    return [name_photo(p, record, known) for p in photo_files(directory)]


def image(path: Path) -> Frame:
    """The photo's pixels (BGR), shrunk to :data:`MAX_SIDE`; PhotoError when the file cannot be read or is no
    image OpenCV can decode."""
    try:
        data = read_regular(path, MAX_BYTES)
    except (OSError, NotAFile) as exc:
        raise PhotoError(f"{path.name}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None
    if decoded is None:
        raise PhotoError(f"{path.name}: not an image OpenCV can read")
    h, w = decoded.shape[:2]
    if max(h, w) > MAX_SIDE:
        scale = MAX_SIDE / max(h, w)
        decoded = cv2.resize(decoded, (max(1, round(w * scale)), max(1, round(h * scale))),
                             interpolation=cv2.INTER_AREA)
    return np.asarray(decoded, np.uint8)


# -- learning --------------------------------------------------------------------------------------------------

def learn_photos(record: Edition, directory: Path, warn: Callable[[str], None]) -> tuple[Deck, int]:
    """The deck learned from the photos in ``directory`` and how many photos it was learned from.

    Errors (PhotoError, nothing learned): the folder's (:func:`photo_files`), a name that names no face, a
    photo that cannot be read; and, once every photo is looked at, a face of the edition with no usable photo
    or a colour of a side no card was photographed in (that face or ink would be read as another, sure).
    Warnings (``warn``, one line each; the photo is left out): no card found in a photo, a card whose outline
    was not found on its own edges (partly cut off, or another card's edge), a card whose white the sensor
    clipped (too bright: its ink is not known)."""
    photos = named_photos(directory, record)
    seen: list[tuple[FaceSpec, str | None, Any]] = []
    for photo in photos:
        found = still_card(image(photo.path))
        why = _unusable(found)
        if why:
            warn(f"{photo.path.name}: {why}; left out")
            continue
        assert found is not None
        seen.append((photo.face, photo.colour, learned(found.card)))
    _complete(record, [(face, colour) for face, colour, _ in seen])
    return learn(seen), len(seen)


def _unusable(found: StillCard | None) -> str:
    if found is None:
        return "no card found (the whole card, a border of table round it)"
    if not found.exact:
        return "the card's edges were not found (is it whole, not cut off by the photo's edge or another card?)"
    if features(found.card).possible is not None:
        return "too bright: the card's white is the camera's top (take it in softer light)"
    return ""


def _complete(record: Edition, seen: Iterable[tuple[FaceSpec, str | None]]) -> None:
    """PhotoError naming what the photos left unlearned: faces first, then inks."""
    got = list(seen)
    faces = {(f.name, f.side) for f, _ in got}
    missing = [f for f in faces_of(record) if (f.name, f.side) not in faces]
    if missing:
        shown = ", ".join(label(f.name, None, f.side) for f in missing)
        raise PhotoError(f"no usable photo of {len(missing)} face{'s' if len(missing) > 1 else ''} of "
                         f"{record.title}: {shown}; every face needs one, or it is read as another")
    inks = {(f.side, c) for f, c in got}
    lacking = sorted({(f.side or "", c) for f in faces_of(record) for c in f.colours} - {(s or "", c) for s, c in inks})
    if lacking:
        shown = ", ".join(c for _, c in lacking)
        raise PhotoError(f"no usable photo of a {shown} card: each colour's ink is learned from its cards")


# -- testing ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PhotoRead:
    """One photo of ``cards test DIR`` and what was read in it (None: no card found); ``card`` the straightened
    card the read was made of (for the report), None when none was found."""

    photo: Photo
    read: Read | None
    card: npt.NDArray[np.uint8] | None

    @property
    def outcome(self) -> str:
        """``correct``, ``wrong`` (sure and not the card), ``unsure`` or ``missed`` (no card found), as
        :class:`~shooter.vision.bench.Tally` counts it."""
        tally = Tally()
        tally.count(self.read, self.photo.truth)
        return next(k for k in ("correct", "wrong", "unsure", "missed") if getattr(tally, k))

    @property
    def read_as(self) -> str:
        """What the confusion counts this photo under: the read's face when it was sure, else ``unsure`` or
        ``missed``."""
        if self.read is None:
            return "missed"
        if self.read.unsure:
            return "unsure"
        return label(self.read.card, self.read.colour, self.read.side)


Looked = Callable[[PhotoRead, Frame], None]


def test_photos(directory: Path, deck: Deck, record: Edition, looked: Looked | None = None) -> dict[str, Any]:
    """Every photo in ``directory`` read as a still: the tally, the time per photo, the confusion. ``looked``
    is told of each photo read, with its pixels (the report keeps the ones not read right)."""
    photos = named_photos(directory, record)
    tally, timing = Tally(), Timing()
    confusion: dict[str, dict[str, int]] = {}
    for photo in photos:
        pixels = image(photo.path)
        start = time.thread_time()
        found = still_card(pixels)
        read = None if found is None else classify(deck, read_features(found.card), found.quad, exact=found.exact)
        timing.took(time.thread_time() - start, read is not None)
        tally.count(read, photo.truth)
        done = PhotoRead(photo, read, None if found is None else found.card)
        row = confusion.setdefault(photo.label, {})
        row[done.read_as] = row.get(done.read_as, 0) + 1
        if looked is not None:
            looked(done, pixels)
    return {**tally.figures(), **timing.figures(), "mistakes": tally.mistakes[:20], "confusion": confusion}


def file_stem(record: Edition, face: FaceSpec, colour: str | None) -> str:
    """The shortest file name (its stem) that names ``face`` in ``colour`` alone (Flip's wild gets its side)."""
    known = names(record)
    return min((stem for stem, found in known.items() if found == [(face, colour)]), key=lambda s: (len(s), s))
