"""The rules families: how a game of each family carries out the table's commands.

A family is one object, chosen when a game starts (by its edition record's ``family``,
:mod:`shooter.editions`) and asked for every command of that game: :class:`shooter.table.Table` hands each
command to it and branches on nothing. Each family plays by its own phase machine
(``machine.FAMILY_TRANSITIONS``, one trigger per command) whose callbacks are the rule mixins' methods:

* :class:`ExtremeFamily` (Uno Extreme's decks): presses are owed and served; the table counts no card
  (``turns.py``, ``penalties.py``);
* :class:`CountingFamily` (classic Uno, All Wild, Flip and any other counting deck): the shooter deals and counts
  every card; the record's data (sides, start rules, challenges, the hand) says what differs (``exact.py``).

A command the family does not have is refused as it always was: ``wrong-phase`` where the other family would
not take it either, else ``bad-argument`` naming the variant.
"""

from __future__ import annotations

from collections.abc import Callable

from ..editions.records import AIMED_EFFECTS, COUNTING, EXTREME, IGNORED, Effect, records
from ..errors import (
    AlreadyDrawn,
    BadArgument,
    BadCount,
    Busy,
    CommandError,
    MustDraw,
    NoGame,
    NotYourTurn,
    PressesOwed,
    TooLate,
    WrongPhase,
    command_error,
)
from ..vocabulary import Phase
from .args import CHALLENGE_RESULT, DIRECTION, GIVE_CARDS, PENALTY, whole, word_of
from .base import Event
from .cards import hand_points, parse_card
from .core import TableCore
from .editions import exact_hand_points, parse_deck_card
from .exact import DEALT
from .machine import FAMILY_TRANSITIONS
from .resume import cards_to_count, shot_record
from .state import MAX_CARDS, GameState


def _may(family: str, trigger: str, phase: str) -> bool:
    """Whether `family`'s machine declares `trigger` for `phase` (read from its table, as the machine does)."""
    for t in FAMILY_TRANSITIONS[family]:
        if t["trigger"] == trigger and (t["source"] == "*" or phase in ([t["source"]] if isinstance(t["source"], str)
                                                                         else t["source"])):
            return True
    return False


class RulesFamily:
    """What every family answers; the commands a family lacks are refused here."""

    name: str
    other: str  # the family whose commands this one refuses as "not this way"

    def _not_here(self, t: TableCore, trigger: str, doing: str) -> CommandError:
        """Why a command of the other family is refused: no game, the phase, or this variant."""
        g = t.game
        if g is None:
            return NoGame("There is no game; start one with game new.")
        if not _may(self.other, trigger, t.phase):
            return WrongPhase(f"Cannot {doing} in phase {t.phase}.")
        return BadArgument(f"variant {g.variant} cannot {doing} this way.")

    windows: str  # the rule method (of the table) that moves the family's rule windows after every command
    counts = False  # every command is checked to leave the card counts sound (state.count_problem)

    # every family's commands (each family carries them out its own way)
    def start_round(self, t: TableCore, first: object, dealer: object, cards: object) -> list[Event]:
        raise NotImplementedError

    def play(self, t: TableCore, card: object, seat: object, target: object, last: object,
             discarded: object = None) -> list[Event]:
        raise NotImplementedError

    def press(self, t: TableCore, fired: bool, cards: int = 0) -> list[Event]:
        raise NotImplementedError

    def uno(self, t: TableCore, seat: object) -> list[Event]:
        raise NotImplementedError

    def catch(self, t: TableCore, seat: object) -> list[Event]:
        raise NotImplementedError

    def penalty(self, t: TableCore, kind: object, seat: object) -> list[Event]:
        raise NotImplementedError

    def hand(self, t: TableCore, who: int, cards: list[str]) -> list[Event]:
        raise NotImplementedError

    def set(self, t: TableCore, current: object, direction: object, side: object, seat: object,
            hand: object) -> list[Event]:
        raise NotImplementedError

    # the counting family's commands, refused by default
    def first_card(self, t: TableCore, card: object) -> list[Event]:
        raise self._not_here(t, "turn_up", "report the first card")

    def draw(self, t: TableCore, seat: object) -> list[Event]:
        raise self._not_here(t, "pass_turn", "draw")

    def pass_turn(self, t: TableCore, seat: object) -> list[Event]:
        raise self._not_here(t, "pass_turn", "pass")

    def challenge(self, t: TableCore, seat: object, result: object) -> list[Event]:
        raise self._not_here(t, "challenge_card", "challenge")

    def colour_found(self, t: TableCore, seat: object) -> list[Event]:
        raise self._not_here(t, "find_colour", "end a draw")

    def give(self, t: TableCore, seat: object, cards: object) -> list[Event]:
        raise self._not_here(t, "give_cards", "give cards")

    def count_shot(self, t: TableCore, planned: int, ejected: int | None, seat: int | None,
                   reason: str | None) -> list[Event]:
        return []  # no card is counted: the exit sensor's count means nothing here

    def due(self, t: TableCore) -> tuple[int, str, int] | None:
        return None

    def dealt_next(self, t: TableCore) -> bool:
        return False


