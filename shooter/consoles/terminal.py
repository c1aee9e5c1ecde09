"""The stdio console for a person at a terminal: readable replies, events as sentences, a prompt.

Only on a terminal (``--format auto`` and both ends a TTY, or ``--format human``); pipes stay
JSON. :class:`Renderer` turns replies and events into text in the locale's language (Dutch or
English, :mod:`shooter.i18n`); :func:`start` runs the interactive console: a banner, a prompt,
readline's line editing, history and completion of command words.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TextIO

from ..access import Caller, Link
from ..commands.table import COMMANDS
from ..controller import Controller
from ..editions import lookup
from ..i18n import Messages, language_from_env

HISTORY = Path.home() / ".uno_shooter_history"
PROMPT = "uno> "
Output = dict[str, Any]  # a reply or an event, as a console's sink gets it (JSON data, docs/protocol.md)


class LineEditor(Protocol):
    """What the console uses of readline (the module itself is one)."""

    def get_line_buffer(self) -> str: ...
    def append_history_file(self, nelements: int, filename: str | Path | None = ..., /) -> None: ...


def wall_clock(event: Output) -> str:
    return time.strftime("%H:%M:%S")


def virtual_clock(event: Output) -> str:
    return f"{event['t']:9.3f}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class Renderer:
    """Text for one reply or event; None for what is not worth saying (a refused press said twice).

    Seats are named as the table named them (``names``: learnt from the ``names`` event, a ``status`` reply and,
    at the terminal's start, the controller's names); counts say ``1 press`` and ``no cards``; an error's message
    keeps its detail in the catalogue's language (:meth:`shooter.i18n.Messages.detail`)."""

    def __init__(self, messages: Messages | None = None, stamp: Callable[[Output], str] = wall_clock):
        self._ = messages or Messages(language_from_env())
        self.stamp = stamp
        self.names: dict[int, str] = {}
        self._refused_reply: str | None = None   # the error of a refused press just answered
        self._shot_due = False          # a press was served: its shot event is still to come
        self._held: str | None = None   # the turn that press passed on, said after the presser's cards

    def learn_names(self, names: dict[str, str] | dict[int, str]) -> None:
        """The seats' names (``{"1": "Ann"}`` as the protocol writes them, or by int)."""
        self.names = {int(seat): str(name) for seat, name in names.items()}

    def box(self, variant: object) -> str:
        """How the terminal names a variant: its box's name in the terminal's language (the edition record's;
        ``attack`` is "Uno Attack"), or the word as sent for a variant this controller does not know."""
        try:
            names = lookup(str(variant)).names
        except KeyError:
            return str(variant)
        return (names.get(self._.lang) or names["en"])[""]

    def seat(self, seat: int | str | None) -> str:
        if seat is None:
            return "-"
        return self.names.get(int(seat)) or self._("seat.lower", n=seat)

    def reason(self, reason: object) -> str:
        key = f"reason.{reason}"
        return self._(key) if self._.has(key) else str(reason)

    def message(self, code: str, message: str) -> str:
        return self._.detail(code, message, seat=self.seat)

    def __call__(self, obj: dict[str, Any]) -> str | None:
        """The text of ``obj``. The controller announces what a press did to the table (the turn passing on) before
        the shot of that press ends: a reader would see the next player named before the presser's cards. So the
        turn waits for the very next line and follows the shot if that is the next line; anything else comes after
        it as it came (nothing is held longer than one line)."""
        held, self._held = self._held, None
        text = self.event(obj) if "event" in obj else self.reply(obj)
        if held is None:
            return text
        order = [text, held] if obj.get("event") == "shot" else [held, text]
        return "\n".join(line for line in order if line is not None)

    # ---- replies ----
    def reply(self, obj: Output) -> str:
        name = obj["reply"]
        self._refused_reply = obj["error"] if (name == "press" and not obj["ok"]) else None
        self._shot_due = self._shot_due or (name == "press" and obj["ok"])
        if not obj["ok"]:
            return f"{name}: {self._('term.error')} {obj['error']}: {self.message(obj['error'], obj['message'])}"
        rest = {k: v for k, v in obj.items() if k not in ("reply", "ok")}
        ok = f"{name}: {self._('term.ok')}"
        if name == "status":
            if isinstance(rest.get("names"), dict):
                self.learn_names(rest["names"])
            return ok + "\n" + "\n".join("  " + line for line in self.status(obj))
        if name == "help":
            return ok + "\n" + "\n".join(self.help(rest["commands"]))
        if not rest:
            return ok
        said = self.details(name, rest)
        if said is not None:
            return f"{ok}: {said}"
        return ok + "\n" + "\n".join(f"  {k}: {_plain(v)}" for k, v in rest.items())

    def help(self, usages: list[str]) -> list[str]:
        """One line per command: its usage (protocol words, as typed) and what it does, in the catalogue's
        language (``help.<words>``)."""
        summaries = {spec.usage: self._(f"help.{' '.join(spec.words)}") for spec, _ in COMMANDS}
        width = min(max(len(u) for u in usages), 40)
        return [f"  {u.ljust(width)}  {summaries.get(u, '')}" if len(u) <= 40 else
                f"  {u}\n  {'':40}  {summaries.get(u, '')}" for u in usages]

    def details(self, name: str, rest: dict[str, Any]) -> str | None:
        """A reply's fields as a sentence (``reply.<name>.<fields>``), None where there is none."""
        key = f"reply.{name}.{'+'.join(sorted(rest))}"
        if not self._.has(key):
            return None
        values = dict(rest)
        if "seat" in rest:
            values["who"] = self.seat(rest["seat"])
        if "reason" in rest:
            values["reason"] = self.reason(rest["reason"])
        for value in rest.values():
            if isinstance(value, bool) and self._.has(f"{key}_{str(value).lower()}"):
                return self._(f"{key}_{str(value).lower()}")
        count = rest.get("cards")
        return self._.count(key, count, **values) if isinstance(count, int) else self._(key, **values)

    def status(self, obj: Output) -> list[str]:
        """A few readable lines: whose turn, where the shooter points, what is owed, the shooter."""
        _, shooter, game = self._, obj["shooter"], obj["game"]
        lines = []
        if game is None:
            lines.append(_("st.no_game"))
        else:
            lines.append(_("st.round", round=game["round"], phase=_(f"phase.name.{game['phase']}")))
            turn = [_sentence(_("st.turn", who=self.seat(game["current"]), direction=_(f"dir.{game['direction']}")))
                    ] if game["current"] is not None else []
            aim = _("st.aim", who=self.seat(shooter["aim"])) if shooter["aim"] is not None else _("st.turning")
            owed = game["owed"]
            owes = _sentence(_.count("st.owed", owed["presses"], presses=owed["presses"],
                                     who=self.seat(owed["by"] if owed.get("by") else owed["seat"]),
                                     reason=self.reason(owed["reason"]))) if owed else _("st.nothing")
            lines.append(" ".join(turn + [aim, owes]))
            lines.append(_("st.totals", totals=", ".join(f"{self.seat(s)} {p}" for s, p in game["totals"].items())))
            if game.get("hands") is not None:   # the counting family's counts, Uno Attack's (AT-HANDS)
                lines.append(_("st.hands", hands=self.hand_counts(game["hands"])))
        if game is None and shooter["aim"] is not None:
            lines.append(_("st.aim", who=self.seat(shooter["aim"])))
        cards = _("cards.unknown") if shooter["cards"] is None else _.count("cards.left", shooter["cards"])
        lines.append(_("st.shooter", state=_(f"state.{shooter['state']}").lower(), cards=cards,
                       lid=_(f"lid.{shooter['lid']}")))
        return lines

    def hand_counts(self, hands: dict[str, int | None]) -> str:
        """``seat 1 7, seat 2 not known, ...``: a count the table does not know (AT-HANDS) said so."""
        return ", ".join(f"{self.seat(s)} {self._('seat.hand_unknown') if n is None else n}" for s, n in hands.items())

    # ---- events ----
    def event(self, ev: Output) -> str | None:
        name = ev["event"]
        if name == "refused" and ev.get("source") == "console" and self._refused_reply == ev.get("error"):
            self._refused_reply = None  # this console was just told in the reply: say it once
            return None
        self._refused_reply = None
        if name == "ready":   # the motor pulled back after a burst: a page redraws; a person heard it stop
            return None
        if name == "names" and isinstance(ev.get("names"), dict):
            self.learn_names(ev["names"])
        line = f"[{self.stamp(ev)}] {self.sentence(ev)}"
        if name == "press":
            self._shot_due = True
        elif name == "shot":
            self._shot_due = False
        elif name == "turn" and self._shot_due:
            self._held = line
            return None
        return line

    def sentence(self, ev: Output) -> str:
        _, name = self._, ev["event"]
        who = self.seat(ev.get("seat"))
        fields = {k: v for k, v in ev.items() if k not in ("event", "t")}
        reason = self.reason(ev.get("reason"))
        if name == "turn":
            text = _("ev.turn", who=who, direction=_(f"dir.{ev['direction']}"))
        elif name == "owed":
            if ev.get("cards"):   # the exact variants: a press shoots the entry's cards
                text = _.count("ev.owed_cards", ev["cards"], who=who, reason=reason)
            elif ev["presses"]:
                text = _.count("ev.owed", ev["presses"], who=who, presses=ev["presses"], reason=reason)
            else:
                text = _("ev.owed_done", who=who)
        elif name == "shot":
            text = self.shot(ev, who, reason)
        elif name == "lid":
            text = _(f"ev.lid_{ev['state']}")
        elif name in ("round-over", "game-over"):
            text = _(f"ev.{name}", who=self.seat(ev.get("winner")))
        elif name == "round-scored":
            text = _.count("ev.round-scored", ev.get("points") or 0, who=self.seat(ev.get("winner")),
                           points=ev.get("points"))
        elif name == "names":
            named = ", ".join(f"{self._('seat.lower', n=s)} {n}" for s, n in sorted(self.names.items()))
            text = _("ev.names_some", names=named) if named else _("ev.names")
        elif name == "game":
            text = _("ev.game", players=ev.get("players"), variant=self.box(ev.get("variant")),
                     dealer=self.seat(ev.get("dealer")))
        elif name == "deal":
            text = _("ev.deal", dealer=self.seat(ev.get("dealer")), n=ev.get("hand"))
        elif name == "hands":
            text = _("ev.hands", hands=self.hand_counts(ev.get("hands", {})))
        elif name == "side":
            side = f"side.name.{ev.get('side')}"
            text = _("ev.side", side=_(side) if _.has(side) else ev.get("side"))
        elif name == "unpaired" and ev.get("reason") == "evicted":
            text = _("ev.unpaired_evicted", id=ev.get("id"))
        elif name == "uncounted":
            text = _("ev.uncounted", n=ev.get("cards"), who=who, reason=reason,
                     message=self.message("bad-count", str(ev.get("message"))))
        elif name == "pairing-refused":
            text = _("ev.pairing-refused", n=ev.get("waiting"))
        elif name in ("storage", "save-failed", "refused"):
            message = str(ev.get("message"))
            text = _(f"ev.{name}", message=self.message(str(ev.get("error")), message) if name == "refused"
                     else message)
        elif name == "dropped":
            text = _("ev.dropped", n=ev.get("lines"))
        elif _.has(f"ev.{name}"):   # aim, jam, empty, cleared, fault, press, paired, unpaired, pair-waiting...
            text = _(f"ev.{name}", **{**fields, "who": who, "reason": reason})
        else:  # an event this terminal has no sentence for: its fields as they are
            text = f"{name}: " + " ".join(f"{k}={_plain(v)}" for k, v in fields.items())
        return _sentence(text)

    def shot(self, ev: dict[str, Any], who: str, reason: str) -> str:
        """A served press: what came out of what was planned (``got 3 cards``, ``got no cards``, ``got 2 of 4
        cards``), and what cut it short."""
        _, planned, ejected = self._, ev["planned"], ev.get("ejected")
        if ejected is None:
            text = _.count("ev.shot_unknown", planned, planned=planned, who=who, reason=reason)
        elif ejected == planned:
            text = _.count("ev.shot_all", planned, who=who, reason=reason)
        else:
            text = _.count("ev.shot", planned, planned=planned, ejected=ejected, who=who, reason=reason)
        if ev.get("interrupted"):
            why = f"why.{ev['interrupted']}"
            text += f" ({_('ev.cut_short', why=_(why) if _.has(why) else ev['interrupted'])})"
        return text


