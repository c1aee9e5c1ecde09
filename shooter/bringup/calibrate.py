"""``uno-shooter calibrate``: the seat angles, the motor's timing and the servo's speed of this shooter.

1. Seats, for each number of players asked for: the servo turns to the angle in use for the seat; jog it
   with ``<`` / ``>`` (1°, fine) or ``<<`` / ``>>`` (10°, coarse), or ``=A`` for an angle, until the
   shooter points at the seat, then Enter stores it (``s`` keeps it as it is, ``q`` stops).
2. Motor: with the lid closed and cards in the magazine, counted bursts of 1..5 cards (twice each) through
   the exit sensor. The time from switching on until the k-th card breaks the beam is
   ``spin_up + k * seconds_per_card`` (the model the shooter runs on without the sensor); a least-squares
   line through the measured (k, time) pairs gives both.
3. Servo speed: a hobby servo reports nothing back, so it is timed by you: the servo sweeps its whole
   travel and you type the seconds it took (or Enter to keep the configured speed, and how to set it).

Results go to ``calibration.json`` in the state directory and override the config from the next start;
``status`` shows where each value comes from.
"""

from __future__ import annotations

from typing import TextIO

from ..errors import ConfigError
from ..scheduler import PROFILES, profile_from_config
from ..table.args import MAX_SEATS, MIN_SEATS
from .bench import Bench

FINE, COARSE = 1.0, 10.0
BURSTS = (1, 2, 3, 4, 5)
REPEATS = 2


def parse_players(text: str | None) -> list[int] | None:
    """``"3,4"`` -> [3, 4]; None -> None (every number of players the table uses)."""
    if text is None:
        return None
    try:
        players = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise ConfigError(f"--players {text}: must be numbers of players, like 3,4") from None
    if not players or not all(MIN_SEATS <= p <= MAX_SEATS for p in players):
        raise ConfigError(f"--players {text}: every number of players must be {MIN_SEATS}..{MAX_SEATS}")
    return players


