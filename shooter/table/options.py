"""Rule options: the choices the seed leaves open, each with its default.

Fields of :class:`RuleOptions` (all defaults follow docs/rules.md or the brief):

``dealer_rotation = "clockwise"``
    After a round the dealer moves one seat clockwise, skipping eliminated
    seats. ``"winner"``: the round's winner deals the next round.
``default_dealer = 1``
    Dealer of the first round when ``game new`` gives none: seat 1, so seat 2
    starts. ``"random"`` draws one with the table's injected rng, like
    ``dealer=random``.
``blank_as = "wild"``
    What a played blank card does: like a ``wild`` (an ordinary play), or like
    any other card named here (``skip``, ``reverse``, ``hit2``, ``hit4``,
    ``extreme-hit``, ``discard-all``, ``number``). It still scores 50. As the
    first card a blank is always a wild (the seed names it).
``first_extreme_hit = "wild"``
    An Extreme Hit turned up as first card is an ordinary first turn.
    ``"hit2"``: it acts like a first Hit 2 (left of the dealer presses 2
    times and is skipped).
``last_hit_counts = True``
    A Hit 2 / Hit 4 played as a last card is still carried out (the victim
    presses) before the round ends. ``False``: the round ends at once.
    A last Extreme Hit is always carried out (the seed says so).
``last_trade_hands = "allowed"``
    AT-TRADE: a Trade Hands may be a player's last card (most public sheets say nothing against it).
    ``"refused"``: going out with one is refused, as one sheet has it; the player plays or presses instead.
``penalty_queue = "front"``
    Penalty presses (uno, advice, wrong-card) go to the front of the owed
    queue, behind penalties already there, so the shooter turns to the
    penalised player at once; afterwards the interrupted presses and the turn
    go on where they were. ``"back"``: they wait behind the presses already
    owed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..editions.records import records
from .args import MAX_SEATS

DEALER_ROTATIONS = ("clockwise", "winner")
# the cards a blank may act as: those of the decks that hold blanks (another box's cards are no blank's)
BLANK_AS = tuple(dict.fromkeys(name for r in records() if not r.counting and "blank" in r.cards()
                               for name in r.cards() if name != "blank"))
FIRST_EXTREME_HIT = ("wild", "hit2")
PENALTY_QUEUE = ("front", "back")
CLASSIC_FIRST_CARD = ("redraw", "apply")
TWO_PLAYER_REVERSE = ("skip", "reverse")
LAST_TRADE_HANDS = ("allowed", "refused")


@dataclass(frozen=True)
class RuleOptions:
    """The rule choices a table can make; see the module docstring for each."""

    dealer_rotation: str = "clockwise"
    default_dealer: int | str = 1
    blank_as: str = "wild"
    first_extreme_hit: str = "wild"
    last_hit_counts: bool = True
    penalty_queue: str = "front"
    classic_first_card: str = "redraw"
    two_player_reverse: str = "skip"
    uno_penalty: int = 2
    last_trade_hands: str = "allowed"

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise ValueError(problem)

    def problem(self) -> str | None:
        """One sentence naming the first invalid field, or None."""
        checks = {
            "dealer_rotation": self.dealer_rotation in DEALER_ROTATIONS,
            "default_dealer": self.default_dealer == "random"
            or (type(self.default_dealer) is int and 1 <= self.default_dealer <= MAX_SEATS),
            "blank_as": self.blank_as in BLANK_AS,
            "first_extreme_hit": self.first_extreme_hit in FIRST_EXTREME_HIT,
            "last_hit_counts": isinstance(self.last_hit_counts, bool),
            "penalty_queue": self.penalty_queue in PENALTY_QUEUE,
            "classic_first_card": self.classic_first_card in CLASSIC_FIRST_CARD,
            "two_player_reverse": self.two_player_reverse in TWO_PLAYER_REVERSE,
            "uno_penalty": type(self.uno_penalty) is int and 2 <= self.uno_penalty <= 4,
            "last_trade_hands": self.last_trade_hands in LAST_TRADE_HANDS,
        }
        for name, ok in checks.items():
            if not ok:
                return f"Rule option {name} has an invalid value {getattr(self, name)!r}."
        return None

    def to_dict(self) -> dict[str, Any]:
        """The options as plain JSON data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> RuleOptions:
        """Rebuild options; raises ValueError naming the problem."""
        if not isinstance(data, dict):
            raise ValueError("The rule options are not an object.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"Unknown rule option {unknown[0]!r}.")
        return cls(**data)
