"""Whose turn it is: seats, the first card, plays, presses, the end of a round.

:class:`TurnRules` is a mixin of :class:`shooter.table.Table`. Its methods are
the ``after`` callbacks and conditions named in ``machine.TRANSITIONS``; they
run only after the command was fully validated, so they never refuse anything.
Each rule id of docs/rules.md appears once in this package, where it is carried out.

Events (docs/protocol.md) and when they are emitted:

* ``owed`` {seat, presses, reason}: when the head of the owed queue changes
  (a new head, e.g. after a Hit 2 or a penalty that goes to the front) and
  after every press that pays part of it, with the presses still owed there;
  when the head is paid off: ``presses`` 0, followed by the new head if any.
  Entries added behind the head are not announced until they become the head.
* ``turn`` {seat, direction}: when a seat may act, i.e. nothing is owed: after
  a round start, a play, a draw press, the last owed press, a ``set`` and an
  ``undo``. While presses are owed ``current`` already names the next player,
  but its ``turn`` waits until the queue is empty. After a Skip with two
  players the same seat gets a new ``turn`` event.
* ``round-over`` {winner}: when a seat went out and every press its last card
  caused (and any penalty still owed) is done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from ..editions.records import Effect
from ..vocabulary import EventName, HandsReason, Phase, Reason
from .base import Event, TableBase
from .state import MAX_CARDS, GameState, Owed

# AT-HANDS: the effects whose play changes more hand counts than the player's one card, and the word the `hands`
# event gives for it
HANDS_REASONS: dict[str, HandsReason] = {Effect.DISCARD_ALL: HandsReason.DISCARD_ALL,
                                         Effect.SWAP: HandsReason.TRADE_HANDS}


class TurnRules(TableBase):
    """Turn order, owed presses and the end of a round (mixin of Table)."""

    # --- events ---------------------------------------------------------------
    def _announce_turn(self) -> None:
        """`turn` for the current seat, if it may act now (nothing owed, round on)."""
        g = self._game
        if self.phase == Phase.PLAY and not g.queue and g.going_out is None:
            # (the event as _emit builds it, built here: every draw press sends one)
            self._events.append({"event": EventName.TURN, "seat": g.current, "direction": g.direction})

    def _announce(self, old_head: Event | None) -> None:
        """After a command: `owed` if the head of the queue changed, else `turn` when nothing is owed."""
        head = self._game.head
        if head is None:
            self._announce_turn()
        elif head.public() != old_head and head.exact:
            if head.reason not in (Reason.DEAL, Reason.FIRST):  # the dealer's own shots send no `owed`
                self._emit(EventName.OWED, seat=head.seat, presses=head.presses, reason=head.reason, cards=head.cards)
        elif head.public() != old_head:
            self._emit(EventName.OWED, seat=head.seat, presses=head.presses, reason=head.reason)

    def _owe(self, seat: int, presses: int, reason: str, by: int | None = None) -> None:
        """Queue presses the rules owe (behind whatever is owed already)."""
        self._game.queue.append(Owed(seat, presses, reason, seat if by is None else by))

    # --- round start and the dealer -------------------------------------------
    # S-DEALER: the player left of (clockwise from) the dealer starts and play
    # starts clockwise (_turn_up_first_card); the dealer moves one seat
    # clockwise each new round, skipping eliminated seats, or the round's
    # winner deals next (_next_dealer, RuleOptions.dealer_rotation).
    def _turn_up_first_card(self, first: str, dealer: int) -> None:
        g = self._game
        g.dealer, g.first, g.direction = dealer, first, "cw"
        g.queue, g.reports = [], {}
        g.going_out = g.round_winner = None
        g.current = g.next_seat(dealer)
        if self.record.hand_counts:
            # AT-HANDS: every seat in the game was dealt the record's hand (by hand: the shooter deals nothing here)
            g.hands = {seat: self.record.hand_size for seat in g.in_game}
        # F-*: what the first card does follows from its effect in the game's record (a blank: a wild here,
        # whatever blank_as says); the record's first_void cards never get here (ExtremeFamily.start_round)
        self.FIRST_CARD[self.record.card(first).effect](self, first)

    def _next_dealer(self) -> int:
        """The dealer of the next round."""
        g = self._game
        if self.options.dealer_rotation == "winner":
            winner = g.round_winner
            assert winner is not None, "settled a round without its winner"
            return winner
        return g.next_seat(g.dealer, "cw")

    def _first_ordinary(self, first: str) -> None:
        """An ordinary first turn for the player left of the dealer (see FIRST_CARD)."""

    def _first_reverse(self, first: str) -> None:
        # F-REV: the dealer starts and play goes counter-clockwise. With two
        # seats this is also what the two-player rule gives (reverse = skip, so the seat
        # left of the dealer is skipped and the dealer, as the card's "player",
        # goes again): both readings agree that the dealer starts.
        g = self._game
        g.direction, g.current = "ccw", g.dealer

    def _first_skip(self, first: str) -> None:
        # F-SKIP: the player left of the dealer is skipped; the next one starts
        # (with two seats: the dealer, as the two-player skip rule gives too).
        g = self._game
        g.current = g.next_seat(g.current_seat)

    def _first_hit(self, first: str, presses: int | None = None) -> None:
        # F-HIT: the player left of the dealer presses 2 / 4 times and is
        # skipped; the next one starts (with two seats: the dealer).
        g = self._game
        victim = g.current_seat
        self._owe(victim, presses or self.record.card(first).presses, Reason.START)
        g.current = g.next_seat(victim)

    def _first_extreme_hit(self, first: str) -> None:
        # F-XHIT: the seed is silent; by default an ordinary first turn (like a
        # wild), or like a first Hit 2 (RuleOptions.first_extreme_hit).
        if self.options.first_extreme_hit == "hit2":
            self._first_hit(first, presses=2)

    # F-*: what the card turned up at round start does, per its effect (F-NUM, F-DALL, F-WILD: an ordinary
    # first turn; the others carry their rule id in their method).
    FIRST_CARD: ClassVar[dict[str, Callable[[TurnRules, str], None]]] = {
        Effect.PLAIN: _first_ordinary,
        Effect.REVERSE: _first_reverse,
        Effect.SKIP: _first_skip,
        Effect.HIT: _first_hit,
        Effect.EXTREME_HIT: _first_extreme_hit,
        # AT-FIRST: a first Discard All, Trade Hands or Wild: an ordinary first turn; a first Wild All Hit or
        # Wild Hit-Fire is carried out against the first player as its play would be (see _first_attack)
        Effect.DISCARD_ALL: _first_ordinary,
        Effect.SWAP: _first_ordinary,
        Effect.ALL_HIT: lambda self, first: self._first_attack(first),
        Effect.HIT_FIRE: lambda self, first: self._first_attack(first),
    }

    def _first_attack(self, first: str) -> None:
        # AT-FIRST: a first Wild All Hit: every player presses once, from the dealer's left (the dealer too);
        # a first Wild Hit-Fire: the player left of the dealer presses until a card comes out, and is skipped.
        g = self._game
        victim = g.current_seat
        card = self.record.card(first)
        if card.effect == Effect.ALL_HIT:
            seat = victim
            for _ in range(len(g.in_game)):
                self._owe(seat, card.presses, first)
                seat = g.next_seat(seat)
            return
        self._owe(victim, card.presses, first)
        g.current = g.next_seat(victim)

    # --- a play and the cards' effects ------------------------------------------
    def _apply_play(self, card: str, target: int | None, last: bool, discarded: int | None = None) -> None:
        # T-PLAY: the current player played one card (validated: nothing owed).
        g = self._game
        player = g.current_seat
        # the Uno and wrong-card windows open in PenaltyRules._move_windows
        if last:
            g.going_out = player  # the round ends once its presses are done (_close_round)
        effect = self._effect(card)
        if g.hands is not None:
            self._count_play(g.hands, player, effect, last, discarded, target)
        self.PLAY_EFFECT[effect](self, player, card, target, last)

    def _count_play(self, hands: dict[int, int], player: int, effect: str, last: bool, discarded: int | None,
                    target: int | None) -> None:
        # AT-HANDS: the card leaves the hand (a last card: the hand is empty); a Discard All takes the `discarded`
        # cards of its colour with it (without `discarded=` the table does not know how many: that count is not
        # known until `set seat=S hand=N` or the next round start); a Trade Hands swaps the two counts (a last one
        # swaps nothing: the player is out). A count that would go below 0 is one the table cannot trust: not
        # known either (the play itself is the table's word and is never refused for it).
        held = hands.get(player)
        unknown = effect == Effect.DISCARD_ALL and discarded is None
        if last:
            hands[player] = 0
        elif held is not None and (unknown or held < 1 + (discarded or 0)):
            del hands[player]
        elif held is not None:
            hands[player] = held - 1 - (discarded or 0)
        if effect == Effect.SWAP and target is not None and not last:
            mine, theirs = hands.pop(player, None), hands.pop(target, None)
            if theirs is not None:
                hands[player] = theirs
            if mine is not None:
                hands[target] = mine
        reason = HANDS_REASONS.get(effect)
        if reason is not None:
            self._emit(EventName.HANDS, hands=self._game.hand_counts(), reason=reason)

    def _acting_as(self, card: str) -> str:
        """The card a played card acts as."""
        # C-BLANK: a blank counts as a wild unless RuleOptions.blank_as names another card.
        return self.options.blank_as if card == "blank" else card

    def _effect(self, card: str) -> str:
        """The effect of a played card (the game's record's)."""
        return self.record.card(self._acting_as(card)).effect

    def _play_plain(self, player: int, card: str, target: int | None, last: bool) -> None:
        # C-NUM, C-DALL, C-WILD: for the controller a normal play; the turn passes on.
        g = self._game
        g.current = g.next_seat(player)

    def _play_skip(self, player: int, card: str, target: int | None, last: bool) -> None:
        # C-SKIP: the next player loses the turn.
        # C-2P-SKIP: with two seats, two steps lead back to the player: they play again.
        g = self._game
        g.current = g.next_seat(g.next_seat(player))

    def _play_reverse(self, player: int, card: str, target: int | None, last: bool) -> None:
        # C-REV: the direction flips; the next seat in the new direction plays.
        g = self._game
        g.direction = "ccw" if g.direction == "cw" else "cw"
        if g.two_left:
            # C-2P-REV: with two seats a Reverse acts as a Skip: the same player
            # plays again (the direction still flips, which two seats cannot feel).
            g.current = player
        else:
            g.current = g.next_seat(player)

    def _play_hit(self, player: int, card: str, target: int | None, last: bool) -> None:
        # C-HIT2 / C-HIT4: the next player presses 2 / 4 times, takes what comes
        # out and loses the turn; no passing on (they cannot play while owing).
        # C-2P-HIT: with two seats the seat after the victim is the card's player: they are up again.
        g = self._game
        victim = g.next_seat(player)
        hit = self._acting_as(card)
        if not last or self.options.last_hit_counts:  # E-HIT: a last Hit 2/4 is still carried out
            self._owe(victim, self.record.card(hit).presses, hit)
        g.current = g.next_seat(victim)

    def _play_extreme_hit(self, player: int, card: str, target: int | None, last: bool) -> None:
        # C-XHIT: the shooter turns to the target and the card's player presses
        # 2 times (the cards go to the target, so the queue entry's seat is the
        # target and `by` the player); then the player after the card's player
        # plays: the target does not lose a turn.
        # E-XHIT: a last Extreme Hit is still carried out before the round ends.
        g = self._game
        assert target is not None, "an extreme-hit is validated with its target"
        hit = self._acting_as(card)
        self._owe(target, self.record.card(hit).presses, hit, by=player)
        g.current = g.next_seat(player)

    def _play_all_hit(self, player: int, card: str, target: int | None, last: bool) -> None:
        # AT-ALLHIT: every other seat presses `presses` times, in turn order from the player's left; then the
        # seat left of the player plays (it pressed, but the card does not take its turn).
        g = self._game
        hit = self._acting_as(card)
        seat = g.next_seat(player)
        while seat != player:
            self._owe(seat, self.record.card(hit).presses, hit, by=player)
            seat = g.next_seat(seat)
        g.current = g.next_seat(player)

    def _play_hit_fire(self, player: int, card: str, target: int | None, last: bool) -> None:
        # AT-HITFIRE: the next seat presses until the shooter shoots at least one card (_pay_owed_press keeps
        # the entry while a press shoots nothing) and loses the turn; with two seats the player is up again.
        g = self._game
        victim = g.next_seat(player)
        hit = self._acting_as(card)
        self._owe(victim, self.record.card(hit).presses, hit, by=player)
        g.current = g.next_seat(victim)

    # What a played card does, per its effect in the game's record.
    PLAY_EFFECT: ClassVar[dict[str, Callable[[TurnRules, int, str, int | None, bool], None]]] = {
        Effect.PLAIN: _play_plain,
        Effect.SKIP: _play_skip,
        Effect.REVERSE: _play_reverse,
        Effect.HIT: _play_hit,
        Effect.EXTREME_HIT: _play_extreme_hit,
        Effect.DISCARD_ALL: _play_plain,  # AT-DALL: the player discards the colour's cards; the turn passes
        # AT-TRADE: the player swaps hands with the target (aimed like an Extreme Hit; the two counts swap in
        # _count_play, where the edition keeps them); the turn passes to the next seat
        Effect.SWAP: _play_plain,
        Effect.ALL_HIT: _play_all_hit,
        Effect.HIT_FIRE: _play_hit_fire,
    }

    # --- a press ---------------------------------------------------------------
    def _apply_press(self, fired: bool = True, cards: int = 0) -> None:
        """One served press: pays the head of the owed queue, or is the current player's draw. ``fired``: the
        controller's word whether the shooter shoots anything for this press (the scheduler's plan); ``cards``:
        how many it plans to shoot (AT-HANDS: credited to the receiving seat now, corrected by the shot's count
        once it is over, :meth:`_correct_shot`)."""
        g = self._game
        if g.hands is not None and cards:
            self._credit(g, g.queue[0].seat if g.queue else g.current_seat, cards)
        if g.queue:
            self._pay_owed_press(fired)
        else:
            self._draw(g)

    def _pay_owed_press(self, fired: bool) -> None:
        # T-EXACT: presses are counted exactly; the queue never owes more than the rules do.
        # T-STUCK: whatever comes out, stuck cards included, is this press's; it owes nothing more.
        g = self._game
        head = g.head
        assert head is not None, "a press paid an owed press with nothing owed"
        if not fired and self._until_fired(head.reason):
            # AT-HITFIRE: a press that shot nothing pays nothing of a Hit-Fire: the seat presses again
            self._emit(EventName.OWED, seat=head.seat, presses=head.presses, reason=head.reason)
            return
        head.presses -= 1
        self._emit(EventName.OWED, seat=head.seat, presses=head.presses, reason=head.reason)
        if head.presses:
            return
        g.queue.pop(0)
        self._announce(None)  # the new head, or the turn once nothing is owed

    def _until_fired(self, reason: str) -> bool:
        """Whether an owed entry is paid only by a press that shoots a card (the record's Hit-Fire cards)."""
        cards = self.record.cards()
        return reason in cards and cards[reason].effect == Effect.HIT_FIRE

    def _draw(self, g: GameState) -> None:
        # T-PRESS: nothing owed: the current player presses once, whatever comes
        # out (nothing or a burst) is theirs, and the turn is over either way.
        current = g.current
        assert current is not None, "a draw press outside a round"
        g.current = g.next_seat(current)
        self._announce_turn()

    def _credit(self, g: GameState, seat: int, cards: int) -> None:
        # AT-HANDS: + the cards a press shot to the seat (stuck ones too: whatever comes out is the press's). A
        # count it would take past what the deck holds is one the table cannot trust: not known (never a refused
        # press: its cards are out).
        hands = g.hands
        assert hands is not None, "cards credited to a game that keeps no hand counts"
        held = hands.get(seat)
        if held is None:
            return
        if not 0 <= held + cards <= MAX_CARDS or sum(hands.values()) + cards > self.record.cards_there_are(g.deck):
            del hands[seat]
        else:
            hands[seat] = held + cards

    def _correct_shot(self, seat: int, planned: int, ejected: int) -> None:
        """AT-HANDS: a press's shot is over: the exit sensor counted ``ejected`` of the ``planned`` cards
        credited at the press (a jam, the lid or an empty magazine cut it short; stuck cards came along)."""
        g = self._game
        if g.hands is not None and ejected != planned:
            self._credit(g, seat, ejected - planned)

    # --- set: corrections ---------------------------------------------------------
    def _apply_set(self, current: int | None, direction: str | None, seat: int | None = None,
                   hand: int | None = None) -> None:
        g = self._game
        if current is not None:
            g.current = current
        if direction is not None:
            g.direction = direction
        if seat is not None and hand is not None:  # AT-HANDS: the table counted the hand
            g.hands = {**(g.hands or {}), seat: hand}

    # --- end of a round ----------------------------------------------------------
    def _someone_went_out(self) -> bool:
        return self._game.going_out is not None

    def _nothing_owed(self) -> bool:
        return not self._game.queue

    def _close_round(self) -> None:
        # E-OUT: the round ends when someone played their last card (any card,
        # action cards included) and the presses it caused are done.
        g = self._game
        g.round_winner, g.going_out, g.current = g.going_out, None, None
        self._emit(EventName.ROUND_OVER, winner=g.round_winner)
