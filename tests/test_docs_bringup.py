"""The bring-up docs: the wiring picture is drawn from the pin map and current, the README shows it and walks
from a fresh image to a calibrated service, and docs/ stands alone (no references outside the repository)."""

import importlib.util
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hal.settings import PinMap

ROOT = Path(__file__).parent.parent


def wiring_module():
    spec = importlib.util.spec_from_file_location("wiring", ROOT / "docs" / "wiring.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_wiring_picture_is_current_with_the_default_pin_map():
    assert (ROOT / "docs" / "wiring.svg").read_text() == wiring_module().wiring_svg(PinMap()), \
        "docs/wiring.svg is stale: run python docs/generate.py"


def test_the_wiring_picture_names_every_default_pin_with_its_header_position():
    svg = (ROOT / "docs" / "wiring.svg").read_text()
    for field, bcm in PinMap().used().items():
        physical = wiring_module().PHYSICAL[bcm]
        assert f"GPIO{bcm} (pin {physical}) {field}" in svg


def test_the_wiring_picture_follows_a_changed_pin_map():
    svg = wiring_module().wiring_svg(replace(PinMap(), button=16, exit_sensor=None))
    assert "GPIO16 (pin 36) button" in svg and "exit_sensor" not in svg


def test_the_readme_shows_the_wiring_picture_and_a_bill_of_materials():
    readme = (ROOT / "README.md").read_text()
    assert "![wiring](docs/wiring.svg)" in readme
    assert "### Bill of materials" in readme


def test_the_readme_bring_up_goes_from_a_fresh_image_to_a_calibrated_running_service():
    readme = (ROOT / "README.md").read_text()
    bringup = readme.split("## Bring-up", 1)[1].split("\n## ", 1)[0]
    steps = ["Raspberry Pi OS", "dtoverlay=pwm-2chan", "sudo apt install", "pip install",
             "us selftest", "pytest -m real_pins", "us calibrate", "systemctl enable --now uno-shooter",
             "uno-shooter-rfcomm", "iPhone"]
    positions = [bringup.find(step) for step in steps]
    assert -1 not in positions, [s for s, p in zip(steps, positions, strict=True) if p == -1]
    assert positions == sorted(positions), "the steps are out of order"


LINKS_OUT = re.compile(r"shared/|DESIGN\.md|RULES\.md|PROTOCOL\.md|EDITIONS\.md|\.\./\.\./")


def test_nothing_in_the_repository_refers_to_files_outside_it():
    offenders = []
    for path in ROOT.rglob("*"):
        if any(part in (".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis") or part.endswith(".egg-info")
               for part in path.parts) or not path.is_file() or path.suffix not in (".py", ".md", ".toml", ".service",
                                                                                     ".conf", ".svg", ""):
            continue
        if path == Path(__file__):
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if LINKS_OUT.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_every_relative_link_in_the_docs_points_at_a_file_in_the_repository():
    for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text()):
            assert (doc.parent / target).exists(), f"{doc.name}: {target}"


def _readme_example(command: str) -> list[str]:
    readme = (ROOT / "README.md").read_text()
    block = readme.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() != "..."]


@pytest.mark.parametrize("command", ["uno-shooter selftest --sim --yes --sim-fault lid",
                                     "uno-shooter simulate --games 20"])
def test_the_readmes_examples_are_what_the_program_prints(command):
    out = subprocess.run([sys.executable, "-m", "shooter", *command.split()[1:]], capture_output=True, text=True,
                         timeout=300)
    printed = out.stdout.splitlines()
    shown = _readme_example(command)
    assert shown and all(line in printed for line in shown), [line for line in shown if line not in printed]
