"""One vocabulary: the protocol's error codes are one StrEnum with today's wire values, each with a named error
of one exception tree (like gpiozero's), and the code raises those, never a code written as a string. The event
names, reasons, phases, the shooter's states and the cards' effects are StrEnums too, each checked against
docs/protocol.md (the "Events" and "Words" tables) both ways, so a new word cannot slip in undocumented."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from shooter.editions.records import EXTREME_CARD_REASONS, Effect, records
from shooter.errors import NAMED, CommandError, ErrorCode, ShooterError, command_error
from shooter.launcher import PROTOCOL_STATE
from shooter.table import machine
from shooter.table.cards import PENALTY_PRESSES
from shooter.table.exact import ExactRules
from shooter.table.state import EXACT_REASONS, GAME_PHASES, REASONS
from shooter.table.turns import TurnRules
from shooter.vocabulary import (
    CutShort,
    EventName,
    FaultReason,
    HandsReason,
    Lid,
    PairingReason,
    Phase,
    Reason,
    SeenOutcome,
    ShooterState,
)

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


# --- the other words: event names, reasons, phases, states, effects -------------------------------------------

PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
# the rows of docs/protocol.md's "Words" table, in order, and the enum that holds each row's words
WORD_ROWS = [Reason, CutShort, FaultReason, PairingReason, HandsReason, SeenOutcome, Phase, ShooterState, Lid]


def documented_events() -> list[str]:
    """The event names of docs/protocol.md's "Events" table (a row may name several: `jam`, `empty`, `cleared`)."""
    table = PROTOCOL.split("\n## Events\n", 1)[1].split("\n### Words\n", 1)[0]
    return [name for row in re.findall(r"^\| (`[^|]+`) \|", table, re.M) for name in re.findall(r"`([a-z0-9-]+)`", row)]


def documented_words() -> list[list[str]]:
    """The words of each row of docs/protocol.md's "Words" table (its second column), in order."""
    table = PROTOCOL.split("\n### Words\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[2] for line in table.splitlines() if line.startswith("| ")][1:]  # (not the header)
    return [re.findall(r"`([a-z0-9-]+)`", words) for words in rows]


def test_the_event_names_are_the_protocol_docs_events_table():
    names = documented_events()
    assert len(names) == len(set(names)) and {"shot", "jam", "cleared", "pair-granted", "uncounted"} <= set(names)
    assert sorted(names) == sorted(e.value for e in EventName)


def test_each_row_of_the_words_table_is_one_enum_in_its_order():
    rows = documented_words()
    assert len(rows) == len(WORD_ROWS)
    for words, enum in zip(rows, WORD_ROWS, strict=True):
        assert words == [w.value for w in enum], enum.__name__


def test_the_words_are_what_the_rules_and_the_launcher_use():
    """The tables the code checks saved games and states against hold the enums' words, no more and no less."""
    # (besides the words, an Extreme-family hit card's entry is named by the card: the registry's names)
    assert set(REASONS) | set(EXACT_REASONS) == set(Reason) | set(EXTREME_CARD_REASONS)
    assert tuple(Phase) == GAME_PHASES and ["none", *(p.value for p in Phase)] == machine.STATES
    assert set(PROTOCOL_STATE.values()) == set(ShooterState)
    assert set(PENALTY_PRESSES) == {Reason.UNO, Reason.ADVICE, Reason.WRONG_CARD}


def test_every_effect_is_carried_out_by_a_family_and_every_card_has_one():
    """An effect no family's rules carry out (or a card of a registered deck with an effect that is not one of
    the registry's words) would fail on the first play of the card, mid-game."""
    assert set(TurnRules.PLAY_EFFECT) | set(ExactRules.EXACT_EFFECT) == set(Effect)
    for record in records():
        for card in record.cards().values():
            assert isinstance(card.effect, Effect), (record.key, card.name)


@pytest.mark.parametrize("enum", [EventName, *WORD_ROWS, Effect], ids=lambda e: e.__name__)
def test_a_member_goes_on_the_wire_as_its_value(enum):
    for member in enum:
        assert member == member.value and hash(member) == hash(member.value)
        assert json.dumps({"w": member, member: 1}) == json.dumps({"w": member.value, member.value: 1})
        assert f"{member}" == str(member) == member.value
        if enum is not Effect:
            assert repr({"w": member}) == repr({"w": member.value})  # an event printed reads as on the wire


def _first_arg(call: ast.Call) -> ast.expr | None:
    return call.args[0] if call.args else None


def test_events_are_named_by_the_enum_never_by_a_string():
    """Every ``emit(NAME, ...)`` / ``_emit(NAME, ...)`` and every ``{"event": NAME, ...}`` in the shooter names
    its event as an ``EventName`` member, so an event cannot be sent that the enum (and so the docs) lacks."""
    literal = []
    for path in sorted((ROOT / "shooter").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named: ast.expr | None = None
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("emit", "_emit")):
                named = _first_arg(node)
            elif isinstance(node, ast.Dict):
                named = next((v for k, v in zip(node.keys, node.values, strict=True)
                              if isinstance(k, ast.Constant) and k.value == "event"), None)
            if named is None:
                continue
            if not (isinstance(named, ast.Attribute) and isinstance(named.value, ast.Name)
                    and named.value.id == "EventName") and not _is_forwarded(named):
                literal.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(named)}")
    assert not literal, literal


def _is_forwarded(expr: ast.expr) -> bool:
    """A name passed on (``emit(name, ...)`` forwarding its caller's, ``event["event"]`` copying one)."""
    return isinstance(expr, ast.Name | ast.Subscript)


def test_the_vocabulary_imports_nothing_of_the_shooter():
    tree = ast.parse((ROOT / "shooter" / "vocabulary.py").read_text(encoding="utf-8"))
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert imported == ["__future__", "enum"]
