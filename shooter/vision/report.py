"""``cards test DIR --report OUT``: a contact sheet of every photo not read right, so an owner sees why.

``OUT/index.html`` shows, for each photo read wrong (sure, and not the card), unsure (the table would ask) or
with no card found: the photo (shrunk, the outline the recogniser straightened drawn on it), the card as the
recogniser straightened it, the face the file name says, what was read, how sure, the nearest other readings and
what to try. The pictures go to ``OUT/thumbs/`` and are referenced relative to the page, which needs nothing from
the network (its style is inline) and fits a phone's width. Everything a file or a read puts on the page is
escaped.

The folder is checked before any photo is read (a path that is a file is one line, exit 2) and written only after
every photo was read (a photo that cannot be read leaves no half sheet); the page is written atomically.
"""

from __future__ import annotations

import html
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .photos import PhotoError, PhotoRead, label
from .watcher import Frame

PAGE = "index.html"
THUMBS = "thumbs"
THUMB_SIDE = 480                 # the photo's longer side on the sheet, pixels
CARD_SCALE = 2                   # the straightened card (80 x 124) drawn this many times its size
SHOWN = ("wrong", "unsure", "missed")
HINTS = {
    "wrong": "Read sure as another card: the table would have played it. Retake this face (even light, no glare "
             "on the card) and learn again, or look at what the two faces share.",
    "unsure": "Not sure enough: the table would ask. A glare, a shadow, blur or a card seen small make a read "
              "unsure; retake it nearer, sharper, in softer light.",
    "missed": "No card found: the whole card must lie in the photo with a border of table round it, on a table "
              "darker than the card's white.",
}


class ReportError(PhotoError):
    """The report's folder cannot be used (a file in its place, not writable), said in one line."""


def check_folder(folder: Path) -> None:
    """ReportError when ``folder`` cannot become the report's folder: a file (or anything but a folder) is in
    its place or in a parent's. Nothing is created here."""
    for path in (folder, *folder.parents):
        if path.exists() or path.is_symlink():
            if not path.is_dir():
                what = "" if path == folder else f" ({path} is not a directory)"
                raise ReportError(f"--report {folder}: not a directory{what}; name a folder for the contact sheet")
            return


@dataclass(frozen=True)
class _Entry:
    index: int
    done: PhotoRead
    outcome: str
    thumb: bytes
    card: bytes | None


class ContactSheet:
    """Collects the photos not read right (:meth:`add`, a :data:`~shooter.vision.photos.Looked`), then writes
    the page (:meth:`write`)."""

    def __init__(self, folder: Path, title: str):
        check_folder(folder)
        self.folder, self.title = folder, title
        self.entries: list[_Entry] = []
        self.count = 0

    def add(self, done: PhotoRead, pixels: Frame) -> None:
        self.count += 1
        outcome = done.outcome
        if outcome not in SHOWN:
            return
        card = None
        if done.card is not None:
            big = np.asarray(cv2.resize(done.card, None, fx=CARD_SCALE, fy=CARD_SCALE, interpolation=cv2.INTER_NEAREST),
                             np.uint8)
            card = _encode(".png", big)
        self.entries.append(_Entry(self.count, done, outcome, _encode(".jpg", _thumb(pixels, done)), card))

    def write(self, result: dict[str, Any]) -> Path:
        """The page and its pictures in the folder (made if need be); returns the page's path."""
        try:
            thumbs = self.folder / THUMBS
            thumbs.mkdir(parents=True, exist_ok=True)
            for entry in self.entries:
                (thumbs / f"{entry.index:04d}.jpg").write_bytes(entry.thumb)
                if entry.card is not None:
                    (thumbs / f"{entry.index:04d}-card.png").write_bytes(entry.card)
            page = self.folder / PAGE
            tmp = page.with_name(f".{PAGE}.{os.getpid()}.tmp")
            tmp.write_text(self.html(result), encoding="utf-8")
            os.replace(tmp, page)
        except OSError as exc:
            raise ReportError(f"--report {self.folder}: cannot write ({exc.strerror or exc})") from None
        return page

    def html(self, result: dict[str, Any]) -> str:
        e = html.escape
        figures = " · ".join(f"{k} {result.get(k)}" for k in ("cards", "correct", "wrong", "unsure", "missed"))
        shown = "".join(_figure(entry) for entry in self.entries) or \
            '<p class="none">Every photo was read right: nothing to retake.</p>'
        rows = "".join(
            f"<tr><th>{e(face)}</th><td>{e(', '.join(f'{k} {v}' for k, v in sorted(row.items(), key=_by_count)))}"
            f"</td></tr>" for face, row in sorted(result.get("confusion", {}).items())
            if set(row) != {face})
        confusion = f'<h2>Faces not always read right</h2><table class="confusion">{rows}</table>' if rows else ""
        return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{e(self.title)}</title><style>{STYLE}</style></head><body>"
                f"<h1>{e(self.title)}</h1><p class=\"figures\">{e(figures)}</p>"
                f'<main class="sheet">{shown}</main>{confusion}</body></html>\n')


