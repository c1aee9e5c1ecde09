"""The table's game state as data: seats, turn, owed presses, scores.

:class:`GameState` is everything the rules need about one game except the phase
(which the phase machine keeps on the table, see ``machine.py``). It is small
on purpose: undo keeps whole snapshots of it (``snapshot``; ``loader.load_snapshot``
rebuilds one), and the controller persists it as JSON. The loader (``loader.py``)
checks a snapshot read from a file field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, NotRequired, TypedDict

from ..editions.records import (
    COUNTING,
    COUNTING_CARDS,
    COUNTING_TURN_REASONS,
    DEFAULT_EDITION,
    DEFAULT_VARIANT,
    EXTREME,
    EXTREME_CARD_REASONS,
    EXTREME_TURN_REASONS,
    Names,
    family_of,
    lookup,
)
from ..vocabulary import Phase, Reason
from .args import DEFAULT_LIMIT, WINNER
from .cards import PENALTY_PRESSES

MAX_TOTAL = 10_000_000
GAME_PHASES = tuple(Phase)
PENALTY_REASONS = tuple(PENALTY_PRESSES)
# the Extreme family's owed reasons: its cards' (the registry's, a live view), the first card's, the penalties'
REASONS = Names(lambda: [*EXTREME_CARD_REASONS, Reason.START, *PENALTY_REASONS])
EXACT_CARDS = COUNTING_CARDS  # every registered counting deck's card names (a live view of the registry)
# exact variants: the reasons an entry is owed for (besides a draw card's name); "draw" is a press's
# 1-card draw, owed from the press until the exit sensor counted it
EXACT_REASONS = (Reason.DEAL, Reason.FIRST, Reason.START, Reason.UNO, Reason.GIVE, Reason.CHALLENGE, Reason.DRAW)
MAX_CARDS = 500  # the most cards one entry or one magazine can hold
# Owed presses that stand for a seat's lost turn: paying them is "the next
# player pressing the button", which closes the Uno catch window.
TURN_REASONS = EXTREME_TURN_REASONS  # a hit card's entry at its victim and the first card's `start` (the registry's)
# The same in the exact variants: a draw card's entry at its victim and the first card's `start` (the registry's).
EXACT_TURN_REASONS = COUNTING_TURN_REASONS

Snapshot = dict[str, Any]  # snapshot(): the GameState fields and "phase", as JSON data


class Window(TypedDict):
    """An Uno window: ``seat`` may be caught for not calling Uno, unless it ``called``."""

    seat: int
    called: bool


class LastPlay(TypedDict):
    """The play ``penalty wrong-card`` may take back: its seat and the game just before it."""

    seat: int
    before: Snapshot


class Challenge(TypedDict):
    """A wild draw card that may be challenged: its victim (``seat``), its player (``by``), the card."""

    seat: int
    by: int
    card: str


class RoundRow(TypedDict):
    """One row of the score sheet, made when a round is settled (``ScoringRules._apply_settlement``).

    ``points``: what each seat in the game that round scored in it (seats as strings, as in the
    protocol); ``out``: the seats it eliminated, in elimination scoring only. A row is never changed
    once made (the sheet grows by a new list), so copies of the game may share the rows."""

    round: int
    winner: int
    points: dict[str, int]
    out: NotRequired[list[int]]


class ShotOut(TypedDict):
    """An exact shot the shooter was serving and had not counted yet (``Table.shot``, ``Table.interrupted``):
    for the head entry of ``seat`` owed for ``reason``, ``planned`` cards; ``counted``: the cards counted to that
    entry before it, ``hand``: the seat's count then (both as saved)."""

    seat: int
    reason: str
    planned: int
    counted: int
    hand: int


