"""The table rules engine: the commands the console sends, checked and applied.

:class:`Table` is a pure model (no hardware, no clock, no I/O). Every command
is handed to the game's rules family (``families.py``, chosen when the game starts from its edition's
record, :mod:`shooter.editions`), which validates everything (phase, arguments, whose turn, what is owed)
and raises :class:`CommandError` without changing anything; then it fires its phase machine's trigger
(``machine.py``), whose named callbacks in ``turns.py``, ``penalties.py``, ``exact.py`` and ``scoring.py``
apply the rules, and returns the events they emitted (dicts without ``t``, in order).

Undo keeps snapshots of the game (``history``, newest last, at most
``UNDO_LEVELS``): ``round start``, ``play``, ``uno``, ``catch``, ``penalty``,
``set``, ``hand`` and ``score`` can be taken back. A served press in phase
play clears the history (its cards are out), as does an exact variant's deal
(``round start``, its shots, a void ``first``); so does ``game new``. A refused
``undo`` names what cleared it (``UNDO_BLOCKED``). ``undo`` announces the
restored situation: ``owed`` for the head of the queue, or ``turn`` when
nothing is owed (in phase play only).
"""

from __future__ import annotations

import random
from typing import Any

from ..editions.records import SCORINGS_OF, choose, default, lookup, records
from ..errors import BadArgument, CannotUndo, CommandError, NoExitSensor, NoGame
from ..vocabulary import Phase, Reason
from .args import DEFAULT_LIMIT, EDITION, LIMIT, PLAYERS, SCORING, VARIANT, WINNER, whole, word_of
from .base import UNDO_BLOCKED, Event
from .core import TableCore
from .families import FAMILIES, RulesFamily
from .machine import build_machine
from .options import RuleOptions
from .persist import table_from_dict, table_to_dict
from .resume import shot_record
from .scoring import reporters
from .state import GameState, ShotOut, score_sheet
from .turns import TurnRules

# The scorings each variant allows, its edition record's (shooter.editions); a live view.
VARIANT_SCORINGS = SCORINGS_OF

__all__ = ["VARIANT_SCORINGS", "Table", "TurnRules"]


