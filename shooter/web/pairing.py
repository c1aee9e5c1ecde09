"""Pairing a browser with the shooter's button, like a Hue bridge.

Anyone on the network may watch; to act, a browser asks to pair and a person
presses the shooter's physical button within :data:`WINDOW` seconds. That press
pairs and does nothing else (it is not a player's press): the browser gets a
token, the shooter beeps. The press pairs only when exactly one browser waits
(several at once: nobody, each must ask again), and never while the table owes
presses (see :mod:`shooter.pairing_commands`). Tokens are kept hashed (SHA-256) in the state
directory, listed in ``status`` by id and revoked with ``unpair id=N``.

Everything here runs on the control loop; time comes from the loop's clock.
It imports nothing of aiohttp: the controller holds a :class:`Pairing` whether
or not a web server runs.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import CommandError
from ..events import stamp
from .tokens_file import tokens_from_dict

if TYPE_CHECKING:
    from hal.clock import Timer

WINDOW = 30.0          # seconds from the request in which the button pairs
RATE_LIMIT = 5         # at most this many requests ...
RATE_PERIOD = 60.0     # ... in this many seconds (all browsers together)
MAX_TOKENS = 20        # the oldest token goes when one more is granted
TOKENS_FILE = "web-tokens.json"
SEVERAL = "several browsers asked at once: ask again one at a time"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Request:
    """A browser waiting for the button: ``deliver`` gets its token (or the news that time ran out)."""

    deliver: Callable[[dict], None]
    label: str
    deadline: float
    timer: Timer | None = None   # the end of its window, set once it is pending


class Pairing:
    """Pending pair requests and granted tokens (on the loop)."""

    def __init__(self, clock, store=None, log: Callable[[str], None] = lambda m: None):
        self.clock = clock
        self._log = log
        self._store = store      # a persist.Store for TOKENS_FILE, or None (kept in memory)
        self._pending: list[Request] = []
        self._recent: deque[float] = deque()
        self._tokens: list[dict] = []     # {"id": N, "hash": sha256 hex, "label": text}
        self.on_revoke: Callable[[int], None] = lambda token_id: None
        self._next_id = 1                 # ids are never reused: the next pairing's
        if store is not None:             # a bad file is set aside (one log line): nobody is paired
            loaded = store.load_or_set_aside(tokens_from_dict, log=log, fresh="nobody is paired: pair again")
            if loaded is not None:
                tokens, self._next_id = loaded
                self._tokens = tokens[-MAX_TOKENS:]

    # ---- requests ----
    def request(self, deliver: Callable[[dict], None], label: str = "") -> dict:
        """A browser asks to pair; returns the reply's fields. Raises ``rate-limited``."""
        now = self.clock.now()
        while self._recent and self._recent[0] <= now - RATE_PERIOD:
            self._recent.popleft()
        if len(self._recent) >= RATE_LIMIT:
            wait = self._recent[0] + RATE_PERIOD - now
            raise CommandError("rate-limited", f"too many pairing requests; try again in {wait:.0f} s")
        self._recent.append(now)
        self.cancel(deliver)  # a new request from the same browser replaces its old one
        req = Request(deliver, label[:40], now + WINDOW)
        req.timer = self.clock.call_at(req.deadline, lambda: self._expire(req), idle=True, name="pair-window")
        self._pending.append(req)
        return {"seconds": WINDOW}

    def _expire(self, req: Request) -> None:
        if req in self._pending:
            self._pending.remove(req)
            req.deliver({"event": "pair-expired", "t": round(self.clock.now(), 6)})

    def cancel(self, deliver) -> None:
        """The browser went away."""
        for req in [r for r in self._pending if r.deliver is deliver]:
            self._pending.remove(req)
            if req.timer is not None:
                req.timer.cancel()

    @property
    def waiting(self) -> bool:
        return self.waiting_count > 0

    @property
    def waiting_count(self) -> int:
        """How many browsers wait for the button now."""
        now = self.clock.now()
        return sum(1 for r in self._pending if r.deadline > now)

    def button_pressed(self) -> list[int]:
        """The physical button: pairs the ONE browser waiting (its id returned); [] if none waits.

        With two or more waiting nobody is paired (a watcher that asked at the same moment as the
        owner would get a token too): every request is refused with ``pair-refused`` and must ask again.
        """
        now = self.clock.now()
        live = [r for r in self._pending if r.deadline > now]
        for req in self._pending:
            if req.timer is not None:
                req.timer.cancel()
        self._pending = []
        if len(live) != 1:
            for req in live:
                req.deliver({"event": "pair-refused", "t": stamp(now), "message": SEVERAL})
            return []
        req = live[0]
        token = secrets.token_urlsafe(24)
        token_id = max((t["id"] for t in self._tokens), default=0) + 1
        self._tokens = (self._tokens + [{"id": token_id, "hash": token_hash(token), "label": req.label}])
        self._tokens = self._tokens[-MAX_TOKENS:]
        req.deliver({"event": "pair-granted", "t": stamp(now), "id": token_id, "token": token})
        self._save()
        return [token_id]

    # ---- tokens ----
    def check(self, token: str) -> int | None:
        """The id of a valid token, None otherwise."""
        digest = token_hash(token)
        for t in self._tokens:
            if secrets.compare_digest(t["hash"], digest):
                return t["id"]
        return None

    def valid(self, token_id: int | None) -> bool:
        return token_id is not None and any(t["id"] == token_id for t in self._tokens)

    def revoke(self, token_id: int) -> None:
        if not self.valid(token_id):
            known = ", ".join(str(t["id"]) for t in self._tokens) or "none"
            raise CommandError("bad-argument", f"no paired browser with id {token_id} (paired: {known})")
        self._tokens = [t for t in self._tokens if t["id"] != token_id]
        self._save()
        self.on_revoke(token_id)

    def status(self) -> dict:
        return {"paired": [{"id": t["id"], "label": t["label"]} for t in self._tokens],
                "waiting": self.waiting_count}

    def _save(self) -> None:
        """Keep the tokens; a failure (full disk) is logged: the pairing holds until a restart."""
        if self._store is None:
            return
        try:
            self._store.save({"tokens": self._tokens})
        except OSError as exc:
            self._log(f"uno-shooter: cannot save the paired browsers in {self._store.path}: {exc}")
