"""Whole games of the exact variants (classic, all-wild, flip) played by bots, in virtual time.

The composition root for ``uno-shooter simulate --variant classic|all-wild|flip``: a controller on
simulated hardware (with the exit sensor), a deck of real cards built from the variant's card table
(``shooter.table.editions``, so the counts live in one place; All Wild's per-kind counts are unknown, so the
112 wilds are split as ALL_WILD_SPLIT assumes) and :class:`sim.exact_bots.ExactBotTable` players.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import partial

from sim.cards import DARK_COLOURS, make_cards, make_flip_deck
from sim.exact_bots import ExactBotTable

from .app import App
from .config import Config, parse_config
from .simulate import GameResult
from .table.args import DEFAULT_LIMIT
from .table.editions import COPIES_PER_DIGIT, DECK_SIZE, deck


@dataclass
class ExactGameResult(GameResult):
    """A game of an exact variant: the GameResult (its JSON line unchanged) plus what the summary reads."""

    variant: str = "classic"
    # every `shot` event of the game, in order: (reason, planned, ejected, interrupted or None)
    shots: list = field(default_factory=list, repr=False)

    def json(self) -> dict:
        return {k: v for k, v in super().json().items() if k not in ("variant", "shots")}


# All Wild's sheet gives only the total (112); the bots' deck assumes this split. (An even split of the
# eight kinds draws about one card per play, so hands never shrink and a round never ends.)
ALL_WILD_SPLIT = {"wild": 40, "reverse": 12, "skip": 12, "skip-two": 12, "draw-two": 10, "draw-four": 6,
                  "targeted-draw-two": 10, "forced-swap": 10}


def wild_faces(variant: str, side: str = "light") -> set[str]:
    """Faces without a colour: every All Wild card; the wild and blank cards elsewhere."""
    names = deck(variant, side)
    return set(names) if variant == "all-wild" else {n for n in names if n.startswith("wild") or n == "blank"}


def card_points(variant: str, name: str, side: str) -> int:
    """What one card scores, by the variant's table (numbers: their face)."""
    if name.isdigit():
        return int(name)
    points = deck(variant, side)[name].points
    if points is None:
        raise ValueError(f"the {variant} card table gives no points for {name!r}")
    return points


def _faces(variant: str, side: str) -> dict[str, int]:
    table = {n: c for n, c in deck(variant, side).items() if n != "number"}
    if variant == "all-wild":
        return dict(ALL_WILD_SPLIT)
    unknown = sorted(n for n, c in table.items() if c.count is None)
    if unknown:
        raise ValueError(f"the {variant} card table has no count for {', '.join(unknown)}")
    return {n: c.count for n, c in table.items() if c.count is not None}


def real_deck(variant: str, rng: random.Random) -> list:
    """The variant's 112 physical cards (Flip: two-sided)."""
    numbers = COPIES_PER_DIGIT[variant]
    light = make_cards(_faces(variant, "light"), numbers, wild_faces(variant))
    if len(light) != DECK_SIZE:
        raise ValueError(f"a {variant} deck of {len(light)} cards, not {DECK_SIZE}")
    if variant != "flip":
        return light
    dark = make_cards(_faces(variant, "dark"), numbers, wild_faces(variant, "dark"), colours=DARK_COLOURS)
    return make_flip_deck(light, dark, rng)


class _Table:
    """One game's simulated shooter in virtual time, spoken to line by line (one reply per line)."""

    def __init__(self, app: App):
        self.app = app
        self.events: list[dict] = []
        app.controller.add_sink(self._event)
        app.loop.run_until_quiet()

    def _event(self, obj: dict) -> None:
        if "event" in obj:
            self.events.append(obj)

    def send(self, line: str) -> dict:
        answers: list[dict] = []
        self.app.loop.post(lambda: self.app.controller.handle_line(line, answers.append))
        self.app.loop.run_until_quiet()
        return answers[0]


def play_exact_games(games: int, *, variant: str, players: int = 4, seed: int = 1, scoring: str = "winner",
                     limit: int = DEFAULT_LIMIT, config: Config | None = None, **bot_options) -> list:
    """Play ``games`` whole games of ``variant``, each with its own seed; returns ExactGameResult objects."""
    results = []
    quiet = replace(config or parse_config({}), sim_cards=0)  # the bots load their own real cards
    wilds = wild_faces(variant) | wild_faces(variant, "dark")
    for game_seed in range(seed, seed + games):
        with App(quiet, sim=True, virtual=True, seed=game_seed, log=lambda m: None) as app:
            table = _Table(app)
            rng = random.Random(f"bots-{variant}-{game_seed}")
            assert app.world is not None  # sim=True: the simulated world
            bots = ExactBotTable(app.world, table.send, table.events, real_deck(variant, rng), players, rng,
                                 variant, wilds, partial(card_points, variant), **bot_options)
            game = bots.play_game(scoring=scoring, limit=limit)
            shots = [(e["reason"], e["planned"], e["ejected"], e.get("interrupted"))
                     for e in table.events if e["event"] == "shot"]
            results.append(ExactGameResult(seed=game_seed, winner=game["winner"], totals=game["totals"],
                                           rounds=game["round"], lines=bots.lines,
                                           virtual_seconds=round(app.clock.now(), 3), stats=dict(bots.stats),
                                           variant=variant, shots=shots))
    return results
