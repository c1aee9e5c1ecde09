"""The table's commands on the console, and the desk they run on: each asks :class:`~shooter.table.Table` to
change the game, then the desk announces, saves and re-aims (:meth:`Desk.changed`); the counting dealer's shots
are the desk's :class:`~shooter.dealer.Dealer`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..dealer import Dealer
from ..errors import BadArgument, Busy, ErrorCode, ShooterError, WrongPhase, command_error
from ..events import Broadcast, Event
from ..launcher import Launcher, Shot
from ..protocol import whole_number
from ..scheduler import Scheduler
from ..table import RuleOptions, Table
from ..vocabulary import EventName, Phase
from .dispatch import Reply

if TYPE_CHECKING:
    from hal.interfaces import Beeper

    from ..persist import Store
    from .simulator import SimulatedHardware


class Desk:
    """The game as the consoles change it: the table, where its changes are announced and saved, and the
    launcher that points where the rules say (S-AIM) and shoots what a press or the dealer queues."""

    def __init__(self, *, table: Table, launcher: Launcher, scheduler: Scheduler, beeper: Beeper,
                 events: Broadcast, store: Store | None, rules: RuleOptions | None, counting: bool,
                 sim: SimulatedHardware | None = None) -> None:
        self.table = table
        self.launcher = launcher
        self.events = events
        self.store = store
        self.rules = rules          # the config's [rules]: every new game starts with them
        self.counting = counting    # the exit sensor is fitted: the counting family's games can be played
        # the table as last written (see save): as restored, or none (same as no file) at first
        self._saved: dict[str, Any] | None = table.to_dict() if store is not None else None
        self.dealer = Dealer(table=table, launcher=launcher, scheduler=scheduler, beeper=beeper,
                             emit=events.emit, changed=self.changed, save=self.save, sim=sim)

    def emit(self, name: str, **fields: Any) -> None:
        """An event to every console (held back while a command's reply is pending)."""
        self.events.emit(name, **fields)

    def changed(self, events: list[Event], shot: Shot | None = None) -> None:
        """What the table did: announce it, queue the shot (if a press), save the game, then point
        where S-AIM says."""
        for event in events:
            self.events.emit_event(event)
        if shot is not None:  # the presser's cards first, then where the rules point
            self.launcher.enqueue_then_point_at(shot, self.table.aim_seat)
            self.save()
        else:
            self.save()
            self.aim_by_rules()

    def save(self) -> None:
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
            self.emit(EventName.SAVE_FAILED, path=str(self.store.path), message=str(exc))
            return
        self._saved = state

    def aim_by_rules(self) -> None:
        """S-AIM: point where the table says (nothing to do without a game)."""
        self.launcher.point_at(self.table.aim_seat)  # None (no round): no seat to turn to


def game_new(desk: Desk, players: int, dealer: str | None = None, force: bool = False,
             **options: Any) -> None:
    chosen: int | str | None = dealer   # a seat, "random", or None (the rules choose)
    if dealer is not None and dealer != "random":
        try:
            chosen = whole_number(dealer)
        except ValueError:
            raise BadArgument(f"dealer= must be a seat or random, got {dealer!r}") from None
    table = desk.table
    game = table.status()
    if game is not None and game["phase"] != Phase.OVER and not force:
        totals = ", ".join(f"{seat}: {points}" for seat, points in game["totals"].items())
        raise WrongPhase(f"a game is running (round {game['round']}, totals {totals}); "
                                          "`game new ... force` ends it and starts a new one")
    # every new game starts with the config's [rules]; a resumed game kept its own
    kept = table.options
    if desk.rules is not None:
        table.options = desk.rules
    try:
        events = table.new_game(players, dealer=chosen, counting=desk.counting, **options)
    except BaseException:
        table.options = kept
        raise
    # every console learns of the new game (a phone that did not send the line redraws its table)
    new = table.status() or {}
    desk.emit(EventName.GAME, players=new.get("players"), dealer=new.get("dealer"), variant=new.get("variant"))
    desk.changed(events)


_NO_DEAL = frozenset({ErrorCode.LID_OPEN, ErrorCode.JAMMED, ErrorCode.FAULT})


def round_start(desk: Desk, first: str | None = None, dealer: int | None = None,
                cards: int | None = None) -> None:
    if desk.table.game is not None and desk.table.game.exact:
        if desk.dealer.in_flight():
            # a shot of the game before still coming out would be counted to this deal
            raise Busy("the shooter is still serving the last shot; start the round when it is done")
        # the deal is shot at once: with the lid open, a jam or a fault it is refused as a press is (EDITIONS,
        # round start), so nothing is dealt into an open shooter; an empty magazine is no reason, since the
        # round declares the deck just loaded
        refusal = desk.launcher.refusal(owed=True)
        if refusal is not None and refusal[0] in _NO_DEAL:
            raise command_error(*refusal)
    desk.changed(desk.table.start_round(first, dealer=dealer, cards=cards))
    game = desk.table.game
    if game is not None and game.exact:
        # D-DEAL: the shuffled deck is loaded: the shooter counts down from it
        if game.deck is None:  # the deal sets it: without it the shooter must not shoot a card
            raise ShooterError("round start: the exact deal left no deck count (a bug in the table)")
        desk.dealer.load_deck(game.deck)
        desk.dealer.serve_dealt()


# ---- the exact variants (classic, all-wild, flip): the shooter as a counting dealer ----
def first(desk: Desk, card: str) -> Reply:
    desk.changed(desk.table.first_card(card))
    desk.dealer.serve_dealt()
    # D-FIRST: a void card stays in phase first: another card is shot to the dealer and must be turned up
    return {"again": desk.table.phase == Phase.FIRST}


def draw(desk: Desk, seat: int | None = None) -> Reply:
    return desk.dealer.press("console", lambda: desk.table.draw(seat))


def pass_turn(desk: Desk, seat: int | None = None) -> None:
    desk.changed(desk.table.pass_turn(seat))


def challenge(desk: Desk, seat: int, result: str) -> None:
    desk.changed(desk.table.challenge(seat, result))


def colour_found(desk: Desk, seat: int | None = None) -> None:
    desk.changed(desk.table.colour_found(seat))


def give(desk: Desk, seat: int, cards: int) -> None:
    desk.changed(desk.table.give(seat, cards))


# ---- every variant ----
def play(desk: Desk, card: str, seat: int | None = None, target: int | None = None, last: bool = False,
         discarded: int | None = None) -> None:
    desk.changed(desk.table.play(card, seat=seat, target=target, last=last, discarded=discarded))


def uno(desk: Desk, seat: int) -> None:
    desk.changed(desk.table.uno(seat))


def catch(desk: Desk, seat: int) -> None:
    desk.changed(desk.table.catch(seat))


def penalty_advice(desk: Desk, seat: int) -> None:
    desk.changed(desk.table.penalty("advice", seat))


def penalty_wrong(desk: Desk, seat: int) -> None:
    desk.changed(desk.table.penalty("wrong-card", seat))


def hand(desk: Desk, seat: int, cards: list[str]) -> None:
    desk.changed(desk.table.hand(seat, cards))


def score(desk: Desk, seat: int, points: int) -> None:
    desk.changed(desk.table.score(seat, points))


def undo(desk: Desk) -> None:
    desk.changed(desk.table.undo())


def set_state(desk: Desk, current: int | None = None, direction: str | None = None, side: str | None = None,
              seat: int | None = None, hand: int | None = None) -> None:
    desk.changed(desk.table.set(current=current, direction=direction, side=side, seat=seat, hand=hand))
