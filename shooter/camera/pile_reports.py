"""The table follows the discard pile: reads of the card put on top (:class:`~shooter.camera.reads.Read`) become plays.

A read is posted to the loop (whoever made it only enqueues) and taken by :meth:`PileReports.take`. How it is
reported is the table's setting ``report``:

* ``off``: reads are counted and nothing else (the table tells the shooter every play, as without a camera);
* ``auto``: a read at least ``threshold`` sure (and not called unsure by its reader) is the play of the seat whose
  turn it is: the camera sends the very line a console would, ``play CARD seat=S``, through the dispatcher as a
  console of its own (:data:`CAMERA`), so the rules, penalties and undo apply as to a typed play. Every console learns
  what the camera sent and how the table answered (a ``camera`` event: the line and its reply, refused or not);
* ``ask`` (every read), or an unsure one in ``auto``: the read waits, and a ``seen`` event asks the paired
  phones to confirm it with one tap (``seen confirm id=N``), to pick one of its two nearest alternatives
  (``pick=K``) or to reject it (``seen reject id=N``: no card was played).

Some cards say less than the play needs, whatever the mode: an aimed card (its effect is in the record's aimed
effects: Extreme Hit, Targeted Draw Two, Forced Swap) waits for its target (``seen confirm id=N target=T``, as
the page asks when such a card is tapped), and a wild of a deck with colours waits for the colour its player
names: a tap (``seen colour=C``) or the colour of the next card read, which must be of that colour. Uno Extreme
counts no hands, so a player's last card is said: ``seen last`` before or while it is read (like ``uno`` called
ahead), and the play is sent with ``last``.

Reads wait in the order the cards were put down: a card read while another waits waits behind it (a covered
card cannot be read again, and the new one is the next seat's only once the one before is reported); it is
asked for when it comes first. A play typed on a console (``play ...``, from anyone but the camera) is the
report of the card waiting first: that read is closed (``seen-closed``, ``typed``) and the next is taken. A new
game closes every read still waiting (``new-game``): else the first would stand before every read of the new
game's pile, none of them asked. A waiting read is not saved: after a restart the table reports the card by hand.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ..access import Caller, Link
from ..commands.dispatch import Reply
from ..editions.records import AIMED_EFFECTS, NUMBER, DeckCard
from ..errors import BadArgument, CommandError, Gone
from ..events import Broadcast, Sink
from ..table import Table
from ..tap_ids import READ, TapIds
from ..vocabulary import EventName, SeenOutcome

if TYPE_CHECKING:  # reads come from the camera's modules: a start-up without a camera need not load this one
    from .reads import Read

CAMERA = Caller(Link.CAMERA)   # the camera's own console: the table's access (shooter.access)


class Report(StrEnum):
    """How reads are reported (the config's ``[camera] report``)."""

    OFF = "off"
    ASK = "ask"
    AUTO = "auto"


@dataclass(frozen=True)
class PileSettings:
    """The table's settings of the camera's reports: the mode, and how sure a read must be to be played."""

    report: Report = Report.OFF
    threshold: float = 0.9

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"the camera's threshold must be in (0, 1], got {self.threshold!r}")


@dataclass
class Waiting:
    """A read that waits for a tap: what it still asks for and what the taps said so far."""

    id: int
    read: Read
    sure: bool                 # confirmed, or (auto) sure enough on its own
    card: str
    colour: str | None
    target: int | None = None
    named: str | None = None   # the colour the wild's player named
    by: str = ""               # who named it: "tap" or "card"
    asked: list[str] | None = None   # what its last `seen` event asked for (None: none was sent)


LineHandler = Callable[[str, Sink, Caller], None]   # Controller.handle_line: one reply to the sink
LineRunner = Callable[[str, Caller], Reply]         # Controller.run_line: the reply's fields, or CommandError


