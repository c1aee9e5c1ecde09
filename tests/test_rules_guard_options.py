"""Guards written for the mutants that survived in shooter/table/options.py, turns.py and dispatch.py
(docs/mutation.md): each test is named by the rule of docs/rules.md it guards."""

from __future__ import annotations

import pytest

from shooter.errors import StateFileError
from shooter.table import RuleOptions, Table


def test_a_resumed_game_keeps_its_options_and_refuses_options_that_are_not_an_object():
    # docs/rules.md, "A resumed game keeps its options": the saved options are read back, or the file is refused
    # in one sentence naming the problem
    with pytest.raises(ValueError, match=r"^The rule options are not an object\.$"):
        RuleOptions.from_dict(["first_extreme_hit"])
    data = Table(options=RuleOptions(first_extreme_hit="hit2")).to_dict()
    data["options"] = "hit2"
    with pytest.raises(StateFileError, match=r": The rule options are not an object\.$"):
        Table.from_dict(data)


@pytest.mark.parametrize("unknown, named", [({"shoe_size": 9}, "shoe_size"),
                                            ({"zebra": 1, "aardvark": 2}, "aardvark")])
def test_a_resumed_game_keeps_its_options_and_refuses_an_unknown_option_naming_it(unknown, named):
    data = {**RuleOptions().to_dict(), **unknown}
    with pytest.raises(ValueError, match=rf"^Unknown rule option '{named}'\.$"):  # the first of them, sorted
        RuleOptions.from_dict(data)


def test_a_resumed_game_keeps_its_options_as_saved():
    options = RuleOptions(first_extreme_hit="hit2", last_hit_counts=False, uno_penalty=4)
    assert RuleOptions.from_dict(options.to_dict()) == options
    assert Table.from_dict(Table(options=options).to_dict()).options == options


def test_P_ADVICE_P_WRONG_a_penalty_without_its_kind_answers_every_penalty_usage():
    # a family's first word alone (`penalty`, `sim`) is bad-argument with the usages of the family, " | " between
    from shooter.commands.dispatch import find
    from shooter.commands.table import COMMANDS
    from shooter.errors import BadArgument
    from shooter.protocol import parse

    usages = [spec.usage for spec, _ in COMMANDS if spec.words[0] == "penalty"]
    assert usages == ["penalty advice seat=S", "penalty wrong-card seat=S"]
    line = parse("penalty seat=2")
    assert line is not None
    with pytest.raises(BadArgument) as refused:
        find(COMMANDS, line)
    assert refused.value.message == "usage: penalty advice seat=S | penalty wrong-card seat=S"
    assert find(COMMANDS, parse("penalty advice seat=2"))[0].usage == "penalty advice seat=S"


@pytest.mark.parametrize("text, link, message", [
    ("pair", "stdio", "pair is the web console's: a console of the table's own needs no pairing"),
    ("sim lid open", "web", "sim lid open is for a console of the table's own (stdio, serial, TCP on loopback), "
                            "not the web console"),
    ("calibrate seat=1", "web", "calibrate is for a console of the table's own (stdio, serial, TCP on loopback), "
                                "not the web console"),
])
def test_who_may_run_what_a_refused_command_is_named_in_its_refusal(text, link, message):
    # docs/protocol.md "Who may run what": refused before its arguments are looked at, in one sentence naming it
    from shooter.access import Caller, Link
    from shooter.commands.dispatch import run
    from shooter.commands.table import COMMANDS
    from shooter.errors import CommandError
    from shooter.protocol import parse

    line = parse(text)
    assert line is not None
    with pytest.raises(CommandError) as refused:
        run({}, COMMANDS, line, Caller(Link(link)), lambda token_id: False)
    assert refused.value.message == message


@pytest.mark.parametrize("field, value", [
    ("dealer_rotation", "anticlockwise"), ("default_dealer", 11), ("default_dealer", "3"), ("blank_as", "hit9"),
    ("first_extreme_hit", "hit4"), ("last_hit_counts", 1), ("penalty_queue", "middle"),
    ("classic_first_card", "ignore"), ("two_player_reverse", "twice"), ("uno_penalty", 5), ("uno_penalty", 2.0),
    ("last_trade_hands", "sometimes"),  # AT-TRADE: "allowed" or "refused" (the eleventh run)
])
def test_a_resumed_game_keeps_its_options_and_refuses_a_bad_value_naming_its_field(field, value):
    with pytest.raises(ValueError) as refused:
        RuleOptions(**{field: value})
    assert str(refused.value) == f"Rule option {field} has an invalid value {value!r}."
    data = Table().to_dict()
    data["options"][field] = value
    with pytest.raises(StateFileError, match=rf": Rule option {field} has an invalid value"):
        Table.from_dict(data)


def test_no_two_commands_of_the_table_have_the_same_words():
    # what makes a line's longest matching command one command (dispatch.find never meets a tie)
    from shooter.commands.table import COMMANDS
    words = [spec.words for spec, _ in COMMANDS]
    assert len(words) == len(set(words))


@pytest.mark.parametrize("value", ["random", 1, 10, 0])
def test_a_resumed_game_keeps_every_allowed_first_dealer_random_and_each_seat_to_the_tenth(value):
    # docs/rules.md: default_dealer is a seat (1..10, the most seats a table has) or "random"; 0 is no seat
    data = Table().to_dict()
    data["options"]["default_dealer"] = value
    if value == 0:
        with pytest.raises(ValueError, match=r"Rule option default_dealer has an invalid value 0\."):
            RuleOptions(default_dealer=value)
        with pytest.raises(StateFileError, match="default_dealer has an invalid value 0"):
            Table.from_dict(data)
        return
    assert RuleOptions(default_dealer=value).problem() is None
    assert Table.from_dict(data).to_dict()["options"]["default_dealer"] == value
