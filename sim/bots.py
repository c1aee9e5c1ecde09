"""Bots at the simulated table: players who play whole games of Uno Extreme through the console protocol.

The bots hold real cards (``sim.cards``), deal them, load the rest into the simulated shooter, match
colours and faces, and tell the controller what they do in protocol lines, exactly as people with a
phone would: ``play``, ``press``, ``uno``, ``catch``, ``penalty``, ``hand``. Whatever the shooter spits
out goes into the hand of the seat it was aimed at. Now and then a bot forgets to call Uno or plays a
wrong card, and the others notice. When the shooter runs empty, the discard pile (all but its top
card) is shuffled and loaded (E-REFILL).

The bots never import the controller: they only send lines and read replies and events. They follow a round as
a phone does, by its events (whose move it is, presses owed, the round's end), and ask for the game's ``status``
only before a round and at its end. They check the one invariant a physical table has at every step: magazine +
slot + hands + pile = the deck.

The discard pile is the world's (:attr:`sim.world.ShooterWorld.pile`): the bots put their cards on it. By
default they also tell the table each play (``play CARD seat=S ...``). In pile mode
(:meth:`CardsAtTable.pile_mode`) they never do: someone else tells the table what lies on the pile
(``reports()``, called once the card is down: the camera's reads, or a test's stand-in for them), and the bots
only answer what the table then asks, as the people at a table with a camera would: an aimed card's target
and a wild's colour with a tap (``seen confirm id=N target=T``, ``seen colour=C``), a read it is unsure of
(``seen confirm id=N [pick=K]``, or ``seen reject id=N`` when it is not the card: then they look again, and type
the play if nothing was played), and a last card (``seen last``, said as it is put down). A sure misread the table
played they take back (``undo``) and type; one that cannot be taken back is a BotError. They still press, call Uno
and catch.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from typing import Any

from .cards import COLOURS, WILD_FACES, Card, TableCard
from .world import ShooterWorld

# A reply, an event or a reply's ``game`` as the bots read it: JSON data (docs/protocol.md), whose fields the
# bots look up by name as the protocol gives them.
Message = dict[str, Any]
Send = Callable[[str], Message]


class BotError(AssertionError):
    """The table got into a state a real table could not be in (a lost card, a refused move)."""


class CardsAtTable:
    """What every bot table does with the physical cards: the part :class:`BotTable` and
    :class:`sim.exact_bots.ExactBotTable` share."""

    world: ShooterWorld
    hands: dict[int, list[Any]]
    box: list[Any]
    stats: Counter[str]
    events: list[Message]
    reports: Callable[[], bool | None] | None   # pile mode: who tells the table what lies on the pile (False:
    # nothing was read)
    _send: Send

    def pile_mode(self, reports: Callable[[], bool | None]) -> None:
        """From now on the bots never report a play: ``reports()`` tells the table what lies on the pile (it
        returns False when it read nothing: the player then types the play, as at a table whose camera missed
        the card)."""
        self.reports = reports

    @property
    def pile(self) -> list[Any]:
        """The discard pile on the table (the world's), top last."""
        return self.world.pile

    def send(self, line: str, *, may_fail: bool = False) -> Message:
        raise NotImplementedError

    def _collect_shots(self) -> None:
        raise NotImplementedError

    def check_cards(self) -> None:
        raise NotImplementedError

    def _put_down(self, seat: int, card: Any, line: str, *, target: int | None,
                  colour: Callable[[], str | None], last: bool) -> None:
        """``card`` is on the pile: the table is told (``line``, or in pile mode by ``reports``, then the taps
        it asks for); ``colour()`` names the colour in play now (its player's choice for a wild). A play the
        table refuses is a BotError: the game would no longer follow the cards."""
        if self.reports is None:
            self.send(line)
            colour()   # (after the line, as the bots always have: a seed plays the same game)
            return
        named = colour()
        if last:
            self.send("seen last")   # Uno Extreme counts no hands: the player says it as the card goes down
        seen = len(self.events)
        if self.reports() is False:   # nothing was read: the player sees the table did not take it, and types it
            self.send(line)
            self.stats["plays typed"] += 1
            return
        self._collect_shots()        # what the read caused (a flip's side, a shot) is known before any tap
        self.check_cards()
        for _ in range(4):
            camera = self._send("status")["camera"]
            if not camera["waiting"]:
                break
            head = camera["waiting"][0]
            pick = self._pick(card, head)
            if pick is None:   # the card is none of those offered (or none was put down): the player rejects it
                self._send(f"seen reject id={head['id']}")   # (the card is still to be played: no checks yet)
                self.stats["reads rejected"] += 1
                continue       # and looks again: the card's own read may wait behind it
            if head["asks"] == ["colour"]:
                self.send(f"seen colour={named}")
                self.stats["colours named"] += 1
                continue
            # the target and the colour of the card put down (a pick may be a card that needs neither)
            options = [f"pick={pick}"] * (pick > 0) + [f"target={target}"] * (target is not None) + [
                f"colour={named}"] * ("colour" in head["asks"] and named is not None)
            self.send(" ".join([f"seen confirm id={head['id']}", *options]))
            self.stats["reads confirmed"] += 1
        if self._send("status")["camera"]["waiting"]:
            raise BotError(f"seat {seat} put {card!r} on the pile and the table still asks about it: "
                           f"{self._send('status')['camera']['waiting']}")
        played = [e for e in self.events[seen:] if e["event"] == "camera" and e["reply"]["ok"]]
        if not played:   # the reads were rejected, or refused: the player types the play
            self.send(line)
            self.stats["plays typed"] += 1
            return
        if played[-1]["line"].split()[:3] != line.split()[:3]:
            # the table played what the camera saw, and it is not the card put down (or not its player's): the
            # player sees it on the page, takes it back and types the play
            if not self._send("undo")["ok"]:   # (the card is still to be played: no checks till it is typed)
                raise BotError(f"seat {seat} put {card!r} on the pile and the table took it as "
                               f"{played[-1]['line']!r}, not {line!r}, and cannot take it back")
            self.send(line)
            self.stats["reads undone"] += 1
            return
        self.stats["plays read"] += 1

    def _pick(self, card: Any, head: Message) -> int | None:
        """The reading of the waiting read ``head`` that is ``card`` as it lies (0: the read itself, K: its K-th
        alternative), as a player picks it on the page; None when none is."""
        face = self.world.face_up(card)
        shown = [(head["card"], head["colour"])] + [(a["card"], a["colour"]) for a in head["alternatives"]]
        return next((k for k, (name, colour) in enumerate(shown) if name == face.name and colour == face.colour), None)

    def _gather(self) -> list[Any]:
        """Every card back together for a new round: the magazine emptied with the lid open."""
        self.world.open_lid()
        cards = self.world.launcher.unload() + self.world.launcher.take_out()
        for hand in self.hands.values():
            cards += hand
            hand.clear()
        cards += self.world.take_pile(keep_top=False) + self.box
        self.box.clear()
        return cards

    def _clear_jam(self) -> None:
        """Open and close the lid: the wedged card drops back, the shooter is ready again."""
        self.world.open_lid()
        self.world.close_lid()
        self._send("sim wait seconds=1")
        self.stats["jams cleared"] += 1


class BotTable(CardsAtTable):
    """``players`` bots around the simulated shooter, playing games through ``send``."""

    def __init__(self, world: ShooterWorld, send: Send, events: list[Message], deck: list[Card], players: int,
                 rng: random.Random, *, forget_uno: float = 0.3, catch: float = 0.6, wrong_card: float = 0.03,
                 jam: float = 0.01, wilds: Collection[str] = WILD_FACES, aims: Collection[str] = ("extreme-hit",),
                 swaps: Collection[str] = (), discards: Collection[str] = ()):
        self.world = world
        # the edition record's faces (from the composition root): without a colour, played with target=S, and
        # those whose player swaps hands with the target
        # and those that discard every card of their colour with them
        self.wilds, self.aims, self.swaps = frozenset(wilds), frozenset(aims), frozenset(swaps)
        self.discards = frozenset(discards)
        self._send = send
        self.events = events              # the controller's events, appended by the runner's sink
        self.deck = deck
        self._every_card = frozenset(deck)  # a card equals only itself (sim.cards.Card)
        self.players = players
        self.rng = rng
        self.forget_uno, self.catch, self.wrong_card, self.jam = forget_uno, catch, wrong_card, jam
        self.hands: dict[int, list[Card]] = {s: [] for s in range(1, players + 1)}
        self.reports = None   # pile mode: pile_mode(reports)
        self.colour: str | None = None
        self._seen_events = 0
        # what the table announced (_follow): whose turn it is, whether presses are owed, the round's end
        self._followed = 0
        self.turn: int | None = None
        self.owing = False
        self.round_over = False
        self.box: list[Card] = list(deck)  # cards not dealt yet
        self._refilling = False
        self.lines = 0
        self.stats: Counter[str] = Counter()

    # ---- talking to the controller ----
    def send(self, line: str, *, may_fail: bool = False) -> Message:
        reply = self._send(line)
        self.lines += 1
        self._collect_shots()
        self.check_cards()
        if not reply["ok"] and not may_fail:
            raise BotError(f"{line!r} was refused: {reply}")
        return reply

    def status(self) -> Message:
        return self.send("status")

    def _follow(self) -> None:
        """What the table announced since the last look (docs/protocol.md, Events), as a phone follows the game
        without asking for the whole status after every line: a ``turn`` names the seat that may act, nothing
        being owed; an ``owed`` says presses are owed until one says 0 (paid off: the next head's ``owed``, the
        ``turn`` or the ``round-over`` follows it); ``round-over``: the round's last card and its presses are
        done, the hands are to be scored."""
        for event in self.events[self._followed:]:
            name = event["event"]
            if name == "turn":
                self.turn, self.owing, self.round_over = event["seat"], False, False
            elif name == "owed":
                self.owing = event["presses"] > 0
            elif name == "round-over":
                self.round_over = True
        self._followed = len(self.events)

    def _collect_shots(self) -> None:
        """Cards that came out go to the seat the shooter was aimed at (T-STUCK: stuck ones too)."""
        new = self.events[self._seen_events:]
        self._seen_events = len(self.events)
        launcher = self.world.launcher
        for event in new:
            if event["event"] == "shot" and event["ejected"]:
                cards = self._one_sided(launcher.take(event["ejected"]))
                self.hands[event["seat"]].extend(cards)
                self.stats["cards shot"] += len(cards)
            elif event["event"] == "empty":
                self.stats["empty"] += 1
                self._refill()
            elif event["event"] == "jam":
                self._clear_jam()
        if launcher.on_table:
            raise BotError(f"{launcher.on_table} cards came out that no shot event counted")
        if len(self.world.launcher.magazine) < 15 and len(self.pile) > 20 and not self._refilling:
            self._refill()  # E-REFILL: the pile looks like a deck, the shooter runs low

    @staticmethod
    def _one_sided(cards: list[TableCard]) -> list[Card]:
        """The cards as the bots hold them: one-sided (they load only this edition's deck, no Flip cards)."""
        one_sided = [c for c in cards if isinstance(c, Card)]
        if len(one_sided) != len(cards):
            raise BotError(f"two-sided cards came out of a deck of one-sided cards: {cards}")
        return one_sided

    def check_cards(self) -> None:
        """magazine + slot + hands + pile = the deck, every card once (after every line: as many cards
        in all places as in the deck, and the same cards)."""
        launcher = self.world.launcher
        places = [*launcher.magazine, *launcher.out, *self.pile, *self.box]
        if launcher.in_beam:
            places.append(launcher.in_beam)
        for hand in self.hands.values():
            places += hand
        if len(places) != len(self.deck) or set(places) != self._every_card:
            raise BotError(f"cards lost or doubled: {len(places)} in play, the deck has {len(self.deck)}")

    # ---- physical acts ----
    def _refill(self) -> None:
        """E-REFILL: the discard pile but its top card, shuffled, into the shooter."""
        if len(self.pile) < 2 or self._refilling:
            return
        self._refilling = True
        rest = self.world.take_pile(keep_top=True)
        self.rng.shuffle(rest)
        self.world.open_lid()
        self.world.load(rest)
        self.world.close_lid()
        self._send(f"magazine cards={len(self.world.launcher.magazine)}")  # runs until the lid has settled
        self._refilling = False
        self.stats["refills"] += 1

    # ---- a game ----
    def play_game(self, *, scoring: str, limit: int, edition: str, variant: str | None = None,
                  max_lines: int = 50000) -> Message:
        """Play one whole game; returns the final game status. The game's options are the caller's to
        give (the table defines their names and defaults; the bots only play)."""
        self.send(f"game new players={self.players} dealer=random scoring={scoring} limit={limit} "
                  f"edition={edition}" + (f" variant={variant}" if variant else ""))
        while True:
            game: Message = self.status()["game"]
            if game["phase"] == "over":
                return game
            self._play_round(game)
            if self.lines > max_lines:
                raise BotError(f"no end of the game after {self.lines} lines")

    def _play_round(self, game: Message) -> None:
        cards = self._gather()
        self.rng.shuffle(cards)
        seats = [s for s in range(1, self.players + 1) if s not in game["out"]]
        for _ in range(7):
            for seat in seats:
                self.hands[seat].append(cards.pop())
        first = cards.pop()
        self.world.put_on_pile(first)
        self.world.load(cards)
        self.send("sim lid close")
        self.send(f"magazine cards={len(cards)}")
        self.colour = first.colour or self.rng.choice(COLOURS)
        self._follow()   # (the round before is over: only this round's events from here)
        self.round_over = False
        self.send(f"round start first={first.name}")
        self.stats["rounds"] += 1
        while True:
            # what the lines sent inside the last one's checks caused (a refill's, a jam's clearing) is taken in
            # before the next move (the cards are checked after the next line), and the table's events say where
            # the round stands
            self._collect_shots()
            self._follow()
            if self.round_over:
                self._report(self.status()["game"])
                return
            if self.rng.random() < self.jam:
                self.send("sim jam")
            if self.owing:
                # the one who owes presses presses (the card's player for an Extreme Hit)
                if not self.send("press", may_fail=True)["ok"]:
                    self._stuck_press()
                self.stats["owed presses"] += 1
            else:
                assert self.turn is not None, "a round started without a turn or an owed press announced"
                self._turn(self.turn)

    def _stuck_press(self) -> None:
        """A press the shooter refused as empty, with nothing on the pile to refill it from (every card
        is in a hand: a rare state of two-player games). House rule of the bots: the fullest hand puts
        one card back into the shooter, and the press is made again."""
        richest = max(self.hands, key=lambda s: len(self.hands[s]))
        card = self.hands[richest].pop(self.rng.randrange(len(self.hands[richest])))
        self.world.open_lid()
        self.world.load([card])
        self.world.close_lid()
        self._send("magazine cards=1")
        self.stats["cards put back"] += 1
        self.send("press")

    def _playable(self, card: Card) -> bool:
        top = self.pile[-1]
        return (card.face in self.wilds or card.colour == self.colour
                or (card.face == top.face and (card.face != "number" or card.value == top.value)))

    def _turn(self, seat: int) -> None:
        hand = self.hands[seat]
        choices = [c for c in hand if self._playable(c)]
        if not choices or self.rng.random() < 0.1:
            if self.send("press", may_fail=True)["ok"]:    # T-PRESS: can't or won't play
                self.stats["draws"] += 1
            elif choices:
                self._play(seat, choices[0])                # the shooter is empty: play after all
            else:
                self._stuck_press()
            return
        if self.rng.random() < self.wrong_card:
            wrong = [c for c in hand if not self._playable(c)]
            if wrong and len(hand) > 2:
                colour = self.colour
                self._refilling = True  # the wrong card stays on the pile until it is taken back
                self._play(seat, wrong[0], honest=False)
                self.send(f"penalty wrong-card seat={seat}")   # P-WRONG: the others noticed at once
                hand += self._one_sided([self.world.take_from_pile()])
                self._refilling = False
                self.colour = colour
                self.stats["wrong cards"] += 1
                return
        card = min(choices, key=lambda c: (c.face in self.wilds, self.rng.random()))
        self._play(seat, card)

    def _play(self, seat: int, card: Card, honest: bool = True) -> None:
        hand = self.hands[seat]
        hand.remove(card)
        discarded = 0
        if card.face in self.discards and card.colour:   # Discard All: every card of its colour goes down too
            for other in [c for c in hand if c.colour == card.colour]:
                hand.remove(other)
                self.world.put_on_pile(other)
                discarded += 1
        self.world.put_on_pile(card)   # (on top)
        line = f"play {card.name} seat={seat}"
        if card.face in self.discards:   # AT-HANDS: the table is told how many went down with it
            line += f" discarded={discarded}"
        target = None
        if card.face in self.aims:
            others = [s for s in self.hands if s != seat and self.hands[s]]
            target = min(others, key=lambda s: (len(self.hands[s]), self.rng.random()))
            line += f" target={target}"
        if not hand:
            line += " last"
        calls = honest and len(hand) == 1 and self.rng.random() >= self.forget_uno
        if calls and self.rng.random() < 0.5:
            self.send(f"uno seat={seat}")   # called while putting the card down
            calls = False

        def name_colour() -> str | None:   # the colour the player names (a wild), or the card's
            held = Counter(c.colour for c in hand if c.colour)
            self.colour = card.colour if card.face not in self.wilds else (
                held.most_common(1)[0][0] if held else self.rng.choice(COLOURS))
            return self.colour
        self._put_down(seat, card, line, target=target, colour=name_colour, last=not hand)
        if card.face in self.swaps and hand and target is not None:   # the player and the target trade hands
            self.hands[seat], self.hands[target] = self.hands[target], self.hands[seat]
            hand = self.hands[seat]
            calls = honest and len(hand) == 1 and self.rng.random() >= self.forget_uno
        if calls:
            self.send(f"uno seat={seat}")
        elif honest and len(hand) == 1 and self.rng.random() < self.catch:
            reply = self.send(f"catch seat={seat}", may_fail=True)   # too-late if it called ahead
            self.stats["catches"] += reply["ok"]

    def _report(self, game: Message) -> None:
        for seat in game["waiting_for"]:
            names = ",".join(c.name for c in self.hands[seat]) or None
            self.send(f"hand seat={seat} cards={names}" if names else f"score seat={seat} points=0")
        self.stats["scored"] += 1
