"""The camera over the discard pile, wired in: its frames through the pile watcher, the reads to the table.

:class:`PileCamera` is what the composition root (:mod:`shooter.app`) builds when ``[camera]`` is configured: a
camera (a hal backend, or the simulated camera over ``world.pile``), a :class:`~shooter.vision.PileWatcher` with
the deck learned for the game's edition, and the :class:`~shooter.camera.frame_pump.FramePump` that feeds one to the
other and posts each read to :meth:`shooter.camera.pile_reports.PileReports.take`.

The watcher takes every change of the pile that settles for a card put down. Some changes are not: the pile is
gathered, refilled into the shooter, a wrong card is taken back, Uno Flip turns it over, the dealer turns up the
first card. The table knows when those happen, so this class listens to its events (a sink, on the loop) and
tells the watcher:

* out of a round's play (no ``phase`` ``play``: dealing, the first card, scoring) reads are dropped, and when
  play begins while the pile is still changing (the first card falling) the view it settles to is the
  reference, unread;
* a new game (``game``: perhaps another edition, so another learned deck) and play beginning take the view as
  it lies for the reference when it has been still (else the next still view), so a card put down just after
  them is read; the lid (``lid``: hands at the shooter, as when the pile is refilled into it, or a jam cleared)
  makes the next still view the reference;
* a wrong card owed for (``owed`` of reason ``wrong-card``: the card is taken back): the view before that card
  is the reference again, so the card it uncovers is no play (and a card put down meanwhile is one);
* a flip (``side``: the pile turned over) primes it: the next view that settles after a change is the
  reference, unread (a new game over a still pile forgets a flip whose pile was never turned);
* a play typed while no read waits (the camera missed the card, or has not settled on it yet): the view it
  settles to is the reference, so the card is not read again later as the next seat's play.

A wrong card is taken back after its penalty is asked: until it is gone, a read of it where it lay (the view
settled again after a hand passed) is dropped, as is the card it uncovers there (:func:`same_place`).

The watcher belongs to the pump's thread (real clock) or the loop (virtual time): the sink only enqueues what it
asks (:class:`Gate`), and the watcher carries it out before its next frame.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..editions import Edition
from ..loop import ControlLoop
from ..vocabulary import EventName, Reason
from .frame_pump import FRAME_INTERVAL, FramePump
from .reads import Read
from .words import SimScene

if TYPE_CHECKING:
    from hal.clock import Clock
    from sim.world import ShooterWorld

    from ..controller import Controller
    from ..vision import Deck, PileWatcher

LEARN_SEED = 1          # the simulated owner's one learning session (cards learn --sim --seed 1)
QUIET_S = 1.0           # the simulated camera in virtual time renders this long after the view changed (unless told)


_LEARNED: dict[str, Deck] = {}   # by edition key: the simulated owner learns each deck once a run


def learned_from_renders(record: Edition) -> Deck:
    """The deck learned from rendered cards, as ``cards learn --sim`` learns it and ``cards bench`` measures it:
    each coloured face in each of its colours (once per edition a run)."""
    if record.key not in _LEARNED:
        from ..vision import learn_sim
        _LEARNED[record.key], _ = learn_sim(record, LEARN_SEED, every_colour=True)
    return _LEARNED[record.key]


@dataclass
class Decks:
    """The learned deck of each edition: from the templates in ``state_dir``, or (``sim``) from rendered cards
    when none were learned. Asked from the watcher's thread; says once per edition where its deck came from."""

    state_dir: Path | None
    sim: bool
    log: Callable[[str], None]

    def __call__(self, record: Edition) -> Deck | None:
        from ..vision import load_templates
        found: Deck | None = None
        where = "none learned"
        if self.state_dir is not None:
            try:
                found = load_templates(self.state_dir, log=self.log).deck(record.key)
                where = f"learned in {self.state_dir}"
            except KeyError:
                pass
        if found is None and self.sim:
            found, where = learned_from_renders(record), "none learned: learned from rendered cards"
        self.log(f"uno-shooter: the camera reads {record.title} cards ({where})" if found is not None else
                 f"uno-shooter: no cards of {record.title} learned (uno-shooter cards learn): the camera reads none")
        return found


