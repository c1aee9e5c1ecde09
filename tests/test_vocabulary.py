"""One vocabulary: the protocol's error codes are one StrEnum with today's wire values, each with a named error
of one exception tree (like gpiozero's), and the code raises those, never a code written as a string."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from shooter.errors import NAMED, CommandError, ErrorCode, ShooterError, command_error

ROOT = Path(__file__).resolve().parent.parent


def documented_codes() -> list[str]:
    """The codes of docs/protocol.md's error tables (the one under "Error codes" and the exact variants')."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    codes = []
    for table in re.findall(r"\| code \| (?:when|meaning) \|\n\|---\|---\|\n((?:\|.*\n)+)", doc):
        codes += re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    return codes


def test_the_error_codes_are_the_protocol_docs_tables():
    codes = documented_codes()
    assert len(codes) == len(set(codes)) and "bad-argument" in codes and "bad-count" in codes
    assert sorted(codes) == sorted(code.value for code in ErrorCode)


def test_every_code_has_one_named_error_of_the_tree():
    assert set(NAMED) == set(ErrorCode)
    for code, named in NAMED.items():
        error = named("a message")
        assert isinstance(error, CommandError) and isinstance(error, ShooterError)
        assert (error.code, error.message, str(error)) == (code, "a message", "a message")
        assert type(command_error(code.value, "m")) is named
        assert json.dumps({"error": error.code}) == json.dumps({"error": code.value})   # the wire value


def test_a_code_the_protocol_does_not_have_cannot_be_raised():
    with pytest.raises(ValueError):
        CommandError("no-such-code", "m")


def test_the_shooter_raises_named_errors_never_a_code_written_as_a_string():
    """``CommandError("bad-argument", ...)`` was written about 60 times; a code as a string literal is now a
    named error (``BadArgument(...)``), and a code held as data goes through ``command_error``."""
    literal = []
    for path in sorted((ROOT / "shooter").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "CommandError"
                    and node.args and isinstance(node.args[0], ast.Constant | ast.Starred)):
                literal.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not literal, literal
