"""Bots for the exact variants (classic Uno, Uno All Wild, Uno Flip) at the simulated table.

Like :mod:`sim.bots` for Uno Extreme, the bots hold real cards (classic's 112, All Wild's 112 wilds,
Flip's two-sided cards), load the shuffled deck into the simulated shooter and tell the controller what they
do in protocol lines: ``round start``, ``first``, ``play``, ``draw``, ``pass``, ``press``, ``challenge``,
``colour-found``, ``uno``, ``catch``, ``hand``. The shooter deals: whatever it shoots goes into the hand of
the seat it was aimed at (the first card onto the pile; cards beyond the plan are laid aside for the next
refill). Forced swaps and wild shuffles move real cards; Flip's Draw Colour draws until a real card of the
named colour shows.

The discard pile is the world's; in pile mode (``pile_mode(reports)``) the bots never report a play: they put the card
on the pile and answer what the table asks, as :mod:`sim.bots` describes.

After every line the bots check that no card was lost or doubled (magazine + slot + hands + pile + laid
aside = the deck) and that the controller's hand counts (``status``) are the bots' real hands.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .bots import BotError, CardsAtTable, Message, Send
from .cards import COLOURS, DARK_COLOURS, Card, FlipCard, TableCard
from .world import ShooterWorld


@dataclass(frozen=True)
class DeckFacts:
    """What the bots must know of the edition they play, handed over by the composition root from the
    controller's edition record (the simulator knows what a card looks like, not the rules)."""

    variant: str  # game new variant=
    wilds: frozenset[str]  # faces without a colour
    turns_up_first: bool = True  # the dealer turns up a first card (All Wild: no)
    back_to_deck: frozenset[str] = frozenset()  # void first cards that go back to the deck (Flip's)
    wild_draws: frozenset[str] = frozenset()  # challengeable wild draw cards: legal only without the colour
    targeted: frozenset[str] = frozenset()  # played with target=S
    swaps: frozenset[str] = frozenset()  # hands swap with the target
    shuffles: frozenset[str] = frozenset()  # every hand pooled and dealt again
    flips: frozenset[str] = frozenset()  # the side changes; the colour stays the card's
    colour_free: bool = field(default=False)  # no card has a colour: any card may be played (All Wild)
    colours: int = 4  # how many colours the deck's cards come in (the first of COLOURS / DARK_COLOURS)


