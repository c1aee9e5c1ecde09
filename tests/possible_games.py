"""Real saved games of every edition, their mutants, and a table driven on from a resumed one (shared by
tests/test_possible_games.py and the fault suite's tests/test_faults_possible.py).

* :func:`saves`: ``game.json`` contents as controllers wrote them: the files of tests/saved_games (written by
  earlier code) and, for every registered edition record (one registered later too), the table as the
  controller saves it at points all through a bot game of that edition (``uno-shooter simulate``'s bots, whose
  every line is also checked by the validator: shooter/bots/checks.py).
* :func:`mutant`: one of them changed as a bad card, a bad editor or a bad migration might: a field set to
  another value of its type (another word of the protocol, another count), a list item dropped or doubled, the
  counts bumped, the phase swapped.
* :func:`drive`: a few steps of play on a resumed table (presses and the shots they count, plays of its
  edition's cards, corrections, reports, undo, ...); after every accepted step the game must still be a
  possible game of its edition and load again; a refused one is a CommandError, never another exception.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from shooter.bots import simulate, simulate_exact
from shooter.bots.simulate import play_games
from shooter.editions.records import COLOURS, EDITIONS, SCORINGS, SIDES, START_RULES, VARIANTS, Edition, records
from shooter.errors import CommandError
from shooter.table import Table
from shooter.table.possible import table_impossible
from shooter.table.state import DEALER_REASONS
from shooter.vocabulary import Phase, Reason
from tests.test_faults_files import _paths

SAVED = Path(__file__).resolve().parent / "saved_games"
KEPT = 40   # tables kept of a bot game, evenly through it
WORDS = sorted({*Phase, *Reason, *VARIANTS, *EDITIONS, *SIDES, *START_RULES, *SCORINGS, *COLOURS, "cw", "ccw",
                *(name for r in records() for name in r.cards())})
NUMBERS = [-1, 0, 1, 2, 3, 4, 5, 7, 8, 10, 111, 112, 113, 224, 400, 500, 501]


def edition_of(data: dict[str, Any]) -> str:
    game = data["game"] or {}
    variant = game.get("variant", "extreme")
    part = game.get("extreme") or game
    return f"{variant}-{part.get('edition', '2016')}" if variant == "extreme" else variant


@contextlib.contextmanager
def _kept(into: list[str]) -> Iterator[None]:
    """The bots' check after every line (simulate_checks.still_possible) also keeps the table as the controller
    saves it (its to_dict, as JSON text)."""
    real = simulate.still_possible

    def check(app: Any, line: str) -> None:
        real(app, line)
        into.append(json.dumps(app.controller.table.to_dict()))
    simulate.still_possible = simulate_exact.still_possible = check
    try:
        yield
    finally:
        simulate.still_possible = simulate_exact.still_possible = real


def played(record: Edition, seed: int = 3) -> list[dict[str, Any]]:
    """The table as saved at points all through a bot game of ``record`` (three seats, a short limit)."""
    kept: list[str] = []
    with _kept(kept):
        play_games(1, players=3, seed=seed, limit=150, variant=record.variant, edition=record.edition)
    step = max(1, len(kept) // KEPT)
    return [json.loads(text) for text in kept[::step]]


@cache
def _played(key: str) -> tuple[str, ...]:
    record = next(r for r in records() if r.key == key)
    return tuple(json.dumps(d) for d in played(record))


def saves() -> list[tuple[str, dict[str, Any]]]:
    """(edition key, saved table) of every registered edition: the files of tests/saved_games and a bot game's."""
    found = [(edition_of(d), d) for d in (json.loads(p.read_text()) for p in sorted(SAVED.glob("*.json"))
                                          if not p.name.endswith(".status.json"))]
    for record in records():
        found += [(record.key, json.loads(text)) for text in _played(record.key)]
    return found


