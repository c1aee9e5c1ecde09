"""Hardware faults injected through the whole controller stack in virtual time: lid openings at random
instants during back-to-back bursts, and jams. For the fault suite (and its tests): each run reports what
was tried, what the shooter survived and how the motor behaved, as the simulator saw it from outside.

Nothing here is mocked: :class:`~shooter.app.App` builds the controller, the launcher and the hardware
layer on the simulator's pins; the simulated lid, card path and exit beam act as a person and the
cards would, and the world's watcher measures the motor (:mod:`sim.world`).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from shooter.app import App
from shooter.config import Config, parse_config
from shooter.launcher import Shot

SERVING = ("ready", "aiming", "firing", "retracting")


@dataclass(frozen=True)
class LidReport:
    """Lid openings at random instants during back-to-back bursts."""

    tried: int                 # lid openings
    while_running: int         # of those, with the motor running at that instant
    survived: int              # lid cycles after which the shooter served again without a fault
    unsafe_seconds: float      # motor on while the lid was open (must be 0.0)
    longest_run: float         # longest continuous motor run (runs split by less than the rest merged)
    max_on_time: float
    shots: int                 # bursts reported meanwhile (finished or cut short by the lid)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class JamReport:
    """Cards wedged in the exit slot, one per burst."""

    tried: int                 # jams armed
    detected: int              # bursts that stopped as ``jammed`` with a ``jam`` event
    longest_run: float
    max_on_time: float

    def as_dict(self) -> dict:
        return asdict(self)


class _Bench:
    """An App in virtual time with its events counted and its magazine kept stocked."""

    def __init__(self, config: Config | None, seed: int):
        self.app = App(config or parse_config({}), sim=True, virtual=True, seed=seed, log=lambda m: None)
        self.rng = random.Random(f"faults-{seed}")
        self.controller = self.app.controller
        self.launcher = self.controller.launcher
        world = self.app.world
        assert world is not None  # an App on the simulator has its world
        self.world = world
        self.counts: dict[str, int] = {}
        self.controller.add_sink(self._count)
        self.app.loop.run_until_quiet()

    def _count(self, event: dict) -> None:
        name = event.get("event")
        if name is not None:
            self.counts[name] = self.counts.get(name, 0) + 1

    def restock(self) -> None:
        """A person refills the magazine, takes the cards off the table and types the count."""
        self.world.launcher.take_out()
        if self.world.cards_in_shooter < 40:
            self.world.load(100)
            self.launcher.set_count(self.world.cards_in_shooter)

    def queue_bursts(self, depth: int = 3) -> None:
        """Owed bursts back to back: the queue never runs dry."""
        seats = self.controller.seats
        while len(self.launcher.queue) < depth:
            self.launcher.enqueue(Shot(seat=self.rng.randint(1, seats), reason="hit4",
                                       planned=self.rng.randint(1, 12)))

    def lid_cycle(self, open_for: float) -> None:
        debounce = self.app.hw.settings.inputs.lid_close_debounce
        self.world.open_lid()
        self.app.loop.run_for(open_for)
        self.world.close_lid()
        self.app.loop.run_for(debounce + 0.05)

    @property
    def max_on_time(self) -> float:
        return self.app.hw.settings.motor.max_on_time


def lid_openings(n: int = 10_000, *, seed: int = 0, config: Config | None = None) -> LidReport:
    """Open the lid ``n`` times at random instants while owed bursts are served back to back (each
    opening lasts 0.05..0.5 s, then the lid is shut and settles). A cycle survives when no ``fault`` came
    of it and the shooter is back to serving once the lid has settled."""
    bench = _Bench(config, seed)
    loop, rng, world = bench.app.loop, bench.rng, bench.world
    survived = while_running = 0
    with bench.app:
        for _ in range(n):
            bench.restock()
            bench.queue_bursts()
            loop.run_for(rng.uniform(0.0, 1.5))
            while_running += world.motor_on
            faults = bench.counts.get("fault", 0)
            bench.lid_cycle(rng.uniform(0.05, 0.5))
            survived += bench.counts.get("fault", 0) == faults and bench.launcher.state in SERVING
        return LidReport(tried=n, while_running=while_running, survived=survived,
                         unsafe_seconds=float(world.unsafe_time()), longest_run=world.longest_motor_run,
                         max_on_time=bench.max_on_time, shots=bench.counts.get("shot", 0))


def jams(n: int = 1_000, *, seed: int = 0, config: Config | None = None) -> JamReport:
    """Wedge the next card ``n`` times, one burst each; a jam is detected when the burst stops as
    ``jammed`` with a ``jam`` event. The lid is opened and shut after each to clear it."""
    bench = _Bench(config, seed)
    loop, world, launcher = bench.app.loop, bench.world, bench.launcher
    detected = 0
    with bench.app:
        for _ in range(n):
            bench.restock()
            world.arm_jam()
            jams_before = bench.counts.get("jam", 0)
            launcher.enqueue(Shot(seat=None, reason="hit4", planned=bench.rng.randint(1, 12)))
            loop.run_until_quiet()
            detected += launcher.state == "jammed" and bench.counts.get("jam", 0) == jams_before + 1
            bench.lid_cycle(0.1)
        return JamReport(tried=n, detected=detected, longest_run=world.longest_motor_run,
                         max_on_time=bench.max_on_time)
