"""hal/ is mypy-strict clean (config in pyproject.toml), including that hal.Hardware has the shape of
hal.interfaces.HardwareParts that the shooter programs against. Skipped where mypy is not installed."""

import subprocess
import sys
from pathlib import Path

import pytest


def test_hal_is_mypy_strict_clean():
    pytest.importorskip("mypy")
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=Path(__file__).parent.parent,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