# --- mutants -------------------------------------------------------------------------------------------------
def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _other(rng: random.Random, value: Any) -> Any:
    """Another value of the same type (or, for null, a value a field of it might hold)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([n for n in NUMBERS if n != value] + [value + 1, value - 1, value * 10])
    if isinstance(value, str):
        return rng.choice([w for w in WORDS if w != value])
    if value is None:
        return rng.choice([rng.choice(WORDS), rng.choice(NUMBERS)])
    return value


def mutant(rng: random.Random, saved: dict[str, Any], changes: int = 1) -> tuple[dict[str, Any], list[str]]:
    """``saved`` with ``changes`` changes (what each was, for the failure message)."""
    data = json.loads(json.dumps(saved))
    said = []
    for _ in range(changes):
        game_paths = [p for p in _paths(data) if p and p[0] in ("game", "history") and len(p) > 1]
        path = rng.choice(game_paths or list(_paths(data))[1:])
        parent, key = _at(data, path[:-1]), path[-1]
        value = parent[key]
        how = rng.randrange(6)
        if how == 0 and isinstance(value, list) and value:          # drop an item
            said.append(f"drop {path}[*]")
            value.pop(rng.randrange(len(value)))
        elif how == 1 and isinstance(value, list) and value:        # double an item
            said.append(f"double an item of {path}")
            value.insert(rng.randrange(len(value) + 1), json.loads(json.dumps(rng.choice(value))))
        elif how == 2 and isinstance(value, dict) and value and all(type(v) is int for v in value.values()):
            factor = rng.choice([2, 5, 40, 100])                     # bump every count
            said.append(f"{path} x{factor}")
            for k in value:
                value[k] *= factor
        elif how == 3 and data.get("game"):                          # another phase
            game = data["game"]
            game["phase"] = rng.choice([p for p in Phase if p != game.get("phase")])
            said.append(f"phase {game['phase']}")
        elif isinstance(value, (dict, list)) and value and how == 4:
            inner = rng.choice(list(value) if isinstance(value, dict) else range(len(value)))
            new = _other(rng, value[inner])
            said.append(f"{(*path, inner)}: {value[inner]!r} -> {new!r}")
            value[inner] = new
        else:
            new = _other(rng, value)
            said.append(f"{path}: {value!r} -> {new!r}")
            parent[key] = new
    return data, said


# --- a resumed table played on ---------------------------------------------------------------------------------
def _commands(t: Table, rng: random.Random) -> list[Callable[[], object]]:
    """The commands a table might be sent now, with its edition's cards and seats (most will be refused)."""
    g = t.game
    assert g is not None
    record = t.record
    seats = list(range(1, g.players + 1))
    seat = rng.choice(seats)
    up = record.side(g.side) if g.side in record.side_names or not record.side_names else record.sides[0]
    cards = [*(str(d) for d in up.digits), *(n for n in up.cards if n != "number")] or ["number"]
    card = rng.choice(cards)
    row = up.cards.get(card)
    target = rng.choice([s for s in seats if s != g.current] or seats) if row and row.effect in (
        "extreme-hit", "targeted-draw", "swap") else None
    found: list[Callable[[], object]] = [
        t.press, t.press, t.press,
        lambda: t.play(card, target=target, last=bool(g.current and g.hands and g.hands.get(g.current) == 1)),
        lambda: t.play(card, target=target),
        lambda: t.uno(seat), lambda: t.catch(seat), lambda: t.undo(),
        lambda: t.set(current=seat), lambda: t.set(direction=rng.choice(["cw", "ccw"])),
        lambda: t.score(seat, rng.choice([0, 5, 40])), lambda: t.hand(seat, rng.sample(cards, min(2, len(cards)))),
        lambda: t.start_round(None if record.counting else card),
    ]
    if record.counting:
        found += [t.pass_turn, t.draw, t.colour_found, lambda: t.first_card(card),
                  lambda: t.give(seat, rng.randint(1, 3)),
                  lambda: t.set(seat=seat, hand=rng.choice([0, 1, 2, 7, 20])),
                  lambda: t.challenge(g.challenge["seat"] if g.challenge else seat, rng.choice(["upheld", "rejected"]))]
        if record.side_names:
            found.append(lambda: t.set(side=rng.choice(record.side_names)))
    else:
        found += [lambda: t.penalty(rng.choice(["advice", "wrong-card"]), seat)]
    return found


def _shoot(t: Table, rng: random.Random) -> None:
    """The exit sensor's count of the shot a press (or the dealer) sent out: the head's cards in a burst of at
    most 7, now and then one card short."""
    due = t.due()
    if due is None:
        t.count_shot(1, 0)
        return
    seat, reason, cards = due
    planned = min(cards, 7)
    t.count_shot(planned, planned - (rng.random() < 0.1 and planned > 1), seat, reason)


def drive(t: Table, rng: random.Random, steps: int) -> int:
    """``steps`` steps of play on ``t``; after every accepted one the game is possible and loads again (raises
    AssertionError naming the step otherwise). Returns how many steps were accepted."""
    accepted = 0
    for _ in range(steps):
        if t.game is None:
            break
        exact = t.game.exact
        due = t.due() if exact else None
        try:
            if exact and (t.shot is not None or (due is not None and due[1] in DEALER_REASONS and rng.random() < 0.8)):
                _shoot(t, rng)
                what = "a counted shot"
            else:
                command = rng.choice(_commands(t, rng))
                what = getattr(command, "__name__", "a command")
                command()
                if exact and t.shot is not None:
                    _shoot(t, rng)
        except CommandError:
            continue
        accepted += 1
        problem = table_impossible(t)
        assert problem is None, f"after {what} the game is impossible: {problem}"
        Table.from_dict(json.loads(json.dumps(t.to_dict())))   # and it would be resumed as it is
    return accepted
