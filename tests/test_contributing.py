"""The contributor's pages: CONTRIBUTING.md's commands are the ones CI runs, the pre-commit hooks run CI's ruff and
mypy, and CHANGELOG.md keeps an Unreleased section at its top."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text()
CI = (ROOT / ".ci" / "run").read_text()


def test_every_suite_contributing_names_is_run_by_ci():
    for command in (".venv/bin/python -m pytest -m slow", ".venv/bin/python -m pytest -m faults", ".venv/bin/mypy",
                    ".venv/bin/ruff check .",
                    "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"):
        assert f"`{command}`" in CONTRIBUTING or command in CONTRIBUTING, command
        assert command in CI, command


def test_the_pre_commit_hooks_run_cis_ruff_and_mypy():
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    entries = re.findall(r"^\s+entry: (\S+)", hooks, re.M)
    assert entries == [".venv/bin/ruff", ".venv/bin/mypy"]
    assert "pass_filenames: false" in hooks.split("id: mypy", 1)[1]   # mypy checks pyproject's files, whole
    for entry in entries:
        assert entry in CI


def test_contributing_says_how_to_add_an_edition_and_a_console_where_the_code_is():
    for heading, paths in (("## Adding an edition", ["shooter/editions/builtin.py", "tests/house_decks.py",
                                                     "tests/test_editions_fifth.py"]),
                           ("## Adding a console", ["shooter/consoles/base.py", "shooter/consoles/lines.py",
                                                    "shooter/consoles/sinks.py", "shooter/access.py",
                                                    "tests/test_tcp_console.py", "tests/fault_runners.py"])):
        section = CONTRIBUTING.split(heading, 1)[1].split("\n## ", 1)[0]
        for path in paths:
            assert path.removeprefix("shooter/") in section or path in section, (heading, path)
            assert (ROOT / path).exists(), path


def test_the_changelog_opens_with_unreleased():
    headings = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert headings and headings[0] == "[Unreleased]"
