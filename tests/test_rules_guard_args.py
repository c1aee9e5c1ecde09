"""Guards for shooter/table/args.py, the checks of a command's typed arguments (the mutants that survived the
tenth run, docs/mutation.md): a whole number as typed (a sign only in front, at most nine digits), a word of its
options (case-insensitive; ints taken, a bool never), and how usage lines write a choice."""

from __future__ import annotations

import pytest

from shooter.errors import BadArgument
from shooter.table.args import choices, whole_in, word, word_of


def _refused(value: object, lo: int = -10, hi: int = 10**10) -> str:
    with pytest.raises(ValueError) as caught:
        whole_in(value, lo, hi)
    return str(caught.value)


def test_a_whole_number_as_typed_has_its_sign_in_front_and_at_most_nine_digits():
    assert whole_in(" -5 ", -10, 10) == -5
    assert whole_in("123456789", 0, 10**10) == 123456789
    assert _refused("1234567890") == "must be a whole number, got '1234567890'"
    assert _refused("-123456789") == "must be a whole number, got '-123456789'"
    assert _refused("5-") == "must be a whole number, got '5-'"
    assert _refused("X5") == "must be a whole number, got 'X5'"
    assert _refused(1.5) == "must be a whole number, got 1.5"
    assert _refused(11, 1, 10) == "must be 1..10, got 11"


def test_a_word_is_one_of_its_options_case_insensitive_ints_taken_bools_never():
    check = word("true", "2016", "b")
    assert check("k", " B ") == "b"
    assert check("k", 2016) == "2016"
    with pytest.raises(BadArgument) as caught:
        check("k", True)
    assert str(caught.value) == "k= must be one of true, 2016, b, got True"
    with pytest.raises(BadArgument) as caught:
        word_of(("a", "b"))("k", ["a"])
    assert str(caught.value) == "k= must be one of a, b, got ['a']"


def test_a_choice_is_written_with_bars():
    assert choices(["a", "b", "c"]) == "a|b|c"
    assert choices(()) == ""
