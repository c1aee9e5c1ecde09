"""A controller on the simulator in virtual time, driven into reachable states, and a deep view of everything a
refused line must leave as it was (tests/test_refusals_change_nothing.py, the fault suite's refusals row).

The view: the table (its saved form, phase, options, rng), the shooter (the launcher's state, aim, count, queue,
the servo, the scheduler's pattern and rng), the owed queue (in the table's saved form), the pile's waiting reads
(every field of each, and the last card said), the camera's counts, the simulated world (magazine, pile, lid), the
pairing (requests, tokens, the next ids), the seat names, and the bytes of every file in the state directory.

The lines are built from the command table itself (:data:`shooter.commands.table.COMMANDS`): each command's words, its
options with values likely to be refused (and some that are fine), its positional card, its flags; so a command
added to the table is driven here without a word of this file changing.

The sweep (:func:`sweep`, the fast test's and the fault suite's ``refused lines`` row): every command from every
source with no game, in play, and in each of :data:`SITUATIONS`, each line also broken by a line rule
(:func:`mangle`); a :class:`Tally` of what was given, per command and source, per code and message.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from shooter.access import IN_PROCESS, Caller, Link
from shooter.app import App
from shooter.camera.pile_reports import CAMERA, PileSettings, Report
from shooter.camera.reads import Read
from shooter.commands.table import COMMANDS
from shooter.config import parse_config
from shooter.editions.records import COLOURS, Edition, records
from shooter.i18n import detail_key
from shooter.protocol import MAX_LINE_BYTES, Spec

# every edition of the registry: (variant, edition=) as `game new` takes them
SETUPS: tuple[Edition, ...] = tuple(records())

# values an option may be given, by its name: refused ones mostly (out of range, not a seat, gone ids), some fine
VALUES: dict[str, tuple[str, ...]] = {
    "seat": ("1", "2", "3", "4", "9", "0", "x"), "target": ("1", "2", "3", "7"), "id": ("1", "2", "3", "5", "99"),
    "request": ("1", "2", "7"), "pick": ("0", "1", "2", "5"),
    "cards": ("0", "1", "3", "30", "600", "5,skip", "5,,skip", "9,9,9,9,9,9,9,9,9", "number", "zz",
              ",".join(["1"] * 120)),   # 120: more than any deck holds, short enough for a line
    "players": ("1", "2", "3", "4", "11"), "dealer": ("1", "3", "9", "random", "x"), "points": ("0", "10", "-1"),
    "hand": ("0", "3", "-2", "200"), "current": ("1", "2", "9"), "direction": ("cw", "ccw", "up"),
    "side": ("light", "dark", "top"), "colour": ("red", "blue", "teal", "black"), "hold": ("0", "3", "99", "x"),
    "seconds": ("0", "1", "-1", "x"), "angle": ("0", "45", "400", "left"),
    "result": ("upheld", "rejected", "guilty"),
    "first": ("5", "skip", "wild", "flip", "zz"), "edition": ("2016", "2010", "1998", "106", "1999"),
    "variant": ("extreme", "classic", "all-wild", "flip", "poker"), "scoring": ("winner", "lowest", "elimination"),
    "limit": ("100", "500", "0"), "start": ("redraw", "apply", "never"), "name": ("Ann", "Bob\u202e"),
    "token": ("nope", "x" * 32), "seats": ("Ann,Bob", "-,Cy", ",,,,,,,,,,,,,,,,,,,,,,,"),
}


def cards_of(record: Edition) -> list[str]:
    """Every card name of the edition's variant (every side, every edition: one edition lacks a card another
    has), and a few of no deck."""
    kin = [other for other in SETUPS if other.variant == record.variant]
    names = [*(str(d) for one in kin for side in one.sides for d in side.digits),
             *(n for one in kin for n in one.cards())]
    return sorted({n for n in names if n != "number"}) + ["zz", "hit9"]


def command_names() -> list[str]:
    return [" ".join(spec.words) for spec, _ in COMMANDS]


def line_for(spec: Spec, rng: random.Random, record: Edition) -> str:
    """A line of ``spec``'s command with random arguments (see :data:`VALUES`): usually the shape it takes,
    sometimes a required option left out, an unknown one added, or a flag twice."""
    words = list(spec.words)
    words += [rng.choice(cards_of(record)) for _ in range(spec.args)]
    keys = [k for k in spec.required if rng.random() < 0.9] + [k for k in spec.optional if rng.random() < 0.4]
    for key in keys:
        values = VALUES.get(key, ("1", "x"))
        words.append(f"{key}={rng.choice(values)}")
    if rng.random() < 0.05:
        words.append("bogus=1")
    words += [flag for flag in spec.flags if rng.random() < 0.3]
    return " ".join(words)


class Rig:
    """One controller on the simulator (virtual clock) with a state directory, a pairing open (no server), the
    camera's reports in ``report`` mode, a paired phone and a watching browser."""

    def __init__(self, state_dir: Path, record: Edition, report: Report, seed: int, *,
                 exit_sensor: bool = True, rules: dict[str, Any] | None = None) -> None:
        config = parse_config({"rules": rules or {}})   # the config's [rules]: every new game starts with them
        self.state_dir = state_dir
        self.record = record
        self.app = App(config, sim=True, virtual=True, seed=seed, state_dir=state_dir, log=lambda m: None,
                       exit_sensor=exit_sensor)
        self.controller = c = self.app.controller
        c.pile.settings = PileSettings(report, 0.9)
        from shooter.persist import Store
        from shooter.web.pairing import TOKENS_FILE, Pairing
        c.web.open(Pairing(self.app.clock, Store(state_dir, name=TOKENS_FILE), ids=self.app.ids))
        self.phone = Caller(Link.WEB, address="10.0.0.2", device="iPhone")
        self.watcher = Caller(Link.WEB, address="10.0.0.3", device="Android phone")
        self.app.loop.run_until_quiet()
        request = self.send("pair name=Ann", self.phone)["request"]
        self.send(f"pair approve request={request}")
        assert self.phone.token_id is not None
        self.callers = (IN_PROCESS, CAMERA, self.phone, self.watcher)

    def send(self, line: str, caller: Caller = IN_PROCESS) -> dict[str, Any]:
        """The reply to ``line`` (carried out on the loop), the loop then run until quiet."""
        replies: list[dict[str, Any]] = []
        self.app.loop.post(lambda: self.controller.handle_line(line, replies.append, caller))
        self.app.loop.run_until_quiet()
        return replies[0] if replies else {}

    def send_now(self, line: str, caller: Caller) -> dict[str, Any]:
        """The reply to ``line``, carried out on the loop with no time let pass after it (so that a view taken
        next is the line's doing only)."""
        replies: list[dict[str, Any]] = []
        self.app.loop.post(lambda: self.controller.handle_line(line, replies.append, caller))
        self.app.loop.run_pending()
        return replies[0] if replies else {}

    def see(self, read: Read) -> None:
        self.app.loop.post(lambda: self.controller.pile.take(read))
        self.app.loop.run_until_quiet()

    def random_read(self, rng: random.Random) -> Read:
        card = rng.choice(cards_of(self.record)[:-2])
        colours = [c for c in COLOURS if rng.random() < 0.3] or [None]
        alternatives = tuple((rng.choice(cards_of(self.record)), rng.choice([*colours, None]), 0.1)
                             for _ in range(rng.randint(0, 2)))
        return Read(card, rng.choice([*colours, None]), confidence=rng.choice([0.5, 0.95, 1.0]),
                    alternatives=alternatives, unsure=rng.random() < 0.2)

    def start(self, rng: random.Random, *, force: bool = False) -> None:
        """A game of the record's edition, dealt and begun (the exact variants' deal shot and counted); ``force``:
        in place of the game running."""
        edition = f" edition={self.record.edition}" if self.record.edition else ""
        self.send(f"game new players={rng.randint(2, 4)} dealer=1 variant={self.record.variant}{edition}"
                  + (" force" if force else ""))
        self.send("sim load cards=200")
        self.send("round start" if self.record.counting else f"round start first={rng.randint(1, 9)}")
        for _ in range(3):
            if (self.controller.table.status() or {}).get("phase") == "first":
                self.send(f"first {rng.randint(1, 9)}")

    def wander(self, rng: random.Random, steps: int) -> None:
        """``steps`` random steps of play: lines of the command table (mostly the game's), reads of the pile."""
        game = [spec for spec, _ in COMMANDS if spec.words[0] in
                ("play", "press", "draw", "pass", "uno", "catch", "undo", "seen", "penalty", "challenge",
                 "colour-found", "give", "hand", "score", "first")]
        for _ in range(steps):
            roll = rng.random()
            if roll < 0.3 and self.controller.pile.settings.report is not Report.OFF:
                self.see(self.random_read(rng))
            elif roll < 0.4:
                spec = rng.choice([spec for spec, _ in COMMANDS])
                self.send(line_for(spec, rng, self.record), rng.choice(self.callers))
            elif roll < 0.5:
                self.send("press")
            else:
                self.send(line_for(rng.choice(game), rng, self.record), rng.choice(self.callers))
            if self.app.world is not None and self.app.world.lid_open and rng.random() < 0.5:
                self.send("sim lid close")

    def view(self) -> dict[str, Any]:
        """Everything a refused line must leave as it was (see the module docstring), comparable with ==."""
        c, world = self.controller, self.app.world
        launcher, pile, pairing = c.launcher, c.pile, c.web.pairing
        assert world is not None
        files = {p.name: p.read_bytes() for p in sorted(self.state_dir.iterdir()) if p.is_file()}
        return {
            "table": c.table.to_dict(), "phase": c.table.phase, "options": asdict(c.table.options),
            "table rng": c.table.rng.getstate(), "record": c.table.record.key,
            "shooter": {"state": launcher.state, "protocol": launcher.protocol_state, "aim": launcher.aimed_seat,
                        "desired": launcher.desired_seat, "cards": launcher.cards,
                        "queue": [repr(shot) for shot in launcher.queue], "servo": c.hw.servo.angle},
            "scheduler": (c.scheduler._rng.getstate(), c.scheduler.blank_run, c.scheduler.shot_run),
            "reads": [repr(w) for w in pile.waiting], "last": pile.last, "counts": dict(pile.counts),
            "world": {"magazine": len(world.launcher.magazine), "pile": [repr(card) for card in world.pile],
                      "side": world.pile_side, "lid": world.lid_open},
            "pairing": None if pairing is None else json.dumps(pairing.status(), sort_keys=True),
            "tokens": None if pairing is None else repr(pairing._tokens),
            "ids": repr(c.ids._next), "names": dict(c.web.names),
            "status": json.dumps(c.cmd_status(), sort_keys=True, default=str),
            "files": files,
        }

    def settle(self) -> None:
        self.app.loop.run_until_quiet()

    def close(self) -> None:
        self.app.close()