class Gate:
    """The pile watcher as the pump feeds it, with what the table asked of it (settle, prime, take back, another
    edition's deck), each ask carried out between the frames it falls between on the one clock: before the first
    frame taken after it, on the views seen before it.

    So an ask means the pile as it lay when it was asked, however late the pump gets to it: a frame taken before
    it (its time is taken with it) is read first, even when the ask waited for a deck to be learned (seconds on
    the pump's thread, no frame taken meanwhile), and a card put down after it is a new card."""

    def __init__(self, watcher: PileWatcher, decks: Callable[[Edition], Deck | None], *,
                 clock: Callable[[], float], wake: Callable[[], None] | None = None) -> None:
        self.watcher = watcher
        self.decks = decks
        self.clock = clock   # the loop's: the time of each ask, on the clock the frames are taken by
        self.wake = wake   # a lazy camera's (WorldCamera.wake): frames again, so that what is asked is done
        # (when, what, the edition of a deck): appended on the loop, taken on the pump's thread, in time order
        self.asked: deque[tuple[float, str, Edition | None]] = deque()
        self.dropped = 0   # reads of a card being taken back, still where it lay
        self._deck_of: str | None = None
        self._last: Read | None = None       # the last read let through
        self._taken: Read | None = None      # the read of the card being taken back, until it is gone
        self._play_began = -math.inf   # when play last began (written on the loop only)

    def ask(self, what: str, record: Edition | None = None) -> None:
        at = self.clock()
        if what == "play begins":
            self._play_began = at
        self.asked.append((at, what, record))
        if self.wake is not None:
            self.wake()

    @property
    def exposure(self) -> float:
        """The exposure the watcher asks of the camera (a share of the camera's own)."""
        return self.watcher.exposure

    def feed(self, frame: Any, now: float, exposure: float | None = None) -> Read | None:
        """The watcher's read of ``frame``, taken at ``now`` (at ``exposure``), after what was asked before it."""
        while self.asked and self.asked[0][0] <= now:
            at, what, record = self.asked.popleft()
            if what == "deck" and record is not None and record.key != self._deck_of:
                self.watcher.deck, self._deck_of = self.decks(record), record.key
            elif what == "settle":
                self.watcher.settle()
            elif what in ("new game", "play begins"):
                # the pile as it lay then is the reference if it lay still; else the view it settles to
                self.watcher.settle_unless_still(at, anew=what == "new game")
            elif what == "prime":
                self.watcher.prime()
            elif what == "take back":
                self.watcher.take_back()
                self._taken = self._last
            if what == "deck":
                self._taken = None
        read = self.watcher.feed(frame, now, exposure)
        if read is not None and now < self._play_began:
            return None   # settled in a frame taken before play began, read after: it lay there then, no play
        if read is not None and self._taken is not None:
            taken, self._taken = self._taken, None
            if same_place(read, taken):
                # no new card where the one taken back lay: either it still lies there (the view settled again, a
                # hand passed), and the view before it stays the one the next card is told from; or it has gone,
                # and the card it uncovered (its place changed) is what lies there now
                self.dropped += 1
                if (read.card, read.colour, read.side) == (taken.card, taken.colour, taken.side):
                    self.watcher.take_back()
                    self._taken = taken
                return None
        if read is not None:
            self._last = read
        return read


def same_place(a: Read, b: Read) -> bool:
    """The two reads found a card at the same place, turned the same way
    (:func:`shooter.vision.outline.same_place`)."""
    if a.quad is None or b.quad is None:
        return False
    # (loaded with the camera already)
    from ..vision.outline import same_place as outlines_match
    return outlines_match(a.quad, b.quad)


class WorldCamera:
    """The simulated camera over the world's pile (``world.pile``, Flip's side ``world.pile_side``). ``lazy``
    (virtual time): a frame only within :attr:`quiet` seconds of the last change of the view (a card put down or
    taken away, the pile turned over, the exposure set, a hand over it or just gone) or of the table asking the
    watcher something (:meth:`wake`), else None: nothing moves on a simulated table between plays, and a game is
    thousands of frames shorter. The watcher must see the view still for its settling time after a change:
    :class:`PileCamera` sets :attr:`quiet` to that and a frame more (the frame in which the watcher finds it
    settled).

    ``scene`` (``[sim] scene``): ``held-out``, the recogniser's held-out conditions (any light, tilt and glare
    within them, hands passing: reads may be wrong or unsure), or ``learning``, those of the simulated owner's
    learning session (steady light, no hands: the cards read as they are, e.g. for a test of the page's taps)."""

    def __init__(self, world: ShooterWorld, rng: random.Random, clock: Clock, *, lazy: bool,
                 quiet: float = QUIET_S, scene: str = SimScene.HELD_OUT) -> None:
        from sim.camera import HELD_OUT, LEARNING, SimCamera
        self.world, self.clock, self.lazy = world, clock, lazy
        conditions = {SimScene.HELD_OUT: HELD_OUT, SimScene.LEARNING: LEARNING}[SimScene(scene)]
        self.camera = SimCamera(world.pile, rng, conditions, clock=clock)
        self.quiet = quiet
        self.frames = 0   # frames rendered
        self._pile: tuple[object, ...] = ()
        self._until = -1.0
        self._hand = False

    @property
    def region(self) -> tuple[int, int, int, int]:
        return self.camera.region

    def wake(self) -> None:
        """Render again for :attr:`quiet` (the table asked the watcher something: it must see frames)."""
        self._until = max(self._until, self.clock.now() + self.quiet)

    @property
    def exposure(self) -> float:
        """The simulated camera's exposure (a share of its own)."""
        return self.camera.exposure

    @exposure.setter
    def exposure(self, share: float) -> None:
        self.camera.exposure = share

    def capture(self) -> Any:
        # the view changes with the pile, the side up and the exposure (the watcher must see each settle)
        pile = (*map(id, self.world.pile), self.world.pile_side, self.camera.exposure)
        now = self.clock.now()
        if pile != self._pile:
            self._pile, self._until = pile, max(self._until, now + self.quiet)
        if self.lazy and now > self._until:
            return None
        self.camera.side_up = self.world.pile_side
        frame = self.camera.capture()
        self.frames += 1
        if self.camera.hand_in_view or self._hand:   # the view moves (or the hand just left it): watched on
            self._until = max(self._until, now + self.quiet)
        self._hand = self.camera.hand_in_view
        return frame

    def close(self) -> None:
        self.camera.close()

    @property
    def closed(self) -> bool:
        return self.camera.closed


