"""Typing and lint: ``mypy`` (config in pyproject.toml: strict on hal/ and the shooter's core, checked
everywhere else) and ``ruff check`` are clean, including that hal.Hardware has the shape of
hal.interfaces.HardwareParts that the shooter programs against. Each is skipped where its tool is not
installed (``pip install '.[test]'`` brings both)."""

import subprocess
import sys
from pathlib import Path

import pytest

from shooter.launcher import TRANSITIONS, Launcher

ROOT = Path(__file__).parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_mypy_is_clean():
    pytest.importorskip("mypy")
    out = _run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr


def test_ruff_check_is_clean():
    pytest.importorskip("ruff")
    out = _run("ruff", "check", "--no-cache", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_launcher_declares_every_trigger_of_its_table():
    # TableMachine sets the triggers on the launcher at run time; their declarations are what mypy sees.
    # (a trigger that carries data, as turn(angle=A), is declared with any arguments)
    declared = {name for name, kind in Launcher.__annotations__.items()
                if kind in ("Callable[[], bool]", "Callable[..., bool]")}
    assert declared == {t["trigger"] for t in TRANSITIONS}
