"""The shooter's beep vocabulary: every sound it makes, in one place.

Each pattern is a list of (frequency in Hz or None for a rest, seconds). An
active buzzer ignores the frequency and plays the rhythm; a piezo plays the tones.
docs/shooter.md's "Beeps" table is generated from :data:`VOCABULARY` by a test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # hal.beeper imports gpiozero: only for the checker
    from hal.beeper import Pattern

LID_CLOSED = [(2000, 0.15)]                                   # H-BEEP: the lid is properly shut
PRESS_ACCEPTED = [(2600, 0.05)]                               # the original's short "ding"
PRESS_REFUSED = [(400, 0.08), (None, 0.06), (400, 0.08)]      # lid open, jammed, busy, empty
JAM = [(300, 0.3), (None, 0.1), (300, 0.3), (None, 0.1), (300, 0.3)]
EMPTY = [(600, 0.4), (400, 0.6)]                              # refill the magazine
OWED_DONE = [(1500, 0.08), (2500, 0.12)]                      # every owed press has been made
FAULT = [(250, 1.0)]                                          # the motor was stopped by a fault
PAIRED = [(1800, 0.06), (None, 0.04), (1800, 0.06), (None, 0.04), (2600, 0.1)]  # a browser was paired

VOCABULARY: dict[str, tuple[Pattern, str]] = {
    "lid-closed": (LID_CLOSED, "the lid was shut properly (H-BEEP)"),
    "press-accepted": (PRESS_ACCEPTED, "a press was accepted and will be served"),
    "press-refused": (PRESS_REFUSED, "a press was refused: lid open, jammed, empty, busy or fault"),
    "jam": (JAM, "no card came out while the motor ran: open and close the lid"),
    "empty": (EMPTY, "the magazine is empty: load the discard pile (E-REFILL)"),
    "owed-done": (OWED_DONE, "the last owed press has been served"),
    "fault": (FAULT, "the motor was stopped by a fault (maximum on-time, internal error)"),
    "paired": (PAIRED, "a browser was paired (by the button, whose press or hold did nothing else, or approved)"),
}


def duration(pattern: Pattern) -> float:
    """How long a pattern plays, in seconds."""
    return sum(seconds for _, seconds in pattern)