# ---- the sweep: every command of the table, from every source, in many situations ------------------------------

def mangle(line: str, rng: random.Random) -> bytes:
    """``line`` broken by one of the protocol's line rules (docs/protocol.md, Input): a word no command has, the
    command's first word alone, too long, not UTF-8, a control character, an option twice or without a value, no
    command word."""
    first, *rest = line.split(" ")
    options = [w for w in rest if "=" in w] or ["x=1"]
    broken = rng.choice((
        f"no-such-{first} {' '.join(rest)}", first if len(line.split(" ")) > 1 else f"{first} extra",
        line + " " + "x" * (MAX_LINE_BYTES + 1), line + " \udcff", line + " \x07", f"{line} {options[0]} {options[0]}",
        f"{line} seat=", " ".join(options)))
    return broken.encode("utf-8", "surrogateescape")


def difference(before: Any, after: Any) -> str:
    """What changed, in a few words (the items of a list or a dict that differ)."""
    if isinstance(before, list) and isinstance(after, list):
        pairs = [(b, a) for b, a in zip(before, after, strict=False) if b != a]
        return repr(pairs or (before[len(after):], after[len(before):]))
    if isinstance(before, dict) and isinstance(after, dict):
        return repr({k: (before.get(k), after.get(k)) for k in {*before, *after} if before.get(k) != after.get(k)})
    return f"{before!r:.300} -> {after!r:.300}"


