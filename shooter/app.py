"""The composition root: builds a running controller from a config.

This is the only place that chooses real or simulated hardware and a real or
virtual clock (and, with ``[camera]``, a real or simulated camera over the pile).
Everything it builds is closed by :meth:`App.close`: the camera's frames stop,
then the motor and every device.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from hal import Hardware, MonotonicClock, VirtualClock

from .bringup.calibration import Calibration
from .camera.pile_reports import PileSettings, Report
from .commands.table import COMMANDS
from .config import Config
from .controller import BringupFacts, Controller, Saving, Turntable
from .loop import ControlLoop
from .persist import Store
from .scheduler import PROFILES, Scheduler, profile_from_config
from .seat_names import SavedNames
from .table import RuleOptions, Table
from .tap_ids import TapIds

if TYPE_CHECKING:
    from .camera.pile_camera import PileCamera
    from .config import CameraConfig


class App:
    """A controller with its loop, clock, hardware and (in simulation) world."""

    def __init__(self, config: Config, *, sim: bool, virtual: bool = False, seed: int | None = None,
                 state_dir: Path | None = None, exit_sensor: bool = True,
                 log: Callable[[str], None] | None = None) -> None:
        if virtual and not sim:
            raise ValueError("--clock virtual needs --sim: real hardware runs in real time")
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        file_config = config
        self.calibration, config = Calibration.applied(state_dir, config, self.log)
        self.state_dir = state_dir
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        self.clock = VirtualClock() if virtual else MonotonicClock()
        self.loop = ControlLoop(self.clock)
        settings = config.hardware
        if not exit_sensor:
            settings = replace(settings, pins=replace(settings.pins, exit_sensor=None))
        self.world = None
        if sim:
            from sim import ShooterWorld, SimFactory
            factory = SimFactory(self.clock)
            self.world = ShooterWorld(factory, settings.pins, seed=self.seed, cards=config.sim_cards,
                                      exit_active_low=settings.inputs.exit_active_low,
                                      rest_time=settings.motor.rest_time)
            self.hardware_info, servo = {"pin_factory": "sim", "servo_backend": "gpiozero"}, None
        else:
            from hal.backends import choose_backends
            factory, servo, self.hardware_info = choose_backends(config.pin_factory, config.servo_backend,
                                                                 config.pwm_chip)
            self.log(f"uno-shooter: pin factory {self.hardware_info['pin_factory']}, "
                     f"servo backend {self.hardware_info['servo_backend']}")
        self.hw = Hardware(settings, clock=self.clock, post=self.loop.post, pin_factory=factory, servo=servo)
        try:
            self.storage: dict[str, str] | None = None   # set when the game is held in memory only
            self.store = Store(state_dir) if state_dir is not None else None
            table = self._restore(config)
            # the seat names as saved (their own file, beside the game's; read-only while the game is in memory)
            saved_names, names = SavedNames.restore(state_dir, writable=self.store is not None, log=self.log)
            # the ids a person taps (reads, pairing requests): never given twice, across restarts too
            self.ids = TapIds.restore(state_dir, writable=self.store is not None, log=self.log)
            self.controller = Controller(
                loop=self.loop, hw=self.hw, table=table, scheduler=self._scheduler(config), commands=COMMANDS,
                turntable=Turntable(config.launcher, self._seat_angles(config), config.default_seats,
                                    cards=config.sim_cards if sim else None),
                saving=Saving(self.store, self.storage, saved_names, names, self.ids),
                bringup=BringupFacts(self.calibration, file_config, self.hardware_info),
                rules=RuleOptions(**config.rules), world=self.world,
                pile=None if config.camera is None else PileSettings(Report(config.camera.report),
                                                                     config.camera.threshold))
            self.controller.start()
            self.camera: PileCamera | None = None
            if config.camera is not None:
                self.camera = self._camera(config.camera, sim, config.sim_scene)
        except BaseException:
            self.hw.close()
            raise

    def _camera(self, camera: CameraConfig, sim: bool, scene: str) -> PileCamera | None:
        """The camera over the pile, its watcher and its frame pump, started; None (said in one log line and in
        ``status``) when it cannot be opened: the shooter runs on without it. ``scene``: the simulated camera's
        conditions (``[sim] scene``)."""
        try:
            from hal.camera import Camera
            from hal.errors import HalError

            from .camera.pile_camera import Decks, PileCamera, WorldCamera
            from .vision import PileWatcher, camera_from_config, region_of
        except ImportError as exc:   # no vision extra: OpenCV or numpy missing
            self._no_camera(f"needs the vision extra (pip install '.[vision]'): {exc}")
            return None
        source: Camera | WorldCamera
        try:
            if self.world is not None and (sim or camera.backend == "sim"):
                source = WorldCamera(self.world, random.Random(f"camera-{self.seed}"), self.clock,
                                     lazy=self.loop.virtual, scene=scene)
                region = camera.pile or source.region
            else:
                source, region = camera_from_config(camera), region_of(camera)
        except (HalError, OSError) as exc:
            self._no_camera(str(exc))
            return None
        pile = PileCamera(source, PileWatcher(None, region), controller=self.controller, loop=self.loop,
                          decks=Decks(self.state_dir, sim=isinstance(source, WorldCamera), log=self.log),
                          log=self.log)
        pile.start()
        return pile

    def _no_camera(self, why: str) -> None:
        message = f"the camera cannot be opened ({why}); the shooter runs on without it"
        self.log(f"uno-shooter: {message}")
        self.controller.pile.unavailable = message

    def _scheduler(self, config: Config) -> Scheduler:
        name = config.scheduler_profile
        if name in config.scheduler_profiles:
            profile = profile_from_config(name, config.scheduler_profiles[name])
        else:
            profile = PROFILES[name]
        return Scheduler(profile, random.Random(self.seed))

    def _seat_angles(self, config: Config) -> Callable[[int], list[float]]:
        servo = config.hardware.servo
        from .seats import spread_angles

        def angles(players: int) -> list[float]:
            if players in self.calibration.seat_angles:  # calibrate seat=S may have changed them since
                return list(self.calibration.seat_angles[players])
            if players in config.seat_angles:
                return list(config.seat_angles[players])
            return spread_angles(players, servo.min_angle, servo.max_angle)
        return angles

    def _restore(self, config: Config) -> Table:
        """The saved game, or a fresh table. A state file that cannot be read is set aside (never a
        crash loop); if even that fails (a read-only card), the game is held in memory, announced."""
        options = RuleOptions(**config.rules)
        rng = random.Random(f"table-{self.seed}")
        store = self.store
        if store is None:
            return Table(options=options, rng=rng)
        try:
            store.probe()
        except OSError as exc:  # InstallError (a permission error) is not an OSError: it stops the start
            self._in_memory(store, f"{store.directory} cannot be written ({exc.strerror or exc})")
        counting = self.hw.exit_sensor is not None   # an exact game is resumed only with the sensor
        table = store.load_or_set_aside(
            lambda state: Table.from_dict(state, rng=rng, counting=counting), log=self.log,
            fresh="started without a game", stuck=lambda why: self._in_memory(store, why))
        if table is not None:
            shot = table.interrupted
            self.log(f"uno-shooter: resumed the game saved in {store.path}" + ("" if shot is None else (
                f"; a shot of {shot['planned']} cards to seat {shot['seat']} ({shot['reason']}) was cut short "
                f"by the stop: confirm the hand (set seat={shot['seat']} hand=N) or press to finish it")))
            return table
        return Table(options=options, rng=rng)

    def start_web(self, host: str, port: int, *, max_connections: int = 16) -> Callable[[], None]:
        """Pairing on the controller and the web console on its thread; returns its close()."""
        from .web.pairing import TOKENS_FILE, Pairing
        from .web.server import WebConsole  # aiohttp: only imported when the web console is on
        store = Store(self.state_dir, name=TOKENS_FILE) if self.state_dir is not None else None
        self.controller.web.open(Pairing(self.clock, store, log=self.log, ids=self.ids))
        web = WebConsole(self.controller, post=self.loop.post, host=host, port=port,
                         max_connections=max_connections, log=self.log)
        web.start()
        self.log(f"uno-shooter: web console on http://{host}:{web.port}/")
        return web.close

    def _in_memory(self, store: Store, why: str) -> None:
        """Go on without saving (``store`` cannot be written): announced in the log, in ``status``
        and by a ``storage`` event."""
        if self.storage is None:
            self.log(f"uno-shooter: {why}; the game is kept in memory only (it is lost on a restart)")
            self.storage = {"mode": "memory", "path": str(store.path), "message": why}
            self.store = None

    def close(self) -> None:
        """The camera's frames stopped, then the motor off and every device closed; safe twice."""
        try:
            if self.camera is not None:
                self.camera.close()
        finally:
            self.hw.close()

    def __enter__(self) -> App:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
