"""One vocabulary: the words the protocol sends, as ``StrEnum`` members with their wire values.

Each enum here is the one home of its words (docs/protocol.md, "Events" and "Words"; tests/test_vocabulary.py
checks every member is documented there and every documented word is a member). A member *is* its wire
value (``EventName.SHOT == "shot"``, ``json.dumps`` writes ``"shot"``), so the protocol's lines stay byte for byte
what they were. The error codes are :class:`shooter.errors.ErrorCode`, the cards' effects
:class:`shooter.editions.records.Effect`; a counting deck's card names (an owed entry's reason in the exact
variants) are the edition registry's data, not words of this module.

This module imports nothing of the shooter, so anything may import it.
"""

from __future__ import annotations

from enum import StrEnum


class Word(StrEnum):
    """A word of the protocol. Its repr is its wire value's, as ``str(word)`` is: an event or a reply
    printed as a dict (a doctest, a log line, a failing test's diff) reads as it goes on the wire."""

    def __repr__(self) -> str:
        return repr(self.value)


class EventName(Word):
    """An event's name (``{"event": ...}``)."""

    TURN = "turn"
    AIM = "aim"
    OWED = "owed"
    SHOT = "shot"
    LID = "lid"
    JAM = "jam"
    EMPTY = "empty"
    CLEARED = "cleared"
    READY = "ready"  # a burst is over, the motor pulled back, nothing more queued
    ROUND_OVER = "round-over"
    ROUND_SCORED = "round-scored"
    GAME_OVER = "game-over"
    GAME = "game"
    FAULT = "fault"
    PRESS = "press"
    SAVE_FAILED = "save-failed"
    REFUSED = "refused"
    PAIRED = "paired"
    UNPAIRED = "unpaired"
    PAIR_WAITING = "pair-waiting"
    PAIRING_REFUSED = "pairing-refused"
    NAMES = "names"
    DROPPED = "dropped"
    STORAGE = "storage"
    INTERRUPTED = "interrupted"
    # to the one socket that sent `pair`
    PAIR_GRANTED = "pair-granted"
    PAIR_EXPIRED = "pair-expired"
    PAIR_REFUSED = "pair-refused"
    # the counting family's (exact variants)
    DEAL = "deal"
    SIDE = "side"
    HANDS = "hands"
    UNCOUNTED = "uncounted"
    # the camera over the discard pile's (shooter.camera.pile_reports)
    CAMERA = "camera"
    SEEN = "seen"
    SEEN_CLOSED = "seen-closed"


class Reason(Word):
    """Why cards are owed or shot: ``reason`` of an owed entry (``owed``, ``status``'s ``owed`` and ``queue``),
    of ``shot``, ``press`` and the press reply, ``uncounted`` and ``interrupted``. In the exact variants an
    entry a draw card owes is named by the card instead (the edition registry's card names)."""

    HIT2 = "hit2"
    HIT4 = "hit4"
    EXTREME_HIT = "extreme-hit"
    START = "start"  # the first card's presses or cards (F-*)
    UNO = "uno"  # a caught Uno
    ADVICE = "advice"
    WRONG_CARD = "wrong-card"
    DRAW = "draw"  # a press with nothing owed: the player's draw
    # the counting family's
    DEAL = "deal"
    FIRST = "first"  # the card shot to the dealer to turn up
    GIVE = "give"
    CHALLENGE = "challenge"  # a wild draw card's challenge lost


class CutShort(Word):
    """What cut a shot short (``shot``'s ``interrupted``)."""

    LID = "lid"
    JAM = "jam"
    EMPTY = "empty"
    FAULT = "fault"


class FaultReason(Word):
    """Why the motor was stopped (``fault``'s ``reason``); an internal error's reason goes on after a colon
    (``internal-error: ...``). hal/ reports ``max-on-time`` itself (it imports nothing of the shooter)."""

    MAX_ON_TIME = "max-on-time"
    INTERNAL_ERROR = "internal-error"


class PairingReason(Word):
    """Why a browser's request was refused (``pair-refused``) or its pairing revoked (``unpaired``)."""

    SEVERAL = "several"  # the button's gesture found several browsers asking
    REFUSED = "refused"  # `pair refuse`
    REPLACED = "replaced"  # a newer request from the same client address
    EVICTED = "evicted"  # beyond the paired browsers' cap, the oldest (`unpaired`)


class HandsReason(Word):
    """Why the hand counts changed (``hands``' ``reason``): the counting family's hands changing hands, and the
    Extreme family's counts of Uno Attack (AT-HANDS) after a Discard All and a Trade Hands."""

    FORCED_SWAP = "forced-swap"
    WILD_SHUFFLE = "wild-shuffle"
    DISCARD_ALL = "discard-all"
    TRADE_HANDS = "trade-hands"


class SeenOutcome(Word):
    """Why a read of the pile waits no more (``seen-closed``'s ``outcome``)."""

    PLAYED = "played"
    REJECTED = "rejected"  # `seen reject`
    REFUSED = "refused"  # the rules said no (the `camera` event carries the reply)
    TYPED = "typed"  # a console's `play` reported the card first
    NEW_GAME = "new-game"  # `game new`: the card lay on the last game's pile


class Phase(Word):
    """A game's phase (``status``'s ``game.phase``); no game is no phase (``game: null``)."""

    DEAL = "deal"  # between rounds
    FIRST = "first"  # the counting family: the dealer's first card is awaited
    PLAY = "play"
    SCORING = "scoring"  # hands being reported
    OVER = "over"


class ShooterState(Word):
    """The shooter's state on the wire (``status``'s ``shooter.state``)."""

    BOOTING = "booting"
    READY = "ready"
    AIMING = "aiming"
    FIRING = "firing"
    RETRACTING = "retracting"
    LID_OPEN = "lid-open"
    JAMMED = "jammed"
    EMPTY = "empty"
    FAULT = "fault"


class Lid(Word):
    """The lid (``lid``'s ``state``, ``status``'s ``shooter.lid``)."""

    OPEN = "open"
    CLOSED = "closed"