@dataclass
class Owed:
    """One entry of the owed queue: presses still owed at one seat.

    In the exact variants an entry is served by one press in full: ``presses``
    is 1, ``cards`` the cards still to shoot (None: until the colour is found)
    and ``served`` the cards shot for it so far (``exact`` marks such entries).
    """

    seat: int  # receives the cards; the shooter points here
    presses: int  # presses still owed
    reason: str  # one of REASONS
    by: int  # presses the button (the card's player for an Extreme Hit, else `seat`)
    cards: int | None = None
    served: int = 0
    exact: bool = False

    def public(self) -> dict[str, Any]:
        """The protocol's owed object (plus ``by``; exact entries add ``cards`` and ``served``)."""
        data: dict[str, Any] = {"seat": self.seat, "presses": self.presses, "reason": self.reason, "by": self.by}
        if self.exact:
            data.update(cards=self.cards, served=self.served)
        return data


@dataclass
class GameState:
    """One game at the table. Seats are 1..players, clockwise."""

    players: int
    edition: str = DEFAULT_EDITION
    scoring: str = WINNER
    limit: int = DEFAULT_LIMIT
    dealer: int = 1
    round: int = 1
    current: int | None = None  # whose turn comes once nothing is owed
    direction: str = "cw"
    queue: list[Owed] = field(default_factory=list)
    totals: dict[int, int] = field(default_factory=dict)
    out: list[int] = field(default_factory=list)  # eliminated seats (elimination scoring)
    uno_window: Window | None = None  # {"seat": S, "called": bool}: S may be caught for not calling Uno
    uno_ahead: int | None = None  # the current seat called Uno before playing
    last_play: LastPlay | None = None  # {"seat": S, "before": snapshot}: for penalty wrong-card
    going_out: int | None = None  # played their last card; round ends when nothing is owed
    round_winner: int | None = None
    winner: int | None = None  # winner of the game
    reports: dict[int, int] = field(default_factory=dict)  # hand points reported this round
    first: str | None = None  # the card turned up at round start
    # --- the exact variants (editions.py, exact.py); extreme keeps the defaults ---
    variant: str = DEFAULT_VARIANT
    start: str | None = None  # classic's first-card rule (`start=`)
    side: str | None = None  # flip: the side up
    hands: dict[int, int] | None = None  # cards in each hand, as counted
    drawn: int | None = None  # the current seat drew this turn
    challenge: Challenge | None = None  # {"seat": victim, "by": card's player, "card": CARD}
    uno_windows: list[Window] = field(default_factory=list)  # [{"seat": S, "called": bool}]
    uno_penalty: int = 2
    deck: int | None = None  # cards declared at round start (the magazine's count)
    rounds: list[RoundRow] = field(default_factory=list)  # the score sheet: one row per settled round

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = {seat: 0 for seat in range(1, self.players + 1)}
        self.derive_from_variant()

    def derive_from_variant(self) -> None:
        """Work out what follows from ``variant`` (call again if it is ever assigned after the game is made).

        ``exact``: an exact variant, the shooter counts every card (editions.py). A plain attribute, not a
        field (it is not saved) nor a property: the controller asks it several times a press."""
        self.exact: bool = family_of(self.variant) == COUNTING

    @property
    def counted(self) -> dict[int, int]:
        """``hands`` where an exact variant's rule needs them (they are counted in every exact game)."""
        hands = self.hands
        assert hands is not None, "hand counts asked of an Uno Extreme game"
        return hands

    def hand_counts(self) -> dict[str, int | None] | None:
        """The hand counts as the protocol gives them (status, ``hands``): every seat's, ``null`` where not
        known (AT-HANDS); None when the game keeps none."""
        hands = self.hands
        return None if hands is None else {str(s): hands.get(s) for s in range(1, self.players + 1)}

    # --- seats --------------------------------------------------------------
    @property
    def in_game(self) -> list[int]:
        """Seats still playing, in seat order."""
        return [s for s in range(1, self.players + 1) if s not in self.out]

    @property
    def two_left(self) -> bool:
        """True when the two-player rules apply (two seats left in the game)."""
        return len(self.in_game) == 2

    def next_seat(self, seat: int, direction: str | None = None) -> int:
        """The next seat in play after `seat` ("left of" = clockwise), skipping eliminated seats."""
        step = 1 if (direction or self.direction) == "cw" else -1
        nxt = seat
        for _ in range(self.players):
            nxt = (nxt - 1 + step) % self.players + 1
            if nxt not in self.out:
                return nxt
        return seat

    @property
    def current_seat(self) -> int:
        """``current`` where a rule needs the seat whose turn it is (there is one: a round is on)."""
        seat = self.current
        assert seat is not None, "no current seat outside a round"
        return seat

    @property
    def head(self) -> Owed | None:
        """The owed entry being paid now, or None."""
        return self.queue[0] if self.queue else None

    def seat_up(self) -> int | None:
        """The seat whose turn it actually is: a seat still owing the presses of its lost turn (a draw card's
        victim takes its cards as its turn), else ``current`` (whatever the last card did to the order: after
        a skip, a skip two, a skip everyone, a two-player reverse, ``current`` names the seat that plays)."""
        lost = EXACT_TURN_REASONS if self.exact else TURN_REASONS
        for entry in self.queue:
            if entry.reason in lost:
                return entry.by
        return self.current

    # --- data ---------------------------------------------------------------
    def clone(self) -> GameState:
        """An independent copy to roll a command back to (``Table._run``): every container a rule
        changes in place is copied; ``last_play`` is shared, as rules only ever replace it whole.

        Much cheaper than a :func:`snapshot` (no JSON data, no checks when restored)."""
        data = self.__dict__.copy()
        data["queue"] = [Owed(o.seat, o.presses, o.reason, o.by, o.cards, o.served, o.exact)  # paid in place
                         for o in self.queue]
        data["totals"] = self.totals.copy()
        data["out"] = self.out.copy()
        data["reports"] = self.reports.copy()
        if self.uno_window is not None:
            data["uno_window"] = self.uno_window.copy()
        if self.hands is not None:
            data["hands"] = self.hands.copy()
        if self.challenge is not None:
            data["challenge"] = self.challenge.copy()
        data["uno_windows"] = [w.copy() for w in self.uno_windows]
        data["rounds"] = self.rounds.copy()  # the rows themselves are never changed (RoundRow)
        twin = object.__new__(GameState)  # the fields as they are, not checked again (__post_init__)
        twin.__dict__ = data
        return twin

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (seat keys as strings): what every game has, and under its rules family's name
        (:data:`PARTS`) that family's own part."""
        family = family_of(self.variant)
        return {
            "players": self.players,
            "scoring": self.scoring,
            "limit": self.limit,
            "dealer": self.dealer,
            "round": self.round,
            "current": self.current,
            "direction": self.direction,
            "queue": [o.public() for o in self.queue],
            "totals": {str(s): p for s, p in self.totals.items()},
            "out": list(self.out),
            "uno_window": dict(self.uno_window) if self.uno_window else None,
            "uno_ahead": self.uno_ahead,
            "going_out": self.going_out,
            "round_winner": self.round_winner,
            "winner": self.winner,
            "reports": {str(s): p for s, p in self.reports.items()},
            "first": self.first,
            "variant": self.variant,
            "rounds": score_sheet(self.rounds),
            family: PARTS[family].dump(self),
        }


