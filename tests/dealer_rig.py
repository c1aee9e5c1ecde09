"""The counting dealer on the simulator, driven line by line in virtual time while its shots are in flight.

:class:`DealerRig` runs the whole controller (``App`` on the simulated shooter with the exit sensor, virtual
clock). :meth:`DealerRig.send` carries out one console line and returns its reply *without* letting time pass,
so the next line lands while the shot the last one started is still coming out; :meth:`DealerRig.wait` lets
virtual time pass. :class:`Ledger` keeps the cards' books from outside: every card the exit sensor reported is
in a hand (per seat), on the pile (the first cards, the cards played) or laid aside (surplus), and
:meth:`DealerRig.card_problem` checks magazine + hands + pile + laid aside + in flight = the deck.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from shooter.app import App
from shooter.config import parse_config
from shooter.table import Table


@dataclass
class Ledger:
    """Where the cards of one round are, by the rules, as the fuzzer saw the events and replies."""

    deck: int = 0
    hands: dict[int, int] = field(default_factory=dict)  # what the table's counts must be, per seat
    pile: int = 0            # first cards and cards played
    aside: int = 0           # surplus cards (ejected beyond the plan)
    reported: int = 0        # cards the `shot` events reported out
    corrected: int = 0       # what `set seat=S hand=N` added to the counts (no card moved)
    out_before: int = 0      # cards lying out when the round's deck was loaded
    leftover: int = 0        # a card of the round before still in the throat when the deck was loaded

    def copy(self) -> Ledger:
        return Ledger(self.deck, dict(self.hands), self.pile, self.aside, self.reported, self.corrected,
                      self.out_before, self.leftover)


class DealerRig:
    """The whole controller on the simulator in virtual time, its events and replies kept."""

    def __init__(self, seed: int = 1, state_dir=None) -> None:
        self.app = App(parse_config({}), sim=True, virtual=True, seed=seed, exit_sensor=True, state_dir=state_dir,
                       log=lambda m: None)
        self.controller = self.app.controller
        self.table: Table = self.controller.table
        world = self.app.world
        assert world is not None
        self.world = world
        self.events: list[dict] = []
        self.replies: list[dict] = []
        self.ledger = Ledger()
        self.marks: list[tuple[dict, Ledger]] = []  # the table's undo levels, with the books before each
        self.uncounted = 0
        self.controller.add_sink(self._sink)
        self.app.loop.run_until_quiet()

    # ---- driving ----
    def send(self, line: str) -> dict:
        """Carry out one line now (no time passes): its reply."""
        game = self.table.game
        current = game.current if game is not None else None
        before = dict(game.hands) if game is not None and game.hands is not None else {}
        undone = self.marks[-1][1] if self.marks else None
        books = self.ledger.copy()
        seen = len(self.events)
        answers: list[dict] = []
        self.controller.handle_line(line, answers.append)
        reply = answers[0]
        self.replies.append(reply)
        if reply["ok"]:
            moved = any(e.get("event") == "hands" for e in self.events[seen:])
            self._book(line, current, before, undone, books, moved)
        return reply

    def wait(self, seconds: float) -> None:
        self.app.loop.run_for(seconds)

    def quiet(self) -> None:
        self.app.loop.run_until_quiet()

    def close(self) -> None:
        self.app.close()

    # ---- the books ----
    def _sink(self, event: dict) -> None:
        if isinstance(event, (bytes, str)):
            event = json.loads(event)
        self.events.append(event)
        name = event.get("event")
        book = self.ledger
        if name == "shot":
            credited = min(event["planned"], event["ejected"] or 0)
            if event["reason"] == "first":
                book.pile += credited   # the first card goes to the pile
            else:
                book.hands[event["seat"]] = book.hands.get(event["seat"], 0) + credited
            book.aside += max(0, (event["ejected"] or 0) - event["planned"])
            book.reported += event["ejected"] or 0
        elif name == "uncounted":  # the table refused to count the shot: its cards are in no hand
            self.uncounted += 1
            if event["reason"] == "first":
                book.pile -= event["cards"]
            else:
                book.hands[event["seat"]] -= event["cards"]
            book.aside += event["cards"]

    def _book(self, line: str, current: int | None, before: dict[int, int], undone: Ledger | None,
              books: Ledger, moved: bool) -> None:
        word = line.split(maxsplit=1)[0]
        game = self.table.game
        if word == "game":
            self.ledger = Ledger()   # no deck until the round is dealt
        elif word == "round" and game is not None and game.hands is not None:
            deck = game.deck or 0
            self.ledger = Ledger(deck=deck, hands={s: 0 for s in game.hands}, out_before=self.world.cards_out,
                                 leftover=self.world.cards_in_shooter - deck)
        elif word == "play" and current is not None and game is not None and game.hands is not None:
            self.ledger.hands[current] -= 1
            self.ledger.pile += 1
            # a forced swap or a shuffle moved the counts among the hands: none came or went
            if moved and sum(game.hands.values()) == sum(self.ledger.hands.values()):
                self.ledger.hands = dict(game.hands)
        elif word == "set" and game is not None and game.hands is not None:
            for seat, held in game.hands.items():
                if held != before.get(seat, held):
                    self.ledger.corrected += held - before[seat]
                    self.ledger.hands[seat] = held
        elif word == "undo" and undone is not None:
            self.ledger = undone.copy()
        self._track_history(books, word)

    def _track_history(self, books: Ledger, word: str) -> None:
        """Keep ``marks`` beside the table's undo levels (by identity): a level pushed gets the books from
        before its command; levels the table dropped are dropped."""
        history = self.table.history
        known = {id(entry) for entry, _ in self.marks}
        self.marks = [(entry, ledger) for entry, ledger in self.marks if any(entry is h for h in history)]
        if history and id(history[-1]) not in known and word != "undo":
            self.marks.append((history[-1], books))

    def in_flight(self) -> int:
        """Cards out of the shooter whose shot has not been reported yet."""
        return self.world.cards_out - self.ledger.out_before - self.ledger.reported

    def card_problem(self) -> str | None:
        """magazine + hands + pile + laid aside + in flight = the deck, and every seat's count where its
        cards went; None when every card is accounted for (checked only once a round has been dealt)."""
        game, book = self.table.game, self.ledger
        if game is None or game.hands is None or not book.deck or self.table.phase not in ("first", "play"):
            return None
        if game.hands != book.hands:
            return f"hands {game.hands} but the cards went {book.hands}"
        magazine = self.world.cards_in_shooter
        held = sum(game.hands.values()) - book.corrected
        total = magazine + held + book.pile + book.aside + self.in_flight()
        if total != book.deck + book.leftover:
            return (f"magazine {magazine} + hands {held} + pile {book.pile} + aside {book.aside} + in flight "
                    f"{self.in_flight()} = {total}, not the deck of {book.deck} (+ {book.leftover} left over)")
        return None
