"""What the table learns from the discard pile: one :class:`Read` of the card that was put on top.

A read is data, whoever made it: the recogniser looking at camera frames (``shooter.vision``), or a test that
knows the card. It names the card as the protocol does (``7``, ``skip``, ``wild-draw-four``: the names ``play``
takes), the colour printed on it (None for a black card: a wild's colour is named by the player, not printed),
the side that shows (Uno Flip's ``light`` or ``dark``; None for a one-sided deck), how sure the reader is (0..1),
whether the reader itself calls it unsure (below its own threshold: asked, never played on its own), the nearest
other readings, best first, and where the card was found (``quad``: the recogniser's corners in the frame, for
pictures; None for a read that came from no camera).
:class:`shooter.camera.pile_reports.PileReports` turns reads into plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The colours are the decks' (kept there so that a start-up without a camera need not load this module)
from ..editions.records import COLOURS, DARK_COLOURS, LIGHT_COLOURS

__all__ = ["COLOURS", "DARK_COLOURS", "LIGHT_COLOURS", "Alternative", "Read"]

Alternative = tuple[str, str | None, float]   # (card, colour or None, confidence)


@dataclass(frozen=True)
class Read:
    """One card seen on top of the discard pile (see the module docstring)."""

    card: str
    colour: str | None = None
    side: str | None = None
    confidence: float = 1.0
    alternatives: tuple[Alternative, ...] = ()
    unsure: bool = False
    # a numpy array of 4 corners (shooter.vision.outline.Quad): Any, so that this module needs no numpy
    quad: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # a read comes from another part (a recogniser, a test): refuse one that could not be reported
        problem = _fault(self)
        if problem:
            raise ValueError(f"a read {problem}")

    def describe(self) -> str:
        """The read in a few words, for a log line or a picture: ``red 7 (light) 0.93 unsure``."""
        what = f"{self.colour} {self.card}" if self.colour else self.card
        side = f" ({self.side})" if self.side else ""
        return f"{what}{side} {self.confidence:.2f}{' unsure' if self.unsure else ''}"

    def pick(self, k: int) -> tuple[str, str | None]:
        """The card and colour of reading ``k``: 0 the read itself, 1.. its alternatives."""
        if k == 0:
            return self.card, self.colour
        card, colour, _ = self.alternatives[k - 1]
        return card, colour


def _fault(read: Read) -> str:
    if not isinstance(read.card, str) or not read.card or any(c.isspace() or c == "=" for c in read.card):
        return f"names no card: {read.card!r}"
    if not 0.0 <= read.confidence <= 1.0:   # also refuses nan
        return f"must have a confidence 0..1, got {read.confidence!r}"
    for card, colour, confidence in read.alternatives:
        if not card or any(c.isspace() or c == "=" for c in card) or not 0.0 <= confidence <= 1.0:
            return f"has a bad alternative {(card, colour, confidence)!r}"
    colours = [read.colour, *(colour for _, colour, _ in read.alternatives)]
    bad = next((c for c in colours if c is not None and c not in COLOURS), None)
    if bad is not None:
        return f"names no colour of a card: {bad!r}"
    return ""