class ExactBotTable(CardsAtTable):
    """``players`` bots playing whole games of an exact variant through ``send``."""

    def __init__(self, world: ShooterWorld, send: Send, events: list[Message], deck: Sequence[TableCard],
                 players: int, rng: random.Random, facts: DeckFacts, points: Callable[[str, str], int], *,
                 forget_uno: float = 0.3, catch: float = 0.6, cheat: float = 0.15, challenge: float = 0.5,
                 jam: float = 0.01):
        self.world, self._send, self.events, self.deck = world, send, events, deck
        self.players, self.rng, self.facts = players, rng, facts
        self.variant, self.wilds = facts.variant, set(facts.wilds)
        self.points = points  # points(card name, side): what a card scores (the table's card table)
        self.forget_uno, self.catch, self.cheat, self.challenge_chance, self.jam = (
            forget_uno, catch, cheat, challenge, jam)
        self.hands: dict[int, list[TableCard]] = {s: [] for s in range(1, players + 1)}
        self.reports = None   # pile mode: pile_mode(reports)
        # cards off the table: not dealt yet, laid aside (surplus, void first cards)
        self.box: list[TableCard] = list(deck)
        self.side = "light"
        self.colour: str | None = None
        self.legal = True  # whether the last wild draw card was played legally
        self._seen = 0
        self.lines = 0
        self.history: list[str] = []  # the last lines sent (for a BotError's message)
        self.stats: Counter[str] = Counter()

    # ---- the cards ----
    def face(self, card: TableCard) -> Card:
        return card.side(self.side) if isinstance(card, FlipCard) else card

    def name(self, card: TableCard) -> str:
        return self.face(card).name

    @property
    def colours(self) -> tuple[str, ...]:
        return (DARK_COLOURS if self.side == "dark" else COLOURS)[:self.facts.colours]

    def check_cards(self) -> None:
        """magazine + slot + hands + pile + laid aside = the deck, every card once."""
        launcher = self.world.launcher
        places = list(launcher.magazine) + ([launcher.in_beam] if launcher.in_beam else [])
        places += list(launcher.out) + self.pile + self.box
        places += [c for hand in self.hands.values() for c in hand]
        if len(places) != len(self.deck) or {id(c) for c in places} != {id(c) for c in self.deck}:
            raise BotError(f"cards lost or doubled: {len(places)} in play, the deck has {len(self.deck)}")

    def check_hands(self, game: Message | None) -> None:
        """The controller's hand counts are the real hands."""
        if game is None or game.get("hands") is None or game["phase"] in ("deal", "scoring", "over"):
            return
        real = {str(s): len(h) for s, h in self.hands.items()}
        if game["hands"] != real:
            raise BotError(f"hand counts differ: the controller says {game['hands']}, the hands hold {real}")

    # ---- talking to the controller ----
    def send(self, line: str, *, may_fail: bool = False) -> Message:
        reply = self._send(line)
        self.history = (self.history + [line])[-12:]
        self.lines += 1
        self._collect_shots()
        self.check_cards()
        if not reply["ok"] and not may_fail:
            raise BotError(f"{line!r} was refused: {reply}; the lines before: {self.history}")
        self.check_hands(self._send("status")["game"])
        return reply

    def status(self) -> Message:
        game: Message = self._send("status")["game"]
        return game

    def _collect_shots(self) -> None:
        new = self.events[self._seen:]
        self._seen = len(self.events)
        launcher = self.world.launcher
        for event in new:
            if event["event"] == "shot" and event["ejected"]:
                cards = launcher.take(event["ejected"])
                kept, surplus = cards[:event["planned"]], cards[event["planned"]:]
                if event["reason"] == "first":
                    for card in kept:  # turned up by the dealer
                        self.world.put_on_pile(card)
                else:
                    self.hands[event["seat"]] += kept
                self.box += surplus
                self.stats["cards shot"] += len(cards)
                self.stats["surplus"] += len(surplus)
            elif event["event"] == "empty":
                self.stats["empty"] += 1
                self._refill()
            elif event["event"] == "jam":
                self._clear_jam()
            elif event["event"] == "side":
                self._flip_physically(event["side"])
        if launcher.on_table:
            raise BotError(f"{launcher.on_table} cards came out that no shot event counted")

    def _flip_physically(self, side: str) -> None:
        """A flip: the discard pile is turned over (its bottom card now on top), hands turn in the players'
        hands, and the draw pile too: the lid opened, the magazine's stack turned over, the lid closed."""
        self.side = side
        self.world.turn_pile_over()
        self.world.open_lid()
        self.world.launcher.magazine.reverse()
        self.world.close_lid()
        self._send("sim wait seconds=1")
        top = self.face(self.pile[-1])
        self.colour = top.colour or self.rng.choice(self.colours)

    def _refill(self) -> None:
        """D-REFILL: the discard pile but its top card, and the cards laid aside, shuffled into the shooter."""
        if not self.pile[:-1] and not self.box:
            return
        rest = self.world.take_pile(keep_top=True) + self.box
        self.box.clear()
        self.rng.shuffle(rest)
        self.world.open_lid()
        self.world.load(rest)
        self.world.close_lid()
        self._send(f"magazine cards={len(self.world.launcher.magazine)}")
        self.stats["refills"] += 1

    def _press(self, line: str = "press") -> Message:
        """A press (or draw); an empty shooter is refilled and the press made again."""
        for _ in range(3):
            reply = self.send(line, may_fail=True)
            if reply["ok"] or reply["error"] not in ("empty", "busy"):
                return reply
            if reply["error"] == "empty":
                if not self.pile[:-1] and not self.box:
                    self._put_back()
                else:
                    self._refill()
            else:
                self._send("sim wait seconds=2")
        raise BotError(f"{line!r} refused three times: {reply}")

    def _put_back(self) -> None:
        """Every card is in a hand: house rule, the fullest hand puts one card back into the shooter (and
        the controller's count is corrected with set, D-HANDS)."""
        seat = max(self.hands, key=lambda s: len(self.hands[s]))
        card = self.hands[seat].pop(self.rng.randrange(len(self.hands[seat])))
        self.world.open_lid()
        self.world.load([card])
        self.world.close_lid()
        self._send("magazine cards=1")
        self.send(f"set seat={seat} hand={len(self.hands[seat])}")
        self.stats["cards put back"] += 1

    # ---- a game ----
    def play_game(self, *, scoring: str, limit: int, max_lines: int = 60000) -> Message:
        self.send(f"game new players={self.players} dealer=random variant={self.variant} scoring={scoring} "
                  f"limit={limit}")
        while True:
            game = self.status()
            if game["phase"] == "over":
                return game
            self._play_round()
            if self.lines > max_lines:
                raise BotError(f"no end of the game after {self.lines} lines")

    def _play_round(self) -> None:
        cards = self._gather()
        self.rng.shuffle(cards)
        self.side = "light"
        self.world.load(cards)
        self.send("sim lid close")
        self.send(f"round start cards={len(cards)}")
        self.stats["rounds"] += 1
        if self.facts.turns_up_first:
            self._turn_up()
        else:
            self.colour = None
        while True:
            game = self.status()
            if game["phase"] == "scoring":
                self._report(game)
                return
            if self.rng.random() < self.jam:
                self.send("sim jam")
            if game["challenge"] and self.rng.random() < self.challenge_chance:
                victim = game["challenge"]["seat"]
                upheld = not self.legal and game["challenge"]["by"] != self._going_out(game)
                self.send(f"challenge seat={victim} result={'upheld' if upheld else 'rejected'}")
                self.stats["challenges"] += 1
                continue
            owed = game["owed"]
            if owed:
                self._serve(owed)
            else:
                self._turn(game)

    def _going_out(self, game: Message) -> int | None:
        return next((s for s, h in self.hands.items() if not h), None)

    def _turn_up(self) -> None:
        """D-FIRST: the dealer turns up the card shot to him; a void one gets another."""
        while True:
            game = self.status()
            if game["owed"]:  # a deal or first card cut short (a jam): one press resumes it
                self._press()
                continue
            if game["phase"] == "play":
                break
            top = self.pile[-1]
            self.send(f"first {self.name(top)}")
            if self.status()["phase"] == "first":
                if self.face(top).face in self.facts.back_to_deck:
                    self.box.append(self.world.take_from_pile(top))  # back to the deck (the next refill)
                self.stats["void first cards"] += 1
        face = self.face(self.pile[-1])
        self.colour = face.colour or self.rng.choice(self.colours)

    def _serve(self, owed: Message) -> None:
        seat = owed["seat"]
        if owed["cards"] is None:  # Draw Colour: one card per press until the colour shows
            held = len(self.hands[seat])
            self._press()
            drawn = self.hands[seat][-1] if len(self.hands[seat]) > held else None
            if drawn is not None and self.face(drawn).colour == self.colour:
                self.send(f"colour-found seat={seat}")
            self.stats["colour draws"] += 1
            return
        self._press()
        self.stats["owed presses"] += 1

    def _playable(self, card: TableCard) -> bool:
        if self.facts.colour_free:
            return True
        face, top = self.face(card), self.face(self.pile[-1])
        return (face.face in self.wilds or face.colour == self.colour
                or (face.face == top.face and (face.face != "number" or face.value == top.value)))

    def _legal(self, seat: int, card: TableCard) -> bool:
        """A wild draw card is legal only without a card of the colour in play."""
        return not any(self.face(c).colour == self.colour for c in self.hands[seat] if c is not card)

    def _turn(self, game: Message) -> None:
        seat = game["current"]
        hand = self.hands[seat]
        if game["drawn"] == seat:
            drawn = hand[-1]
            if self._playable(drawn) and (not self._is_wild_draw(drawn) or self._legal(seat, drawn)):
                self._play(seat, drawn)
            else:
                self.send(f"pass seat={seat}")
                self.stats["passes"] += 1
            return
        choices = [c for c in hand if self._playable(c)]
        honest = [c for c in choices if not self._is_wild_draw(c) or self._legal(seat, c)]
        if honest and not (choices != honest and self.rng.random() < self.cheat):
            choices = honest
        if not choices or self.rng.random() < 0.1:
            self._press(f"draw seat={seat}")
            self.stats["draws"] += 1
            return
        if len(choices) > 1 and self.facts.swaps:
            # a forced swap is kept for when it pays (someone holds fewer cards), else played last
            fewest = min(len(h) for s, h in self.hands.items() if s != seat)
            if fewest >= len(hand) - 1 or self.rng.random() < 0.7:
                choices = [c for c in choices if self.face(c).face not in self.facts.swaps] or choices
        card = min(choices, key=lambda c: (self.face(c).face in self.wilds, self.rng.random()))
        self._play(seat, card)

    def _is_wild_draw(self, card: TableCard) -> bool:
        return self.face(card).face in self.facts.wild_draws

    def _play(self, seat: int, card: TableCard) -> None:
        hand = self.hands[seat]
        face = self.face(card)
        if self._is_wild_draw(card):
            self.legal = self._legal(seat, card)
        hand.remove(card)
        self.world.put_on_pile(card)
        line = f"play {self.name(card)} seat={seat}"
        target = None
        # the card's effect on the real cards happens as it is played
        if face.face in self.facts.targeted:
            others = [s for s in self.hands if s != seat]
            target = min(others, key=lambda s: (len(self.hands[s]), self.rng.random()))
            line += f" target={target}"
            if hand and face.face in self.facts.swaps:
                self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
                self.stats["swaps"] += 1
        elif hand and face.face in self.facts.shuffles:
            self._shuffle_hands(seat)
        if not hand:
            line += " last"

        def name_colour() -> str | None:   # the colour the player names (a wild), or the card's
            if not self.facts.colour_free and face.face not in self.facts.flips:
                if face.face in self.wilds:
                    held = Counter(self.face(c).colour for c in hand if self.face(c).colour)
                    self.colour = held.most_common(1)[0][0] if held else self.rng.choice(self.colours)
                else:
                    self.colour = face.colour
            return self.colour
        self._put_down(seat, card, line, target=target, colour=name_colour, last=False)  # hands are counted
        self.stats["plays"] += 1
        self._uno_after(seat)

    def _shuffle_hands(self, seat: int) -> None:
        """A Wild Shuffle Hands: all hands pooled, shuffled, dealt one by one from the player's left."""
        pool = [c for hand in self.hands.values() for c in hand]
        for hand in self.hands.values():
            hand.clear()
        self.rng.shuffle(pool)
        order = [(seat + i - 1) % self.players + 1 for i in range(1, self.players + 1)]
        for i, card in enumerate(pool):
            self.hands[order[i % self.players]].append(card)
        self.stats["shuffles"] += 1

    def _uno_after(self, player: int) -> None:
        """Seats now holding one card call Uno, or forget it and may be caught."""
        game = self.status()
        for window in game["uno_windows"]:
            seat = window["seat"]
            if self.rng.random() >= self.forget_uno:
                self.send(f"uno seat={seat}")
                self.stats["uno calls"] += 1
            elif self.rng.random() < self.catch:
                self.send(f"catch seat={seat}")
                self.stats["catches"] += 1

    def _report(self, game: Message) -> None:
        for seat in game["waiting_for"]:
            names = ",".join(self.name(c) for c in self.hands[seat])
            line = f"hand seat={seat} cards={names}"
            if not names or len(line) > 500:  # a line holds 512 bytes: a big hand is counted by the players
                line = f"score seat={seat} points={sum(self.points(self.name(c), self.side) for c in self.hands[seat])}"
            self.send(line)
        self.stats["scored"] += 1