def _hand_counts(game: GameState) -> dict[str, int] | None:
    return None if game.hands is None else {str(s): n for s, n in game.hands.items()}


def _extreme_part(game: GameState) -> dict[str, Any]:
    return {"edition": game.edition, "last_play": game.last_play, "hands": _hand_counts(game)}


def _exact_part(game: GameState) -> dict[str, Any]:
    return {
        "start": game.start,
        "side": game.side,
        "hands": _hand_counts(game),
        "drawn": game.drawn,
        "challenge": dict(game.challenge) if game.challenge else None,
        "uno_windows": [dict(w) for w in game.uno_windows],
        "uno_penalty": game.uno_penalty,
        "deck": game.deck,
    }


class Family(NamedTuple):  # not a dataclass: a fifth of the time to make at start-up
    """How one rules family keeps its own part of a game: ``dump`` writes it, the snapshot loader's
    method named ``load`` checks and reads it back (``fields``: its keys, exactly)."""

    fields: frozenset[str]
    dump: Callable[[GameState], dict[str, Any]]
    load: str


# Each rules family keeps its own fields, under its name in the snapshot: the Extreme family its deck edition,
# the play a wrong-card penalty may take back and the hand counts of an edition that keeps them (null: none kept;
# a seat missing: its count is not known, AT-HANDS); the counting dealer's (classic, All Wild, Flip) its first-card
# rule, the side up, the counted hands, the draw of this turn, a challenge, its Uno windows and penalty, the deck's
# count. A game of the one family carries the other's defaults in memory, never in the file.
PARTS: dict[str, Family] = {
    EXTREME: Family(frozenset({"edition", "last_play", "hands"}), _extreme_part, "extreme_part"),
    COUNTING: Family(frozenset({"start", "side", "hands", "drawn", "challenge", "uno_windows", "uno_penalty",
                               "deck"}), _exact_part, "exact_part"),
}


