"""The table rules engine: the commands the console sends, checked and applied.

:class:`Table` is a pure model (no hardware, no clock, no I/O). Every command
method first validates everything (phase, arguments, whose turn, what is owed)
and raises :class:`CommandError` without changing anything; then it fires the
phase machine's trigger (``machine.py``), whose named callbacks in
``turns.py``, ``penalties.py`` and ``scoring.py`` apply the rules, and returns
the events they emitted (dicts without ``t``, in order).

Undo keeps snapshots of the game (``history``, newest last, at most
``UNDO_LEVELS``): ``round start``, ``play``, ``uno``, ``catch``, ``penalty``,
``set``, ``hand`` and ``score`` can be taken back. A served press in phase
play clears the history (its cards are out); so does ``game new``. ``undo``
announces the restored situation: ``owed`` for the head of the queue, or
``turn`` when nothing is owed (in phase play only).
"""

from __future__ import annotations

import random

from shooter.errors import CommandError

from .args import DEFAULT_LIMIT, DIRECTION, EDITION, LIMIT, PENALTY, PLAYERS, SCORING, whole
from .cards import deck_points, hand_points, parse_card
from .machine import build_machine
from .options import RuleOptions
from .penalties import PenaltyRules
from .persist import UNDO_LEVELS, table_from_dict, table_to_dict
from .scoring import ScoringRules, reporters
from .state import GameState, load_snapshot, snapshot
from .turns import TurnRules