def _by_count(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]


def _figure(entry: _Entry) -> str:
    e = html.escape
    read = entry.done.read
    if read is None:
        what, sure, others = "no card found", "", ""
    else:
        what = label(read.card, read.colour, read.side)
        sure = f"{read.confidence:.2f}{' (unsure)' if read.unsure else ' (sure)'}"
        others = ", ".join(f"{c + ' ' if c else ''}{name} {conf:.2f}" for name, c, conf in read.alternatives)
    rows = [("photo", entry.done.photo.path.name), ("shows", entry.done.photo.label), ("read as", what)]
    rows += [("how sure", sure)] if sure else []
    rows += [("next readings", others)] if others else []
    card = (f'<img class="card" src="{THUMBS}/{entry.index:04d}-card.png" width="{80 * CARD_SCALE}" '
            f'height="{124 * CARD_SCALE}" alt="{e(f"the card as straightened: {entry.done.photo.path.name}")}">'
            if entry.card is not None else "")
    facts = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in rows)
    return (f'<figure class="{entry.outcome}" id="photo-{entry.index}"><div class="pictures">'
            f'<img class="photo" src="{THUMBS}/{entry.index:04d}.jpg" alt="{e(entry.done.photo.path.name)}">'
            f"{card}</div><figcaption><p class=\"outcome\">{e(entry.outcome)}</p><dl>{facts}</dl>"
            f'<p class="hint">{e(HINTS[entry.outcome])}</p></figcaption></figure>')


def _thumb(pixels: Frame, done: PhotoRead) -> Frame:
    h, w = pixels.shape[:2]
    scale = min(1.0, THUMB_SIDE / max(h, w))
    small = cv2.resize(pixels, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    if done.read is not None and done.read.quad is not None:
        quad = np.round(np.asarray(done.read.quad, np.float64) * scale).astype(np.int32)
        cv2.polylines(small, [quad.reshape(-1, 1, 2)], True, (0, 165, 255), 2, cv2.LINE_AA)
    return np.asarray(small, np.uint8)


def _encode(suffix: str, pixels: Frame) -> bytes:
    ok, data = cv2.imencode(suffix, pixels)
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise ReportError(f"could not encode a {suffix} picture")
    return bytes(data.tobytes())


STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;padding:12px;max-width:1200px;line-height:1.4;color:#111;
background:#fafafa}
h1{font-size:1.3em}h2{font-size:1.1em}
.sheet{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:12px}
figure{margin:0;background:#fff;border:1px solid #ccc;border-left:6px solid #999;border-radius:6px;padding:8px}
figure.wrong{border-left-color:#c00}figure.unsure{border-left-color:#e90}figure.missed{border-left-color:#669}
.pictures{display:flex;gap:6px;align-items:flex-start}
.photo{max-width:100%;height:auto;min-width:0;flex:1 1 auto}.card{width:80px;height:auto;image-rendering:pixelated}
.outcome{font-weight:bold;text-transform:uppercase;margin:4px 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:2px 8px;margin:4px 0}dt{color:#555}dd{margin:0;word-break:break-word}
.hint{font-size:.9em;color:#333}
table{border-collapse:collapse}th,td{text-align:left;padding:2px 8px;border-bottom:1px solid #ddd}
@media (prefers-color-scheme:dark){body{background:#111;color:#eee}figure{background:#222;border-color:#444}
dt{color:#aaa}.hint{color:#ccc}}
"""