DEALER_REASONS = (Reason.DEAL, Reason.FIRST)  # the dealer's own shots: served without a press, ahead of everything


def count_problem(game: GameState) -> tuple[str, str] | None:
    """What is wrong with an exact game's counts (the field, the problem), or None: every hand and every
    owed entry a count the cards can have (an entry still owes 1.. cards, or until the colour), the hands
    together no more cards than there are (the edition's deck, or more declared at round start), the dealer's
    own shots ahead of every other entry. The table refuses a command that would break this
    (``Table._run``) and the loader a state file that does (the one rule for both)."""
    hands = game.hands
    if hands is not None:
        for seat, held in hands.items():
            if not 0 <= held <= MAX_CARDS:
                return "hands", f"seat {seat} would hold {held} cards"
        there_are = lookup(game.variant, game.edition).cards_there_are(game.deck)
        held = sum(hands.values())
        if held > there_are:
            return "hands", f"the hands would hold {held} cards together, more than the {there_are} there are"
    dealt = True
    for entry in game.queue:
        if entry.exact and entry.cards is not None and not 1 <= entry.cards <= MAX_CARDS:
            return "queue", f"seat {entry.seat} would be owed {entry.cards} cards ({entry.reason})"
        if not 0 <= entry.served <= MAX_CARDS:
            return "queue", f"seat {entry.seat}'s entry ({entry.reason}) would have {entry.served} cards shot"
        if entry.reason in DEALER_REASONS and not dealt:
            return "queue", f"the dealer's shot ({entry.reason}) would wait behind another entry"
        dealt = dealt and entry.reason in DEALER_REASONS
    return None


def score_sheet(rows: list[RoundRow]) -> list[dict[str, Any]]:
    """The score sheet as JSON data of its own (the protocol's status ``rounds``, and the state file)."""
    return [{**row, "points": dict(row["points"]), **({"out": list(row["out"])} if "out" in row else {})}
            for row in rows]


def snapshot(game: GameState, phase: str) -> Snapshot:
    """A self-contained copy of the game and its phase (for undo and saving)."""
    data = game.to_dict()
    data["phase"] = phase
    extreme = data.get(EXTREME)
    if extreme is not None and extreme["last_play"] is not None:
        extreme["last_play"] = json_copy(extreme["last_play"])  # holds a snapshot (one level deep)
    return data


def without_last_play(data: Snapshot) -> Snapshot:
    """An Extreme game's snapshot with no last play of its own: a last play keeps one level only."""
    return {**data, EXTREME: {**data[EXTREME], "last_play": None}}


def json_copy(value: Any) -> Any:
    """A copy of JSON data (dicts, lists and scalars) sharing no dict or list with it: what
    ``copy.deepcopy`` gives for such data, at a fraction of its cost (a snapshot is copied on every play)."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value