class ExtremeFamily(RulesFamily):
    """Uno Extreme: the F-*, C-*, T-*, P-*, E-* rules (turns.py, penalties.py)."""

    name, other = EXTREME, COUNTING
    windows = "_move_windows"  # PenaltyRules: the Uno window, the call ahead, the wrong card

    def start_round(self, t: TableCore, first: object, dealer: object, cards: object) -> list[Event]:
        g = t._need("begin_round", "start a round")
        if cards is not None:
            raise BadArgument("cards= goes only with the exact variants.")
        if first is None:
            raise BadArgument("round start needs first=CARD, the card the dealer turned up.")
        card, _ = parse_card(first, t.record)
        if card in t.record.first_void:  # the record's: such a first card goes back into the deck
            raise BadArgument(f"A first {card} goes back into the deck; turn up another card.")
        deals = g.dealer if dealer is None else t._seat(dealer, "dealer")
        return t._run("round start", "begin_round", first=card, dealer=deals, announce=True)

    def play(self, t: TableCore, card: object, seat: object, target: object, last: object,
             discarded: object = None) -> list[Event]:
        g = t._need("play_card", "play a card")
        name, _ = parse_card(card, t.record)
        aim = t._play_target(g, seat, target, last)
        head = g.head
        if head is not None:
            raise PressesOwed(f"Seat {head.seat} still has {head.presses} presses owed ({head.reason}).")
        t._check_target(name, aim, card)
        if last and t.record.card(name).effect == Effect.SWAP and t.options.last_trade_hands == "refused":
            # AT-TRADE, rule option last_trade_hands: a sheet that forbids going out with a swap of hands
            raise BadArgument(f"Going out with {name} is refused (rule option last_trade_hands); play or press.")
        count = None if discarded is None else self._discarded(t, g, name, card, discarded)
        return t._run("play", "play_card", card=name, target=aim, last=last, discarded=count,
                      announce=True, finish=t._end_round_if_out)

    @staticmethod
    def _discarded(t: TableCore, g: GameState, name: str, typed: object, discarded: object) -> int:
        """AT-HANDS: a Discard All's ``discarded=N``, the other cards of its colour that went with it: a whole
        number, with a Discard All of an edition that keeps hand counts, no more than the hand holds besides."""
        count = whole(0, MAX_CARDS)("discarded", discarded)
        if not t.record.hand_counts or t._effect(name) != Effect.DISCARD_ALL:
            counted = ", ".join(sorted({r.variant for r in records() if r.hand_counts}))
            raise BadArgument(f"discarded= goes only with a discard-all of variant={counted}, "
                              f"not with {str(typed).strip()}.")
        held = None if g.hands is None else g.hands.get(g.current_seat)
        if held is not None and 1 + count > held:
            raise BadCount(f"Seat {g.current} holds {held} cards: a {name} and {count} more are more than that; "
                           f"correct the count with set seat={g.current} hand=N.")
        return count

    def press(self, t: TableCore, fired: bool, cards: int = 0) -> list[Event]:
        # E-REFILL: the table counts no cards, so reloading the shooter changes nothing here; play goes on.
        if t.game is None or not t.machine.may("serve_press", t.phase):
            return []  # no game or no round on: the press fired like the original launcher's
        return t._run(None, "serve_press", fired=fired, cards=cards, finish=t._end_round_if_out, forget="press")

    def count_shot(self, t: TableCore, planned: int, ejected: int | None, seat: int | None,
                   reason: str | None) -> list[Event]:
        # AT-HANDS: a press's cards were credited at the press as planned; the exit beam's count corrects them
        # (without the sensor, `ejected` is None: the plan stands). Not a command: nothing to undo or refuse.
        game = t.game
        if game is not None and game.hands is not None and seat is not None and ejected is not None:
            t._correct_shot(seat, planned, ejected)
        return []

    def uno(self, t: TableCore, seat: object) -> list[Event]:
        t._need("call_uno", "call Uno")
        who = self._in_time(t._seat(seat, "seat"), t._uno_problem)
        return t._run("uno", "call_uno", seat=who)

    def catch(self, t: TableCore, seat: object) -> list[Event]:
        t._need("catch_uno", "catch a player")
        who = self._in_time(t._seat(seat, "seat"), t._catch_problem)
        return t._run("catch", "catch_uno", seat=who, announce=True)

    @staticmethod
    def _in_time(seat: int, problem_of: Callable[[int], str | None]) -> int:
        """The seat, unless its window says the call or the catch is ``too-late``."""
        problem = problem_of(seat)
        if problem:
            raise TooLate(problem)
        return seat

    def penalty(self, t: TableCore, kind: object, seat: object) -> list[Event]:
        if PENALTY("penalty", kind) == "advice":
            t._need("give_advice_penalty", "give an advice penalty")
            return t._run("penalty", "give_advice_penalty", seat=t._seat(seat, "seat"), announce=True)
        t._need("take_back_wrong_card", "take back a wrong card")
        who = t._seat(seat, "seat")
        problem = t._wrong_card_problem(who)
        if problem:
            raise TooLate(problem)
        return t._run("penalty", "take_back_wrong_card", seat=who, announce=True)

    def hand(self, t: TableCore, who: int, cards: list[str]) -> list[Event]:
        # AT-HANDS-REPORT: the reported cards are the truth, where the record keeps counts (a game that keeps
        # none, Uno Extreme's, has no count to replace)
        return t._report(who, hand_points(cards, t.record), count=len(cards))

    def set(self, t: TableCore, current: object, direction: object, side: object, seat: object,
            hand: object) -> list[Event]:
        counts = t.record.hand_counts  # AT-HANDS: a hand count is corrected as in the counting family
        if side is not None or (not counts and (seat is not None or hand is not None)):
            raise self._not_here(t, "correct", "correct the table")
        t._need("correct", "correct the turn")
        if current is None and direction is None and seat is None and hand is None:
            raise BadArgument("set needs current= or direction=" + (" or seat= and hand=." if counts else "."))
        if (seat is None) != (hand is None):
            raise BadArgument("seat= and hand= go together.")
        return t._run("set", "correct", current=None if current is None else t._seat(current, "current"),
                      direction=None if direction is None else DIRECTION("direction", direction),
                      seat=None if seat is None else t._seat(seat, "seat"),
                      hand=None if hand is None else whole(0, MAX_CARDS)("hand", hand), announce=True)


