"""Typing and lint: ``mypy`` (config in pyproject.toml: strict on every module of hal/, shooter/ and sim/) and
``ruff check`` are clean, including that hal.Hardware has the shape of
hal.interfaces.HardwareParts that the shooter programs against. Each is skipped where its tool is not
installed (``pip install '.[test]'`` brings both)."""

import subprocess
import sys
from pathlib import Path

import pytest

from shooter.launcher import TRANSITIONS, Launcher

ROOT = Path(__file__).parent.parent
PACKAGES = ("hal", "shooter", "sim", "benchmarks")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_mypy_is_clean():
    pytest.importorskip("mypy")
    out = _run("mypy")
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_module_is_checked_strictly():
    # mypy's own reading of pyproject.toml: each module's options after the overrides, against every flag --strict
    # sets; a module added to a package, or an override loosening one, cannot slip out of the strict check
    pytest.importorskip("mypy")
    from mypy.config_parser import parse_config_file
    from mypy.main import define_options
    from mypy.options import Options

    _, _, strict_flags = define_options()
    options = Options()

    def set_strict_flags() -> None:
        for dest, value in strict_flags:
            setattr(options, dest, value)
    parse_config_file(options, set_strict_flags, str(ROOT / "pyproject.toml"))
    assert sorted(options.files or []) == sorted(PACKAGES)
    modules = [".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
               for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    assert len(modules) > 90
    loose = {module: [dest for dest, value in strict_flags if getattr(options.clone_for_module(module), dest) != value]
             for module in modules}
    assert {m: flags for m, flags in loose.items() if flags} == {}


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
