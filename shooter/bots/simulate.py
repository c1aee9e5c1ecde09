"""Whole games played by bots at the simulated table, through the console protocol, in virtual time.

The composition root for ``uno-shooter simulate``: a controller on simulated hardware with an empty
magazine, a deck of physical cards built from the game's edition record (:mod:`shooter.editions`, so
the counts live in one place), and :class:`sim.bots.BotTable` players who deal, play and press.
With ``vision`` the bots only put their cards on the pile, and the simulated camera tells the table
(:mod:`shooter.bots.simulate_vision`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import TypedDict, Unpack

from sim import make_deck
from sim.bots import BotTable, Message

from ..app import App
from ..config import Config, parse_config
from ..editions.records import AIMED_EFFECTS, Edition, Effect, default, lookup
from ..errors import ConfigError
from ..table.args import DEFAULT_LIMIT
from .checks import still_possible
from .results import GameResult
from .simulate_vision import play_watched, vision_config


def deck_counts(record: Edition) -> dict[str, int]:
    """The physical deck of an edition: card name -> copies (number cards all together), the record's."""
    return {name: card.count for name, card in record.side().cards.items() if card.count}


class GameOptions(TypedDict, total=False):
    """What :func:`iter_games` takes besides the number of games: the game, the table's config, and the bots'
    chances (forget Uno, catch, a wrong card, a jam; the exact variants' bots: cheat, challenge)."""

    players: int
    seed: int
    scoring: str
    limit: int
    edition: str | None
    config: Config | None
    variant: str | None
    forget_uno: float
    catch: float
    wrong_card: float
    jam: float
    cheat: float
    challenge: float
    vision: bool


def play_games(games: int, **options: Unpack[GameOptions]) -> list[GameResult]:
    """Play ``games`` whole games, each with its own seed (``seed``, ``seed + 1``, ...)."""
    return list(iter_games(games, **options))


def iter_games(games: int, *, players: int = 4, seed: int = 1, scoring: str = "winner", limit: int = DEFAULT_LIMIT,
               edition: str | None = None, config: Config | None = None, variant: str | None = None,
               vision: bool = False, **bot_options: float) -> Iterator[GameResult]:
    """:func:`play_games`, one result at a time as each game ends (for progress on a terminal)."""
    variant = variant or default().variant
    edition = edition or lookup(variant).edition or default().edition or ""
    base = config or parse_config({})
    if base.hardware.pins.exit_sensor is None:
        # the bots hand each shot's cards to its seat by the count of the exit beam (sim.bots)
        raise ConfigError("pins.exit_sensor = false: `uno-shooter simulate` needs the card-exit sensor, whose "
                          "count tells the bots whose hand each card goes to; leave pins.exit_sensor out to "
                          "simulate (`uno-shooter run --sim --no-exit-sensor` tries the shooter without it)")
    if lookup(variant).counting:  # the counting family's bots (shooter/bots/simulate_exact.py)
        from .simulate_exact import play_exact_games
        yield from play_exact_games(games, variant=variant, players=players, seed=seed, scoring=scoring,
                                    limit=limit, config=config, vision=vision, **bot_options)
        return
    for game_seed in range(seed, seed + games):
        config = replace(base, sim_cards=0)  # the bots load their own real cards
        if vision:
            config = vision_config(config)
        with App(config, sim=True, virtual=True, seed=game_seed, log=lambda m: None) as app:
            events: list[Message] = []
            app.controller.add_sink(lambda obj: events.append(obj) if "event" in obj else None)  # noqa: B023 (this game's)
            app.loop.run_until_quiet()

            def send(line: str) -> Message:
                replies: list[Message] = []
                app.loop.post(lambda: app.controller.handle_line(line, replies.append))
                app.loop.run_until_quiet()
                still_possible(app, line)
                return replies[0]

            record = lookup(variant, edition)
            cards = record.side().cards
            wilds = {n for n, c in cards.items() if c.wild}
            deck = make_deck(deck_counts(record), wilds=wilds)
            assert app.world is not None  # sim=True: the simulated world
            bots = BotTable(app.world, send, events, deck, players, random.Random(f"bots-{game_seed}"), wilds=wilds,
                            aims={n for n, c in cards.items() if c.effect in AIMED_EFFECTS},
                            swaps={n for n, c in cards.items() if c.effect == Effect.SWAP},
                            discards={n for n, c in cards.items() if c.effect == Effect.DISCARD_ALL}, **bot_options)
            game, watched = play_watched(app, bots, vision, lambda: bots.play_game(  # noqa: B023 (this game's)
                scoring=scoring, limit=limit, edition=edition, variant=variant))
            shots = [e for e in events if e["event"] == "shot"]
            yield GameResult(seed=game_seed, winner=game["winner"] or 0, totals=game["totals"],
                             rounds=game["round"], lines=bots.lines,
                             virtual_seconds=round(app.clock.now(), 3), stats=dict(bots.stats),
                             planned=[e["planned"] for e in shots], ejected=[e["ejected"] for e in shots], **watched)
