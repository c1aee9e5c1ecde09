"""The stdio console for a person at a terminal: readable replies, events as sentences, a prompt.

Only on a terminal (``--format auto`` and both ends a TTY, or ``--format human``); pipes stay
JSON. :class:`Renderer` turns replies and events into text in the locale's language (Dutch or
English, :mod:`shooter.i18n`); :func:`start` runs the interactive console: a banner, a prompt,
readline's line editing, history and completion of command words.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TextIO

from ..access import Caller, Link
from ..commands import COMMANDS
from ..controller import Controller
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
    """Text for one reply or event; None for what is not worth saying (a refused press said twice)."""

    def __init__(self, messages: Messages | None = None, stamp: Callable[[Output], str] = wall_clock):
        self._ = messages or Messages(language_from_env())
        self.stamp = stamp
        self._refused_reply: str | None = None   # the error of a refused press just answered
        self._summaries = {spec.usage: spec.summary for spec, _ in COMMANDS}

    def seat(self, seat: int | str | None) -> str:
        return self._("seat.lower", n=seat) if seat is not None else "-"

    def reason(self, reason: object) -> str:
        key = f"reason.{reason}"
        return self._(key) if self._.has(key) else str(reason)

    def __call__(self, obj: Output) -> str | None:
        if "event" in obj:
            return self.event(obj)
        return self.reply(obj)

    # ---- replies ----
    def reply(self, obj: Output) -> str:
        name = obj["reply"]
        self._refused_reply = obj["error"] if (name == "press" and not obj["ok"]) else None
        if not obj["ok"]:
            message = obj["message"] if self._.lang == "en" else self._(f"error.{obj['error']}")
            return f"{name}: {self._('term.error')} {obj['error']}: {message}"
        rest = {k: v for k, v in obj.items() if k not in ("reply", "ok")}
        if name == "status":
            return f"{name}: {self._('term.ok')}\n" + "\n".join("  " + line for line in self.status(obj))
        if name == "help":
            width = max(len(u) for u in rest["commands"])
            lines = [f"  {u.ljust(min(width, 40))}  {self._summaries.get(u, '')}" if len(u) <= 40 else
                     f"  {u}\n  {'':40}  {self._summaries.get(u, '')}" for u in rest["commands"]]
            return f"{name}: {self._('term.ok')}\n" + "\n".join(lines)
        if not rest:
            return f"{name}: {self._('term.ok')}"
        return f"{name}: {self._('term.ok')}\n" + "\n".join(f"  {k}: {_plain(v)}" for k, v in rest.items())

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
            owes = _sentence(_("st.owed", who=self.seat(owed["by"] if owed.get("by") else owed["seat"]),
                                presses=owed["presses"], reason=self.reason(owed["reason"]))) if owed \
                else _("st.nothing")
            lines.append(" ".join(turn + [aim, owes]))
            lines.append(_("st.totals", totals=", ".join(f"{self.seat(s)} {p}" for s, p in game["totals"].items())))
        if game is None and shooter["aim"] is not None:
            lines.append(_("st.aim", who=self.seat(shooter["aim"])))
        cards = _("cards.unknown") if shooter["cards"] is None else _("cards.left", n=shooter["cards"])
        lines.append(_("st.shooter", state=_(f"state.{shooter['state']}").lower(), cards=cards,
                       lid=_(f"lid.{shooter['lid']}")))
        return lines

    # ---- events ----
    def event(self, ev: Output) -> str | None:
        name = ev["event"]
        if name == "refused" and ev.get("source") == "console" and self._refused_reply == ev.get("error"):
            self._refused_reply = None  # this console was just told in the reply: say it once
            return None
        self._refused_reply = None
        text = self.sentence(ev)
        return f"[{self.stamp(ev)}] {text}"

    def sentence(self, ev: Output) -> str:
        _, name = self._, ev["event"]
        who = self.seat(ev.get("seat"))
        fields = {k: v for k, v in ev.items() if k not in ("event", "t")}
        if name == "turn":
            text = _("ev.turn", who=who, direction=_(f"dir.{ev['direction']}"))
        elif name == "owed":
            text = _("ev.owed", who=who, presses=ev["presses"], reason=self.reason(ev["reason"])) \
                if ev["presses"] else _("ev.owed_done", who=who)
        elif name == "shot":
            key = "ev.shot" if ev.get("ejected") is not None else "ev.shot_unknown"
            text = _(key, who=who, planned=ev["planned"], ejected=ev.get("ejected"), reason=self.reason(ev["reason"]))
            if ev.get("interrupted"):
                text += f" ({ev['interrupted']})"
        elif name == "lid":
            text = _(f"ev.lid_{ev['state']}")
        elif name in ("round-over", "game-over"):
            text = _(f"ev.{name}", who=self.seat(ev.get("winner")))
        elif name == "round-scored":
            text = _("ev.round-scored", who=self.seat(ev.get("winner")), points=ev.get("points"))
        elif name in ("aim", "jam", "empty", "cleared", "fault", "press", "refused", "save-failed",
                      "paired", "unpaired", "names"):
            values = {**fields, "who": who}
            if "reason" in values and name == "press":
                values["reason"] = self.reason(values["reason"])
            if name == "refused" and self._.lang != "en":
                values["message"] = _(f"error.{ev['error']}")
            text = _(f"ev.{name}", **values)
        else:  # an event this terminal has no sentence for: its fields as they are
            text = f"{name}: " + " ".join(f"{k}={_plain(v)}" for k, v in fields.items())
        return _sentence(text)


def _plain(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return "-" if value is None else str(value)


def encode_human(stamp: Callable[[Output], str] = wall_clock) -> Callable[[Output], bytes]:
    """An encoder for a console sink: the readable form, one renderer (and its memory) per console."""
    render = Renderer(stamp=stamp)

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

    sink = QueuedSink(write, name="terminal-writer", encode=encode_human())
    caller = Caller(Link.STDIO)   # the person at the table's own terminal
    post(lambda: controller.add_sink(sink))
    out.write(messages("term.banner", version=version) + "\n")
    out.flush()

    def read() -> None:
        while True:
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
    threading.Thread(target=read, name="terminal-console", daemon=True).start()

    def close() -> None:
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