class CountingFamily(RulesFamily):
    """The counting dealer: the D-* rules and the edition's own (CL-*, AW-*, FL-*; exact.py)."""

    name, other = COUNTING, EXTREME
    windows = "_move_counting_windows"  # ExactRules: the Uno windows of the hand counts
    counts = True

    def start_round(self, t: TableCore, first: object, dealer: object, cards: object) -> list[Event]:
        g = t._need("begin_round", "start a round")
        if first is not None:
            raise BadArgument("first= goes only with variant=extreme; here send first CARD "
                                               "once the first card is turned up.")
        deals = g.dealer if dealer is None else t._seat(dealer, "dealer")
        least = t.record.least_deck(len(g.in_game))
        deck_cards = whole(least, MAX_CARDS)("cards", t.record.deck_size if cards is None else cards)
        # nothing to announce: the deal is owed first, and the dealer's own shots send no `owed`
        return t._run(None, "begin_round", dealer=deals, cards=deck_cards, forget="deal")

    def first_card(self, t: TableCore, card: object) -> list[Event]:
        if t.record.first_card == IGNORED:
            raise BadArgument(f"{t.record.title} ignores its first card: there is nothing to "
                                               f"report.")
        g = t._need("turn_up", "report the first card")
        t._nothing_owed_now()
        # the card is one of the side that is up (flip: light unless `set side=dark` said otherwise), the side
        # its rules are looked up in: a card of the other side is bad-argument, never a failed look-up
        name, _ = parse_deck_card(card, t.record, g.side)
        stands = t._first_stands(name)
        return t._run("first", "turn_up", card=name, announce=True,
                      forget=None if stands else "deal")  # a void first card: one more card of the deal, no level

    def play(self, t: TableCore, card: object, seat: object, target: object, last: object,
             discarded: object = None) -> list[Event]:
        if discarded is not None:  # the shooter counts every card: the table tells it none
            raise BadArgument(f"variant {t.record.variant} counts its hands itself: discarded= goes not with it.")
        g = t._need("play_card", "play a card")
        name, _ = parse_deck_card(card, t.record, g.side)
        aim = t._play_target(g, seat, target, last)
        t._nothing_owed_now()
        held = g.counted[g.current_seat]
        if held == 0 or (last and held != 1):
            raise BadArgument(f"Seat {g.current} holds {held} cards"
                                               + ("; last is for a hand of 1." if last else "."))
        aims = t._card(name).effect in AIMED_EFFECTS
        if aims != (aim is not None) or (aims and (aim == g.current or aim in g.out)):
            raise BadArgument(f"target= (another seat still in the game) goes with "
                                               f"targeted-draw-two and forced-swap only, and they need it; "
                                               f"not with {str(card).strip()}.")  # as typed: "5", not "number"
        return t._run("play", "play_card", card=name, target=aim, announce=True,  # (last: the count says, above)
                      finish=t._end_round_if_out)

    def press(self, t: TableCore, fired: bool, cards: int = 0) -> list[Event]:
        """A press: serves the head of the queue in full, or is the draw (``fired`` and ``cards`` are the
        Extreme family's: here the exit beam counts each card, :meth:`count_shot`).

        D-REFILL: an empty magazine is the shooter's (`empty`); once the shuffled discard pile is
        loaded (`magazine cards=N`) a press serves the rest of the entry."""
        g = t._need("serve_press", "press")
        if not g.queue:
            if t.phase != Phase.PLAY:
                raise WrongPhase("Nothing is due: report the first card with first CARD.")
            if g.drawn is not None or g.going_out is not None:
                raise AlreadyDrawn(f"Seat {g.current} drew already; play that card or pass.")
        events = t._run(None, "serve_press", forget="press")
        due = t._exact_due()
        assert due is not None, "a served press leaves its entry at the head"
        # the head is being shot: nothing goes ahead of it until count_shot (the dealer records the burst it
        # plans, which may be less than the entry, in its place: Dealer._record)
        t.shot = shot_record(g, *due)
        t.interrupted = None  # the shooter finishes the interrupted entry (resume.py)
        return events

    def _call(self, t: TableCore, command: str, trigger: str, seat: object) -> list[Event]:
        """`uno` / `catch`: refused with the code the problem names."""
        t._need(trigger, f"{command} a seat")
        who = t._seat(seat, "seat")
        problem = t._exact_uno_problem(who) if trigger == "call_uno" else t._exact_catch_problem(who)
        if problem:
            raise command_error(*problem)
        return t._run(command, trigger, seat=who, announce=True)

    def uno(self, t: TableCore, seat: object) -> list[Event]:
        return self._call(t, "uno", "call_uno", seat)

    def catch(self, t: TableCore, seat: object) -> list[Event]:
        return self._call(t, "catch", "catch_uno", seat)

    def penalty(self, t: TableCore, kind: object, seat: object) -> list[Event]:
        # D-PEN: the advice and wrong-card penalties are Extreme's
        raise BadArgument(f"variant {t._game.variant} has no penalty command.")

    def hand(self, t: TableCore, who: int, cards: list[str]) -> list[Event]:
        # the reported cards are the truth; the tracked count is replaced
        points = exact_hand_points(cards, t.record, t._game.side)
        return t._report(who, points, count=len(cards))

    def draw(self, t: TableCore, seat: object) -> list[Event]:
        g = t._need("pass_turn", "draw")
        if seat is not None and t._seat(seat, "seat") != g.current:
            raise NotYourTurn(f"It is seat {g.current}'s turn, not seat {seat}'s.")
        t._nothing_owed_now()
        return self.press(t, True)

    def pass_turn(self, t: TableCore, seat: object) -> list[Event]:
        g = t._need("pass_turn", "pass")
        if seat is not None and t._seat(seat, "seat") != g.current:
            raise NotYourTurn(f"It is seat {g.current}'s turn, not seat {seat}'s.")
        t._nothing_owed_now()
        if g.drawn is None:
            raise MustDraw(f"Seat {g.current} must draw a card before passing.")
        return t._run("pass", "pass_turn", announce=True)

    def challenge(self, t: TableCore, seat: object, result: object) -> list[Event]:
        g = t._need("challenge_card", "challenge")
        if not t.record.challenges:
            raise BadArgument(f"{t.record.title} has no challenge.")
        who = t._seat(seat, "seat")
        outcome = CHALLENGE_RESULT("result", result)
        if g.challenge is None:
            raise TooLate("No wild draw card can be challenged now.")
        if who != g.challenge["seat"]:
            raise NotYourTurn(f"Only seat {g.challenge['seat']}, the victim, may challenge.")
        if outcome == "upheld" and g.going_out == g.challenge["by"]:
            # a last wild draw card held no other card: it cannot have been illegal
            raise BadArgument("A last card cannot be an illegal wild draw card.")
        return t._run("challenge", "challenge_card", seat=who, result=outcome, announce=True)

    def colour_found(self, t: TableCore, seat: object) -> list[Event]:
        g = t._need("find_colour", "end a draw")
        head = g.head
        if head is None or head.cards is not None:
            raise WrongPhase("No draw-until-the-colour is being served.")
        if seat is not None and t._seat(seat, "seat") != head.seat:
            raise NotYourTurn(f"Seat {head.seat} is drawing, not seat {seat}.")
        if head.served == 0:
            raise BadArgument("No card has been shot for this draw yet.")
        if t.shot is not None:  # the card coming out is this draw's: it must be counted to it first
            raise Busy("A card of this draw is still being shot; send colour-found once it is "
                                       "counted.")
        return t._run("colour-found", "find_colour", finish=t._end_round_if_out)

    def give(self, t: TableCore, seat: object, cards: object) -> list[Event]:
        t._need("give_cards", "give cards")
        who = t._seat(seat, "seat")
        return t._run("give", "give_cards", seat=who, cards=GIVE_CARDS("cards", cards), announce=True)

    def set(self, t: TableCore, current: object, direction: object, side: object, seat: object,
            hand: object) -> list[Event]:
        if side is None and seat is None and hand is None:
            # the turn alone: a correction while a round is played, as in Uno Extreme
            t._need("correct", "correct the turn")
            if t.phase != Phase.PLAY:
                raise WrongPhase(f"Cannot correct the turn in phase {t.phase}.")
            if current is None and direction is None:
                raise BadArgument("set needs current= or direction=.")
        g = t._need("correct", "correct the table")
        if current is not None and t.phase != Phase.PLAY:   # with side= or a hand too: a turn is the play's only
            raise WrongPhase(f"Cannot correct the turn in phase {t.phase}.")
        if side is not None and len(t.record.sides) < 2:
            two = ", ".join(r.variant for r in records() if len(r.sides) > 1)
            raise BadArgument(f"side= goes only with variant={two}.")
        if (seat is None) != (hand is None):
            raise BadArgument("seat= and hand= go together.")
        now = None if current is None else t._seat(current, "current")
        way = None if direction is None else DIRECTION("direction", direction)
        up = None if side is None else word_of(t.record.side_names)("side", side)
        who = None if seat is None else t._seat(seat, "seat")
        held = None if hand is None else whole(0, MAX_CARDS)("hand", hand)
        shot = t.interrupted
        counts = shot is not None and who is not None and held is not None and cards_to_count(g, shot, who, held) > 0
        events = t._run("set", "correct", current=now, direction=way, side=up, seat=who,
                        hand=held, announce=t.phase == Phase.PLAY and not counts)  # (counted: it announces)
        if t.interrupted is not None and who == t.interrupted["seat"]:
            t.interrupted = None  # the table confirmed the hand (resume.py)
        return events

    def count_shot(self, t: TableCore, planned: int, ejected: int | None, seat: int | None,
                   reason: str | None) -> list[Event]:
        game = t.game
        if game is None or not t.machine.may("count_shot", t.phase):
            return []
        head = game.head
        if seat is not None and ejected and (head is None or (head.seat, head.reason) != (seat, reason)):
            owed = "nothing is owed" if head is None else f"seat {head.seat} is owed ({head.reason})"
            raise BadCount(f"{ejected} cards shot to seat {seat} ({reason}) are not counted: "
                                            f"{owed}; correct the hand with set seat={seat} hand=N.")
        dealt = head is not None and head.reason in DEALT  # the deal's shots (and the first card)
        return t._run(None, "count_shot", planned=planned, ejected=ejected or 0,
                      finish=t._end_round_if_out if t.phase == Phase.PLAY else None,
                      forget="deal" if dealt else "press")

    def due(self, t: TableCore) -> tuple[int, str, int] | None:
        if t.game is None or t.phase not in (Phase.FIRST, Phase.PLAY):
            return None
        return t._exact_due()

    def dealt_next(self, t: TableCore) -> bool:
        head = None if t.game is None else t.game.head
        return head is not None and head.reason in DEALT and t.phase in (Phase.FIRST, Phase.PLAY)


FAMILIES: dict[str, RulesFamily] = {EXTREME: ExtremeFamily(), COUNTING: CountingFamily()}
