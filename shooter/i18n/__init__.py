"""Messages in Dutch and English: one catalogue per language (``en.json``, ``nl.json``).

The page (served as ``/i18n/<lang>.json``) and the terminal's human form read
the same catalogues. A message is a template with ``{name}`` fields, filled the
same way in Python and in the page's JavaScript. A test checks that both
catalogues have the same keys and the same fields in every message.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

CATALOGUE_DIR = Path(__file__).parent
LANGUAGES = ("en", "nl")
DEFAULT = "en"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (one of :data:`LANGUAGES`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for {lang!r}; there are {', '.join(LANGUAGES)}")
    table: dict[str, str] = json.loads((CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return table


def fields(template: str) -> set[str]:
    """The ``{name}`` fields of a message."""
    return set(re.findall(r"\{([a-z_]+)\}", template))


def language_from_env(env: Mapping[str, str] | None = None) -> str:
    """The language of the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE): nl for Dutch, else en."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value and value not in ("C", "POSIX"):
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else DEFAULT
    return DEFAULT


class Messages:
    """``_(key, **fields)`` in one language; an unknown key is a bug and raises KeyError."""

    def __init__(self, lang: str = DEFAULT):
        self.lang = lang
        self._table = catalogue(lang)

    def __call__(self, key: str, **values: object) -> str:
        template = self._table[key]
        return re.sub(r"\{([a-z_]+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)

    def has(self, key: str) -> bool:
        return key in self._table
