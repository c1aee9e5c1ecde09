"""The saved game's loader: a snapshot read from a file (or an undo level) checked field by field and rebuilt.

:func:`load_snapshot` raises :class:`StateFileError` with a message naming the field and the problem; the
game's state itself, its snapshot and its families' parts are :mod:`shooter.table.state`'s. Whether a game that
passes these checks is one its edition can reach is :mod:`shooter.table.possible`'s question.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NoReturn, cast

from ..editions.records import FORMAT1_VARIANT, editions_of, family_of
from ..errors import StateFileError
from ..vocabulary import Phase
from .args import DIRECTIONS, ELIMINATION, MAX_LIMIT, MAX_SEATS, MIN_SEATS, SCORINGS, SIDES, START_RULES, VARIANTS
from .cards import CARDS, MAX_OWED_PRESSES
from .state import (
    EXACT_CARDS,
    EXACT_REASONS,
    GAME_PHASES,
    MAX_CARDS,
    MAX_TOTAL,
    PARTS,
    REASONS,
    Challenge,
    GameState,
    LastPlay,
    Owed,
    RoundRow,
    Window,
    count_problem,
    snapshot,
)


def load_snapshot(data: object, where: str = "game", nested: bool = False) -> tuple[GameState, str]:
    """Check and rebuild a snapshot; raises StateFileError naming what is wrong."""
    return _Loader(where).load(data, nested)


class _Loader:
    """Field-by-field checks of a snapshot, with messages that name the field."""

    # what every game has (its family's own part is under the family's name, PARTS)
    KEYS = (set(GameState.__dataclass_fields__) - {f for family in PARTS.values() for f in family.fields}) | {
        "phase"}

    def __init__(self, where: str):
        self.where = where

    def fail(self, key: str, problem: str) -> NoReturn:
        raise StateFileError(f"Saved table state: {self.where}.{key} {problem}.")

    def whole(self, data: dict[str, Any], key: str, lo: int, hi: int) -> int:
        value = data[key]
        if type(value) is not int or not lo <= value <= hi:
            self.fail(key, f"must be a whole number from {lo} to {hi}, not {value!r}")
        number: int = value
        return number

    def whole_or_none(self, data: dict[str, Any], key: str, lo: int, hi: int) -> int | None:
        return None if data[key] is None else self.whole(data, key, lo, hi)

    def choice(self, data: dict[str, Any], key: str, options: Collection[str]) -> str:
        value = data[key]
        if isinstance(value, str) and value in options:
            return value
        self.fail(key, f"must be one of {', '.join(options)}, not {value!r}")

    def choice_or_none(self, data: dict[str, Any], key: str, options: Collection[str]) -> str | None:
        return None if data[key] is None else self.choice(data, key, options)

    def seat_map(self, data: dict[str, Any], key: str, players: int, all_seats: bool) -> dict[int, int]:
        value = data[key]
        wanted = {str(s) for s in range(1, players + 1)}
        if not isinstance(value, dict) or (set(value) != wanted if all_seats else not set(value) <= wanted):
            self.fail(key, f"must map the seats 1..{players} (as strings) to points")
        for seat, points in value.items():
            if type(points) is not int or not 0 <= points <= MAX_TOTAL:
                self.fail(f"{key}.{seat}", f"must be whole points from 0 to {MAX_TOTAL}")
        return {int(s): p for s, p in sorted(value.items(), key=lambda kv: int(kv[0]))}

    def load(self, data: object, nested: bool) -> tuple[GameState, str]:
        if not isinstance(data, dict):
            raise StateFileError(f"Saved table state: {self.where} is not an object.")
        variant = self.choice(data, "variant", VARIANTS) if "variant" in data else None
        game = GameState(players=2, variant=variant or FORMAT1_VARIANT)
        family = family_of(game.variant)   # the one part of its own a game of this variant has
        keys = self.KEYS | {family}
        missing, unknown = keys - set(data), set(data) - keys
        if missing or unknown:
            key = sorted(missing or unknown)[0]
            self.fail(key, "is missing" if missing
                      else f"is not a field of the state of a game of variant {game.variant}")
        players = self.whole(data, "players", MIN_SEATS, MAX_SEATS)
        def seat(key: str) -> int | None:
            return self.whole_or_none(data, key, 1, players)

        game = GameState(
            players=players,
            scoring=self.choice(data, "scoring", SCORINGS),
            limit=self.whole(data, "limit", 1, MAX_LIMIT),
            dealer=self.whole(data, "dealer", 1, players),
            round=self.whole(data, "round", 1, MAX_TOTAL),
            current=seat("current"),
            direction=self.choice(data, "direction", DIRECTIONS),
            queue=self.queue(data["queue"], players, exact=game.exact),
            totals=self.seat_map(data, "totals", players, all_seats=True),
            out=self.out(data["out"], players),
            uno_window=None if data["uno_window"] is None else self.window(data["uno_window"], players),
            uno_ahead=seat("uno_ahead"),
            going_out=seat("going_out"),
            round_winner=seat("round_winner"),
            winner=seat("winner"),
            reports=self.seat_map(data, "reports", players, all_seats=False),
            first=self.choice_or_none(data, "first", (*CARDS, *EXACT_CARDS)),
            variant=game.variant,
        )
        part = data[family]
        if not isinstance(part, dict) or set(part) != PARTS[family].fields:
            self.fail(family, f"must be an object with {', '.join(sorted(PARTS[family].fields))}")
        getattr(_Loader(f"{self.where}.{family}"), PARTS[family].load)(game, part, nested)
        phase = self.choice(data, "phase", GAME_PHASES)
        game.rounds = self.rounds(data["rounds"], game, phase)
        self.consistent(game, phase)
        return game, phase

    def extreme_part(self, game: GameState, data: dict[str, Any], nested: bool) -> None:
        """The Extreme family's own fields: the deck edition, the play a wrong-card penalty takes back."""
        # a deck edition of this game's own variant: an Uno Attack printing is no Uno Extreme deck
        game.edition = self.choice(data, "edition", [r.edition for r in editions_of(game.variant) if r.edition])
        game.last_play = self.last_play(data["last_play"], nested)
        # AT-HANDS: null (no counts kept) or the counts of the seats whose count is known
        game.hands = None if data["hands"] is None else self.hand_counts(data["hands"], game.players, every=False)

    def hand_counts(self, hands: object, players: int, every: bool) -> dict[int, int]:
        """Hand counts: every seat's (``every``), or some seats' (the others' are not known)."""
        wanted = {str(s) for s in range(1, players + 1)}
        if not isinstance(hands, dict) or (set(hands) != wanted if every else not set(hands) <= wanted) or any(
                type(n) is not int or not 0 <= n <= MAX_CARDS for n in hands.values()):
            what = f"map the seats 1..{players}" if every else f"be null or map seats of 1..{players}"
            self.fail("hands", f"must {what} (as strings) to card counts")
        return {int(s): n for s, n in sorted(hands.items(), key=lambda kv: int(kv[0]))}

    def exact_part(self, game: GameState, data: dict[str, Any], nested: bool) -> None:
        """The counting dealer's own fields (classic, All Wild, Flip)."""
        players = game.players
        game.start = self.choice_or_none(data, "start", START_RULES)
        game.side = self.choice_or_none(data, "side", SIDES)
        game.hands = self.hand_counts(data["hands"], players, every=True)
        game.drawn = self.whole_or_none(data, "drawn", 1, players)
        challenge = data["challenge"]
        if challenge is not None and (not isinstance(challenge, dict) or set(challenge) != {"seat", "by", "card"}
                                      or challenge["card"] not in EXACT_CARDS):
            self.fail("challenge", "must be null or an object with seat, by and card")
        if challenge is not None:  # the victim and the card's player are seats of this table
            sub = _Loader(f"{self.where}.challenge")
            sub.whole(challenge, "seat", 1, players)
            sub.whole(challenge, "by", 1, players)
        game.challenge = cast(Challenge, dict(challenge)) if challenge else None
        windows = data["uno_windows"]
        if not isinstance(windows, list):
            self.fail("uno_windows", "must be a list")
        game.uno_windows = [self.window(w, players) for w in windows]
        game.uno_penalty = self.whole(data, "uno_penalty", 2, 4)
        game.deck = self.whole_or_none(data, "deck", 0, MAX_CARDS)

    def rounds(self, value: object, game: GameState, phase: str) -> list[RoundRow]:
        """The score sheet: rows of settled rounds, oldest first, none after the current round (and none
        for it until it is settled: only a game that is over has the row of its current round)."""
        settled = game.round if phase == Phase.OVER else game.round - 1
        if not isinstance(value, list) or len(value) > game.round:
            self.fail("rounds", f"must be a list of at most {game.round} rows (one per round so far)")
        rows: list[RoundRow] = []
        eliminating = game.scoring == ELIMINATION
        for i, item in enumerate(value):
            keys = {"round", "winner", "points", *(("out",) if eliminating else ())}
            if not isinstance(item, dict) or set(item) != keys:
                self.fail(f"rounds[{i}]", f"must be an object with {', '.join(sorted(keys))}")
            sub = _Loader(f"{self.where}.rounds[{i}]")
            row: RoundRow = {"round": sub.whole(item, "round", 1, game.round),
                             "winner": sub.whole(item, "winner", 1, game.players),
                             "points": {str(s): p for s, p in
                                        sub.seat_map(item, "points", game.players, all_seats=False).items()}}
            if eliminating:
                row["out"] = sub.out(item["out"], game.players)
            if row["round"] > settled:
                sub.fail("round", f"must be a settled round (round {game.round} is not settled yet)")
            if rows and row["round"] <= rows[-1]["round"]:
                sub.fail("round", f"must come after round {rows[-1]['round']} (the rows are in order)")
            if str(row["winner"]) not in row["points"]:
                sub.fail("winner", "must be one of the seats in points")
            rows.append(row)
        return rows

    def queue(self, value: object, players: int, exact: bool) -> list[Owed]:
        """The owed queue; the counting dealer's entries (exact) also name their cards and those served."""
        if not isinstance(value, list):
            self.fail("queue", "must be a list")
        entries = []
        keys = {"seat", "presses", "reason", "by", *(("cards", "served") if exact else ())}
        for i, item in enumerate(value):
            if not isinstance(item, dict) or set(item) != keys:
                self.fail(f"queue[{i}]", f"must be an object with {', '.join(sorted(keys))}")
            sub = _Loader(f"{self.where}.queue[{i}]")
            entries.append(
                Owed(
                    seat=sub.whole(item, "seat", 1, players),
                    presses=sub.whole(item, "presses", 1, 1 if exact else MAX_OWED_PRESSES),
                    reason=sub.choice(item, "reason", (*EXACT_REASONS, *EXACT_CARDS) if exact else REASONS),
                    by=sub.whole(item, "by", 1, players),
                    cards=sub.whole_or_none(item, "cards", 0, MAX_CARDS) if exact else None,
                    served=sub.whole(item, "served", 0, MAX_CARDS) if exact else 0,
                    exact=exact,
                )
            )
        return entries

    def out(self, value: object, players: int) -> list[int]:
        if (
            not isinstance(value, list)
            or any(type(s) is not int or not 1 <= s <= players for s in value)
            or len(set(value)) != len(value)
            or len(value) >= players
        ):
            self.fail("out", f"must list distinct seats of 1..{players}, leaving at least one in the game")
        return list(value)

    def window(self, value: object, players: int) -> Window:
        if not isinstance(value, dict) or set(value) != {"seat", "called"} or not isinstance(value["called"], bool):
            self.fail("uno_window", "must be null or an object with seat and called (true/false)")
        _Loader(f"{self.where}.uno_window").whole(value, "seat", 1, players)
        return cast(Window, dict(value))

    def last_play(self, value: object, nested: bool) -> LastPlay | None:
        if value is None:
            return None
        if nested or not isinstance(value, dict) or set(value) != {"seat", "before"}:
            self.fail("last_play", "must be null or an object with seat and before (one level only)")
        before, phase = load_snapshot(value["before"], f"{self.where}.last_play.before", nested=True)
        if phase != Phase.PLAY or before.current != value["seat"]:
            self.fail("last_play", "does not match the state before that play")
        return {"seat": value["seat"], "before": snapshot(before, phase)}

    def consistent(self, g: GameState, phase: str) -> None:
        """Cross-field checks: what each phase allows."""
        in_game = set(g.in_game)
        if g.scoring != ELIMINATION and g.out:
            self.fail("out", "must be empty unless scoring is elimination")
        for key in ("current", "uno_ahead", "going_out", "round_winner"):
            if getattr(g, key) is not None and getattr(g, key) not in in_game:
                self.fail(key, "is a seat that is out of the game")
        if any(o.seat not in in_game or o.by not in in_game for o in g.queue):
            self.fail("queue", "names a seat that is out of the game")
        rules = {
            "current": (g.current is not None) == (phase == Phase.PLAY),
            "queue": not g.queue or phase in (Phase.PLAY, Phase.FIRST),
            "going_out": g.going_out is None or (phase == Phase.PLAY and bool(g.queue)),
            "uno_window": g.uno_window is None or phase == Phase.PLAY,
            "uno_ahead": g.uno_ahead is None or phase == Phase.PLAY,
            "round_winner": (g.round_winner is not None) == (phase == Phase.SCORING) or phase == Phase.OVER,
            "winner": (g.winner is not None) == (phase == Phase.OVER),
            "reports": not g.reports or phase in (Phase.SCORING, Phase.OVER),
            "last_play": g.last_play is None or phase in (Phase.PLAY, Phase.SCORING),
        }
        for key, ok in rules.items():
            if not ok:
                self.fail(key, f"does not fit phase {phase}")
        if phase == Phase.SCORING and (set(g.reports) - in_game or g.round_winner in g.reports):
            self.fail("reports", "names a seat that does not report this round")
        problem = count_problem(g)
        if problem:
            self.fail(problem[0], f"is broken: {problem[1]}")
