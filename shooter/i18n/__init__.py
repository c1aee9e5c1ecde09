"""Messages in Dutch and English: one catalogue per language (``en.json``, ``nl.json``, and the terminal's own
``terminal.en.json``, ``terminal.nl.json``).

The page (served ``/i18n/<lang>.json``) and the terminal's human form read
the same catalogues. A message is a template with ``{name}`` fields, filled the
same way in Python and in the page's JavaScript. A test checks that both
catalogues have the same keys and the same fields in every message.

Two kinds of keys serve the terminal's details:

- ``detail.*``: the error messages the controller writes (in English, in the
  ``message`` of a reply or a ``refused`` event) as templates. :meth:`Messages.detail`
  recognises a message by its English template and writes it in the catalogue's
  language with the same values, so a Dutch terminal keeps the detail
  (``players= moet 2..10 zijn, niet 11``), not only the error code's sentence.
- Counted messages: ``key``, ``key_one`` (for 1) and ``key_none`` (for 0);
  :meth:`Messages.count` picks the one for a number (``1 press``, ``no cards``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

CATALOGUE_DIR = Path(__file__).parent
LANGUAGES = ("en", "nl")
DEFAULT = "en"
FIELD = re.compile(r"\{([a-z_]+)\}")

# fields of the detail templates that hold a seat: the source writes "seat 3" ("Seat 3" opening a sentence), the
# terminal writes the seat's name where it has one
SEAT_FIELDS = frozenset({"seat", "current", "other"})
# fields that hold a word of the protocol with a message of its own: written in the catalogue's language
WORD_FIELDS = {"phase": "phase.name.", "reason": "reason.", "doing": "doing."}


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (one of :data:`LANGUAGES`): the page's and the terminal's (``<lang>.json``, which the
    page downloads) and the terminal's alone (``terminal.<lang>.json``: details, help, replies; kept out of the
    page's download)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for {lang!r}; there are {', '.join(LANGUAGES)}")
    shared, own = (json.loads((CATALOGUE_DIR / name).read_text(encoding="utf-8"))
                   for name in (f"{lang}.json", f"terminal.{lang}.json"))
    return {**shared, **own}


def fields(template: str) -> set[str]:
    """The ``{name}`` fields of a message."""
    return set(FIELD.findall(template))


def language_from_env(env: Mapping[str, str] | None = None) -> str:
    """The language of the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE): nl for Dutch, else en."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value and value not in ("C", "POSIX"):
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else DEFAULT
    return DEFAULT


def _pattern(template: str) -> re.Pattern[str]:
    """The regular expression of an English detail template: its text as written, a field as any text (a seat
    field as ``seat N``); a field that comes twice is the same text twice."""
    parts, seen = [], set()
    pos = 0
    for m in FIELD.finditer(template):
        parts.append(re.escape(template[pos:m.start()]))
        name = m.group(1)
        if name in seen:
            parts.append(f"(?P={name})")
        else:
            parts.append(f"[Ss]eat (?P<{name}>[0-9]+)" if name in SEAT_FIELDS else f"(?P<{name}>.+?)")
            seen.add(name)
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts), re.S)


@cache
def _details() -> list[tuple[str, re.Pattern[str]]]:
    """Every detail template's key and pattern, the most specific first (the most text of its own): a message
    that two templates fit (``seat= must be 1..4`` and ``{key}= must be {lo}..{hi}``) is the narrower one's."""
    templates = [(k, t) for k, t in catalogue(DEFAULT).items() if k.startswith("detail.")]
    templates.sort(key=lambda kt: -len(FIELD.sub("", kt[1])))
    return [(key, _pattern(template)) for key, template in templates]


def detail_key(message: str) -> tuple[str, dict[str, str]] | None:
    """The detail template ``message`` was written from and its values, or None."""
    for key, pattern in _details():
        m = pattern.fullmatch(message)
        if m:
            return key, m.groupdict()
    return None


def details_document() -> dict[str, Any]:
    """What the page needs to say the controller's error messages as :meth:`Messages.detail` does
    (``GET /i18n/details.json``, read by ``static/details.js``): the rule's fields and, per language, the detail
    templates and the words a field is translated by."""
    words = ("detail.", *WORD_FIELDS.values())
    return {"source": DEFAULT, "seat_fields": sorted(SEAT_FIELDS), "word_fields": WORD_FIELDS,
            "catalogues": {lang: {k: v for k, v in catalogue(lang).items() if k.startswith(words)}
                           for lang in LANGUAGES}}


class Messages:
    """``_(key, **fields)`` in one language; an unknown key is a bug and raises KeyError."""

    def __init__(self, lang: str = DEFAULT):
        self.lang = lang
        self._table = catalogue(lang)

    def __call__(self, key: str, /, **values: object) -> str:
        template = self._table[key]
        return FIELD.sub(lambda m: str(values.get(m.group(1), m.group(0))), template)

    def has(self, key: str) -> bool:
        return key in self._table

    def count(self, key: str, n: int, /, **values: object) -> str:
        """The message of ``key`` for the number ``n``: ``key_none`` for 0 and ``key_one`` for 1 where the
        catalogue has them (``no cards``, ``1 press``), else ``key``; ``n`` fills the field ``{n}``."""
        for suffix, number in (("_none", 0), ("_one", 1)):
            if n == number and self.has(key + suffix):
                return self(key + suffix, **{"n": n, **values})
        return self(key, **{"n": n, **values})

    def detail(self, code: str, message: str, seat: Callable[[int], str] | None = None) -> str:
        """An error message of the controller (English, from ``code``'s reply) in this language, its values
        kept: the seats by ``seat`` (a name, ``seat 3``), the protocol's words (a phase, a reason) translated.
        A message no template fits is the error code's sentence with the message as it came."""
        found = detail_key(message)
        if found is None:
            sentence = f"error.{code}"
            return message if self.lang == DEFAULT or not self.has(sentence) else f"{self(sentence)} ({message})"
        key, values = found
        seat = seat or (lambda n: self("seat.lower", n=n))
        for name, value in values.items():
            prefix = WORD_FIELDS.get(name)
            if name in SEAT_FIELDS:
                values[name] = seat(int(value))
            elif prefix is not None and self.has(prefix + value):
                values[name] = self(prefix + value)
        text = self(key, **values)
        return text[:1].upper() + text[1:] if message[:1].isupper() else text
