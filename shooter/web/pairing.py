"""Pairing a browser with the shooter, like a Hue bridge, without ever taking a player's press.

Anyone on the network may watch; to act, a browser asks to pair (``pair [name=...]``) and, within
:data:`WINDOW` seconds, a person at the table says yes by a deliberate act that a player's press never is:

- on the box, with no game running: a press of the shooter's button (it shoots nothing then);
- on the box, at any time: holding the button :data:`HOLD` seconds with the lid open (a press with the lid
  open is refused and shoots nothing, so the gesture cannot cost anyone a card);
- on a phone already paired (or a console of the table's own): ``pair approve request=R``.

The box's gestures pair only when exactly one browser waits (several at once: nobody, each must ask
again); an approval names its request. The controller's side (the beeps, the events, which press is a
gesture) is :mod:`shooter.commands.pairing`. Requests are limited per client address, one waiting per
address. The asking device is named in words (:func:`device_kind`, plus the name the person typed),
never by its raw User-Agent. Tokens are kept hashed (SHA-256) in the state directory, listed in ``status``
by id and revoked with ``unpair id=N``; ids are never given twice (the next one is kept in the file), and
the oldest token evicted at :data:`MAX_TOKENS` is revoked like ``unpair``.

Everything here runs on the control loop; time comes from the loop's clock.
It imports nothing of aiohttp: the controller holds a :class:`Pairing` whether
or not a web server runs.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import BadArgument, Gone, RateLimited
from ..events import stamp
from ..tap_ids import REQUEST, TapIds
from ..vocabulary import EventName, PairingReason
from .tokens_file import LABEL_LENGTH, Token, tokens_from_dict

if TYPE_CHECKING:
    from hal.clock import Clock, Timer

    from ..persist import Store

WINDOW = 30.0          # seconds from the request in which it may be granted
HOLD = 2.0             # seconds the button is held with the lid open to pair during a game
RATE_LIMIT = 5         # at most this many requests from one client address ...
RATE_PERIOD = 60.0     # ... in this many seconds
MAX_ADDRESSES = 256    # client addresses whose recent requests are remembered (the oldest forgotten first)
MAX_TOKENS = 20        # the oldest token goes (an unpair) when one more is granted
NAME_LENGTH = 24       # characters of the name a person types for the asking device
TOKENS_FILE = "web-tokens.json"
SEVERAL = "several browsers asked at once: ask again one at a time"
REPLACED = "a newer request from the same address replaced this one"
REFUSED = "a paired phone refused this request"

# The kinds of device a User-Agent names, first match wins: (words that must all appear, lower case; the
# device in words). An iPad's Safari may say Macintosh: it is then a Mac, which is still true enough.
DEVICE_KINDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("iphone",), "iPhone"),
    (("ipad",), "iPad"),
    (("android", "mobile"), "Android phone"),
    (("android",), "Android tablet"),
    (("cros",), "Chromebook"),
    (("macintosh",), "Mac"),
    (("windows",), "Windows PC"),
    (("linux",), "Linux PC"),
)
UNKNOWN_DEVICE = "a browser"


def _refusal(why: PairingReason, message: str, now: float) -> dict[str, Any]:
    """The ``pair-refused`` event a waiting browser is sent."""
    return {"event": EventName.PAIR_REFUSED, "t": stamp(now), "reason": why, "message": message}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def device_kind(user_agent: str) -> str:
    """The asking device in words, from its User-Agent (whose raw text is never shown)::

        >>> device_kind("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15")
        'iPhone'
        >>> device_kind("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36")
        'Android phone'
        >>> device_kind("\\x1b[2J")
        'a browser'
    """
    text = user_agent.lower()
    return next((kind for words, kind in DEVICE_KINDS if all(w in text for w in words)), UNKNOWN_DEVICE)


def device_name(text: str) -> str:
    """The name a person typed for the asking device (``pair name=...``): printable, shortened to
    :data:`NAME_LENGTH` characters. Raises ``bad-argument`` for a control or format character (a bidi
    override would turn the name around on the other phones)::

        >>> device_name("Ann's-phone-with-a-very-long-name")
        "Ann's-phone-with-a-very-"
        >>> device_name("Ann\\u202e")
        Traceback (most recent call last):
        ...
        shooter.errors.BadArgument: name= may not contain U+202E (a control or format character)
    """
    bad = next((c for c in text if not c.isprintable()), None)
    if bad is not None:
        raise BadArgument(f"name= may not contain U+{ord(bad):04X} (a control or format character)")
    return text[:NAME_LENGTH]


@dataclass
class Request:
    """A browser waiting to be paired: ``deliver`` gets its token (or the news that it was not)."""

    deliver: Callable[[dict[str, Any]], None]
    number: int          # the request's own number, never given twice (shooter.tap_ids: across restarts too)
    address: str         # the client's address (one request waiting per address)
    device: str          # the kind of device, in words
    name: str | None     # what the person typed, shortened
    deadline: float
    timer: Timer | None = None   # the end of its window, set once it is pending
    on_grant: Callable[[int], None] = lambda token_id: None   # the asker holds the token (before it is told)

    @property
    def label(self) -> str:
        """How the request is shown: "Ann (iPhone)", or the device alone."""
        return (f"{self.name} ({self.device})" if self.name else self.device)[:LABEL_LENGTH]

    def public(self, now: float) -> dict[str, Any]:
        return {"request": self.number, "label": self.label, "device": self.device, "name": self.name,
                "seconds": round(max(0.0, self.deadline - now), 1)}


@dataclass
class Grant:
    """A request granted: its token's id, and the tokens evicted to make room (each one an unpair)."""

    id: int
    request: int
    evicted: list[int] = field(default_factory=list)


