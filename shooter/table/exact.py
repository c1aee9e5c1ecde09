"""The exact variants' rules (classic Uno, Uno All Wild, Uno Flip): the shooter as a counting dealer.

:class:`ExactRules` is a mixin of :class:`shooter.table.Table`, like
``TurnRules``: its methods are the ``after`` callbacks and conditions named in
``machine.TRANSITIONS`` for the exact variants' commands, and run only after
the command was validated. The cards are data (``editions.py``); here are the
few rules that differ from Uno Extreme, each marked with its id (D-*, CL-*,
AW-*, FL-*).

Owed entries of the exact variants are served by one press each, in full
(``Owed.cards``: still to shoot; None: until the colour). The table counts
what the exit sensor counted (:meth:`_count_shot`): a short shot leaves the
rest owed at the head, surplus cards are laid aside, and hands grow by what
was planned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ..editions.records import IGNORED, NUMBER, REDRAW, DeckCard, Effect, default
from ..vocabulary import EventName, HandsReason, Reason
from .base import Snapshot, TableBase, began_turn
from .resume import cards_to_count
from .state import DEALER_REASONS, PENALTY_REASONS, GameState, Owed

# entries the shooter serves without a press (the dealer's own shots)
DEALT = DEALER_REASONS
CHALLENGE_EXTRA = 2  # a rejected challenge costs 2 cards more (4 -> 6; 2 -> 4; colour + 2)


class ExactRules(TableBase):
    """The D-*, CL-*, AW-*, FL-* rules (mixin of Table)."""

    # --- helpers ----------------------------------------------------------------
    def _owe_cards(self, seat: int, cards: int | None, reason: str, front: bool = False) -> None:
        """Queue one exact entry (one press serves it in full).

        The entries are served and credited in one defined order. The dealer's own shots (the deal,
        the first card) come first, then an entry that is being shot (a shot in flight, ``shot``, or one
        cut short by a stop, ``interrupted``) or was shot in part (``served``): no entry goes ahead of those, as
        the cards coming out are theirs. Behind them a penalty or a `give` goes to the front (``penalty_queue``,
        behind earlier ones), anything else to the back."""
        entry = Owed(seat, 1, reason, seat, cards=cards, exact=True)
        queue = self._game.queue
        pinned = 0
        while pinned < len(queue) and queue[pinned].reason in DEALT:
            pinned += 1
        if reason in DEALT:
            queue.insert(pinned, entry)
            return
        # an interrupted shot's entry (resume.py) is one being shot, though no card of it was counted yet
        if pinned == 0 and queue and (self.shot is not None or queue[0].served or self.interrupted is not None):
            pinned = 1
        position = len(queue)
        if front and self.options.penalty_queue == "front":
            position = next((i for i in range(pinned, len(queue))
                             if queue[i].reason not in (*PENALTY_REASONS, Reason.GIVE)), len(queue))
        queue.insert(position, entry)

    def _card(self, name: str) -> DeckCard:
        return self.record.card(name, self._game.side)

    def _emit_hands(self, reason: HandsReason) -> None:
        self._emit(EventName.HANDS, hands={str(s): n for s, n in self._game.counted.items()}, reason=reason)

    # --- the exit sensor ---------------------------------------------------------
    # D-SENSOR: the exact variants need the exit sensor to count cards; `game new`
    # refuses them without it (Table.new_game asks _sensor_problem).
    @staticmethod
    def _sensor_problem(variant: str, needs_sensor: bool, counting: bool) -> str | None:
        if not needs_sensor or counting:
            return None
        return (f"variant {variant} needs the card-exit sensor to count cards; fit it or play "
                f"variant={default().variant}")

    # --- the deal and the first card ----------------------------------------------
    def _turns_up_first(self, **_: Any) -> bool:
        return self.record.turns_up_first

    def _deal(self, dealer: int, cards: int) -> None:
        # D-DEAL: 7 cards per seat (the edition's hand), one counted shot each, from the dealer's left
        # clockwise, the dealer last; then 1 card (`first`) to the dealer.
        g, record = self._game, self.record
        g.dealer, g.deck, g.direction = dealer, cards, "cw"
        g.queue, g.reports, g.first, g.drawn, g.challenge = [], {}, None, None, None
        g.going_out = g.round_winner = None
        g.side = record.sides[0].name
        g.hands = {s: 0 for s in range(1, g.players + 1)}
        seat = dealer
        for _ in g.in_game:
            seat = g.next_seat(seat, "cw")
            self._owe_cards(seat, record.hand_size, Reason.DEAL)
        self._owe_cards(dealer, 1, Reason.FIRST)
        # AW-FIRST: the first card is ignored, never replaced: play starts left of the dealer
        g.current = g.next_seat(dealer) if record.first_card == IGNORED else None

    def _first_stands(self, card: str) -> bool:
        # D-FIRST: the variant decides whether the up card stands; a standing card is carried out
        # by _apply_first.
        # CL-FIRST: `start=redraw` voids any non-number (black cards too: nobody may pick a colour);
        # `start=apply` lets every card stand: a first draw card makes the dealer's left owe its
        # cards (`start`, no challenge) and skips it; a skip skips it; a reverse lets the dealer
        # start, counter-clockwise; black cards without a draw are ordinary.
        # FL-FIRST: the first card (light) is carried out as classic's `apply` does, except a
        # Wild Draw Two, which goes back to the deck (void), and a flip: side dark, ordinary (the
        # dark face does nothing); a skip means the second seat left of the dealer starts.
        # Two players: the dealer starts after a first skip, draw card or reverse.
        # (the edition's record: its start rule, its cards void as first card whatever the rule)
        return card not in self.record.first_void and (self._game.start != REDRAW or card == NUMBER)

    def _void_first(self, card: str) -> None:
        # a void card gets one more card to the dealer (shot without a press)
        g = self._game
        g.first = card
        self._owe_cards(g.dealer, 1, Reason.FIRST)

    def _apply_first(self, card: str) -> None:
        g = self._game
        g.first = card
        left = g.next_seat(g.dealer)
        g.current = left
        row = self._card(card)
        if row.effect in (Effect.DRAW, Effect.WILD_DRAW):
            self._owe_cards(left, row.cards, Reason.START)
            g.current = g.next_seat(left)
        elif row.effect == Effect.SKIP:
            g.current = g.next_seat(left)
        elif row.effect == Effect.REVERSE:
            g.direction, g.current = "ccw", g.dealer
        elif row.effect == Effect.FLIP:
            self._turn_over(g)

    # --- presses, draws, passes ---------------------------------------------------
    def _exact_due(self) -> tuple[int, str, int] | None:
        """What a press serves now: (seat, reason, cards), or None (the draw)."""
        head = self._game.head
        if head is None:
            return None
        # the head in full, or 1 card of an open-ended Draw Colour entry
        return head.seat, head.reason, 1 if head.cards is None else head.cards

    def _apply_exact_press(self) -> None:
        # D-DRAW: with nothing owed a press is the current player's 1-card draw; the turn goes on.
        g = self._game
        if not g.queue:
            self._owe_cards(g.current_seat, 1, Reason.DRAW)
            g.drawn = g.current
        chal, head = g.challenge, g.head
        if chal and head is not None and head.seat == chal["seat"] and head.reason == chal["card"]:
            g.challenge = None  # the victim pressed for its cards: too late to challenge

    def _apply_pass(self) -> None:
        # after a draw the player may pass; the turn ends
        g = self._game
        g.drawn = None
        g.current = g.next_seat(g.current_seat)

    def _count_shot(self, planned: int, ejected: int) -> None:
        # D-SERVE: the counted cards serve the head; the rest stays owed there (a short shot);
        # surplus cards are laid aside (the hand grows by what was planned, never beyond the entry).
        g = self._game
        head = g.head
        got = min(planned, ejected)
        if head is None or got == 0:
            return
        if head.cards is not None:
            got = min(got, head.cards)
        head.served += got
        if head.cards is not None:
            head.cards -= got
        if head.reason != Reason.FIRST:  # the first card goes to the pile, not into the dealer's hand
            g.counted[head.seat] += got  # D-HANDS: + cards counted to it
        if head.cards == 0:
            g.queue.pop(0)
            if head.reason == Reason.DEAL and not any(o.reason == Reason.DEAL for o in g.queue):
                self._emit(EventName.DEAL, dealer=g.dealer, hand=self.record.hand_size,
                           hands={str(s): n for s, n in g.counted.items()})
            if head.reason != Reason.DRAW:  # a draw sends no `turn` event
                self._announce(None)
        elif head.cards is not None and head.reason not in DEALT:
            self._emit(EventName.OWED, seat=head.seat, presses=head.presses, reason=head.reason, cards=head.cards)

    def _apply_colour_found(self) -> None:
        # the open-ended Draw Colour entry ends when the colour came out
        self._game.queue.pop(0)
        self._announce(None)

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
            shot = self.interrupted
            counted = 0 if shot is None else cards_to_count(g, shot, seat, hand)
            if shot is not None and counted:
                self._count_shot(shot["planned"], counted)  # the interrupted shot's cards the hand shows
            g.counted[seat] = hand


    def _apply_give(self, seat: int, cards: int) -> None:
        # D-GIVE: N cards owed to S, queued like a penalty; turns unchanged (a house rule, a correction)
        self._owe_cards(seat, cards, Reason.GIVE, front=True)

    # --- plays -------------------------------------------------------------------
    def _apply_exact_play(self, card: str, target: int | None) -> None:
        g = self._game
        player = g.current_seat
        row = self._card(card)
        g.counted[player] -= 1  # -1 per play
        g.drawn = None
        if g.counted[player] == 0:
            g.going_out = player  # D-LAST: the round ends once nothing is owed
        self.EXACT_EFFECT[row.effect](self, player, card, row, target)

    def _after(self, seat: int, steps: int = 1) -> int:
        g = self._game
        for _ in range(steps):
            seat = g.next_seat(seat)
        return seat

    def _x_plain(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        self._game.current = self._after(player)

    def _x_skip(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        self._game.current = self._after(player, 2)

    def _x_skip_two(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # skip-two: the next min(2, players - 1) lose the turn (no one skips himself);
        # AW-2P: with two players Skip Two (and Reverse, two_player_reverse) act as Skip
        g = self._game
        g.current = self._after(player, 1 + min(2, len(g.in_game) - 1))

    def _x_skip_all(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # FL-2P: Skip Everyone gives the card's player the next turn, at any table size
        self._game.current = player

    def _x_reverse(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        g = self._game
        g.direction = "ccw" if g.direction == "cw" else "cw"
        # CL-2P: with two players a Reverse acts as a Skip (two_player_reverse; All Wild and Flip
        # by decision, see skip-two); a Skip, a draw card give the card's player the turn again
        if g.two_left and self.options.two_player_reverse == "skip":
            g.current = player
        else:
            g.current = self._after(player)

    def _x_draw(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # D-OWED: the victim gets one entry and loses its turn (current points past it);
        # with two players the card's player goes again.
        g = self._game
        victim = self._after(player)
        if g.going_out != player or self.options.last_hit_counts:
            self._owe_cards(victim, row.cards, card)
            if row.challengeable:
                g.challenge = {"seat": victim, "by": player, "card": card}
        g.current = self._after(victim)

    def _x_targeted(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # targeted-draw-two: the target takes 2 and keeps its turn; play goes on after the card's player
        assert target is not None, "a targeted draw is validated with its target"
        self._owe_cards(target, row.cards, card)
        self._game.current = self._after(player)

    def _x_swap(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # forced-swap: player and target swap hand counts; AW-LAST: a last forced swap wins, unswapped
        g = self._game
        assert target is not None, "a forced swap is validated with its target"
        if g.going_out != player:
            g.counted[player], g.counted[target] = g.counted[target], g.counted[player]
            self._emit_hands(HandsReason.FORCED_SWAP)
        g.current = self._after(player)

    def _x_shuffle(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # wild-shuffle: hands pooled and dealt one by one from the player's left, clockwise; then the
        # next player. As last card: no redeal.
        g = self._game
        if g.going_out != player:
            pool = sum(g.counted[s] for s in g.in_game)
            hands = {s: 0 for s in g.counted}
            seat = player
            for _ in range(pool):
                seat = g.next_seat(seat, "cw")
                hands[seat] += 1
            g.hands = hands
            self._emit_hands(HandsReason.WILD_SHUFFLE)
        g.current = self._after(player)

    def _x_flip(self, player: int, card: str, row: DeckCard, target: int | None) -> None:
        # FL-SIDE: the side changes (`side` event): the table turns over the discard pile, every hand and
        # the draw pile (the seed: "de aflegstapel, de trekstapel en alle handen"; for the shooter: lid
        # open, the magazine's stack turned over, lid closed: the count stays). The card now showing does
        # nothing.
        g = self._game
        self._turn_over(g)
        g.current = self._after(player)

    def _turn_over(self, g: GameState) -> None:
        down = self.record.other_side(g.side)
        assert down is not None, "a flip card belongs to a two-sided deck"
        g.side = down.name
        self._emit(EventName.SIDE, side=g.side)

    # What a played card does, per its effect in the variant's card table (editions.py).
    EXACT_EFFECT: ClassVar[dict[str, Callable[[ExactRules, int, str, DeckCard, int | None], None]]] = {
        Effect.PLAIN: _x_plain, Effect.SKIP: _x_skip, Effect.REVERSE: _x_reverse, Effect.DRAW: _x_draw,
        Effect.WILD_DRAW: _x_draw, Effect.SKIP_TWO: _x_skip_two, Effect.TARGETED_DRAW: _x_targeted,
        Effect.SWAP: _x_swap, Effect.SHUFFLE: _x_shuffle, Effect.FLIP: _x_flip, Effect.SKIP_ALL: _x_skip_all,
    }

    # --- challenges --------------------------------------------------------------
    def _apply_challenge(self, seat: int, result: str) -> None:
        # CL-CHAL, FL-CHAL: the victim of a waiting wild draw card challenges before its first card.
        # upheld (the card was illegal): the card's player takes the card's cards (`challenge`) and
        # the victim plays; rejected: the victim takes CHALLENGE_EXTRA more and its turn is lost.
        g = self._game
        chal, g.challenge = g.challenge, None
        assert chal is not None, "a challenge is validated with a wild draw card waiting"
        entry = next(o for o in g.queue if o.seat == chal["seat"] and o.reason == chal["card"])
        if result == "upheld":
            g.queue.remove(entry)
            self._owe_cards(chal["by"], entry.cards, Reason.CHALLENGE)
            g.current = seat
        elif entry.cards is not None:
            entry.cards += CHALLENGE_EXTRA
        else:
            self._owe_cards(seat, CHALLENGE_EXTRA, Reason.CHALLENGE)  # after the colour, 2 more

    # --- the Uno windows with hand counts ------------------------------------
    def _move_counting_windows(self, trigger: str, was: GameState | None, before: Snapshot | None,
                               args: dict[str, Any]) -> None:
        """The counting family's ``move_windows`` (Table._run calls it after every command's trigger)."""
        g = self.game
        if g is None or was is None:
            return  # a new game starts with every window closed
        g.last_play = None  # no wrong-card penalty in the counting family
        self._move_exact_windows(trigger, was.hands, began_turn(was), args.get("seat"))

    def _move_exact_windows(self, trigger: str, hands_before: dict[int, int] | None, began: bool,
                            seat: int | None) -> None:
        """Called by _move_counting_windows (the one place windows move in the counting family);
        `began`: a press was the next player's (a draw, or a press by ``GameState.seat_up``); `seat` is the
        command's ``seat=`` (the seat an ``uno`` or a ``catch`` names)."""
        # D-UNO: a hand becoming 1 (own play, swap, shuffle) opens a window; it closes when the player whose
        # turn it actually is begins (seed 000: "voordat de volgende speler aan zijn beurt begint"): any later
        # play, draw or pass, the victim's press for a draw card's cards, a press by the player up for its own
        # entry; whatever the card did to the order (skip, skip two, skip everyone, a two-player reverse, a
        # targeted card). It also closes when that hand changes. `uno seat=S` marks S's window called, or, S up
        # with 2 cards and nothing owed, covers the card S is about to play; a catch of S closes S's window.
        g = self._game
        if g.hands is None or hands_before is None:
            g.uno_windows = []
            return
        windows = []
        begun = trigger in ("play_card", "pass_turn") or (trigger == "serve_press" and began)
        for w in g.uno_windows:
            if begun:
                continue
            if g.hands[w["seat"]] != hands_before[w["seat"]]:
                continue
            if w["seat"] == seat and trigger == "catch_uno":
                continue  # caught: the window is used up
            if w["seat"] == seat and trigger == "call_uno":
                w["called"] = True
            windows.append(w)
        if trigger == "play_card":
            for s in g.in_game:
                if g.hands[s] == 1 and hands_before[s] != 1:
                    windows.append({"seat": s, "called": g.uno_ahead == s})
            g.uno_ahead = None
        elif trigger == "call_uno":
            assert seat is not None, "an uno call is validated with its seat"
            if seat == g.current and g.counted[seat] == 2:
                g.uno_ahead = seat  # called ahead: safe for the card about to be played
        g.uno_windows = windows
        g.uno_window = windows[0].copy() if windows else None

    def _exact_uno_problem(self, seat: int) -> tuple[str, str] | None:
        g = self._game
        held = g.counted[seat]
        if any(w["seat"] == seat for w in g.uno_windows) or (seat == g.current and held == 2 and not g.queue):
            return None
        if held == 1:
            return "too-late", f"Seat {seat}'s Uno window is closed."
        return "bad-argument", f"Seat {seat} holds {held} cards: nothing to call Uno for."

    def _exact_catch_problem(self, seat: int) -> tuple[str, str] | None:
        g = self._game
        window = next((w for w in g.uno_windows if w["seat"] == seat), None)
        if g.counted[seat] != 1:
            return "bad-argument", f"Seat {seat} holds {g.counted[seat]} cards, not 1."
        if window is None:
            return "too-late", f"Seat {seat}'s Uno window is closed: the next player has begun its turn."
        if window["called"]:
            return "too-late", f"Seat {seat} called Uno and cannot be caught for that card."
        return None

    def _apply_exact_catch(self, seat: int) -> None:
        # CL-UNO: a caught Uno costs uno_penalty cards (2; 4 by the 2001 sheet)
        # (the caught seat's window closes in _move_exact_windows)
        self._owe_cards(seat, self._game.uno_penalty, Reason.UNO, front=True)

