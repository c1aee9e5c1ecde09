"""The bring-up docs: the wiring picture is drawn from the pin map and current, docs/bringup.md shows it and walks
from a fresh image to a calibrated service, the README's picture of the box is current, and the docs stand alone
(no references outside the repository, every relative link resolves)."""

import importlib.util
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from hal.settings import PinMap

ROOT = Path(__file__).parent.parent
BRINGUP = ROOT / "docs" / "bringup.md"
OPERATING = ROOT / "docs" / "operating.md"


def wiring_module(name: str = "wiring"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / f"{name}.py")
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


def test_the_readmes_picture_of_the_box_is_current():
    assert (ROOT / "docs" / "box.svg").read_text() == wiring_module("box").box_svg(), \
        "docs/box.svg is stale: run python docs/generate.py"
    assert "](docs/box.svg)" in (ROOT / "README.md").read_text()


def test_the_bring_up_doc_shows_the_wiring_picture_and_a_bill_of_materials():
    doc = BRINGUP.read_text()
    assert "![wiring](wiring.svg)" in doc
    assert "### Bill of materials" in doc


def test_the_bring_up_goes_from_a_fresh_image_to_a_calibrated_running_service():
    bringup = BRINGUP.read_text().split("## From a fresh image to a running service", 1)[1].split("\n## ", 1)[0]
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


DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
# a markdown link or image [text](target#anchor), or an <img src="target">; addresses with a scheme are not ours
LINK = re.compile(r"\]\(([^)\s]*)\)|<img [^>]*src=\"([^\"]+)\"")


def _anchors(text: str) -> set[str]:
    """GitHub's anchors of a document's headings: lower case, punctuation but - and _ dropped, spaces as -."""
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#+ (.+)$", text, re.M)}


def test_every_relative_link_in_the_docs_points_at_a_file_in_the_repository_and_its_heading():
    broken = []
    for doc in DOCUMENTS:
        for markdown, img in LINK.findall(doc.read_text()):
            link = markdown or img
            if not link or re.match(r"[a-z]+:", link):
                continue
            target, _, anchor = link.partition("#")
            path = doc.parent / target if target else doc
            if not path.exists():
                broken.append(f"{doc.name}: {link}")
            elif anchor and path.suffix == ".md" and anchor not in _anchors(path.read_text()):
                broken.append(f"{doc.name}: {link} (no such heading)")
    assert broken == []


def _readme_example(command: str) -> list[str]:
    readme = BRINGUP.read_text() + OPERATING.read_text()
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
