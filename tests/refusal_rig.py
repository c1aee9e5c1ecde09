"""A controller on the simulator in virtual time, driven into reachable states, and a deep view of everything a
refused line must leave as it was (tests/test_refusals_change_nothing.py, the fault suite's refusals row).

The view: the table (its saved form, phase, options, rng), the shooter (the launcher's state, aim, count, queue,
the servo, the scheduler's pattern and rng), the owed queue (in the table's saved form), the pile's waiting reads
(every field of each, and the last card said), the camera's counts, the simulated world (magazine, pile, lid), the
pairing (requests, tokens, the next ids), the seat names, and the bytes of every file in the state directory.

The lines are built from the command table itself (:data:`shooter.commands.COMMANDS`): each command's words, its
options with values likely to be refused (and some that are fine), its positional card, its flags; so a command
added to the table is driven here without a word of this file changing.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

from shooter.access import IN_PROCESS, Caller, Link
from shooter.app import App
from shooter.commands import COMMANDS
from shooter.config import parse_config
from shooter.editions.records import COLOURS, Edition, records
from shooter.pile_reports import CAMERA, PileSettings, Report
from shooter.protocol import Spec
from shooter.reads import Read

# every edition of the registry: (variant, edition=) as `game new` takes them
SETUPS: tuple[Edition, ...] = tuple(records())

# values an option may be given, by its name: refused ones mostly (out of range, not a seat, gone ids), some fine
VALUES: dict[str, tuple[str, ...]] = {
    "seat": ("1", "2", "3", "4", "9", "0", "x"), "target": ("1", "2", "3", "7"), "id": ("1", "2", "3", "5", "99"),
    "request": ("1", "2", "7"), "pick": ("0", "1", "2", "5"), "cards": ("0", "1", "3", "30", "600", "5,skip"),
    "players": ("1", "2", "3", "4", "11"), "dealer": ("1", "3", "9", "random", "x"), "points": ("0", "10", "-1"),
    "hand": ("0", "3", "-2"), "current": ("1", "2", "9"), "direction": ("cw", "ccw", "up"),
    "side": ("light", "dark", "top"), "colour": ("red", "blue", "teal", "black"), "hold": ("0", "3", "99"),
    "seconds": ("0", "1", "-1"), "angle": ("0", "45", "400"), "result": ("guilty", "innocent", "maybe"),
    "first": ("5", "skip", "wild", "flip", "zz"), "edition": ("2016", "2010", "1999"),
    "variant": ("extreme", "classic", "all-wild", "flip", "poker"), "scoring": ("winner", "lowest", "elimination"),
    "limit": ("100", "500", "0"), "start": ("redraw", "apply", "never"), "name": ("Ann", "Bob\u202e"),
    "token": ("nope", "x" * 32), "seats": ("Ann,Bob", "-,Cy", ",,,,,,,,,,,,,,,,,,,,,,,"),
}


def cards_of(record: Edition) -> list[str]:
    """Every card name of the edition's record, and a few of no deck."""
    names = [*(str(d) for side in record.sides for d in side.digits), *record.cards()]
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

    def __init__(self, state_dir: Path, record: Edition, report: Report, seed: int) -> None:
        config = parse_config({})
        self.state_dir = state_dir
        self.record = record
        self.app = App(config, sim=True, virtual=True, seed=seed, state_dir=state_dir, log=lambda m: None)
        self.controller = c = self.app.controller
        c.pile.settings = PileSettings(report, 0.9)
        from shooter.persist import Store
        from shooter.web.pairing import TOKENS_FILE, Pairing
        c.web.open(Pairing(self.app.clock, Store(state_dir, name=TOKENS_FILE)))
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

    def start(self, rng: random.Random) -> None:
        """A game of the record's edition, dealt and begun (the exact variants' deal shot and counted)."""
        edition = f" edition={self.record.edition}" if self.record.edition else ""
        self.send(f"game new players={rng.randint(2, 4)} dealer=1 variant={self.record.variant}{edition}")
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
        assert world is not None and pairing is not None
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
            "pairing": json.dumps(pairing.status(), sort_keys=True), "tokens": repr(pairing._tokens),
            "names": dict(c.web.names), "status": json.dumps(c.cmd_status(), sort_keys=True, default=str),
            "files": files,
        }

    def settle(self) -> None:
        self.app.loop.run_until_quiet()

    def close(self) -> None:
        self.app.close()
