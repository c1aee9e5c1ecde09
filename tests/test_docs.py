"""Docs are part of the feature: the examples, tables and diagrams in docs/ are checked against the code."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shooter import beeps
from shooter.commands.table import COMMANDS

ROOT = Path(__file__).parent.parent
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()
SESSIONS = re.findall(r"```console\n\$ uno-shooter run (.*?)\n(.*?)```", PROTOCOL, re.S)


def test_the_protocol_doc_has_example_sessions():
    assert len(SESSIONS) >= 2


@pytest.mark.parametrize("args, body", SESSIONS)
def test_every_example_session_in_the_protocol_doc_is_what_the_program_prints(args, body):
    lines = body.splitlines()
    inputs = [line[2:] for line in lines if line.startswith("> ")]
    expected = [line for line in lines if not line.startswith("> ")]
    out = subprocess.run([sys.executable, "-m", "shooter", "run", *args.split()],
                         input=("\n".join(inputs) + "\n").encode(), capture_output=True, timeout=60)
    assert out.stdout.decode().splitlines() == expected


def test_every_command_is_in_the_protocol_doc():
    for spec, _ in COMMANDS:
        assert spec.usage.replace("|", "\\|") in PROTOCOL, spec.usage


def test_the_protocol_docs_error_table_and_the_error_codes_agree():
    from shooter.errors import ErrorCode
    from shooter.protocol import ERROR_CODES
    table = PROTOCOL.split("### Error codes\n", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    assert sorted(documented) == sorted(code.value for code in ErrorCode)
    assert set(ERROR_CODES) == set(documented)


def test_the_beep_table_matches_the_vocabulary():
    doc = (ROOT / "docs" / "shooter.md").read_text().split("## Beeps", 1)[1]
    for name, (pattern, meaning) in beeps.VOCABULARY.items():
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{name}` |"))
        assert meaning in row
        for frequency, seconds in pattern:
            assert (f"{frequency:g} Hz {seconds:g} s" if frequency else f"rest {seconds:g} s") in row


def test_the_readme_gives_the_two_commands_and_ci_runs_them():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    install_test = "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"
    assert install_test in readme and install_test in ci
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/uno-shooter run --sim --console stdio" \
        in readme


def test_the_table_diagram_in_the_rules_doc_matches_the_code():
    from shooter.editions import COUNTING
    from shooter.table import table_diagram
    assert table_diagram().strip() in (ROOT / "docs" / "rules.md").read_text()
    assert table_diagram(COUNTING).strip() in (ROOT / "docs" / "rules.md").read_text()


def test_every_rule_option_is_documented_with_its_default():
    from dataclasses import fields

    from shooter.table import RuleOptions
    doc = (ROOT / "docs" / "rules.md").read_text()
    example = (ROOT / "config.example.toml").read_text()
    for f in fields(RuleOptions):
        default = json.dumps(f.default) if isinstance(f.default, str) else str(f.default).lower()
        assert f"| `{f.name}` | `{default}` |" in doc, f.name
        assert f"{f.name} = {default}" in example, f.name


def test_the_protocol_docs_status_schema_names_the_tables_own_choices():
    # the schema is written by hand; its choices and numbers are the table's (shooter/table/args.py)
    from shooter.table.args import DEFAULT_LIMIT, DIRECTIONS, EDITIONS, MAX_SEATS, SCORINGS, choices
    assert f'"edition": "{choices(EDITIONS)}", "scoring": "{choices(SCORINGS)}", "limit": {DEFAULT_LIMIT},' in PROTOCOL
    assert f'"direction": "{choices(DIRECTIONS)}"' in PROTOCOL
    assert f"a seat outside 1..{MAX_SEATS}" in PROTOCOL