def probe(rig: Rig, line: str | bytes, caller: Caller, *, settle: bool = True) -> tuple[dict[str, Any], str | None]:
    """Send ``line`` from ``caller``: its reply, and what a refusal changed (None: nothing, or it was taken).
    ``settle`` False: no time lets pass before it (a shot under way stays under way)."""
    if settle:
        rig.settle()
    before = rig.view()
    replies: list[dict[str, Any]] = []
    rig.app.loop.post(lambda: rig.controller.handle_line(line, replies.append, caller))
    rig.app.loop.run_pending()
    reply = replies[0] if replies else {}
    problem = None
    if reply.get("ok") is False:
        after = rig.view()
        changed = sorted(k for k in before if before[k] != after[k])
        if changed:
            problem = (f"{line!r:.120} from {caller.link} refused ({reply['error']}: {reply['message']}) changed "
                       f"{changed}: {difference(before[changed[0]], after[changed[0]])}")
    if settle:
        rig.settle()
    return reply, problem


@dataclass
class Tally:
    """What a sweep sent and how the table answered: per command, per source, per error code and message."""

    sent: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    codes: dict[tuple[str, str], set[str]] = field(default_factory=dict)   # (command, source) -> codes given
    details: set[str] = field(default_factory=set)                           # the detail templates refused with
    messages: set[tuple[str, str]] = field(default_factory=set)   # (code, message) of every refusal given
    problems: list[str] = field(default_factory=list)                      # refusals that changed something
    internal: list[str] = field(default_factory=list)   # lines that hit a bug (a fail-safe stop, not a refusal)

    @property
    def refusals(self) -> int:
        return sum(self.refused.values())

    def merge(self, other: Tally) -> Tally:
        self.sent.update(other.sent)
        self.refused.update(other.refused)
        for key, codes in other.codes.items():
            self.codes.setdefault(key, set()).update(codes)
        self.details |= other.details
        self.messages |= other.messages
        self.problems += other.problems
        self.internal += other.internal
        return self

    def add(self, name: str, caller: Caller, reply: dict[str, Any], problem: str | None) -> None:
        self.sent[name] += 1
        if reply.get("error") == "internal":
            self.internal.append(f"{name} from {source(caller)}: {reply['message']}")
            return
        if reply.get("ok") is False:
            self.refused[name] += 1
            self.codes.setdefault((name, source(caller)), set()).add(reply["error"])
            key = detail_key(reply["message"])
            self.details.add(key[0] if key else reply["message"])
            self.messages.add((reply["error"], reply["message"]))
        if problem is not None:
            self.problems.append(problem)