class Pairing:
    """Pending pair requests and granted tokens (on the loop)."""

    def __init__(self, clock: Clock, store: Store | None = None, log: Callable[[str], None] = lambda m: None,
                 ids: TapIds | None = None) -> None:
        self.clock = clock
        self._log = log
        self._store = store      # a persist.Store for TOKENS_FILE, or None (kept in memory)
        self._pending: list[Request] = []
        self._recent: dict[str, deque[float]] = {}   # address -> times of its recent requests
        self.ids = ids or TapIds()   # a request's number is never given twice, across restarts too
        self._tokens: list[Token] = []
        self.on_revoke: Callable[[int], None] = lambda token_id: None
        self._next_id = 1                 # ids are never reused: the next pairing's
        if store is not None:             # a bad file is set aside (one log line): nobody is paired
            loaded = store.load_or_set_aside(tokens_from_dict, log=log, fresh="nobody is paired: pair again")
            if loaded is not None:
                tokens, self._next_id = loaded
                self._tokens = tokens[-MAX_TOKENS:]

    # ---- requests ----
    def request(self, deliver: Callable[[dict[str, Any]], None], *, address: str = "",
                device: str = UNKNOWN_DEVICE, name: str | None = None,
                on_grant: Callable[[int], None] = lambda token_id: None) -> Request:
        """A browser asks to pair; returns its waiting request. ``deliver`` gets the news (the token, a refusal,
        the end of the window); granted, ``on_grant`` gets the token's id first. Raises ``rate-limited`` when its
        address asked :data:`RATE_LIMIT` times in :data:`RATE_PERIOD` (other addresses may still ask)."""
        now = self.clock.now()
        recent = self._recent_of(address, now)
        if len(recent) >= RATE_LIMIT:
            wait = recent[0] + RATE_PERIOD - now
            raise RateLimited(f"too many pairing requests from this address; "
                                               f"try again in {max(wait, 1.0):.0f} s")
        recent.append(now)
        self.cancel(deliver)  # a new request from the same browser replaces its old one
        for old in [r for r in self._pending if r.address == address]:  # ... and one from its address
            self._end(old, _refusal(PairingReason.REPLACED, REPLACED, now))
        number = self.ids.give(REQUEST)   # on disk before the reply that shows it
        req = Request(deliver, number, address, device, name, now + WINDOW, on_grant=on_grant)
        req.timer = self.clock.call_at(req.deadline, lambda: self._expire(req), idle=True, name="pair-window")
        self._pending.append(req)
        return req

    def _recent_of(self, address: str, now: float) -> deque[float]:
        """The times of the address's requests within the last :data:`RATE_PERIOD` (remembered for at most
        :data:`MAX_ADDRESSES` addresses, those that asked longest ago forgotten first)."""
        recent = self._recent.pop(address, None) or deque()
        while recent and recent[0] <= now - RATE_PERIOD:
            recent.popleft()
        while len(self._recent) >= MAX_ADDRESSES:
            del self._recent[next(iter(self._recent))]
        self._recent[address] = recent  # (re)inserted last: the dict is in order of the last request
        return recent

    def _expire(self, req: Request) -> None:
        if req in self._pending:
            self._pending.remove(req)
            req.deliver({"event": EventName.PAIR_EXPIRED, "t": round(self.clock.now(), 6)})

    def _end(self, req: Request, news: dict[str, Any]) -> None:
        self._pending.remove(req)
        if req.timer is not None:
            req.timer.cancel()
        req.deliver(news)

    def cancel(self, deliver: Callable[[dict[str, Any]], None]) -> None:
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
        """How many browsers wait now."""
        now = self.clock.now()
        return sum(1 for r in self._pending if r.deadline > now)

    def _live(self) -> list[Request]:
        now = self.clock.now()
        return [r for r in self._pending if r.deadline > now]

    def button_pressed(self) -> Grant | None:
        """The box's gesture: pairs the ONE browser waiting; None if none or several wait.

        With two or more waiting nobody is paired (a watcher that asked at the same moment as the
        owner would get a token too): every request is refused with ``pair-refused`` and must ask again.
        """
        live = self._live()
        for req in list(self._pending):
            self._pending.remove(req)
            if req.timer is not None:
                req.timer.cancel()
        if len(live) != 1:
            for req in live:
                req.deliver(_refusal(PairingReason.SEVERAL, SEVERAL, self.clock.now()))
            return None
        return self._grant(live[0])

    def approve(self, number: int) -> Grant:
        """A paired phone (or the table's console) grants request ``number``; the others keep waiting."""
        return self._grant(self._waiting(number))

    def refuse(self, number: int) -> Request:
        """A paired phone (or the table's console) turns request ``number`` down."""
        req = self._waiting(number)
        self._end(req, _refusal(PairingReason.REFUSED, REFUSED, self.clock.now()))
        return req

    def _waiting(self, number: int) -> Request:
        req = next((r for r in self._live() if r.number == number), None)
        if req is None:
            known = ", ".join(str(r.number) for r in self._live()) or "none"
            if self.ids.given(REQUEST, number):   # asked once (this run or one before), ended since
                raise Gone(f"request {number} is gone: it was granted, refused, replaced or timed out, or asked "
                           f"before a restart (waiting: {known})")
            raise BadArgument(f"no request {number} is waiting (waiting: {known})")
        return req

    def _grant(self, req: Request) -> Grant:
        """A token for ``req``: the next id (never given before); beyond :data:`MAX_TOKENS` the oldest
        tokens are revoked (``on_revoke``: their sockets drop to watching)."""
        if req in self._pending:
            self._pending.remove(req)
            if req.timer is not None:
                req.timer.cancel()
        token = secrets.token_urlsafe(24)
        grant = Grant(self._next_id, req.number)
        self._next_id += 1
        self._tokens.append({"id": grant.id, "hash": token_hash(token), "label": req.label})
        while len(self._tokens) > MAX_TOKENS:
            grant.evicted.append(self._tokens.pop(0)["id"])
        req.on_grant(grant.id)
        req.deliver({"event": EventName.PAIR_GRANTED, "t": stamp(self.clock.now()), "id": grant.id, "token": token})
        self._save()
        for token_id in grant.evicted:
            self.on_revoke(token_id)
        return grant

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
            if token_id < self._next_id:   # paired once, unpaired or evicted since
                raise Gone(f"paired browser {token_id} is gone: it was unpaired (paired: {known})")
            raise BadArgument(f"no paired browser with id {token_id} (paired: {known})")
        self._tokens = [t for t in self._tokens if t["id"] != token_id]
        self._save()
        self.on_revoke(token_id)

    def status(self) -> dict[str, Any]:
        now = self.clock.now()
        return {"paired": [{"id": t["id"], "label": t["label"]} for t in self._tokens],
                "waiting": self.waiting_count, "requests": [r.public(now) for r in self._live()]}

    def _save(self) -> None:
        """Keep the tokens and the next id; a failure (full disk) is logged: the pairing holds until a restart."""
        if self._store is None:
            return
        try:
            self._store.save({"tokens": self._tokens, "next_id": self._next_id})
        except OSError as exc:
            self._log(f"uno-shooter: cannot save the paired browsers in {self._store.path}: {exc}")