def fit_line(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least squares ``y = a + b x`` through ``points``: returns (a, b)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if n < 2 or sxx == 0:
        raise ValueError("a line needs points at two different x at least")
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - b * mx, b


class Calibrator:
    """The three steps on a :class:`Bench`, reading answers line by line from ``stdin``."""

    def __init__(self, bench: Bench, stdin: TextIO, out: TextIO):
        self.bench = bench
        self.stdin = stdin
        self.out = out

    def say(self, text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line of input (None at end of input)."""
        self.say(prompt, end="")
        line = self.stdin.readline()
        return None if line == "" else line.strip()

    def turn(self, angle: float) -> None:
        seconds = self.bench.hw.servo.move_to(angle)
        self.bench.wait_for(lambda: not self.bench.hw.servo.moving, seconds + 1.0)

    # ---- 1. seats ----
    def seats(self, players: list[int]) -> bool:
        """Point every seat; False if stopped early (what was stored so far stays stored)."""
        s = self.bench.config.hardware.servo
        self.say("Seats: < > turn 1 degree, << >> 10 degrees, =A to an angle; Enter stores the seat, "
                 "s keeps it, q stops.")
        for n in players:
            for seat in range(1, n + 1):
                angle = self.bench.seat_angles(n)[seat - 1]
                self.turn(angle)
                while True:
                    line = self.ask(f"{n} players, seat {seat}: {angle:g}° > ")
                    if line is None or line == "q":
                        self.say("stopped: the seats stored so far are kept")
                        return False
                    if line in ("", "s"):
                        break
                    step = {"<": -FINE, ">": FINE, "<<": -COARSE, ">>": COARSE}.get(line)
                    if step is not None:
                        target = angle + step
                    elif line.startswith("="):
                        try:
                            target = float(line[1:])
                        except ValueError:
                            self.say(f"  {line[1:]!r} is not an angle")
                            continue
                    else:
                        self.say("  < > << >> =A, Enter, s or q")
                        continue
                    target = max(s.min_angle, min(s.max_angle, target))
                    if target != angle:
                        angle = target
                        self.turn(angle)
                if line == "":
                    self.bench.calibration.store_seat(n, seat, angle, self.bench.seat_angles(n))
                    self.save()
        return True

    # ---- 2. motor ----
    def burst(self, cards: int) -> float | None:
        """Shoot ``cards`` cards; the seconds from switching on until the last one broke the beam (None if
        fewer came out before the motor's maximum on-time)."""
        bench, hw, launcher = self.bench, self.bench.hw, self.bench.config.launcher
        sensor = hw.exit_sensor
        assert sensor is not None  # motor() measures bursts only with the sensor fitted
        broke: list[float] = []
        cleared = [0]
        sensor.on_card = lambda: broke.append(bench.clock.now())
        sensor.on_clear = lambda: cleared.__setitem__(0, cleared[0] + 1)
        bench.rested()
        start = bench.clock.now()
        try:
            hw.motor.forward(launcher.duty)
            bench.wait_for(lambda: cleared[0] >= cards,
                           bench.config.hardware.motor.max_on_time - launcher.retract_time)
            hw.motor.backward(launcher.retract_duty)  # the next card back, in the same run as the burst
            bench.wait(launcher.retract_time)
        finally:
            hw.motor.stop()
        bench.wait(0.3)
        return broke[cards - 1] - start if len(broke) >= cards else None

    def motor(self) -> bool:
        hw = self.bench.hw
        if hw.exit_sensor is None:
            self.say("Motor: needs the exit sensor to count cards; set motor.seconds_per_card and motor.spin_up "
                     "by hand (see docs/bringup.md, step 6).")
            return True
        needed = sum(BURSTS) * REPEATS
        if self.ask(f"Motor: load at least {needed} cards, close the lid, aim at a tray, then Enter (q skips) ") \
                in (None, "q"):
            return True
        if hw.lid.is_open:
            self.say("the lid is open: the motor stays off; nothing measured")
            return False
        points: list[tuple[float, float]] = []
        for cards in BURSTS:
            for _ in range(REPEATS):
                seconds = self.burst(cards)
                if seconds is None:
                    self.say(f"  a burst of {cards}: fewer cards came out (magazine empty? jam?); nothing stored")
                    return False
                self.say(f"  a burst of {cards}: card {cards} at {seconds:.3f} s")
                points.append((cards, seconds))
        spin_up, per_card = fit_line(points)
        worst = max(abs(spin_up + k * per_card - t) for k, t in points)
        self.say(f"Motor: seconds_per_card = {per_card:.4f}, spin_up = {spin_up:.4f} "
                 f"(least squares over {len(points)} bursts; worst residual {worst * 1000:.1f} ms)")
        problem = self._fits_max_on_time(per_card, spin_up)
        if problem:
            self.say(f"  not stored: {problem}")
            return False
        self.bench.calibration.motor.update(seconds_per_card=round(per_card, 5), spin_up=round(max(0.0, spin_up), 5))
        self.save()
        return True

    def _fits_max_on_time(self, per_card: float, spin_up: float) -> str | None:
        config = self.bench.config
        name = config.scheduler_profile
        profile = PROFILES.get(name) or profile_from_config(name, config.scheduler_profiles[name])
        longest = spin_up + profile.max_burst * per_card
        limit = config.hardware.motor.max_on_time
        if per_card <= 0 or longest >= limit:
            return (f"the longest burst ({profile.max_burst} cards) would take {longest:.2f} s, not within "
                    f"motor.max_on_time ({limit:g} s)")
        return None

    # ---- 3. servo speed ----
    def servo_speed(self) -> None:
        s = self.bench.config.hardware.servo
        travel = s.max_angle - s.min_angle
        self.turn(s.min_angle)
        line = self.ask(f"Servo speed: a hobby servo reports nothing back, so time it: press Enter and watch it "
                        f"turn {travel:g}° (q skips) ")
        if line in (None, "q"):
            self.say(f"  kept servo.speed = {s.speed:g}°/s")
            return
        self.turn(s.max_angle)
        line = self.ask("  seconds it took (Enter keeps the configured speed): ")
        try:
            seconds = float(line) if line else None
        except ValueError:
            seconds = None
        if not seconds or seconds <= 0:
            self.say(f"  kept servo.speed = {s.speed:g}°/s. To set it: the datasheet's speed (e.g. 0.12 s per 60° "
                     f"= 500°/s) less a third for the turntable's load; slower is safe (the shooter fires once "
                     f"the computed move time has passed), faster fires while it still turns.")
            return
        speed = round(travel / seconds * 0.9, 1)  # a tenth off: a stopwatch is early rather than late
        self.bench.calibration.servo_speed = speed
        self.save()
        self.say(f"  servo.speed = {speed:g}°/s ({travel:g}° in {seconds:g} s, less a tenth)")

    def save(self) -> None:
        path = self.bench.calibration.save()
        if path is None:
            self.say("  (not saved: no state directory; --state-dir DIR)")


def players_in_use(bench: Bench) -> list[int]:
    """``table.default_seats`` and every number of players with configured or calibrated seat angles."""
    return sorted({bench.config.default_seats, *bench.config.seat_angles})


def run_calibration(bench: Bench, stdin: TextIO, out: TextIO, *, players: list[int] | None = None,
                    seats: bool = True, motor: bool = True, servo_speed: bool = True) -> int:
    """The three steps; exit status 0 if every step asked for was completed. ``players``: the numbers of
    players to point the seats for (None: :func:`players_in_use`)."""
    players = players or players_in_use(bench)
    c = Calibrator(bench, stdin, out)
    ok = True
    if seats:
        ok = c.seats(players) and ok
    if ok and motor:
        ok = c.motor() and ok
    if ok and servo_speed:
        c.servo_speed()
    store = bench.calibration.store
    c.say(f"Calibration {'saved in ' + str(store.path) if store else 'not saved (no state directory)'}: "
          f"{bench.calibration.to_dict()}")
    return 0 if ok else 1
