"""One definition of the table's numbers and argument checks (shooter/table/args.py)."""

from __future__ import annotations

import pytest

from shooter.commands.table import COMMANDS
from shooter.errors import CommandError
from shooter.table import Table
from shooter.table.args import EDITIONS, MAX_SEATS, SCORINGS
from tests.conftest import run_console


def engine_message(call) -> str:
    with pytest.raises(CommandError) as info:
        call()
    assert info.value.code == "bad-argument"
    return info.value.message


@pytest.mark.parametrize("line, call", [
    ("game new players=11", lambda t: t.new_game(11)),
    ("game new players=3 scoring=most", lambda t: t.new_game(3, scoring="most")),
    ("game new players=3 edition=1999", lambda t: t.new_game(3, edition="1999")),
    ("game new players=3 limit=100001", lambda t: t.new_game(3, limit=100001)),
])
def test_the_console_answers_with_the_tables_own_message(line, call):
    reply = run_console([line])[0]
    assert reply["error"] == "bad-argument"
    assert reply["message"] == engine_message(lambda: call(Table()))


def test_usage_lines_name_the_defined_editions_and_scorings():
    usage = next(spec.usage for spec, _ in COMMANDS if spec.words == ("game", "new"))
    assert "|".join(EDITIONS) in usage and "|".join(SCORINGS) in usage


def test_a_seat_beyond_the_largest_table_is_refused_by_the_command_table():
    reply = run_console([f"uno seat={MAX_SEATS + 1}"])[0]
    assert reply["error"] == "bad-argument" and f"1..{MAX_SEATS}" in reply["message"]
