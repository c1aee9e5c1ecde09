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
play clears the history (its cards are out), as does an exact variant's deal
(``round start``, its shots, a void ``first``); so does ``game new``. A refused
``undo`` names what cleared it (``UNDO_BLOCKED``). ``undo`` announces the
restored situation: ``owed`` for the head of the queue, or ``turn`` when
nothing is owed (in phase play only).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shooter.errors import CommandError

from .args import (
    CHALLENGE_RESULT,
    DEFAULT_LIMIT,
    DIRECTION,
    EDITION,
    GIVE_CARDS,
    LIMIT,
    LOWEST,
    PENALTY,
    PLAYERS,
    SCORING,
    SCORINGS,
    SIDE,
    START,
    VARIANT,
    WINNER,
    whole,
)
from .base import UNDO_BLOCKED, Event
from .cards import deck_points, hand_points, parse_card
from .editions import AIMED_EFFECTS, DECK_SIZE, deck, exact_deck_points, exact_hand_points, parse_deck_card
from .exact import DEALT, HAND_SIZE, ExactRules
from .machine import build_machine
from .options import RuleOptions
from .penalties import PenaltyRules
from .persist import UNDO_LEVELS, table_from_dict, table_to_dict
from .scoring import ScoringRules, reporters
from .state import MAX_CARDS, GameState, Snapshot, count_problem, load_snapshot, score_sheet, snapshot
from .turns import TurnRules

# D-SCORE: the scorings each variant allows: all of them in Uno Extreme; winner and lowest in classic and
# flip; winner in All Wild (the scorings' names are args.py's; tests/test_editions_engine.py pins the table
# to args.VARIANTS).
VARIANT_SCORINGS: dict[str, tuple[str, ...]] = {
    "extreme": SCORINGS, "classic": (WINNER, LOWEST), "flip": (WINNER, LOWEST), "all-wild": (WINNER,)}