class Table(TableCore):
    """The table: seats, turn, owed presses and scores of one game at a time.

    Each command returns the events it caused; :meth:`press_owner` says whose the
    next press is (the seat, and ``draw`` or what is owed)::

        >>> import random
        >>> table = Table(rng=random.Random(1))
        >>> table.new_game(3, dealer=1)                  # game new players=3 dealer=1
        []
        >>> table.phase
        'deal'
        >>> table.start_round("7")                       # the dealer turned up a 7: seat 2 begins
        [{'event': 'turn', 'seat': 2, 'direction': 'cw'}]
        >>> table.press_owner()
        (2, 'draw')
        >>> table.press()                                # seat 2 drew: the turn passes
        [{'event': 'turn', 'seat': 3, 'direction': 'cw'}]
        >>> table.play("hit2")                           # seat 3 plays a hit 2: seat 1 owes two presses
        [{'event': 'owed', 'seat': 1, 'presses': 2, 'reason': 'hit2'}]
        >>> table.press_owner(), table.aim_seat
        ((1, 'hit2'), 1)
        >>> table.press()
        [{'event': 'owed', 'seat': 1, 'presses': 1, 'reason': 'hit2'}]
        >>> table.press()                                # paid: seat 1 lost its turn, seat 2's go
        [{'event': 'owed', 'seat': 1, 'presses': 0, 'reason': 'hit2'}, {'event': 'turn', 'seat': 2, 'direction': 'cw'}]

    A command that breaks the rules changes nothing and says why, with a named error of :mod:`shooter.errors`::

        >>> from shooter.errors import CommandError
        >>> try:
        ...     Table().play("5")
        ... except CommandError as error:
        ...     print(type(error).__name__, error.code)
        NoGame no-game
    """

    family: RulesFamily

    def __init__(self, options: RuleOptions | None = None, rng: random.Random | None = None) -> None:
        self.options = options or RuleOptions()
        self.rng = rng or random.Random()
        self.game = None
        self.history = []  # [{"command": name, "game": snapshot before it}]
        self.undo_blocker = None  # "press" or "deal" (UNDO_BLOCKED) once its cards cleared the history
        self.shot: ShotOut | None = None  # exact variants: the shot out now, saved until counted (resume.py)
        self.interrupted: ShotOut | None = None  # one that was out when the controller stopped (resume.py)
        self._events = []
        self.phase = "none"
        self._machines: dict[str, Any] = {}
        self._choose_family()

    def _choose_family(self) -> None:
        """The rules family, its phase machine and the edition record of the game (the default edition's
        without a game): chosen when a game starts, is restored or rolled back, never per command."""
        game = self.game
        self.record = default() if game is None else lookup(game.variant, game.edition)
        self.family = FAMILIES[self.record.family]
        machine = self._machines.get(self.family.name)
        if machine is None:
            phase = self.phase
            machine = self._machines[self.family.name] = build_machine(self, phase, self.family.name)
            for trigger in machine._edges:  # the table's commands pull the triggers through its family
                if self.__dict__.get(trigger) is not None and not callable(getattr(type(self), trigger, None)):
                    del self.__dict__[trigger]
        self.machine = machine
        self._windows = getattr(self, self.family.windows)

    # --- commands ---------------------------------------------------------------
    def new_game(self, players: object, dealer: object = None, edition: object = None, scoring: object = WINNER,
                 limit: object = DEFAULT_LIMIT, variant: object = None, start: object = None,
                 counting: bool = True) -> list[Event]:
        """`game new`: a new game at the table; totals 0, phase deal.

        `counting`: the shooter has the card-exit sensor (the exact variants need it)."""
        seats = PLAYERS("players", players)
        kind = VARIANT("variant", default().variant if variant is None else variant)
        problem = self._sensor_problem(kind, lookup(kind).counting, counting)
        if problem:
            raise NoExitSensor(problem)
        # (edition= is checked as a word only for a variant that has editions; choose() refuses it elsewhere)
        record = choose(kind, edition if edition is None or lookup(kind).edition is None
                        else EDITION("edition", edition))
        if not record.start_rules and start is not None:
            takes = ", ".join(r.variant for r in records() if r.start_rules)
            raise BadArgument(f"start= goes only with variant={takes}.")
        first_rule = None
        if record.start_rules:
            configured = self.options.classic_first_card
            first_rule = word_of(record.start_rules)(
                "start", (configured if configured in record.start_rules else record.start_rules[0])
                if start is None else start)
        scored = SCORING("scoring", scoring)
        if scored not in record.scorings:
            raise BadArgument(f"variant {kind} scores {', '.join(record.scorings)}, "
                                               f"not {scored}.")
        most = LIMIT("limit", limit)
        chosen = self.options.default_dealer if dealer is None else dealer
        if dealer is None and isinstance(chosen, int) and chosen > seats:
            raise BadArgument(f"The configured default dealer, seat {chosen}, is not at a "
                                               f"{seats}-seat table; give dealer=.")
        if isinstance(chosen, str) and chosen.strip().lower() == "random":
            first_dealer = self.rng.randint(1, seats)  # G-DEALER: "Wie begint?" by lot, from the injected rng
        else:
            first_dealer = whole(1, seats)("dealer", chosen)
        # a variant with one deck keeps the table's default edition in the game (status says it, as it did)
        deck_edition = record.edition or default().edition or ""
        game = GameState(players=seats, edition=deck_edition, scoring=scored, limit=most, dealer=first_dealer,
                         variant=kind, start=first_rule, uno_penalty=self.options.uno_penalty,
                         hands={s: 0 for s in range(1, seats + 1)} if record.counting else None)
        return self._run(None, "begin_game", forget="game", game=game)

    def start_round(self, first: object = None, dealer: object = None, cards: object = None) -> list[Event]:
        """`round start first=CARD [dealer=S]`: the dealer turned up CARD (F-*).

        Exact variants: `round start [dealer=S] [cards=N]`: the shuffled deck of N cards is loaded
        and dealt."""
        return self.family.start_round(self, first, dealer, cards)

    def play(self, card: object, seat: object = None, target: object = None, last: object = False,
             discarded: object = None) -> list[Event]:
        """`play CARD [seat=S] [target=T] [discarded=N] [last]`: the current player played CARD (``discarded``:
        the cards a Discard All took with it, in an edition that keeps hand counts, AT-HANDS)."""
        return self.family.play(self, card, seat, target, last, discarded)

    def press(self, fired: bool = True, cards: int = 0) -> list[Event]:
        """One press the shooter served: pays an owed press or is the current player's draw (exact variants:
        serves the head of the queue in full, or is the draw). ``fired``: whether the shooter shoots anything
        for it (the controller says, from the scheduler's plan: a rule may owe presses until one fires);
        ``cards``: how many it plans to shoot (the Extreme family's hand counts, AT-HANDS)."""
        return self.family.press(self, fired, cards)

    def uno(self, seat: object) -> list[Event]:
        """`uno seat=S`: S called Uno and can no longer be caught for that card."""
        return self.family.uno(self, seat)

    def catch(self, seat: object) -> list[Event]:
        """`catch seat=S`: S was caught not calling Uno: 2 presses at S."""
        return self.family.catch(self, seat)

    def penalty(self, kind: object, seat: object) -> list[Event]:
        """`penalty advice|wrong-card seat=S`: 4 presses, or the last play taken back and 2 presses."""
        if self.game is None:
            raise NoGame("There is no game; start one with game new.")
        return self.family.penalty(self, kind, seat)

    def hand(self, seat: object, cards: object) -> list[Event]:
        """`hand seat=S cards=...`: the cards left in S's hand; the table counts the points."""
        self._need("report_hand", "report a hand")
        who = self._reporter(seat)
        if isinstance(cards, str):
            cards = [c for c in cards.split(",") if c.strip()]
        if not isinstance(cards, (list, tuple)):
            raise BadArgument("cards must be a list of card names.")
        return self.family.hand(self, who, list(cards))

    def score(self, seat: object, points: object) -> list[Event]:
        """`score seat=S points=P`: the points of S's hand, counted by the players."""
        self._need("report_hand", "report a score")
        who = self._reporter(seat)
        return self._report(who, whole(0, self.record.deck_points())("points", points), "score")

    def undo(self) -> list[Event]:
        """Take back the last undoable command (see the module docstring)."""
        if self.game is None:
            raise NoGame("There is no game; start one with game new.")
        if not self.history:
            blocked = None if self.undo_blocker is None else UNDO_BLOCKED.get(self.undo_blocker)
            raise CannotUndo(blocked or "There is nothing to undo.")
        entry = self.history.pop()
        self._restore(entry["game"])
        self._events = []
        self._announce(None)
        return self._events

    def set(self, current: object = None, direction: object = None, side: object = None, seat: object = None,
            hand: object = None) -> list[Event]:
        """`set [current=S] [direction=cw|ccw] [side=light|dark] [seat=S hand=N]`: corrections when
        the table knows better (side: flip; a hand count: the exact variants)."""
        return self.family.set(self, current, direction, side, seat, hand)

    # --- the counting family's commands (rules in exact.py) ------------------------
    def first_card(self, card: object) -> list[Event]:
        """`first CARD`: the card the dealer turned up (classic and flip)."""
        return self.family.first_card(self, card)

    def draw(self, seat: object = None) -> list[Event]:
        """`draw [seat=S]`: the current player's 1-card draw by console."""
        return self.family.draw(self, seat)

    def pass_turn(self, seat: object = None) -> list[Event]:
        """`pass [seat=S]`: after a draw the turn ends."""
        return self.family.pass_turn(self, seat)

    def challenge(self, seat: object, result: object) -> list[Event]:
        """`challenge seat=S result=upheld|rejected`: the victim challenged a wild draw card."""
        return self.family.challenge(self, seat, result)

    def colour_found(self, seat: object = None) -> list[Event]:
        """`colour-found [seat=S]`: ends the open-ended Draw Colour entry at the head."""
        return self.family.colour_found(self, seat)

    def give(self, seat: object, cards: object) -> list[Event]:
        """`give seat=S cards=N`: N cards owed to S, like a penalty."""
        return self.family.give(self, seat, cards)

    def count_shot(self, planned: int, ejected: int | None, seat: int | None = None,
                   reason: str | None = None) -> list[Event]:
        """The exit sensor counted `ejected` cards of a shot of `planned` (exact variants), shot for the entry
        of `seat` and `reason` (the head when it was shot; not checked when not given). Cards for an entry
        that is not the head are refused (``bad-count``), never credited to another entry."""
        shot, self.shot = self.shot, None
        try:
            return self.family.count_shot(self, planned, ejected, seat, reason)
        except CommandError:
            raise  # refused (bad-count): the shot is over all the same, counted or not (Dealer.count says so)
        except BaseException:
            self.shot = shot  # a failure inside changes nothing, the shot's record included (the game rolls back)
            raise

    def due(self) -> tuple[int, str, int] | None:
        """Exact variants: (seat, reason, cards) the next shot serves, or None."""
        return self.family.due(self)

    def dealt_next(self) -> bool:
        """Exact variants: the head is the dealer's own shot (deal, first card): no press needed."""
        return self.family.dealt_next(self)

    # --- queries ----------------------------------------------------------------
    def press_owner(self) -> tuple[int | None, str]:
        """(seat the next served press belongs to, "draw" or the owed reason); changes nothing."""
        game = self.game
        if game is None or self.phase != Phase.PLAY:
            return None, Reason.DRAW
        if game.queue:  # the head of the queue (asked several times a press: no game.head call)
            head = game.queue[0]
            return head.seat, head.reason
        return game.current, Reason.DRAW

    @property
    def aim_seat(self) -> int | None:
        """S-AIM: the shooter points at the current player, or while presses are owed
        at the seat that receives the cards (the head of the owed queue)."""
        game = self.game
        if game is None:
            return None
        return game.queue[0].seat if game.queue else game.current

    def status(self) -> dict[str, Any] | None:
        """The protocol's status "game" object (plus a few fields), or None without a game."""
        g = self.game
        if g is None:
            return None
        queue = [o.public() for o in g.queue]
        waiting = [s for s in reporters(g) if s not in g.reports] if self.phase == Phase.SCORING else []
        return {
            "players": g.players, "dealer": g.dealer, "round": g.round, "phase": self.phase,
            "current": g.current, "direction": g.direction,
            "owed": queue[0] if queue else None, "queue": queue,
            "totals": {str(s): p for s, p in g.totals.items()}, "out": sorted(g.out), "winner": g.winner,
            "edition": g.edition, "scoring": g.scoring, "limit": g.limit, "first": g.first,
            "round_winner": g.round_winner, "uno_window": dict(g.uno_window) if g.uno_window else None,
            "reported": {str(s): p for s, p in sorted(g.reports.items())}, "waiting_for": waiting,
            "undo": len(self.history),
            "variant": g.variant, "start": g.start, "side": g.side,
            "hands": g.hand_counts(),
            "drawn": g.drawn, "uno_windows": [dict(w) for w in g.uno_windows],
            "challenge": dict(g.challenge) if g.challenge else None,
            "rounds": score_sheet(g.rounds),
            "interrupted": None if self.interrupted is None else dict(self.interrupted),
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole table as JSON data: options, game, undo history."""
        return table_to_dict(self)

    @classmethod
    def from_dict(cls, data: object, rng: random.Random | None = None, counting: bool = True) -> Table:
        """Rebuild a table from `to_dict` data (of this version or an earlier one); raises StateFileError for
        foreign or corrupt data. `counting`: the shooter has the card-exit sensor (exact games need it)."""
        table = table_from_dict(lambda options: cls(options=options, rng=rng), data, counting)
        table._choose_family()  # the saved game's family plays it on
        return table

    def shot_out(self, seat: int, reason: str, planned: int) -> None:
        """Exact variants: the shooter starts a shot of `planned` cards for the head entry (of `seat`, owed for
        `reason`); recorded, and saved with the table, until :meth:`count_shot` (resume.py)."""
        assert self.game is not None, "an exact shot is for a game"
        self.shot = shot_record(self.game, seat, reason, planned)
