"""The controller: one object on the control loop that ties the table's rules,
the shooter's state machine and the consoles together.

Every console line ends up in :meth:`Controller.handle_line`, which answers with
exactly one reply and then the events the command caused (in that order). Events
that happen later (a burst ending, the lid opening) go to every console at once.
"""

from __future__ import annotations

import traceback
from typing import Callable

from hal import HardwareParts

from . import __version__, beeps
from .commands import COMMANDS, lookup
from .errors import CommandError
from .launcher import Launcher, LauncherSettings, Shot
from .loop import ControlLoop
from .protocol import PROTOCOL_VERSION, error_reply, parse, reply, reply_name, whole_number
from .scheduler import Scheduler
from .table import Table

Sink = Callable[[dict], None]


def _reply_name(raw: bytes | str) -> str:
    """The reply's name for a line that could not be carried out (it may not even parse)."""
    return reply_name(raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw) or ""


def spread_angles(players: int, lo: float, hi: float) -> list[float]:
    """Seat angles for ``players`` seats spread evenly from ``lo`` to ``hi`` (seat 1 at ``lo``)."""
    if players == 1:
        return [0.0]
    step = (hi - lo) / (players - 1)
    return [round(lo + i * step, 3) for i in range(players)]


class Controller:
    """All state of a running shooter, served on the one loop."""

    def __init__(self, *, loop: ControlLoop, hw: HardwareParts, table: Table, scheduler: Scheduler,
                 launcher_settings: LauncherSettings = LauncherSettings(),
                 seat_angles: Callable[[int], list[float]] | None = None, default_seats: int = 4,
                 world=None, cards: int | None = None, store=None, storage: dict | None = None,
                 rules=None):
        self.loop = loop
        self.clock = loop.clock
        self.hw = hw
        self.table = table
        self.scheduler = scheduler
        self.world = world
        self.store = store
        self.storage = storage      # {"mode": "memory", "path", "message"} when the game cannot be saved
        self.rules = rules          # the config's [rules]: every new game starts with them
        self.default_seats = default_seats
        s = hw.settings.servo
        self._seat_angles = seat_angles or (lambda n: spread_angles(n, s.min_angle, s.max_angle))
        self._sinks: list[Sink] = []
        self._held: list[dict] | None = None   # events held back until the reply is out
        # the table as last written (see _save): as restored, or none (same as no file) at first
        self._saved: dict | None = table.to_dict() if store is not None else None
        self.launcher = Launcher(hw, self.clock, launcher_settings, angle_of=self.angle_of,
                                 on_shot=self._shot_done, emit=self.emit, cards=cards,
                                 seats=lambda: self.seats)
        self.launcher.on_lid_cycled = self.scheduler.restart  # H-RANDOM: the pattern restarts
        hw.button.on_press = self.button_pressed
        self.pairing = None   # a web.pairing.Pairing while the web console runs
        self.names: dict[int, str] = {}
        loop.on_error = self.fail_safe

    # ---- start and stop ----
    def start(self) -> None:
        """Motor off, machine out of booting, shooter pointed where the rules say."""
        self.hw.safe_stop()
        self.scheduler.restart()
        self.launcher.start()
        self._aim_by_rules()

    def fail_safe(self, exc: BaseException) -> None:
        """An exception reached the loop: stop the motor first (Launcher.fail), then say why."""
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        self.launcher.fail(f"internal-error: {detail}")

    # ---- output ----
    def add_sink(self, sink: Sink) -> None:
        self._sinks.append(sink)
        if self.storage is not None:  # each console learns at once that nothing is being saved
            sink({"event": "storage", "t": round(self.clock.now(), 6), **self.storage})

    def remove_sink(self, sink: Sink) -> None:
        if sink in self._sinks:
            self._sinks.remove(sink)

    def emit(self, name: str, **fields) -> None:
        """An event to every console (held back while a command's reply is pending)."""
        event = {"event": name, "t": round(self.clock.now(), 6), **fields}
        if self._held is not None:
            self._held.append(event)
        else:
            self._broadcast(event)

    def _broadcast(self, event: dict) -> None:
        for sink in list(self._sinks):
            sink(event)

    # ---- commands ----
    def handle_line(self, raw: bytes | str, respond: Sink) -> None:
        """Carry out one console line; ``respond`` gets the one reply."""
        self._held = []
        try:
            try:
                line = parse(raw)
                if line is None:
                    return
                name = line.name
                spec, handler = lookup(line)
                args, options, flags = spec.bind(line)
                fields = getattr(self, handler)(*args, **options, **{f: True for f in flags}) or {}
                answer = reply(name, **fields)
            except CommandError as error:
                answer = error_reply(_reply_name(raw), error)
            except Exception as exc:  # a bug: fail safe, then answer
                self.fail_safe(exc)
                answer = error_reply(_reply_name(raw), CommandError("internal", f"internal error: {exc}"))
            respond(answer)
        finally:
            held, self._held = self._held, None
            for event in held:
                self._broadcast(event)

    def _after_game_change(self, events: list[dict], shot: Shot | None = None) -> None:
        """Announce what the table did, queue the shot (if a press), save the game, then point where
        S-AIM says."""
        for event in events:
            event = dict(event)
            self.emit(event.pop("event"), **event)
        if shot is not None:
            self.launcher.enqueue(shot)  # before re-aiming: the presser's cards first
        self._save()
        self._aim_by_rules()

    def _save(self) -> None:
        """Write the game if it changed since the last successful write (a press with no game writes
        nothing); a failure (full disk, read-only card) is announced, the game goes on: the command
        has been carried out and must not be reported as rejected. The comparison is cheap whatever
        the undo depth: the undo snapshots are the same objects as last time, compared by identity."""
        if self.store is None:
            return
        state = self.table.to_dict()
        if state == self._saved:
            return
        try:
            self.store.save(state)
        except OSError as exc:
            self.emit("save-failed", path=str(self.store.path), message=str(exc))
            return
        self._saved = state

    def _aim_by_rules(self) -> None:
        """S-AIM: point where the table says (nothing to do without a game)."""
        self.launcher.point_at(self.table.aim_seat)  # None (no round): no seat to turn to

    @property
    def seats(self) -> int:
        """Seats at the table now (asked on every aim and shot: read, not a whole status built)."""
        game = self.table.game
        return game.players if game is not None else self.default_seats

    def angle_of(self, seat: int) -> float:
        return self._seat_angles(self.seats)[seat - 1]

    def cmd_help(self):
        return {"commands": [spec.usage for spec, _ in COMMANDS]}

    def cmd_version(self):
        return {"version": __version__, "protocol": PROTOCOL_VERSION}

    def cmd_status(self):
        servo_angle = self.hw.servo.angle
        return {
            "shooter": {
                "state": self.launcher.protocol_state,
                "aim": self.launcher.aimed_seat,
                "angle": None if servo_angle is None else round(servo_angle, 3),
                "lid": "open" if self.hw.lid.is_open else "closed",
                "cards": self.launcher.cards,
                "queue": len(self.launcher.queue),
                "exit_sensor": self.hw.exit_sensor is not None,
                "profile": self.scheduler.profile.name,
            },
            "game": self.table.status(),
            **self._bringup_status(),
            **self._web_status(),
            **({"storage": self.storage} if self.storage is not None else {}),
        }

    def _game(self, method: str, *args, **kwargs):
        events = getattr(self.table, method)(*args, **kwargs)
        self._after_game_change(events)

    def cmd_game_new(self, players, dealer=None, force=False, **options):
        if dealer is not None and dealer != "random":
            try:
                dealer = whole_number(dealer)
            except ValueError:
                raise CommandError("bad-argument", f"dealer= must be a seat or random, got {dealer!r}") from None
        game = self.table.status()
        if game is not None and game["phase"] != "over" and not force:
            totals = ", ".join(f"{seat}: {points}" for seat, points in game["totals"].items())
            raise CommandError("wrong-phase", f"a game is running (round {game['round']}, totals {totals}); "
                                              "`game new ... force` ends it and starts a new one")
        # every new game starts with the config's [rules]; a resumed game kept its own
        kept = self.table.options
        if self.rules is not None:
            self.table.options = self.rules
        try:
            self._game("new_game", players, dealer=dealer, counting=self.hw.exit_sensor is not None, **options)
        except BaseException:
            self.table.options = kept
            raise

    def cmd_round_start(self, first=None, dealer=None, cards=None):
        self._game("start_round", first, dealer=dealer, cards=cards)
        game = self.table.game
        if game is not None and game.exact:
            # D-DEAL: the shuffled deck is loaded: the shooter counts down from it
            if self.world is not None and len(self.world.launcher.magazine) != game.deck:
                # the simulator's magazine holds the declared deck (bots load their own real cards)
                self.world.launcher.unload()
                self.world.launcher.take_out()
                self.world.load(game.deck)
            self.launcher.set_count(game.deck)
            self._serve_dealt()

    # ---- the exact variants (classic, all-wild, flip): the shooter as a counting dealer ----
    def cmd_first(self, card):
        self._game("first_card", card)
        self._serve_dealt()

    def cmd_draw(self, seat=None):
        return self._exact_press("console", lambda: self.table.draw(seat))

    def cmd_pass(self, seat=None):
        self._game("pass_turn", seat)

    def cmd_challenge(self, seat, result):
        self._game("challenge", seat, result)

    def cmd_colour_found(self, seat=None):
        self._game("colour_found", seat)

    def cmd_give(self, seat, cards):
        self._game("give", seat, cards)

    def _exact_shot(self) -> Shot | None:
        due = self.table.due()
        if due is None:
            return None
        seat, reason, cards = due
        return Shot(seat=seat, reason=reason, planned=self.scheduler.exact(cards))

    def _serve_dealt(self) -> None:
        """Shoot the dealer's own entries (the deal, the first card) without a press."""
        if self.table.dealt_next() and not self.launcher.queue and self.launcher.current is None:
            self.launcher.enqueue(self._exact_shot())

    def _exact_press(self, source: str, serve: Callable[[], list[dict]]) -> dict:
        """A press (or `draw`) in an exact variant: the head of the owed queue in full, or the draw."""
        refusal = self.launcher.refusal(owed=True)
        if refusal is None and (self.launcher.queue or self.launcher.current is not None):
            refusal = ("busy", "the shooter is still serving the last shot; press when it is done")
        try:
            if refusal is not None:
                raise CommandError(*refusal)
            events = serve()
        except CommandError as error:
            self.hw.beeper.play(beeps.PRESS_REFUSED)
            self.emit("refused", source=source, error=error.code, message=error.message)
            raise
        shot = self._exact_shot()
        self.hw.beeper.play(beeps.PRESS_ACCEPTED)
        if source == "button":
            self.emit("press", source=source, seat=shot.seat, reason=shot.reason)
        self._after_game_change(events, shot)
        return {"seat": shot.seat, "reason": shot.reason, "cards": self.table.due()[2]}

    def _count_exact_shot(self, shot: Shot) -> None:
        """The exit sensor counted a shot: the table credits it; an uninterrupted shot of a long
        entry goes on with the next burst, the deal with the next seat."""
        head = self.table.game.head
        self._after_game_change(self.table.count_shot(shot.planned, shot.ejected))
        head_now = self.table.game.head if self.table.game is not None else None
        if shot.interrupted or self.launcher.queue or self.launcher.current is not None:
            return
        if self.table.dealt_next():
            self._serve_dealt()
        elif head_now is not None and head_now is head and head.cards and head.served:
            self.launcher.enqueue(self._exact_shot())  # the rest of a long draw: the next burst

    def cmd_play(self, card, seat=None, target=None, last=False):
        self._game("play", card, seat=seat, target=target, last=last)

    def cmd_uno(self, seat):
        self._game("uno", seat)

    def cmd_catch(self, seat):
        self._game("catch", seat)

    def cmd_penalty_advice(self, seat):
        self._game("penalty", "advice", seat)

    def cmd_penalty_wrong(self, seat):
        self._game("penalty", "wrong-card", seat)

    def cmd_hand(self, seat, cards):
        self._game("hand", seat, cards)

    def cmd_score(self, seat, points):
        self._game("score", seat, points)

    def cmd_undo(self):
        self._game("undo")

    def cmd_set(self, current=None, direction=None, side=None, seat=None, hand=None):
        self._game("set", current=current, direction=direction, side=side, seat=seat, hand=hand)

    def cmd_aim(self, seat=None, angle=None):
        if (seat is None) == (angle is None):
            raise CommandError("bad-argument", "usage: aim seat=S | aim angle=A (one of the two)")
        if angle is not None:
            return self._aim_angle(angle)
        if seat > self.seats:
            raise CommandError("bad-argument", f"seat= must be 1..{self.seats}, got {seat}")
        if not self.launcher.rules.aim:
            raise CommandError("busy", "the shooter is firing; aim when it is done")
        self.launcher.point_at(seat)
        return {"seat": seat, "angle": self.angle_of(seat)}

    # ---- bring-up: raw angles, calibration, what runs the hardware ----
    calibration = None      # shooter.calibration.Calibration, set by the App
    config = None           # the config as the file gave it (before the calibration)
    hardware_info: dict = {}   # pin factory and servo backend in use, set by the App

    def _bringup_status(self) -> dict:
        status = {}
        if self.hardware_info:
            status["hardware"] = dict(self.hardware_info)
        if self.calibration is not None and self.config is not None:
            status["sources"] = self.calibration.sources(self.config, self.seats)
        return status

    def _aim_angle(self, angle: float) -> dict:
        s = self.hw.settings.servo
        if not s.min_angle <= angle <= s.max_angle:
            raise CommandError("bad-argument", f"angle= must be between {s.min_angle:g} and {s.max_angle:g}, "
                                               f"got {angle:g}")
        if self.launcher.state not in ("ready", "lid_open", "jammed", "empty"):
            raise CommandError("busy", "the shooter is turning or firing; aim when it is done")
        self.launcher.aimed_seat = None  # at no seat now: the next shot turns first
        seconds = self.hw.servo.move_to(angle)
        return {"angle": angle, "seconds": round(seconds, 3)}

    def cmd_calibrate_seat(self, seat):
        if seat > self.seats:
            raise CommandError("bad-argument", f"seat= must be 1..{self.seats}, got {seat}")
        angle = self.hw.servo.angle
        if angle is None or self.calibration is None:
            raise CommandError("bad-argument", "the servo has not been moved yet: aim angle=A first")
        self.calibration.store_seat(self.seats, seat, angle, self._seat_angles(self.seats))
        self.launcher.aimed_seat = None
        try:
            path = self.calibration.save()
        except OSError as exc:
            self.emit("save-failed", path=str(self.calibration.store.path), message=str(exc))
            path = None
        return {"seat": seat, "players": self.seats, "angle": angle, "file": None if path is None else str(path)}

    def cmd_magazine(self, cards):
        self.launcher.set_count(cards)
        return {"cards": self.launcher.cards}

    # ---- presses ----
    def cmd_press(self):
        return self.press("console")

    def button_pressed(self) -> None:
        """The physical button (debounced, on the loop). While a browser asks to pair, the press
        pairs it and does nothing else."""
        if self._pair_press():
            return
        try:
            self.press("button")
        except CommandError:
            pass  # press() has beeped and announced it

    def press(self, source: str) -> dict:
        """Serve one press (T-PRESS, T-EXACT): the table says whose and why, the
        scheduler says what comes out, the launcher shoots it."""
        if self.table.game is not None and self.table.game.exact:
            return self._exact_press(source, self.table.press)
        seat, reason = self.table.press_owner()
        refusal = self.launcher.refusal(owed=reason != "draw")
        if refusal is not None:
            # never silently lost: a beep at the table and an event on every console
            self.hw.beeper.play(beeps.PRESS_REFUSED)
            self.emit("refused", source=source, error=refusal[0], message=refusal[1])
            raise CommandError(*refusal)
        if seat is None:  # no game: wherever the shooter points, like the original
            seat = self.launcher.aimed_seat
        events = self.table.press()
        planned = self.scheduler.next_press()
        self.hw.beeper.play(beeps.PRESS_ACCEPTED)
        if source == "button":  # consoles learn of it before what it causes (the next turn)
            self.emit("press", source=source, seat=seat, reason=reason)
        self._after_game_change(events, Shot(seat=seat, reason=reason, planned=planned))
        return {"seat": seat, "reason": reason}

    def _shot_done(self, shot: Shot) -> None:
        fields = {"seat": shot.seat, "planned": shot.planned, "ejected": shot.ejected, "reason": shot.reason}
        if shot.interrupted:
            fields["interrupted"] = shot.interrupted
        self.emit("shot", **fields)
        if self.table.game is not None and self.table.game.exact:
            self._count_exact_shot(shot)
            return
        if shot.reason != "draw" and not self.launcher.queue and self.table.press_owner()[1] == "draw":
            self.hw.beeper.play(beeps.OWED_DONE)

    # ---- simulated hardware ----
    def _sim(self):
        if self.world is None:
            raise CommandError("not-simulated", "this command needs the simulated hardware (--sim)")
        return self.world

    def cmd_sim_button(self):
        self._sim().press_button()

    def cmd_sim_lid_open(self):
        self._sim().open_lid()

    def cmd_sim_lid_close(self):
        self._sim().close_lid()

    def cmd_sim_jam(self):
        self._sim().arm_jam()

    def cmd_sim_load(self, cards):
        self._sim().load(cards)
        self.launcher.load(cards)
        return {"cards": self.launcher.cards}

    def cmd_sim_wait(self, seconds):
        self._sim()
        if not self.loop.virtual:
            raise CommandError("bad-argument", "sim wait needs --clock virtual; in real time, just wait")
        target = self.clock.now() + seconds
        self.clock.call_at(target, lambda: None, name="sim-wait")  # keeps the loop busy until then

    # ---- the web console: pairing, seat names ----
    def _pair_press(self) -> bool:
        """The button pairs the browsers waiting for it (not a player's press): beep, announce."""
        if self.pairing is None or not self.pairing.waiting:
            return False
        self.hw.beeper.play(beeps.PAIRED)
        for token_id in self.pairing.button_pressed():
            self.emit("paired", id=token_id)
        return True

    def _web_status(self) -> dict:
        """Status fields while the web console runs: names, what undo takes back, who is paired."""
        if self.pairing is None:
            return {}
        return {"names": {str(s): n for s, n in sorted(self.names.items())},
                "undoes": self.table.history[-1]["command"] if self.table.history else None,
                "pairing": self.pairing.status()}

    def cmd_unpair(self, id):
        if self.pairing is None:
            raise CommandError("bad-argument", "the web console is off: no browser is paired")
        self.pairing.revoke(id)
        self.emit("unpaired", id=id)

    def cmd_names(self, seats=None):
        self.names = {i + 1: name for i, name in enumerate(seats or []) if name != "-"}
        self.emit("names", names={str(s): n for s, n in sorted(self.names.items())})