def source(caller: Caller) -> str:
    """A caller as the sweep counts it: the table's console, the camera, a paired phone, a phone that watches."""
    if caller.own:
        return "camera" if caller is CAMERA else "console"
    return "phone" if caller.token_id is not None else "watcher"


def probe_all(rig: Rig, rng: random.Random, tally: Tally, callers: tuple[Caller, ...] | None = None, *,
              settle: bool = True) -> None:
    """Every command of the table once from each caller (and once broken by a line rule)."""
    for spec, _ in COMMANDS:
        name = " ".join(spec.words)
        for caller in callers or rig.callers:
            tally.add(name, caller, *probe(rig, line_for(spec, rng, rig.record), caller, settle=settle))
        caller = rng.choice(callers or rig.callers)
        tally.add(name, caller, *probe(rig, mangle(line_for(spec, rng, rig.record), rng), caller, settle=settle))


def _shot_under_way(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """A press of a new game that fires (the shooter already points at the seat): probed at once, while it
    fires."""
    if _nothing_owed(rig, rng) is None:
        return
    reply = rig.send_now("press", IN_PROCESS)
    if reply.get("ok") and rig.controller.launcher.state in ("firing", "retracting"):
        probe_all(rig, rng, tally, settle=False)
    rig.settle()


def _turning(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """The shooter turns to a seat (``aim``): every command probed while it turns."""
    rig.settle()
    players = int(_game(rig).get("players") or 2)
    seat = next(s for s in range(1, players + 1) if s != rig.controller.launcher.aimed_seat)
    if rig.send_now(f"aim seat={seat}", IN_PROCESS).get("ok") and rig.controller.launcher.state == "aiming":
        probe_all(rig, rng, tally, settle=False)
    rig.settle()


def _lid_open(rig: Rig, rng: random.Random, tally: Tally) -> None:
    rig.send("sim lid open")
    probe_all(rig, rng, tally)
    rig.send("sim lid close")


def _jammed(rig: Rig, rng: random.Random, tally: Tally) -> None:
    rig.send("sim jam")
    for _ in range(6):
        rig.send("press")
        if rig.controller.launcher.state == "jammed":
            probe_all(rig, rng, tally)
            break
    rig.send("sim lid open")
    rig.send("sim lid close")


def _empty(rig: Rig, rng: random.Random, tally: Tally) -> None:
    cards = rig.controller.launcher.cards
    rig.send("magazine cards=0")
    rig.send("press")
    probe_all(rig, rng, tally)
    rig.send("sim lid open")
    rig.send(f"magazine cards={cards or 200}")
    rig.send("sim lid close")


def _fault(rig: Rig, rng: random.Random, tally: Tally) -> None:
    rig.controller.launcher.fail("a fault of the sweep")   # as the motor's watchdog stops it
    rig.settle()
    probe_all(rig, rng, tally)
    rig.send("sim lid open")
    rig.send("sim lid close")


def _asked_too_often(rig: Rig, rng: random.Random, tally: Tally) -> None:
    asker = Caller(Link.WEB, address="10.0.0.66", device="Android phone")
    for _ in range(6):
        rig.send("pair", asker)
    probe_all(rig, rng, tally, (asker, rig.phone))


def _web_off(rig: Rig, rng: random.Random, tally: Tally) -> None:
    web = rig.controller.web
    pairing, web.pairing = web.pairing, None
    try:
        probe_all(rig, rng, tally, (IN_PROCESS, CAMERA))
    finally:
        web.pairing = pairing


def _round_over(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """The current player of a new game goes out: phase scoring (hands a deck cannot hold reported), then (every
    hand scored high) the game may be over."""
    game = _nothing_owed(rig, rng) or {}
    seat = game.get("current")
    if seat is None:
        return
    if rig.record.counting:
        rig.send(f"set seat={seat} hand=1")
    for card in ("5", "7", "wild", "reverse", "skip"):
        if rig.send(f"play {card} seat={seat} last").get("ok"):
            break
    # the hands a deck cannot hold first, while the round is surely being scored (probe_all's lines may take it on)
    digit = max(rig.record.side(game.get("side")).digits, default=9)   # more of it than the deck holds
    other = _other(game, int(seat))
    probe_lines(rig, tally, [f"hand seat={other} cards=number",
                             f"hand seat={other} cards={','.join([str(digit)] * 20)}",
                             f"hand seat={other} cards={','.join([str(digit)] * (rig.record.deck_size + 1))}"])
    probe_all(rig, rng, tally)
    for other in range(1, 11):
        rig.send(f"score seat={other} points=400")
    probe_all(rig, rng, tally)


def _too_many_cards(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """A hand corrected beyond the cards there are (a counting edition's count would break)."""
    for seat in (1, 2):
        for caller in rig.callers:
            tally.add("set", caller, *probe(rig, f"set seat={seat} hand=200", caller))


# ---- prepared states: where a refusal is given only in one state of the game, the lines that ask for it -------

def command_of(line: str) -> str:
    """The command of the table a line names (its longest run of leading words)."""
    words = line.split(" ")
    return max((" ".join(spec.words) for spec, _ in COMMANDS if list(spec.words) == words[:len(spec.words)]),
               key=len, default=words[0])


def probe_lines(rig: Rig, tally: Tally, lines: list[str], *, settle: bool = True) -> None:
    """Each line from every source (one the line's access turns away is refused for that)."""
    for line in lines:
        for caller in rig.callers:
            tally.add(command_of(line), caller, *probe(rig, line, caller, settle=settle))


def _game(rig: Rig) -> dict[str, Any]:
    return rig.controller.table.status() or {}


def _ready(rig: Rig) -> None:
    """The shooter ready: a jam, an empty magazine, a fault cleared as a person does (the lid opened, cards
    loaded, the lid closed)."""
    rig.settle()
    if rig.controller.launcher.state != "ready":
        rig.send("sim lid open")
        rig.send("magazine cards=200")
        rig.send("sim lid close")
        rig.settle()


def _nothing_owed(rig: Rig, rng: random.Random) -> dict[str, Any] | None:
    """A new game in play with nothing owed (presses served until none is), the shooter ready; None if that is
    not reached."""
    _ready(rig)
    rig.start(rng, force=True)
    for _ in range(16):   # a jam armed before may stop the deal: cleared, a press serves the rest (D-*)
        rig.settle()
        game = _game(rig)
        if game.get("phase") == "play" and not game.get("owed") and rig.controller.launcher.state == "ready":
            return game
        _ready(rig)
        if game.get("owed"):
            rig.send("press")
        elif game.get("phase") == "first":
            rig.send(f"first {rng.randint(1, 9)}")
        elif game.get("phase") != "play":
            return None
    return None


def _other(game: dict[str, Any], seat: int) -> int:
    return next(s for s in range(1, int(game["players"]) + 1) if s != seat and s not in game.get("out", []))


def _up_cards(rig: Rig, effect: str) -> list[str]:
    """The cards of the side up with ``effect`` (its wire value)."""
    side = rig.record.side(_game(rig).get("side"))
    return [name for name, card in side.cards.items() if card.effect.value == effect and card.count != 0]


def _no_game_lines(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """Before any game: a table too small for the configured dealer (:data:`RULES`), an edition of another
    variant, a counting variant (refused on the shooter without the exit sensor)."""
    scored = [f"game new players=3 dealer=1 variant={r.variant} scoring={way} force" for r in SETUPS
              for way in ("winner", "lowest", "elimination") if way not in r.scorings]
    sensor = [] if rig.controller.desk.counting else [
        f"game new players=3 dealer=1 variant={r.variant} force" for r in SETUPS if r.counting]
    probe_lines(rig, tally, ["game new players=3 force", "game new players=3 dealer=1 variant=extreme edition=1998 "
                             "force", *scored[:1], *sensor])


def _read_waiting(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """A read of the pile waits with one alternative (ask and report modes): an alternative it does not have, a
    colour for a card that is not wild."""
    if rig.controller.pile.settings.report is Report.OFF:
        return
    rig.see(Read("5", "red", alternatives=(("skip", "red", 0.2),)))
    if not rig.controller.pile.waiting:
        return
    read = rig.controller.pile.waiting[-1].id
    probe_lines(rig, tally, [f"seen confirm id={read} pick=2", f"seen red id={read}", f"seen reject id={read + 50}"])


def _first_card_due(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """A counting edition that turns up its first card, dealt: phase first, nothing due (D-FIRST)."""
    record = rig.record
    if not record.counting:
        return
    _ready(rig)
    rig.send(f"game new players=3 dealer=1 variant={record.variant} force")
    probe_lines(rig, tally, ["round start first=5"])   # phase deal: the first card is reported once it is shot
    rig.send("sim load cards=200")
    rig.send("round start")
    for _ in range(6):   # the deal served (a jam armed before stops it: cleared, a press serves the rest)
        rig.settle()
        if not _game(rig).get("owed"):
            break
        _ready(rig)
        rig.send("press")
    if _game(rig).get("phase") != "first" or _game(rig).get("owed"):
        return
    probe_all(rig, rng, tally)
    probe_lines(rig, tally, ["press", "draw", "pass", "colour-found", "challenge seat=2 result=upheld"])
    for _ in range(3):
        if _game(rig).get("phase") == "first":
            rig.send(f"first {rng.randint(1, 9)}")


def _challenge_waits(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """A wild draw card waits to be challenged (CL-CHAL, FL-CHAL); then one played as the last card."""
    game = _nothing_owed(rig, rng)
    wild_draws = _up_cards(rig, "wild-draw")
    if game is None or not rig.record.challenges or not wild_draws:
        return
    seat, card = int(game["current"]), wild_draws[0]
    if not rig.send(f"play {card} seat={seat}").get("ok"):
        return
    victim = int(_game(rig)["owed"]["seat"])
    probe_lines(rig, tally, [f"challenge seat={seat} result=upheld", f"challenge seat={victim} result=maybe",
                             "colour-found", f"play 5 seat={victim}", "pass", "draw"])
    rig.send("undo")
    rig.send(f"set seat={seat} hand=1")
    if rig.send(f"play {card} seat={seat} last").get("ok"):
        probe_lines(rig, tally, [f"challenge seat={victim} result=upheld"])
        rig.send("undo")
    rig.send("undo")


def _colour_search(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """Flip's dark side: a Wild Draw Colour is drawn for until the colour comes (FL-*): before its first card,
    while a card of it is shot, between its cards."""
    game = _nothing_owed(rig, rng)
    if game is None or len(rig.record.sides) < 2:
        return
    dark = [name for name in rig.record.side("dark").cards if name not in rig.record.side("light").cards]
    probe_lines(rig, tally, [f"play {dark[0]} seat={game['current']}", f"first {dark[0]}"])   # the light side up
    rig.send("set side=dark")
    searching = _up_cards(rig, "wild-draw")
    seat = int(game["current"])
    if not searching or not rig.send(f"play {searching[-1]} seat={seat}").get("ok"):
        return
    victim = int(_game(rig)["owed"]["seat"])
    light = [name for name in rig.record.side("light").cards if name not in rig.record.side("dark").cards]
    probe_lines(rig, tally, [f"colour-found seat={seat}", "colour-found", f"play {light[0]} seat={victim}"])
    for _ in range(2):   # the draw's first card, then its second: each probed while it is shot
        if rig.send_now("press", IN_PROCESS).get("ok") and rig.controller.table.shot is not None:
            probe_lines(rig, tally, ["colour-found", f"colour-found seat={seat}"], settle=False)
        rig.settle()
    probe_lines(rig, tally, [f"colour-found seat={seat}", f"challenge seat={victim} result=upheld"])
    rig.send("colour-found")
    rig.send("set side=light")


def _hands_counted(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """A counting edition in play: a last card from a hand of more, a play from an empty hand, a target where
    none goes (D-*)."""
    game = _nothing_owed(rig, rng)
    if game is None or not rig.record.counting:
        return
    seat = int(game["current"])
    plain = _up_cards(rig, "plain")
    card = "5" if rig.record.side(game.get("side")).digits else plain[0]
    probe_lines(rig, tally, [f"play {card} seat={seat} last", f"play {card} seat={seat} target={_other(game, seat)}",
                             f"play {card} seat={_other(game, seat)}"])
    if rig.send(f"set seat={seat} hand=0").get("ok"):
        probe_lines(rig, tally, [f"play {card} seat={seat}", f"play {card} seat={seat} last"])
        rig.send("undo")
    if rig.send(f"set seat={seat} hand=2").get("ok") and rig.send(f"uno seat={seat}").get("ok") and rig.send(
            f"play {card} seat={seat}").get("ok"):   # Uno called ahead, the card played: it cannot be caught
        probe_lines(rig, tally, [f"catch seat={seat}", f"uno seat={seat}"])
        for _ in range(3):
            rig.send("undo")
    other = _other(game, seat)   # one card left, its Uno window long closed
    if rig.send(f"set seat={other} hand=1").get("ok"):
        probe_lines(rig, tally, [f"uno seat={other}", f"catch seat={other}"])
        rig.send("undo")


def _extreme_play(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """The Extreme family in play: a card another edition of the variant has, the aimed cards (Attack's Trade
    Hands) at the player itself and as the last card with the rule option last_trade_hands refused
    (:data:`RULES`), a card while presses are owed."""
    game = _nothing_owed(rig, rng)
    if game is None or rig.record.counting:
        return
    seat = int(game["current"])
    kin = {name for other in SETUPS if other.variant == rig.record.variant for name in other.cards()}
    lacking = sorted(name for name in kin if not (rig.record.side().cards.get(name) or None)
                     or not rig.record.side().cards[name].count)
    probe_lines(rig, tally, [f"play {card}" for card in lacking[:2]] + ["sim pile 12"])
    for card in _up_cards(rig, "swap") + _up_cards(rig, "targeted-draw"):
        probe_lines(rig, tally, [f"play {card} seat={seat} target={seat}", f"play {card} seat={seat}",
                                 f"play {card} seat={seat} target={_other(game, seat)} last"])
    if rig.record.hand_counts:   # AT-HANDS: a Discard All of more cards than the hand holds besides
        rig.send(f"set seat={seat} hand=3")
        probe_lines(rig, tally, [f"play {card} seat={seat} discarded=5" for card in _up_cards(rig, "discard-all")])
    if rig.send(f"play hit2 seat={seat}").get("ok"):   # the next seat owes its presses
        probe_lines(rig, tally, ["play 5", f"uno seat={seat}"])


def _seat_out(rig: Rig, rng: random.Random, tally: Tally) -> None:
    """Elimination (the Extreme family): a seat is out of the game, and named."""
    record = rig.record
    if "elimination" not in record.scorings:
        return
    _ready(rig)
    edition = f" edition={record.edition}" if record.edition else ""
    rig.send(f"game new players=3 dealer=1 variant={record.variant}{edition} scoring=elimination limit=100 force")
    rig.send("round start first=5")
    seat = _game(rig).get("current")
    rig.send(f"play 5 seat={seat} last")
    for other in (1, 2, 3):
        if other != seat:
            rig.send(f"score seat={other} points={150 if other == _other(_game(rig), int(seat or 1)) else 0}")
    rig.send("round start first=5")
    out = _game(rig).get("out") or []
    if not out:
        return
    lines = [f"{name} seat={out[0]}" for name in ("uno", "catch", "penalty advice", "penalty wrong-card")]
    probe_lines(rig, tally, [*lines, f"play 5 seat={out[0]}", f"play hit2 target={out[0]}"])


SITUATIONS = (_too_many_cards, _shot_under_way, _turning, _lid_open, _jammed, _empty, _fault, _asked_too_often,
              _web_off, _challenge_waits, _colour_search, _hands_counted, _extreme_play, _read_waiting, _first_card_due,
              _round_over, _seat_out)

# the config's [rules] of the sweep: a default dealer no small table has (`game new` without dealer= is refused
# there), and the sheet that refuses going out with Trade Hands (AT-TRADE)
RULES: dict[str, Any] = {"default_dealer": 9, "last_trade_hands": "refused"}


def sweep(state_dir: Path, seed: int, wanders: int = 2, steps: int = 12) -> Tally:
    """Every edition of the registry in every report mode: the commands probed with no game, then in play (wandered
    through at random, reads waiting), then in each of :data:`SITUATIONS`; and once on a shooter without the exit
    sensor. Every refusal must change nothing (``problems``)."""
    tally = Tally()
    runs = [(setup, report, True) for setup in SETUPS for report in Report] + [(SETUPS[-1], Report.OFF, False)]
    for n, (setup, report, sensor) in enumerate(runs):
        rng = random.Random(f"{seed}-{n}")
        rig = Rig(state_dir / f"state-{seed}-{n}", setup, report, seed * 100 + n, exit_sensor=sensor, rules=RULES)
        try:
            probe_all(rig, rng, tally)   # no game yet
            _no_game_lines(rig, rng, tally)
            rig.start(rng)
            for _ in range(wanders):
                rig.wander(rng, steps)
                if report is not Report.OFF:
                    rig.see(rig.random_read(rng))
                probe_all(rig, rng, tally)
            for situation in SITUATIONS:
                situation(rig, rng, tally)
                rig.settle()
        finally:
            rig.close()
    return tally
