"""Every state file the controller keeps, a good content of each, and a start of the controller that reads
them all the way ``uno-shooter run`` does (shared by tests/test_state_file_faults.py and the fault suite's
tests/test_faults_files.py)."""

from __future__ import annotations

import json
from pathlib import Path

from shooter.app import App
from shooter.bringup.calibration import CALIBRATION_FILE
from shooter.config import parse_config
from shooter.persist import STATE_FILE, Store
from shooter.seat_names import NAMES_FILE
from shooter.tap_ids import IDS_FILE, READ
from shooter.web.pairing import TOKENS_FILE, Pairing
from tests.conftest import run_console
from tests.test_persistence import GAME

FILES = (STATE_FILE, NAMES_FILE, CALIBRATION_FILE, TOKENS_FILE, IDS_FILE)


def good_contents(tmp_dir: Path) -> dict[str, bytes]:
    """A good file of each kind (the game one played into ``tmp_dir``, then taken out of it)."""
    run_console(GAME[:12], seed=5, state_dir=tmp_dir)
    game = (tmp_dir / STATE_FILE).read_bytes()
    (tmp_dir / STATE_FILE).unlink()
    return {
        STATE_FILE: game,
        NAMES_FILE: json.dumps({"format": "uno-shooter/seat-names", "version": 1,
                                "names": {"1": "Ann", "3": "Cas"}}).encode(),
        CALIBRATION_FILE: json.dumps({"seat_angles": {"2": [-45.0, 45.0]}, "motor": {"spin_up": 0.05}}).encode(),
        TOKENS_FILE: json.dumps({"tokens": [{"id": 3, "hash": "ab" * 32, "label": "iPhone"}],
                                 "next_id": 7}).encode(),
        IDS_FILE: json.dumps({"format": "uno-shooter/tap-ids", "version": 1,
                              "next": {"read": 18, "request": 3}}).encode(),
    }


def loaded(app: App) -> dict[str, bool]:
    """Which state files the started controller took in (their content is in use)."""
    controller = app.controller
    return {STATE_FILE: controller.table.game is not None, NAMES_FILE: bool(controller.web.names),
            CALIBRATION_FILE: bool(app.calibration.seat_angles),
            TOKENS_FILE: bool(controller.pairing is not None and controller.pairing.status()["paired"]),
            # the next read is the file's 18 (not 1, nor where ids start when the file was set aside)
            IDS_FILE: controller.ids.given(READ, 17) and not controller.ids.given(READ, 18)}


def start(state_dir: Path, log, *, web: bool = True) -> dict[str, bool]:
    """Start the controller on ``state_dir`` as ``run`` does (the web console too: it reads the tokens;
    ``web`` False: only the pairing that start_web makes, without the server), stop it again; which files
    it took in. Raises what the start raises."""
    with App(parse_config({}), sim=True, virtual=True, seed=5, state_dir=state_dir, log=log) as app:
        close = app.start_web("127.0.0.1", 0) if web else None
        if not web:   # App.start_web's pairing, without its server (a thousand starts in the fault suite)
            app.controller.web.open(Pairing(app.clock, Store(state_dir, name=TOKENS_FILE), log=log))
        try:
            return loaded(app)
        finally:
            if close is not None:
                close()


def kept_aside(state_dir: Path, name: str) -> list[Path]:
    return sorted(p for p in state_dir.iterdir() if p.name.startswith(f"{name}.bad-"))
