"""Whole games of the exact variants (classic, all-wild, flip) played by bots, in virtual time.

The composition root for ``uno-shooter simulate --variant classic|all-wild|flip`` (any edition of the counting
family): a controller on simulated hardware (with the exit sensor), a deck of real cards built from the
edition's record (:mod:`shooter.editions`, so the counts live in one place; where the sheet gives no per-kind
counts, as All Wild's, the record's ``assumed_counts``) and :class:`sim.exact_bots.ExactBotTable` players, told
what they must know of the edition (:class:`sim.exact_bots.DeckFacts`) from the same record.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

from sim.bots import Message
from sim.cards import COLOURS, DARK_COLOURS, Card, FlipCard, make_cards, make_flip_deck
from sim.exact_bots import DeckFacts, ExactBotTable

from ..app import App
from ..config import Config, parse_config
from ..editions.records import AIMED_EFFECTS, IGNORED, NUMBER, Edition, Effect, lookup
from ..table.args import DEFAULT_LIMIT
from .checks import still_possible
from .results import ExactGameResult
from .simulate_vision import play_watched, vision_config


def wild_faces(variant: str, side: str | None = None) -> set[str]:
    """Faces without a colour (the record's wild cards)."""
    return {n for n, c in lookup(variant).side(side).cards.items() if c.wild}


def card_points(variant: str, name: str, side: str) -> int:
    """What one card scores, by the edition's table (numbers: their face)."""
    if name.isdigit():
        return int(name)
    points = lookup(variant).side(side).cards[name].points
    if points is None:
        raise ValueError(f"the {variant} card table gives no points for {name!r}")
    return points


def _faces(record: Edition, side: str | None) -> dict[str, int]:
    table = {n: c for n, c in record.side(side).cards.items() if n != NUMBER}
    if record.assumed_counts:
        return dict(record.assumed_counts)
    unknown = sorted(n for n, c in table.items() if c.count is None)
    if unknown:
        raise ValueError(f"the {record.variant} card table has no count for {', '.join(unknown)}")
    return {n: c.count for n, c in table.items() if c.count is not None}


def real_deck(variant: str, rng: random.Random) -> list[Card] | list[FlipCard]:
    """The edition's physical cards (a two-sided deck: two-sided cards)."""
    record = lookup(variant)
    first, *others = record.sides
    light = make_cards(_faces(record, first.name), dict(first.digits), wild_faces(variant, first.name),
                       colours=COLOURS[:record.colours])
    if len(light) != record.deck_size:
        raise ValueError(f"a {variant} deck of {len(light)} cards, not {record.deck_size}")
    if not others:
        return light
    dark = make_cards(_faces(record, others[0].name), dict(others[0].digits), wild_faces(variant, others[0].name),
                      colours=DARK_COLOURS[:record.colours])
    return make_flip_deck(light, dark, rng)


def deck_facts(variant: str) -> DeckFacts:
    """What the bots must know of the edition, from its record."""
    record = lookup(variant)
    cards = record.cards()

    def having(*effects: Effect) -> frozenset[str]:
        return frozenset(n for n, c in cards.items() if c.effect in effects)
    return DeckFacts(variant=variant, wilds=frozenset(n for n, c in cards.items() if c.wild),
                     turns_up_first=record.first_card != IGNORED, back_to_deck=record.first_void,
                     wild_draws=frozenset(n for n, c in cards.items() if c.challengeable),
                     targeted=having(*AIMED_EFFECTS), swaps=having(Effect.SWAP), shuffles=having(Effect.SHUFFLE),
                     flips=having(Effect.FLIP),
                     colour_free=all(c.wild for c in cards.values() if c.name != NUMBER) and not record.side().digits,
                     colours=record.colours)


class _Table:
    """One game's simulated shooter in virtual time, spoken to line by line (one reply per line)."""

    def __init__(self, app: App):
        self.app = app
        self.events: list[Message] = []
        app.controller.add_sink(self._event)
        app.loop.run_until_quiet()

    def _event(self, obj: Message) -> None:
        if "event" in obj:
            self.events.append(obj)

    def send(self, line: str) -> Message:
        answers: list[Message] = []
        self.app.loop.post(lambda: self.app.controller.handle_line(line, answers.append))
        self.app.loop.run_until_quiet()
        still_possible(self.app, line)
        return answers[0]


def play_exact_games(games: int, *, variant: str, players: int = 4, seed: int = 1, scoring: str = "winner",
                     limit: int = DEFAULT_LIMIT, config: Config | None = None, vision: bool = False,
                     **bot_options: float) -> list[ExactGameResult]:
    """Play ``games`` whole games of ``variant``, each with its own seed; returns ExactGameResult objects."""
    results: list[ExactGameResult] = []
    quiet = replace(config or parse_config({}), sim_cards=0)  # the bots load their own real cards
    if vision:
        quiet = vision_config(quiet)
    facts = deck_facts(variant)
    for game_seed in range(seed, seed + games):
        with App(quiet, sim=True, virtual=True, seed=game_seed, log=lambda m: None) as app:
            table = _Table(app)
            rng = random.Random(f"bots-{variant}-{game_seed}")
            assert app.world is not None  # sim=True: the simulated world
            bots = ExactBotTable(app.world, table.send, table.events, real_deck(variant, rng), players, rng,
                                 facts, partial(card_points, variant), **bot_options)
            game, watched = play_watched(app, bots, vision, lambda: bots.play_game(  # noqa: B023 (this game's)
                scoring=scoring, limit=limit))
            shots = [(e["reason"], e["planned"], e["ejected"], e.get("interrupted"))
                     for e in table.events if e["event"] == "shot"]
            results.append(ExactGameResult(seed=game_seed, winner=game["winner"] or 0, totals=game["totals"],
                                           rounds=game["round"], lines=bots.lines,
                                           virtual_seconds=round(app.clock.now(), 3), stats=dict(bots.stats),
                                           variant=variant, shots=shots, **watched))
    return results
