"""The table's commands on the console: each asks :class:`~shooter.table.Table` to change the
game, then the controller announces, saves and re-aims (:meth:`Controller.changed`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dispatch import Reply
from .errors import CommandError, ShooterError
from .protocol import whole_number

if TYPE_CHECKING:
    from .controller import Controller


def game_new(ctl: Controller, players: int, dealer: str | None = None, force: bool = False,
             **options: Any) -> None:
    chosen: int | str | None = dealer   # a seat, "random", or None (the rules choose)
    if dealer is not None and dealer != "random":
        try:
            chosen = whole_number(dealer)
        except ValueError:
            raise CommandError("bad-argument", f"dealer= must be a seat or random, got {dealer!r}") from None
    table = ctl.table
    game = table.status()
    if game is not None and game["phase"] != "over" and not force:
        totals = ", ".join(f"{seat}: {points}" for seat, points in game["totals"].items())
        raise CommandError("wrong-phase", f"a game is running (round {game['round']}, totals {totals}); "
                                          "`game new ... force` ends it and starts a new one")
    # every new game starts with the config's [rules]; a resumed game kept its own
    kept = table.options
    if ctl.rules is not None:
        table.options = ctl.rules
    try:
        events = table.new_game(players, dealer=chosen, counting=ctl.hw.exit_sensor is not None, **options)
    except BaseException:
        table.options = kept
        raise
    # every console learns of the new game (a phone that did not send the line redraws its table)
    new = table.status() or {}
    ctl.emit("game", players=new.get("players"), dealer=new.get("dealer"), variant=new.get("variant"))
    ctl.changed(events)


def round_start(ctl: Controller, first: str | None = None, dealer: int | None = None,
                cards: int | None = None) -> None:
    if ctl.table.game is not None and ctl.table.game.exact and ctl.shot_in_flight():
        # a shot of the game before still coming out would be counted to this deal
        raise CommandError("busy", "the shooter is still serving the last shot; start the round when it is done")
    ctl.changed(ctl.table.start_round(first, dealer=dealer, cards=cards))
    game = ctl.table.game
    if game is not None and game.exact:
        # D-DEAL: the shuffled deck is loaded: the shooter counts down from it
        if game.deck is None:  # the deal sets it: without it the shooter must not shoot a card
            raise ShooterError("round start: the exact deal left no deck count (a bug in the table)")
        if ctl.sim is not None:
            ctl.sim.fill_magazine(game.deck)
        ctl.launcher.set_count(game.deck)
        ctl.serve_dealt()


# ---- the exact variants (classic, all-wild, flip): the shooter as a counting dealer ----
def first(ctl: Controller, card: str) -> Reply:
    ctl.changed(ctl.table.first_card(card))
    ctl.serve_dealt()
    # D-FIRST: a void card stays in phase first: another card is shot to the dealer and must be turned up
    return {"again": ctl.table.phase == "first"}


def draw(ctl: Controller, seat: int | None = None) -> Reply:
    return ctl.exact_press("console", lambda: ctl.table.draw(seat))


def pass_turn(ctl: Controller, seat: int | None = None) -> None:
    ctl.changed(ctl.table.pass_turn(seat))


def challenge(ctl: Controller, seat: int, result: str) -> None:
    ctl.changed(ctl.table.challenge(seat, result))


def colour_found(ctl: Controller, seat: int | None = None) -> None:
    ctl.changed(ctl.table.colour_found(seat))


def give(ctl: Controller, seat: int, cards: int) -> None:
    ctl.changed(ctl.table.give(seat, cards))


# ---- every variant ----
def play(ctl: Controller, card: str, seat: int | None = None, target: int | None = None, last: bool = False) -> None:
    ctl.changed(ctl.table.play(card, seat=seat, target=target, last=last))


def uno(ctl: Controller, seat: int) -> None:
    ctl.changed(ctl.table.uno(seat))


def catch(ctl: Controller, seat: int) -> None:
    ctl.changed(ctl.table.catch(seat))


def penalty_advice(ctl: Controller, seat: int) -> None:
    ctl.changed(ctl.table.penalty("advice", seat))


def penalty_wrong(ctl: Controller, seat: int) -> None:
    ctl.changed(ctl.table.penalty("wrong-card", seat))


def hand(ctl: Controller, seat: int, cards: list[str]) -> None:
    ctl.changed(ctl.table.hand(seat, cards))


def score(ctl: Controller, seat: int, points: int) -> None:
    ctl.changed(ctl.table.score(seat, points))


def undo(ctl: Controller) -> None:
    ctl.changed(ctl.table.undo())


def set_state(ctl: Controller, current: int | None = None, direction: str | None = None, side: str | None = None,
              seat: int | None = None, hand: int | None = None) -> None:
    ctl.changed(ctl.table.set(current=current, direction=direction, side=side, seat=seat, hand=hand))