def _plain(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return "-" if value is None else str(value)


def encode_human(stamp: Callable[[dict[str, Any]], str] = wall_clock, render: Renderer | None = None
                 ) -> Callable[[dict[str, Any]], bytes]:
    """An encoder for a console sink: the readable form, one renderer (and its memory) per console."""
    render = render or Renderer(stamp=stamp)

    def encode(obj: Output) -> bytes:
        text = render(obj)
        return b"" if text is None else (text + "\n").encode("utf-8")
    return encode


# ---- the interactive console ----
def _readline() -> LineEditor | None:
    """readline with history and completion of command words, if this Python has it."""
    try:
        import readline
    except ImportError:  # pragma: no cover - e.g. a Python built without it
        return None
    try:
        HISTORY.touch(0o600, exist_ok=True)
        readline.read_history_file(HISTORY)
    except OSError:
        pass
    readline.set_history_length(1000)
    words = sorted({" ".join(spec.words) for spec, _ in COMMANDS})

    def complete(text: str, state: int) -> str | None:
        line = readline.get_line_buffer().lstrip().lower()
        matches = [w[len(line) - len(text):] for w in words if w.startswith(line)]
        return matches[state] if state < len(matches) else None
    readline.set_completer(complete)
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")
    return readline


def start(*, post: Callable[[Callable[[], None]], object], controller: Controller, version: str,
          on_end: Callable[[], None], out: TextIO | None = None,
          inp: Callable[[str], str] = input) -> Callable[[], None]:
    """The console for a person: banner, prompt, line editing; returns its closer.

    Lines go to the loop like any console's; output comes through a writer thread that
    keeps the prompt and what is being typed below the text it prints."""
    from .sinks import QueuedSink
    out = out or sys.stdout
    rl = _readline()
    messages = Messages(language_from_env())
    lock = threading.Lock()

    def write(data: bytes) -> None:
        if not data:
            return
        typed = rl.get_line_buffer() if rl else ""
        with lock:
            out.write("\r\x1b[K" + data.decode("utf-8") + PROMPT + typed)
            out.flush()

    render = Renderer(messages)
    sink = QueuedSink(write, name="terminal-writer", encode=encode_human(render=render))
    caller = Caller(Link.STDIO)   # the person at the table's own terminal

    def attach() -> None:   # on the loop: the names the seats have now (saved ones too), then every event
        render.learn_names(controller.web.names)
        controller.add_sink(sink)
    post(attach)
    out.write(messages("term.banner", version=version) + "\n")
    out.flush()

    closed = threading.Event()

    def read() -> None:
        while True:
            if closed.is_set():   # closing: readline must not take the terminal over again (raw mode)
                return
            try:
                line = inp(PROMPT)
            except EOFError:
                break
            if rl and line.strip():
                try:
                    rl.append_history_file(1, HISTORY)
                except OSError:
                    pass
            post(partial(controller.handle_line, line, sink, caller))
        out.write("\n")
        post(on_end)
    restore = _terminal_settings()  # before readline takes the terminal over
    # and once more as the program ends: a reader thread that began its readline after close() (a Ctrl-C typed
    # before readline first took the terminal, on a busy machine) would else leave the terminal in raw mode. Kept
    # past close() on purpose: that reader may still hold the terminal then (one handler a start; the tests start
    # many, a program one)
    atexit.register(restore)
    threading.Thread(target=read, name="terminal-console", daemon=True).start()

    def close() -> None:
        closed.set()
        sink.close(wait=5.0)
        restore()  # Ctrl-C or SIGTERM while readline holds the terminal in raw mode
    return close


def _terminal_settings() -> Callable[[], None]:
    """A function that puts the terminal's settings back as they are now (echo, line mode)."""
    try:
        import termios
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError):
        return lambda: None

    def restore() -> None:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except OSError:
            pass
    return restore


def is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