class Table(TurnRules, PenaltyRules, ScoringRules):
    """The table: seats, turn, owed presses and scores of one game at a time."""

    def __init__(self, options: RuleOptions | None = None, rng: random.Random | None = None):
        self.options = options or RuleOptions()
        self.rng = rng or random.Random()
        self.game: GameState | None = None
        self.history: list[dict] = []  # [{"command": name, "game": snapshot before it}]
        self.undo_blocker: str | None = None  # "press" once a press cleared the history
        self._events: list[dict] = []
        self.machine = build_machine(self, "none")

    # --- commands ---------------------------------------------------------------
    def new_game(self, players, dealer=None, edition="2016", scoring="winner", limit=DEFAULT_LIMIT) -> list[dict]:
        """`game new`: a new game at the table; totals 0, phase deal."""
        players = PLAYERS("players", players)
        edition = EDITION("edition", edition)
        scoring = SCORING("scoring", scoring)
        limit = LIMIT("limit", limit)
        if dealer is None:
            dealer = self.options.default_dealer
            if dealer != "random" and dealer > players:
                raise CommandError("bad-argument", f"The configured default dealer, seat {dealer}, is not at a "
                                                   f"{players}-seat table; give dealer=.")
        if isinstance(dealer, str) and dealer.strip().lower() == "random":
            dealer = self.rng.randint(1, players)  # G-DEALER: "Wie begint?" by lot, from the injected rng
        else:
            dealer = whole(1, players)("dealer", dealer)
        game = GameState(players=players, edition=edition, scoring=scoring, limit=limit, dealer=dealer)
        return self._run(None, "begin_game", forget="game", game=game)

    def start_round(self, first, dealer=None) -> list[dict]:
        """`round start first=CARD [dealer=S]`: the dealer turned up CARD (F-*)."""
        g = self._need("begin_round", "start a round")
        card, _ = parse_card(first, g.edition)
        dealer = g.dealer if dealer is None else self._seat(dealer, "dealer")
        return self._run("round start", "begin_round", first=card, dealer=dealer, announce=True)

    def play(self, card, seat=None, target=None, last=False) -> list[dict]:
        """`play CARD [seat=S] [target=T] [last]`: the current player played CARD."""
        g = self._need("play_card", "play a card")
        card, _ = parse_card(card, g.edition)
        seat = None if seat is None else self._seat(seat, "seat", in_game=False)
        target = None if target is None else self._seat(target, "target", in_game=False)
        if not isinstance(last, bool):
            raise CommandError("bad-argument", "last must be true or false.")
        if seat is not None and seat != g.current:
            raise CommandError("not-your-turn", f"It is seat {g.current}'s turn, not seat {seat}'s.")
        if g.queue:
            head = g.head
            raise CommandError("presses-owed",
                               f"Seat {head.seat} still has {head.presses} presses owed ({head.reason}).")
        self._check_target(card, target)
        return self._run("play", "play_card", card=card, target=target, last=last,
                         announce=True, finish=self.end_round)

    def press(self) -> list[dict]:
        """One press the shooter served: pays an owed press or is the current player's draw."""
        # E-REFILL: the table counts no cards, so reloading the shooter changes nothing here; play goes on.
        if self.game is None or "serve_press" not in self.machine.get_triggers(self.phase):
            return []  # no game or no round on: the press fired like the original launcher's
        return self._run(None, "serve_press", finish=self.end_round, forget="press")

    def uno(self, seat) -> list[dict]:
        """`uno seat=S`: S called Uno and can no longer be caught for that card."""
        self._need("call_uno", "call Uno")
        seat = self._seat(seat, "seat")
        problem = self._uno_problem(seat)
        if problem:
            raise CommandError("too-late", problem)
        return self._run("uno", "call_uno", seat=seat)

    def catch(self, seat) -> list[dict]:
        """`catch seat=S`: S was caught not calling Uno: 2 presses at S."""
        self._need("catch_uno", "catch a player")
        seat = self._seat(seat, "seat")
        problem = self._catch_problem(seat)
        if problem:
            raise CommandError("too-late", problem)
        return self._run("catch", "catch_uno", seat=seat, announce=True)

    def penalty(self, kind, seat) -> list[dict]:
        """`penalty advice|wrong-card seat=S`: 4 presses, or the last play taken back and 2 presses."""
        if self.game is None:
            raise CommandError("no-game", "There is no game; start one with game new.")
        kind = PENALTY("penalty", kind)
        if kind == "advice":
            self._need("give_advice_penalty", "give an advice penalty")
            return self._run("penalty", "give_advice_penalty", seat=self._seat(seat, "seat"), announce=True)
        self._need("take_back_wrong_card", "take back a wrong card")
        seat = self._seat(seat, "seat")
        problem = self._wrong_card_problem(seat)
        if problem:
            raise CommandError("too-late", problem)
        return self._run("penalty", "take_back_wrong_card", seat=seat, announce=True)

    def hand(self, seat, cards) -> list[dict]:
        """`hand seat=S cards=...`: the cards left in S's hand; the table counts the points."""
        g = self._need("report_hand", "report a hand")
        seat = self._reporter(seat)
        if isinstance(cards, str):
            cards = [c for c in cards.split(",") if c.strip()]
        if not isinstance(cards, (list, tuple)):
            raise CommandError("bad-argument", "cards must be a list of card names.")
        return self._report(seat, hand_points(list(cards), g.edition))

    def score(self, seat, points) -> list[dict]:
        """`score seat=S points=P`: the points of S's hand, counted by the players."""
        g = self._need("report_hand", "report a score")
        seat = self._reporter(seat)
        return self._report(seat, whole(0, deck_points(g.edition))("points", points), "score")

    def undo(self) -> list[dict]:
        """Take back the last undoable command (see the module docstring)."""
        if self.game is None:
            raise CommandError("no-game", "There is no game; start one with game new.")
        if not self.history:
            if self.undo_blocker == "press":
                raise CommandError("cannot-undo",
                                   "The last thing was a press; its cards are out and cannot be taken back.")
            raise CommandError("cannot-undo", "There is nothing to undo.")
        entry = self.history.pop()
        self._restore(entry["game"])
        self._events = []
        self._announce(None)
        return self._events

    def set(self, current=None, direction=None) -> list[dict]:
        """`set [current=S] [direction=cw|ccw]`: corrections when the table knows better."""
        self._need("correct", "correct the turn")
        if current is None and direction is None:
            raise CommandError("bad-argument", "set needs current= or direction=.")
        current = None if current is None else self._seat(current, "current")
        direction = None if direction is None else DIRECTION("direction", direction)
        return self._run("set", "correct", current=current, direction=direction, announce=True)

    # --- queries ----------------------------------------------------------------
    def press_owner(self) -> tuple[int | None, str]:
        """(seat the next served press belongs to, "draw" or the owed reason); changes nothing."""
        if self.game is None or self.phase != "play":
            return None, "draw"
        head = self.game.head
        return (head.seat, head.reason) if head else (self.game.current, "draw")

    @property
    def aim_seat(self) -> int | None:
        """S-AIM: the shooter points at the current player, or while presses are owed
        at the seat that receives the cards (the head of the owed queue)."""
        if self.game is None:
            return None
        head = self.game.head
        return head.seat if head else self.game.current

    def status(self) -> dict | None:
        """The protocol's status "game" object (plus a few fields), or None without a game."""
        g = self.game
        if g is None:
            return None
        queue = [o.public() for o in g.queue]
        waiting = [s for s in reporters(g) if s not in g.reports] if self.phase == "scoring" else []
        return {
            "players": g.players, "dealer": g.dealer, "round": g.round, "phase": self.phase,
            "current": g.current, "direction": g.direction,
            "owed": queue[0] if queue else None, "queue": queue,
            "totals": {str(s): p for s, p in g.totals.items()}, "out": sorted(g.out), "winner": g.winner,
            "edition": g.edition, "scoring": g.scoring, "limit": g.limit, "first": g.first,
            "round_winner": g.round_winner, "uno_window": dict(g.uno_window) if g.uno_window else None,
            "reported": {str(s): p for s, p in sorted(g.reports.items())}, "waiting_for": waiting,
            "undo": len(self.history),
        }

    def to_dict(self) -> dict:
        """The whole table as JSON data: options, game, undo history."""
        return table_to_dict(self)

    @classmethod
    def from_dict(cls, data, rng: random.Random | None = None) -> "Table":
        """Rebuild a table from `to_dict` data; raises StateFileError for foreign or corrupt data."""
        return table_from_dict(cls, data, rng)

    # --- plumbing -------------------------------------------------------------
    def _snapshot(self) -> dict | None:
        return None if self.game is None else snapshot(self.game, self.phase)

    def _restore(self, data: dict | None):
        if data is None:
            self.game = None
            self.machine.set_state("none", model=self)
            return
        self.game, phase = load_snapshot(data)
        self.machine.set_state(phase, model=self)

    def _run(self, command, trigger: str, announce=False, finish=None, forget=None, **kwargs) -> list[dict]:
        """Fire a trigger (named in machine.TRANSITIONS) after validation; all or nothing.

        `command` names the undo level to push (None: not undoable); `forget`
        ("press" or "game") clears the undo history instead. After the trigger
        the rule windows move as its rule says (``_move_windows``, the one place).
        """
        before = self._snapshot()
        seen = self._windows_seen()
        old_head = self.game.head.public() if self.game and self.game.head else None
        self._events = []
        try:
            self.trigger(trigger, **kwargs)
            self._move_windows(trigger, seen, before, last=kwargs.get("last", False))
            if announce:
                self._announce(old_head)
            if finish:
                finish()
        except BaseException:
            self._restore(before)
            raise
        if forget:
            self.history, self.undo_blocker = [], ("press" if forget == "press" else None)
        elif command is not None:
            self.history = (self.history + [{"command": command, "game": before}])[-UNDO_LEVELS:]
        return self._events

    def _set_up_game(self, game: GameState):
        self.game = game

    def _need(self, trigger: str, doing: str) -> GameState:
        """The game, if `trigger` is valid in the current phase; else no-game / wrong-phase."""
        if self.game is None:
            raise CommandError("no-game", "There is no game; start one with game new.")
        if trigger not in self.machine.get_triggers(self.phase):
            raise CommandError("wrong-phase", f"Cannot {doing} in phase {self.phase}.")
        return self.game

    def _seat(self, value, name: str, in_game: bool = True) -> int:
        seat = whole(1, self.game.players)(name, value)
        if in_game and seat in self.game.out:
            raise CommandError("bad-argument", f"Seat {seat} is out of the game.")
        return seat

    def _check_target(self, card: str, target: int | None):
        """An Extreme Hit needs a target, any other seat still in the game."""
        g = self.game
        aims = self._effect(card) == "extreme-hit"
        if not aims and target is not None:
            raise CommandError("bad-argument", f"target= goes only with an extreme-hit, not with {card}.")
        if aims and target is None:
            raise CommandError("bad-argument", "An extreme-hit needs target=S, the seat to aim at.")
        if aims and (target == g.current or target in g.out):
            raise CommandError("bad-argument",
                               f"Seat {target} cannot be the target: pick another seat still in the game.")

    def _reporter(self, value) -> int:
        seat = self._seat(value, "seat")
        if seat == self.game.round_winner:
            raise CommandError("bad-argument", f"Seat {seat} won the round; their hand counts 0.")
        return seat

    def _report(self, seat: int, points: int, command: str = "hand") -> list[dict]:
        return self._run(command, "report_hand", seat=seat, points=points, finish=self.settle)