class PileCamera:
    """The camera, its watcher and its pump for one controller (see the module docstring). :meth:`start` once
    the controller has started; :meth:`close` stops the pump, then closes the camera (safe twice).
    ``on_read``: told each read before the table takes it (the simulator's tally)."""

    def __init__(self, camera: Any, watcher: PileWatcher, *, controller: Controller, loop: ControlLoop,
                 decks: Callable[[Edition], Deck | None], log: Callable[[str], None],
                 interval: float = FRAME_INTERVAL) -> None:
        self.camera = camera
        if isinstance(camera, WorldCamera):   # a lazy camera renders until the watcher can have settled: still
            camera.quiet = watcher.settings.settle_s + interval + 0.01   # for settle_s, seen a frame later
        self.controller = controller
        self.gate = Gate(watcher, decks, clock=loop.clock.now, wake=getattr(camera, "wake", None))
        self.pump = FramePump(camera, self.gate, loop=loop, deliver=self._deliver, interval=interval, log=log)
        self.on_read: Callable[[Read], None] | None = None
        self.dropped = 0          # reads out of a round's play
        self._playing = False
        self._owing_wrong = False   # a wrong card's penalty is owed (its card taken back once)

    def start(self) -> None:
        self.gate.ask("deck", self.controller.table.record)
        self.controller.pile.on_typed = self._typed
        self._playing = self._in_play()
        self.controller.add_sink(self._event)
        self.pump.start()

    def _in_play(self) -> bool:
        game = self.controller.table.status()
        return game is not None and game.get("phase") == "play"

    def _event(self, obj: dict[str, Any]) -> None:
        name = obj.get("event")
        if name is None:
            return
        if name == EventName.GAME:
            self.gate.ask("deck", self.controller.table.record)
            self.gate.ask("new game")
        elif name == EventName.LID:
            self.gate.ask("settle")
        elif name == EventName.SIDE:
            self.gate.ask("prime")
        elif name == EventName.SHOT and obj.get("reason") == Reason.FIRST:
            # shot to the dealer, who turns it up: the change that follows is the first card, no play (primed,
            # not settled: the view may lie still for a while before the card is turned up, and would be the
            # reference then; the card, turned up as play begins, was then read as the first seat's play)
            self.gate.ask("prime")
        if name == EventName.OWED and obj.get("reason") == Reason.WRONG_CARD:
            if not self._owing_wrong:   # the penalty itself; its presses repeat the event
                self.gate.ask("take back")
            self._owing_wrong = True
        elif name in (EventName.OWED, EventName.TURN):
            self._owing_wrong = False
        playing = self._in_play()
        if playing and not self._playing:
            self.gate.ask("play begins")
        self._playing = playing

    def _typed(self) -> None:
        """A play was typed with no read waiting: the card on top is reported (the watcher missed it, or has not
        settled on it yet), so the view it settles to is the reference, not read again as the next seat's."""
        self.gate.ask("settle")

    def _deliver(self, read: Read) -> None:
        if not self._in_play():
            self.dropped += 1
            return
        if self.on_read is not None:
            self.on_read(read)
        self.controller.pile.take(read)

    def close(self) -> None:
        self.pump.close()
        self.controller.remove_sink(self._event)
        if self.controller.pile.on_typed == self._typed:
            self.controller.pile.on_typed = None
        if not self.camera.closed:
            self.camera.close()