class Table(TurnRules, PenaltyRules, ScoringRules, ExactRules):
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

    A command that breaks the rules changes nothing and says why::

        >>> try:
        ...     Table().play("5")
        ... except CommandError as error:
        ...     print(error.code)
        no-game
    """

    # The triggers of machine.TRANSITIONS that TableMachine makes methods of the table (declared here for
    # type checkers; tests/test_table_machine.py checks this list against the table). pass_turn and
    # count_shot are commands of the table, so the table pulls those with machine.trigger.
    begin_game: Callable[..., bool]
    begin_round: Callable[..., bool]
    play_card: Callable[..., bool]
    serve_press: Callable[..., bool]
    call_uno: Callable[..., bool]
    catch_uno: Callable[..., bool]
    give_advice_penalty: Callable[..., bool]
    correct: Callable[..., bool]
    take_back_wrong_card: Callable[..., bool]
    deal_round: Callable[..., bool]
    turn_up: Callable[..., bool]
    serve_exact_press: Callable[..., bool]
    play_exact: Callable[..., bool]
    challenge_card: Callable[..., bool]
    find_colour: Callable[..., bool]
    give_cards: Callable[..., bool]
    call_exact_uno: Callable[..., bool]
    catch_exact_uno: Callable[..., bool]
    correct_hand: Callable[..., bool]
    end_round: Callable[..., bool]
    report_hand: Callable[..., bool]
    settle: Callable[..., bool]

    def __init__(self, options: RuleOptions | None = None, rng: random.Random | None = None) -> None:
        self.options = options or RuleOptions()
        self.rng = rng or random.Random()
        self.game = None
        self.history = []  # [{"command": name, "game": snapshot before it}]
        self.undo_blocker = None  # "press" or "deal" (UNDO_BLOCKED) once its cards cleared the history
        self.shooting = False  # exact variants: an accepted press's shot is out, not yet counted (count_shot)
        self._events = []
        self.machine = build_machine(self, "none")

    # --- commands ---------------------------------------------------------------
    def new_game(self, players: object, dealer: object = None, edition: object = None, scoring: object = WINNER,
                 limit: object = DEFAULT_LIMIT, variant: object = "extreme", start: object = None,
                 counting: bool = True) -> list[Event]:
        """`game new`: a new game at the table; totals 0, phase deal.

        `counting`: the shooter has the card-exit sensor (the exact variants need it)."""
        seats = PLAYERS("players", players)
        kind = VARIANT("variant", variant)
        problem = self._sensor_problem(kind, counting)
        if problem:
            raise CommandError("no-exit-sensor", problem)
        if kind != "extreme" and edition is not None:
            raise CommandError("bad-argument", "edition= goes only with variant=extreme.")
        deck_edition = EDITION("edition", "2016" if edition is None else edition)
        if kind != "classic" and start is not None:
            raise CommandError("bad-argument", "start= goes only with variant=classic.")
        first_rule = None
        if kind == "classic":
            first_rule = START("start", self.options.classic_first_card if start is None else start)
        scored = SCORING("scoring", scoring)
        if scored not in VARIANT_SCORINGS[kind]:
            raise CommandError("bad-argument", f"variant {kind} scores {', '.join(VARIANT_SCORINGS[kind])}, "
                                               f"not {scored}.")
        most = LIMIT("limit", limit)
        chosen = self.options.default_dealer if dealer is None else dealer
        if dealer is None and isinstance(chosen, int) and chosen > seats:
            raise CommandError("bad-argument", f"The configured default dealer, seat {chosen}, is not at a "
                                               f"{seats}-seat table; give dealer=.")
        if isinstance(chosen, str) and chosen.strip().lower() == "random":
            first_dealer = self.rng.randint(1, seats)  # G-DEALER: "Wie begint?" by lot, from the injected rng
        else:
            first_dealer = whole(1, seats)("dealer", chosen)
        game = GameState(players=seats, edition=deck_edition, scoring=scored, limit=most, dealer=first_dealer,
                         variant=kind, start=first_rule, uno_penalty=self.options.uno_penalty,
                         hands=None if kind == "extreme" else {s: 0 for s in range(1, seats + 1)})
        return self._run(None, "begin_game", forget="game", game=game)

    def start_round(self, first: object = None, dealer: object = None, cards: object = None) -> list[Event]:
        """`round start first=CARD [dealer=S]`: the dealer turned up CARD (F-*).

        Exact variants: `round start [dealer=S] [cards=N]`: the shuffled deck of N cards is loaded
        and dealt."""
        if self.game is not None and self.game.exact:
            return self._deal_round(first, dealer, cards)
        g = self._need("begin_round", "start a round")
        if cards is not None:
            raise CommandError("bad-argument", "cards= goes only with the exact variants.")
        if first is None:
            raise CommandError("bad-argument", "round start needs first=CARD, the card the dealer turned up.")
        card, _ = parse_card(first, g.edition)
        deals = g.dealer if dealer is None else self._seat(dealer, "dealer")
        return self._run("round start", "begin_round", first=card, dealer=deals, announce=True)

    def play(self, card: object, seat: object = None, target: object = None, last: object = False) -> list[Event]:
        """`play CARD [seat=S] [target=T] [last]`: the current player played CARD."""
        if self.game is not None and self.game.exact:
            return self._play_exact(card, seat, target, last)
        g = self._need("play_card", "play a card")
        name, _ = parse_card(card, g.edition)
        aim = self._play_target(g, seat, target, last)
        head = g.head
        if head is not None:
            raise CommandError("presses-owed",
                               f"Seat {head.seat} still has {head.presses} presses owed ({head.reason}).")
        self._check_target(name, aim)
        return self._run("play", "play_card", card=name, target=aim, last=last,
                         announce=True, finish=self._end_round_if_out)

    def press(self) -> list[Event]:
        """One press the shooter served: pays an owed press or is the current player's draw."""
        # E-REFILL: the table counts no cards, so reloading the shooter changes nothing here; play goes on.
        game = self.game
        if game is not None and game.exact:
            return self._press_exact()
        if game is None or not self.machine.may("serve_press", self.phase):
            return []  # no game or no round on: the press fired like the original launcher's
        return self._run(None, "serve_press", finish=self._end_round_if_out, forget="press")

    def uno(self, seat: object) -> list[Event]:
        """`uno seat=S`: S called Uno and can no longer be caught for that card."""
        if self.game is not None and self.game.exact:
            return self._exact_call("uno", "call_exact_uno", self._exact_uno_problem, seat)
        self._need("call_uno", "call Uno")
        who = self._seat(seat, "seat")
        problem = self._uno_problem(who)
        if problem:
            raise CommandError("too-late", problem)
        return self._run("uno", "call_uno", seat=who)

    def catch(self, seat: object) -> list[Event]:
        """`catch seat=S`: S was caught not calling Uno: 2 presses at S."""
        if self.game is not None and self.game.exact:
            return self._exact_call("catch", "catch_exact_uno", self._exact_catch_problem, seat)
        self._need("catch_uno", "catch a player")
        who = self._seat(seat, "seat")
        problem = self._catch_problem(who)
        if problem:
            raise CommandError("too-late", problem)
        return self._run("catch", "catch_uno", seat=who, announce=True)

    def penalty(self, kind: object, seat: object) -> list[Event]:
        """`penalty advice|wrong-card seat=S`: 4 presses, or the last play taken back and 2 presses."""
        if self.game is None:
            raise CommandError("no-game", "There is no game; start one with game new.")
        if self.game.exact:
            # D-PEN: the advice and wrong-card penalties are Extreme's
            raise CommandError("bad-argument", f"variant {self.game.variant} has no penalty command.")
        if PENALTY("penalty", kind) == "advice":
            self._need("give_advice_penalty", "give an advice penalty")
            return self._run("penalty", "give_advice_penalty", seat=self._seat(seat, "seat"), announce=True)
        self._need("take_back_wrong_card", "take back a wrong card")
        who = self._seat(seat, "seat")
        problem = self._wrong_card_problem(who)
        if problem:
            raise CommandError("too-late", problem)
        return self._run("penalty", "take_back_wrong_card", seat=who, announce=True)

    def hand(self, seat: object, cards: object) -> list[Event]:
        """`hand seat=S cards=...`: the cards left in S's hand; the table counts the points."""
        g = self._need("report_hand", "report a hand")
        who = self._reporter(seat)
        if isinstance(cards, str):
            cards = [c for c in cards.split(",") if c.strip()]
        if not isinstance(cards, (list, tuple)):
            raise CommandError("bad-argument", "cards must be a list of card names.")
        if g.exact:
            # the reported cards are the truth; the tracked count is replaced
            points = exact_hand_points(list(cards), g.variant, g.side)
            return self._report(who, points, count=len(cards))
        return self._report(who, hand_points(list(cards), g.edition))

    def score(self, seat: object, points: object) -> list[Event]:
        """`score seat=S points=P`: the points of S's hand, counted by the players."""
        g = self._need("report_hand", "report a score")
        who = self._reporter(seat)
        most = exact_deck_points(g.variant) if g.exact else deck_points(g.edition)
        return self._report(who, whole(0, most)("points", points), "score")

    def undo(self) -> list[Event]:
        """Take back the last undoable command (see the module docstring)."""
        if self.game is None:
            raise CommandError("no-game", "There is no game; start one with game new.")
        if not self.history:
            blocked = None if self.undo_blocker is None else UNDO_BLOCKED.get(self.undo_blocker)
            raise CommandError("cannot-undo", blocked or "There is nothing to undo.")
        entry = self.history.pop()
        self._restore(entry["game"])
        self._events = []
        self._announce(None)
        return self._events

    def set(self, current: object = None, direction: object = None, side: object = None, seat: object = None,
            hand: object = None) -> list[Event]:
        """`set [current=S] [direction=cw|ccw] [side=light|dark] [seat=S hand=N]`: corrections when
        the table knows better (side: flip; a hand count: the exact variants)."""
        if self.game is not None and (side is not None or seat is not None or hand is not None):
            return self._set_exact(current, direction, side, seat, hand)
        self._need("correct", "correct the turn")
        if current is None and direction is None:
            raise CommandError("bad-argument", "set needs current= or direction=.")
        return self._run("set", "correct", current=None if current is None else self._seat(current, "current"),
                         direction=None if direction is None else DIRECTION("direction", direction), announce=True)

    # --- the exact variants' commands (rules in exact.py) ---------------------------
    def _deal_round(self, first: object, dealer: object, cards: object) -> list[Event]:
        g = self._need("deal_round", "start a round")
        if first is not None:
            raise CommandError("bad-argument", "first= goes only with variant=extreme; here send first CARD "
                                               "once the first card is turned up.")
        deals = g.dealer if dealer is None else self._seat(dealer, "dealer")
        least = HAND_SIZE * len(g.in_game) + 1
        deck_cards = whole(least, MAX_CARDS)("cards", DECK_SIZE if cards is None else cards)
        return self._run(None, "deal_round", dealer=deals, cards=deck_cards, announce=True, forget="deal")

    def first_card(self, card: object) -> list[Event]:
        """`first CARD`: the card the dealer turned up (classic and flip)."""
        if self.game is not None and self.game.variant == "all-wild":
            raise CommandError("bad-argument", "All Wild ignores its first card: there is nothing to report.")
        g = self._need_exact("turn_up", "report the first card")
        self._nothing_owed_now()
        # the card is one of the side that is up (flip: light unless `set side=dark` said otherwise), the side
        # its rules are looked up in: a card of the other side is bad-argument, never a failed look-up
        name, _ = parse_deck_card(card, g.variant, g.side)
        stands = self._first_stands(name)
        return self._run("first" if stands else None, "turn_up", card=name, announce=True,
                         forget=None if stands else "deal")  # a void first card: one more card of the deal

    def _play_target(self, g: GameState, seat: object, target: object, last: object) -> int | None:
        """A play's ``target=`` (None without one), once its ``seat=`` (the current player's, if given) and
        its ``last`` flag are checked."""
        who = None if seat is None else self._seat(seat, "seat", in_game=False)
        aim = None if target is None else self._seat(target, "target", in_game=False)
        if not isinstance(last, bool):
            raise CommandError("bad-argument", "last must be true or false.")
        if who is not None and who != g.current:
            raise CommandError("not-your-turn", f"It is seat {g.current}'s turn, not seat {who}'s.")
        return aim

    def _play_exact(self, card: object, seat: object, target: object, last: object) -> list[Event]:
        g = self._need_exact("play_exact", "play a card")
        name, _ = parse_deck_card(card, g.variant, g.side)
        aim = self._play_target(g, seat, target, last)
        self._nothing_owed_now()
        held = g.counted[g.current_seat]
        if held == 0 or (last and held != 1):
            raise CommandError("bad-argument", f"Seat {g.current} holds {held} cards"
                                               + ("; last is for a hand of 1." if last else "."))
        aims = deck(g.variant, g.side)[name].effect in AIMED_EFFECTS
        if aims != (aim is not None) or (aims and (aim == g.current or aim in g.out)):
            raise CommandError("bad-argument", f"target= (another seat still in the game) goes with "
                                               f"targeted-draw-two and forced-swap only, and they need it; "
                                               f"not with {name}.")
        return self._run("play", "play_exact", card=name, target=aim, last=last, announce=True,
                         finish=self._end_round_if_out)

    def _press_exact(self) -> list[Event]:
        """A press in an exact variant: serves the head of the queue in full, or is the draw.

        D-REFILL: an empty magazine is the shooter's (`empty`); once the shuffled discard pile is
        loaded (`magazine cards=N`) a press serves the rest of the entry."""
        g = self._need_exact("serve_exact_press", "press")
        if not g.queue:
            if self.phase != "play":
                raise CommandError("wrong-phase", "Nothing is due: report the first card with first CARD.")
            if g.drawn is not None or g.going_out is not None:
                raise CommandError("already-drawn", f"Seat {g.current} drew already; play that card or pass.")
        events = self._run(None, "serve_exact_press", forget="press")
        self.shooting = True  # the head is being shot: nothing goes ahead of it until count_shot
        return events

    def draw(self, seat: object = None) -> list[Event]:
        """`draw [seat=S]`: the current player's 1-card draw by console."""
        g = self._need_exact("pass_turn", "draw")
        if seat is not None and self._seat(seat, "seat") != g.current:
            raise CommandError("not-your-turn", f"It is seat {g.current}'s turn, not seat {seat}'s.")
        self._nothing_owed_now()
        return self._press_exact()

    def pass_turn(self, seat: object = None) -> list[Event]:
        """`pass [seat=S]`: after a draw the turn ends."""
        g = self._need_exact("pass_turn", "pass")
        if seat is not None and self._seat(seat, "seat") != g.current:
            raise CommandError("not-your-turn", f"It is seat {g.current}'s turn, not seat {seat}'s.")
        self._nothing_owed_now()
        if g.drawn is None:
            raise CommandError("must-draw", f"Seat {g.current} must draw a card before passing.")
        return self._run("pass", "pass_turn", announce=True)

    def challenge(self, seat: object, result: object) -> list[Event]:
        """`challenge seat=S result=upheld|rejected`: the victim challenged a wild draw card."""
        g = self._need_exact("challenge_card", "challenge")
        if g.variant == "all-wild":
            raise CommandError("bad-argument", "All Wild has no challenge.")
        who = self._seat(seat, "seat")
        outcome = CHALLENGE_RESULT("result", result)
        if g.challenge is None:
            raise CommandError("too-late", "No wild draw card can be challenged now.")
        if who != g.challenge["seat"]:
            raise CommandError("not-your-turn", f"Only seat {g.challenge['seat']}, the victim, may challenge.")
        if not any(o.seat == who and o.reason == g.challenge["card"] for o in g.queue):
            raise CommandError("too-late", f"Seat {who} owes no {g.challenge['card']} cards to challenge.")
        if outcome == "upheld" and g.going_out == g.challenge["by"]:
            # a last wild draw card held no other card: it cannot have been illegal
            raise CommandError("bad-argument", "A last card cannot be an illegal wild draw card.")
        return self._run("challenge", "challenge_card", seat=who, result=outcome, announce=True)

    def colour_found(self, seat: object = None) -> list[Event]:
        """`colour-found [seat=S]`: ends the open-ended Draw Colour entry at the head."""
        g = self._need_exact("find_colour", "end a draw")
        head = g.head
        if head is None or head.cards is not None:
            raise CommandError("wrong-phase", "No draw-until-the-colour is being served.")
        if seat is not None and self._seat(seat, "seat") != head.seat:
            raise CommandError("not-your-turn", f"Seat {head.seat} is drawing, not seat {seat}.")
        if head.served == 0:
            raise CommandError("bad-argument", "No card has been shot for this draw yet.")
        if self.shooting:  # the card coming out is this draw's: it must be counted to it first
            raise CommandError("busy", "A card of this draw is still being shot; send colour-found once it is "
                                       "counted.")
        return self._run("colour-found", "find_colour", finish=self._end_round_if_out)

    def give(self, seat: object, cards: object) -> list[Event]:
        """`give seat=S cards=N`: N cards owed to S, like a penalty."""
        self._need_exact("give_cards", "give cards")
        who = self._seat(seat, "seat")
        return self._run("give", "give_cards", seat=who, cards=GIVE_CARDS("cards", cards), announce=True)

    def _set_exact(self, current: object, direction: object, side: object, seat: object,
                   hand: object) -> list[Event]:
        g = self._need_exact("correct_hand", "correct the table")
        if side is not None and g.variant != "flip":
            raise CommandError("bad-argument", "side= goes only with variant=flip.")
        if (seat is None) != (hand is None):
            raise CommandError("bad-argument", "seat= and hand= go together.")
        now = None if current is None else self._seat(current, "current")
        way = None if direction is None else DIRECTION("direction", direction)
        up = None if side is None else SIDE("side", side)
        who = None if seat is None else self._seat(seat, "seat")
        held = None if hand is None else whole(0, MAX_CARDS)("hand", hand)
        return self._run("set", "correct_hand", current=now, direction=way, side=up, seat=who,
                         hand=held, announce=self.phase == "play")

    def _apply_hand_count(self, current: int | None, direction: str | None, side: str | None, seat: int | None,
                          hand: int | None) -> None:
        # `set seat=S hand=N` corrects one count (and opens no Uno window)
        g = self._game
        if current is not None:
            g.current = current
        if direction is not None:
            g.direction = direction
        if side is not None:
            g.side = side
        if seat is not None:
            assert hand is not None, "set seat= is validated with its hand="
            g.counted[seat] = hand

    def count_shot(self, planned: int, ejected: int | None, seat: int | None = None,
                   reason: str | None = None) -> list[Event]:
        """The exit sensor counted `ejected` cards of a shot of `planned` (exact variants), shot for the entry
        of `seat` and `reason` (the head when it was shot; not checked when not given). Cards for an entry
        that is not the head are refused (``bad-count``), never credited to another entry."""
        self.shooting = False
        game = self.game
        if game is None or not game.exact or not self.machine.may("count_shot", self.phase):
            return []
        head = game.head
        if seat is not None and ejected and (head is None or (head.seat, head.reason) != (seat, reason)):
            owed = "nothing is owed" if head is None else f"seat {head.seat} is owed ({head.reason})"
            raise CommandError("bad-count", f"{ejected} cards shot to seat {seat} ({reason}) are not counted: "
                                            f"{owed}; correct the hand with set seat={seat} hand=N.")
        dealt = head is not None and head.reason in DEALT  # the deal's shots (and the first card)
        return self._run(None, "count_shot", planned=planned, ejected=ejected or 0,
                         finish=self._end_round_if_out if self.phase == "play" else None,
                         forget="deal" if dealt else "press")

    def due(self) -> tuple[int, str, int] | None:
        """Exact variants: (seat, reason, cards) the next shot serves, or None."""
        if self.game is None or not self.game.exact or self.phase not in ("first", "play"):
            return None
        return self._exact_due()

    def dealt_next(self) -> bool:
        """Exact variants: the head is the dealer's own shot (deal, first card): no press needed."""
        head = self.game.head if self.game is not None and self.game.exact else None
        return head is not None and head.reason in ("deal", "first") and self.phase in ("first", "play")

    def _exact_call(self, command: str, trigger: str, problem_of: Callable[[int], tuple[str, str] | None],
                    seat: object) -> list[Event]:
        """`uno` / `catch` in an exact variant: refused with the code the problem names."""
        self._need(trigger, f"{command} a seat")
        who = self._seat(seat, "seat")
        problem = problem_of(who)
        if problem:
            raise CommandError(*problem)
        return self._run(command, trigger, seat=who, announce=True)

    def _need_exact(self, trigger: str, doing: str) -> GameState:
        g = self._need(trigger, doing)
        if not g.exact:
            raise CommandError("bad-argument", f"variant extreme cannot {doing} this way.")
        return g

    def _nothing_owed_now(self) -> None:
        head = self._game.head
        if head is not None:
            raise CommandError("presses-owed", f"Seat {head.seat} is still owed cards ({head.reason}).")

    # --- queries ----------------------------------------------------------------
    def press_owner(self) -> tuple[int | None, str]:
        """(seat the next served press belongs to, "draw" or the owed reason); changes nothing."""
        game = self.game
        if game is None or self.phase != "play":
            return None, "draw"
        if game.queue:  # the head of the queue (asked several times a press: no game.head call)
            head = game.queue[0]
            return head.seat, head.reason
        return game.current, "draw"

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
            "variant": g.variant, "start": g.start, "side": g.side,
            "hands": None if g.hands is None else {str(s): n for s, n in g.hands.items()},
            "drawn": g.drawn, "uno_windows": [dict(w) for w in g.uno_windows],
            "challenge": dict(g.challenge) if g.challenge else None,
            "rounds": score_sheet(g.rounds),
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole table as JSON data: options, game, undo history."""
        return table_to_dict(self)

    @classmethod
    def from_dict(cls, data: object, rng: random.Random | None = None) -> Table:
        """Rebuild a table from `to_dict` data; raises StateFileError for foreign or corrupt data."""
        return table_from_dict(cls, data, rng)

    # --- plumbing -------------------------------------------------------------
    def _snapshot(self) -> Snapshot | None:
        return None if self.game is None else snapshot(self.game, self.phase)

    def _restore(self, data: Snapshot | None) -> None:
        if data is None:
            self.game = None
            self.machine.set_state("none")
            return
        self.game, phase = load_snapshot(data)
        self.machine.set_state(phase)

    def _run(self, command: str | None, trigger: str, announce: bool = False,
             finish: Callable[[], object] | None = None, forget: str | None = None, **kwargs: Any) -> list[Event]:
        """Fire a trigger (named in machine.TRANSITIONS) after validation; all or nothing.

        `command` names the undo level to push (None: not undoable); `forget`
        clears the undo history instead: "game", or what ``undo`` then names as the reason
        (a key of UNDO_BLOCKED: "press", "deal"). After the trigger the rule windows move as the
        command (its trigger and its arguments) says (``_move_windows``, the one place).

        Rolling back needs only a copy of the game (``GameState.clone``); the snapshot of the game
        before (JSON data, for the undo level and a play's ``last_play``) is made from that copy,
        after the trigger and only for an undoable command: a press makes none.
        """
        game, phase = self.game, self.phase
        rollback = None if game is None else game.clone()
        old_head = game.head.public() if announce and game and game.head else None
        self._events = []
        before = None
        try:
            self.machine.trigger(trigger, **kwargs)
            if command is not None and rollback is not None:
                before = snapshot(rollback, phase)
            self._move_windows(trigger, rollback, before, kwargs)
            if announce:
                self._announce(old_head)
            if finish:
                finish()
            if self.game is not None and self.game.exact:
                broken = count_problem(self.game)
                if broken:  # a rule's bug must not reach the shooter or the state file: refused, rolled back
                    raise CommandError("bad-count", f"Refused, nothing changed: {broken[1]}.")
        except BaseException:
            self.game = rollback  # the copy, untouched by the trigger: the game as it was
            self.machine.set_state("none" if rollback is None else phase)
            raise
        if forget:
            self.history, self.undo_blocker = [], (None if forget == "game" else forget)
        elif command is not None:
            self.history = (self.history + [{"command": command, "game": before}])[-UNDO_LEVELS:]
        return self._events

    def _end_round_if_out(self) -> None:
        """Pull ``end_round`` (after a command in phase play) unless its first condition,
        ``_someone_went_out``, already says no: then the trigger would do nothing, so a draw press
        or an ordinary play does not pull it at all. The trigger still asks both its conditions."""
        if self.game is not None and self._someone_went_out():
            self.end_round()

    def _set_up_game(self, game: GameState) -> None:
        self.game = game
        self.shooting = False  # a shot of the game before is no shot of this one

    def _need(self, trigger: str, doing: str) -> GameState:
        """The game, if `trigger` is valid in the current phase; else no-game / wrong-phase."""
        if self.game is None:
            raise CommandError("no-game", "There is no game; start one with game new.")
        if not self.machine.may(trigger, self.phase):
            raise CommandError("wrong-phase", f"Cannot {doing} in phase {self.phase}.")
        return self.game

    def _seat(self, value: object, name: str, in_game: bool = True) -> int:
        g = self._game
        seat = whole(1, g.players)(name, value)
        if in_game and seat in g.out:
            raise CommandError("bad-argument", f"Seat {seat} is out of the game.")
        return seat

    def _check_target(self, card: str, target: int | None) -> None:
        """An Extreme Hit needs a target, any other seat still in the game."""
        g = self._game
        aims = self._effect(card) in AIMED_EFFECTS
        if not aims and target is not None:
            raise CommandError("bad-argument", f"target= goes only with an extreme-hit, not with {card}.")
        if aims and target is None:
            raise CommandError("bad-argument", "An extreme-hit needs target=S, the seat to aim at.")
        if aims and (target == g.current or target in g.out):
            raise CommandError("bad-argument",
                               f"Seat {target} cannot be the target: pick another seat still in the game.")

    def _reporter(self, value: object) -> int:
        seat = self._seat(value, "seat")
        if seat == self._game.round_winner:
            raise CommandError("bad-argument", f"Seat {seat} won the round; their hand counts 0.")
        return seat

    def _report(self, seat: int, points: int, command: str = "hand", count: int | None = None) -> list[Event]:
        return self._run(command, "report_hand", seat=seat, points=points, count=count, finish=self.settle)