class PileReports:
    """The camera's reports to the table (see the module docstring): the reads waiting and the counts."""

    def __init__(self, *, table: Table, events: Broadcast, handle_line: LineHandler, run_line: LineRunner,
                 settings: PileSettings = PileSettings(), ids: TapIds | None = None) -> None:
        self.table = table
        self.events = events
        self._handle_line = handle_line
        self._run_line = run_line
        self.settings = settings
        self.waiting: deque[Waiting] = deque()
        self.last: int | None = None     # the seat that said its next card is its last (`seen last`)
        self.counts: Counter[str] = Counter()
        self.unavailable: str | None = None   # why the configured camera could not be opened (status says so)
        self.on_typed: Callable[[], None] | None = None   # a play typed with no read waiting (the camera's)
        self.ids = ids or TapIds()   # a read's id is never given twice, across restarts too (shooter.tap_ids)

    # ---- reads, on the loop ----
    def take(self, read: Read) -> None:
        """A card was put on the pile (posted to the loop by the frame pump or a test)."""
        self.counts["reads"] += 1
        if self.settings.report is Report.OFF:
            return
        head = self.waiting[0] if self.waiting else None
        if head is not None and self._asks(head) == ["colour"] and read.colour is not None:
            # the next card's colour is the colour the wild's player named (it had to be played on it):
            # the wild is reported first, then this card
            head.named, head.by = read.colour, "card"
        n = self.ids.give(READ)   # on disk before the `seen` event that shows it
        # the reader's own doubt (read.unsure) is asked even when its confidence clears the table's threshold
        sure = self.settings.report is Report.AUTO and not read.unsure and read.confidence >= self.settings.threshold
        self.waiting.append(Waiting(n, read, sure, read.card, read.colour))
        self._next()

    def typed(self, caller: Caller) -> None:
        """A console played a card (``play``, carried out): unless it was the camera, it reported the card
        waiting first; with none waiting, the card on top (the camera missed it, or has not read it yet), which
        the camera then no longer reads (:attr:`on_typed`)."""
        if caller is CAMERA:
            return
        if not self.waiting:
            if self.on_typed is not None:
                self.on_typed()
            return
        self._close(self.waiting.popleft(), SeenOutcome.TYPED)
        self._next()

    def new_game(self) -> None:
        """A game began (``game new``): the reads still waiting are of the last game's pile, no plays of this one."""
        while self.waiting:
            self._close(self.waiting.popleft(), SeenOutcome.NEW_GAME)

    def checkpoint(self) -> Callable[[], None]:
        """The reads waiting, the last card said and the counts as they are now; the function returned puts them
        back (the controller calls it when the line being carried out is refused: a refusal changes nothing, so
        a tap the rules refuse leaves its read unconfirmed, its card and colour as read, the last card unsaid)."""
        waiting = [(w, replace(w)) for w in self.waiting]
        last, counts = self.last, self.counts.copy()

        def restore() -> None:
            for w, was in waiting:   # in place: a read keeps its identity (a `seen` event asked for it)
                w.__dict__.update(was.__dict__)
            self.waiting = deque(w for w, _ in waiting)
            self.last, self.counts = last, counts
        return restore

    # ---- commands (on the loop, from a paired phone or a console of the table's own) ----
    def confirm(self, id: int, pick: int = 0, target: int | None = None, colour: str | None = None,
                last: bool = False) -> Reply:
        """``seen confirm id=N [pick=K] [target=T] [colour=C] [last]``: the card waiting is what it says."""
        w = self._waiting(id)
        if pick > len(w.read.alternatives):
            most = len(w.read.alternatives)
            raise BadArgument(f"pick= must be 0..{most}: read {id} has no alternative {pick}")
        w.card, w.colour = w.read.pick(pick)
        w.sure = True
        if target is not None:
            w.target = target
        if colour is not None:
            w.named, w.by = colour, "tap"
        if last:
            self.last = self._current()
        return self._tapped(w)

    def reject(self, id: int) -> Reply:
        """``seen reject id=N``: no card was played (a hand, a shadow, a card pushed straight)."""
        w = self._waiting(id)
        self.waiting.remove(w)
        self.counts["rejected"] += 1
        self._close(w, SeenOutcome.REJECTED)
        self._next()
        return {"id": id}

    def colour(self, colour: str, id: int | None = None) -> Reply:
        """``seen colour=C [id=N]``: the colour the wild's player named."""
        w = self._waiting(id) if id is not None else next(
            (w for w in self.waiting if "colour" in self._asks(w)), None)
        if w is None or "colour" not in self._asks(w):
            raise BadArgument("no wild waits for its colour" if w is None
                              else f"read {w.id} is no wild waiting for its colour")
        w.named, w.by = colour, "tap"
        return self._tapped(w)

    def last_card(self) -> Reply:
        """``seen last``: the current player's next card (or the one waiting) is their last."""
        seat = self._current()
        if seat is None:
            raise BadArgument("no seat is up: a last card is said in a round, by the player whose turn it is")
        self.last = seat
        if self.waiting and not self._asks(self.waiting[0]):
            self._next()
        return {"seat": seat}

    def status(self) -> dict[str, Any]:
        """``status``'s ``camera``, while the camera reports (``report`` not ``off``) or could not be opened."""
        if self.settings.report is Report.OFF and self.unavailable is None:
            return {}
        gone = {} if self.unavailable is None else {"unavailable": self.unavailable}
        return {"camera": {"report": str(self.settings.report), "threshold": self.settings.threshold,
                           "waiting": [self._seen(w) for w in self.waiting], "last": self.last,
                           "counts": dict(sorted(self.counts.items())), **gone}}

    # ---- the waiting reads ----
    def _waiting(self, id: int) -> Waiting:
        w = next((w for w in self.waiting if w.id == id), None)
        if w is None:
            known = ", ".join(str(w.id) for w in self.waiting) or "none"
            if self.ids.given(READ, id):   # shown once (this run or one before), reported since: a stale page's tap
                raise Gone(f"read {id} is gone: it was reported, or shown before a restart (waiting: {known})")
            raise BadArgument(f"no read {id} waits (waiting: {known})")
        if w is not self.waiting[0]:
            first = self.waiting[0].id
            raise BadArgument(f"read {id} waits behind read {first}: that card lies under it")
        return w

    def _tapped(self, w: Waiting) -> Reply:
        """A tap on the waiting read ``w``: played once it asks for nothing more, else asked for again with
        what is still missing; a read behind another (a wild's colour named ahead) waits its turn. A play the
        rules refuse is the tap's refusal, as it would be a typed play's: nothing changes (the controller puts
        the reads back, :meth:`checkpoint`) and the read still waits (pick another reading, or reject it)."""
        asks = self._asks(w)
        if asks or w is not self.waiting[0]:
            if asks:
                self._ask(w)
            return {"id": w.id, "asks": asks}
        fields = self._play_in_command(w)
        self._next()
        return {"id": w.id, **fields}

    def _next(self) -> None:
        """Report every read that asks for nothing more, in order; ask for the first that does."""
        while self.waiting:
            w = self.waiting[0]
            if self._asks(w):
                self._ask(w)
                return
            if self.events.holding:   # within a command (a tap, a typed play): its events are held
                try:
                    self._play_in_command(w)
                except CommandError as error:
                    self._refused(w, error)
            else:
                self._play_alone(w)

    def _play_in_command(self, w: Waiting) -> Reply:
        """Play ``w`` within the command being carried out: through the dispatcher, its events held with the
        command's; the ``camera`` event goes ahead of the play's events."""
        at = self.events.mark()
        line = self._line(w)
        fields = self._run_line(line, CAMERA)
        self.events.emit_at(at, EventName.CAMERA, **self._said(w, line, {"reply": "play", "ok": True, **fields}))
        self._played(w)
        return fields

    def _play_alone(self, w: Waiting) -> None:
        """Play ``w`` as the camera's own line, as a console sends one: its reply goes to every console (a
        ``camera`` event), then the events it caused."""
        line = self._line(w)

        def respond(answer: dict[str, Any]) -> None:
            self.events.emit_at(0, EventName.CAMERA, **self._said(w, line, answer))
            ok.append(answer["ok"])
        ok: list[bool] = []
        self._handle_line(line, respond, CAMERA)
        if ok == [True]:
            self._played(w)
        else:
            self.waiting.popleft()
            self.counts["refused"] += 1
            self._close(w, SeenOutcome.REFUSED)

    def _refused(self, w: Waiting, error: CommandError) -> None:
        """A read the rules refused within a command: announced like a refused line, then closed."""
        line = self._line(w)
        answer = {"reply": "play", "ok": False, "error": str(error.code), "message": error.message}
        self.events.emit(EventName.CAMERA, **self._said(w, line, answer))
        self.waiting.popleft()
        self.counts["refused"] += 1
        self._close(w, SeenOutcome.REFUSED)

    def _played(self, w: Waiting) -> None:
        self.waiting.popleft()
        self.counts["played"] += 1
        if self.last is not None and self.last != self._current():
            self.last = None   # said for the card just played: the turn has moved on
        self._close(w, SeenOutcome.PLAYED)

    def _line(self, w: Waiting) -> str:
        """The line a console would send for ``w``: ``play CARD seat=S [target=T] [last]``."""
        seat = self._current()
        words = ["play", w.card] + ([] if seat is None else [f"seat={seat}"])
        if w.target is not None:
            words.append(f"target={w.target}")
        if seat is not None and self.last == seat:
            words.append("last")
        return " ".join(words)

    @staticmethod
    def _said(w: Waiting, line: str, answer: dict[str, Any]) -> dict[str, Any]:
        """A ``camera`` event's fields: the read, the line sent, the table's answer (and a named colour)."""
        return {"id": w.id, "line": line, "reply": answer, **({"colour": w.named, "by": w.by} if w.named else {})}

    def _asks(self, w: Waiting) -> list[str]:
        """What ``w`` still needs before it can be played: the card confirmed, a target, a colour named."""
        asks = [] if w.sure else ["card"]
        row = self._row(w.card)
        if row is not None and row.effect in AIMED_EFFECTS and w.target is None:
            asks.append("target")
        if row is not None and row.wild and self._coloured() and w.named is None and w.colour is None:
            asks.append("colour")
        return asks

    def _ask(self, w: Waiting) -> None:
        """The phones asked (a ``seen`` event) for what ``w`` still needs; once, and again when that changed."""
        asks = self._asks(w)
        if w.asked == asks:
            return
        if w.asked is None:
            self.counts["asked"] += 1
        w.asked = asks
        self.events.emit(EventName.SEEN, **self._seen(w))

    def _seen(self, w: Waiting) -> dict[str, Any]:
        read = w.read
        return {"id": w.id, "seat": self._current() if w is self.waiting[0] else None, "card": w.card,
                "colour": w.colour, "side": read.side, "confidence": read.confidence,
                "alternatives": [{"card": c, "colour": col, "confidence": p} for c, col, p in read.alternatives[:2]],
                "asks": self._asks(w)}

    def _close(self, w: Waiting, outcome: SeenOutcome) -> None:
        if w.asked is not None:
            self.events.emit(EventName.SEEN_CLOSED, id=w.id, outcome=outcome)

    # ---- the table, as the rules see it ----
    def _current(self) -> int | None:
        game = self.table.status()
        return None if game is None else game.get("current")

    def _row(self, card: str) -> DeckCard | None:
        """The card's row in the game's deck (the side that is up), None for a number or a name the deck lacks
        (the rules refuse it when it is played)."""
        record, game = self.table.record, self.table.status()
        side = self.table.record.side(None if game is None else game.get("side"))
        name = card.lower()
        if record.drop_prefix and name.startswith(record.drop_prefix):
            name = name[len(record.drop_prefix):]
        if name.isdecimal() or name == NUMBER:
            return None
        return side.cards.get(name)

    def _coloured(self) -> bool:
        """The deck's side that is up has coloured cards: a wild's player names a colour (All Wild's: none)."""
        game = self.table.status()
        side = self.table.record.side(None if game is None else game.get("side"))
        return bool(side.digits) or any(not c.wild for c in side.cards.values())

