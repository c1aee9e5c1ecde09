"""Guards for shooter/table/persist.py, the whole table as one JSON document (the mutants that survived the tenth
run, docs/mutation.md): a saved exact shot, out or interrupted (docs/rules.md, a counting dealer's game resumed:
it names the head of the owed queue, or an entry still owed), each bad one refused in its one exact sentence,
and the migrations of earlier versions' files.
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from shooter.errors import StateFileError
from shooter.table import RuleOptions, Table
from shooter.table.persist import possible, table_from_dict, table_to_dict, upgrade
from tests.test_editions_engine import table

SHOT_FIELDS = "counted, hand, planned, reason, seat"


def _dealing() -> Table:
    """A classic game of three being dealt: the owed queue holds the deal of seats 2, 3, 1 and the dealer's first
    card; the shooter is shooting seat 2's seven (the shot out)."""
    t = Table()
    t.new_game(3, dealer=1, variant="classic")
    t.start_round()
    t.press()
    assert t.shot == {"seat": 2, "reason": "deal", "planned": 7, "counted": 0, "hand": 0}
    return t


def _saved(t: Table) -> dict:
    return json.loads(json.dumps(table_to_dict(t)))


def _load(data: dict) -> Table:
    return table_from_dict(lambda options: Table(options=options), json.loads(json.dumps(data)))


def _refusal(data: dict) -> str:
    with pytest.raises(StateFileError) as caught:
        _load(data)
    return str(caught.value)


def _with(key: str, value: object, t: Table | None = None) -> dict:
    data = _saved(t or _dealing())
    data["shot"] = None
    data[key] = value
    return data


SHOT = {"seat": 2, "reason": "deal", "planned": 7, "counted": 0, "hand": 0}


def test_a_shot_out_is_read_back_as_the_interrupted_entry():
    again = _load(_saved(_dealing()))
    assert again.interrupted == SHOT and again.shot is None


@pytest.mark.parametrize("key", ["shot", "interrupted"])
@pytest.mark.parametrize("value", [
    [], "deal", {k: v for k, v in SHOT.items() if k != "hand"}, {**SHOT, "more": 1},
], ids=["list", "text", "missing", "unknown"])
def test_a_shot_that_is_not_the_five_fields_is_refused_naming_them(key, value):
    assert _refusal(_with(key, value)) == (f"Saved table state: {key} must be null or an object with "
                                           f"{SHOT_FIELDS}.")


@pytest.mark.parametrize("key", ["shot", "interrupted"])
def test_a_shot_of_no_game_or_of_a_game_that_owes_nothing_is_refused(key):
    # no game at all
    bare = Table()
    none = f"Saved table state: {key} names a shot, but no exact game owes one."
    assert _refusal(_with(key, dict(SHOT), bare)) == none
    # an exact game in play with nothing owed: seat 2 is up
    t = table("classic", players=3)
    assert t.game.head is None and t.phase == "play"
    assert _refusal(_with(key, dict(SHOT), t)) == none


@pytest.mark.parametrize("key", ["shot", "interrupted"])
def test_an_extreme_game_owing_presses_has_no_exact_shot(key):
    t = Table()
    t.new_game(3, dealer=1)
    t.start_round(first="hit2")
    head = t.game.head
    assert head is not None and not t.game.exact
    value = {**SHOT, "seat": head.seat, "reason": head.reason}
    assert _refusal(_with(key, value, t)) == f"Saved table state: {key} names a shot, but no exact game owes one."


def test_a_shot_out_is_for_the_head_of_the_owed_queue_an_interrupted_entry_for_any_entry_owed():
    third = {**SHOT, "seat": 3}   # seat 3's deal: owed, behind seat 2's
    assert _refusal(_with("shot", third)) == ("Saved table state: shot is not a shot for the head of the owed queue "
                                             "(seat 2, deal).")
    assert _load(_with("interrupted", third)).interrupted == third


@pytest.mark.parametrize("key", ["shot", "interrupted"])
def test_a_shot_of_an_entry_not_owed_is_refused_naming_the_entry(key):
    data = _with(key, {**SHOT, "reason": "draw"})
    if key == "shot":
        data["game"]["queue"][0]["reason"] = "deal"
    message = _refusal(data)
    if key == "shot":
        assert message == "Saved table state: shot is not a shot for the head of the owed queue (seat 2, deal)."
    else:
        assert message == "Saved table state: interrupted names an entry that is not owed (seat 2, 'draw')."


@pytest.mark.parametrize("name, bad", [("planned", 0), ("planned", True), ("counted", -1), ("hand", 501),
                                       ("hand", 1.0)])
def test_a_shot_s_counts_are_whole_numbers_of_cards_in_their_range(name, bad):
    assert _refusal(_with("shot", {**SHOT, name: bad})) == (
        f"Saved table state: shot.{name} must be a whole number of cards, not {bad!r}.")
    for good in ((1, 0, 0), (500, 500, 500)):
        value = dict(zip(("planned", "counted", "hand"), good, strict=True))
        assert _load(_with("interrupted", {**SHOT, **value})).interrupted == {**SHOT, **value}


def test_shot_and_interrupted_both_set_are_refused():
    data = _with("shot", dict(SHOT))
    data["interrupted"] = {**SHOT, "seat": 3}
    assert _refusal(data) == ("Saved table state: shot and interrupted cannot both be set (a press resolves the "
                              "interrupted entry before the next shot).")


def test_the_migrations_keep_a_history_entry_that_is_not_an_object_for_the_check_to_name():
    for version in (1, 2):
        data = _saved(_dealing())
        data = copy.deepcopy(data)
        data["version"] = version
        data["game"] = data["shot"] = None
        data["history"] = ["play"]   # the migration leaves it as it is (it would fail on it: "not valid")
        if version == 1:
            data.pop("shot")
            data.pop("interrupted")
        assert _refusal(data) == "Saved table state: there is an undo history but no game."


def test_any_other_error_reading_a_file_is_one_sentence_naming_it():
    # a version-1 file whose last play nests deeper than Python recurses: the migration fails, not the controller
    game: dict = {"variant": "extreme"}
    for _ in range(5000):
        game = {"variant": "extreme", "last_play": {"before": game}}
    data = {"format": "uno-shooter/table", "version": 1, "options": {}, "game": game, "history": [],
            "undo_blocker": None}
    with pytest.raises(StateFileError) as caught:
        table_from_dict(lambda options: Table(options=options), data)
    # (Python words the error by where it recursed: "exceeded" alone, or "while calling a Python object")
    assert re.fullmatch(r"Saved table state: not valid \(RecursionError: maximum recursion depth exceeded"
                        r"( while calling a Python object)?\)\.", str(caught.value))


def _played() -> dict:
    t = table("classic", players=3)
    t.play("5")
    data = _saved(t)
    assert [entry["command"] for entry in data["history"]] == ["first", "play"]
    return data


@pytest.mark.parametrize("history", [{}, "play", None, [{"command": "first", "game": None}] * 51],
                         ids=["object", "text", "null", "51"])
def test_the_history_is_a_list_of_at_most_fifty_levels(history):
    data = _played()
    data["history"] = history
    assert _refusal(data) == "Saved table state: history must be a list of at most 50 entries."


def test_the_history_holds_fifty_levels():
    data = _played()
    data["history"] = [data["history"][1]] * 50
    assert len(_load(data).history) == 50


def test_an_undo_history_without_a_game_is_refused():
    data = _played()
    data["game"] = None
    assert _refusal(data) == "Saved table state: there is an undo history but no game."


@pytest.mark.parametrize("change", [
    lambda entry: ["command", "game"],                        # not an object (a list of its keys)
    lambda entry: {**entry, "more": 1},                       # an undoable command, a field too many
    lambda entry: {"game": entry["game"]},                    # no command
    lambda entry: {**entry, "command": "status"},             # a command undo does not go back over
], ids=["list", "unknown", "missing", "status"])
def test_each_history_level_is_an_undoable_command_and_a_game(change):
    data = _played()
    data["history"][1] = change(data["history"][1])
    assert _refusal(data) == ("Saved table state: history[1] must be an object with an undoable command "
                              "and a game.")


def test_a_broken_history_level_is_named_by_its_index():
    data = _played()
    data["history"][1]["game"]["players"] = "x"
    assert _refusal(data) == ("Saved table state: history[1].game.players must be a whole number from 2 to 10, "
                              "not 'x'.")


def test_a_game_of_an_edition_no_longer_registered_is_not_possible_in_one_sentence():
    # the loader refuses an edition the registry lacks first: only a record unregistered since reaches this
    t = Table()
    t.new_game(3, dealer=1)
    t.start_round(first="5")
    t.game.edition = "1999"
    with pytest.raises(StateFileError) as caught:
        possible(t.game, t.phase, "game")
    assert str(caught.value) == ("Saved table state: game is not a possible game of extreme: no edition extreme "
                                 "1999 is registered.")


@pytest.mark.parametrize("variant", ["nope", 5, None])
def test_a_version_1_game_of_a_variant_not_registered_is_named_by_the_check_not_the_migration(variant):
    data = {"format": "uno-shooter/table", "version": 1, "options": {}, "game": {"variant": variant},
            "history": [], "undo_blocker": None}
    assert _refusal(data) == ("Saved table state: game.variant must be one of extreme, classic, all-wild, flip, "
                              f"attack, not {variant!r}.")


@pytest.mark.parametrize("data", [[], "uno-shooter/table", None,
                                  {"format": "uno-shooter/seats", "version": 1},
                                  {"format": "uno-shooter/seats", "version": 9}], ids=["list", "text", "null",
                                                                                       "other-1", "other-9"])
def test_a_document_of_another_format_is_not_one_whatever_its_version(data):
    assert _refusal(data) == "Saved table state: not one (the format is not 'uno-shooter/table')."


def test_a_version_newer_or_older_than_the_migrations_is_refused_naming_the_versions_read():
    data = _saved(_dealing())
    assert _refusal({**data, "version": 4}) == ("Saved table state: version 4 is newer than this controller's (it "
                                                "reads versions 1 to 3); it is not migrated down.")
    assert _refusal({**data, "version": 0}) == ("Saved table state: version 0 is older than any this controller "
                                                "migrates (versions 1 to 3).")
    # a file of a format without migrations reads its one version
    with pytest.raises(StateFileError) as caught:
        upgrade({"format": "f", "version": 2}, fmt="f", version=1, migrations={}, what="Saved f")
    assert str(caught.value) == ("Saved f: version 2 is newer than this controller's (it reads versions 1 to 1); "
                                 "it is not migrated down.")
    with pytest.raises(StateFileError) as caught:
        upgrade({"format": "f", "version": 0}, fmt="f", version=1, migrations={}, what="Saved f")
    assert str(caught.value) == "Saved f: version 0 is older than any this controller migrates (versions 1 to 1)."
    assert upgrade({"format": "f", "version": 1}, fmt="f", version=1, migrations={}, what="Saved f") == {
        "format": "f", "version": 1}


# --- the eleventh run: the rest of _table_from_dict, possible, table_to_dict ------------------------------------

def test_the_saved_rule_options_are_read_back_and_options_that_are_none_are_refused_in_one_sentence():
    t = table("classic", players=3)
    t.options = RuleOptions(uno_penalty=3, penalty_queue="back")
    assert _load(_saved(t)).options == RuleOptions(uno_penalty=3, penalty_queue="back")
    data = _saved(t)
    data["options"] = "back"
    assert _refusal(data) == "Saved table state: The rule options are not an object."


def test_a_saved_game_and_an_undo_level_that_are_not_possible_are_named_with_the_editions_title():
    data = _played()
    data["game"]["counting"]["side"] = "dark"
    assert _refusal(data) == ("Saved table state: game is not a possible game of Uno (classic): its deck has one "
                              "side, and the dark side is up.")
    data = _played()
    data["history"][1]["game"]["counting"]["side"] = "dark"
    assert _refusal(data) == ("Saved table state: history[1].game is not a possible game of Uno (classic): its "
                              "deck has one side, and the dark side is up.")


def test_an_exact_game_is_not_resumed_without_the_card_exit_sensor_in_one_sentence():
    data = _played()
    assert table_from_dict(lambda options: Table(options=options), data, counting=True).game is not None
    with pytest.raises(StateFileError) as caught:
        table_from_dict(lambda options: Table(options=options), data, counting=False)
    assert str(caught.value) == ("Saved table state: a classic game counts its cards with the card-exit sensor, "
                                 "and none is configured (pins.exit_sensor); fit it to resume the game.")


def test_an_undo_level_of_another_game_is_refused_naming_that_game():
    # undo goes back within the one game: a level of another game (another variant or seat count) would resume it
    data = _played()
    other = _saved(table("classic", players=4))
    data["history"][1]["game"] = other["game"]
    assert _refusal(data) == ("Saved table state: history[1].game is not a state of the saved game (a classic "
                              "game of 4 seats).")
    data["history"][1]["game"] = _played()["history"][1]["game"]   # a level of the same game: taken in
    assert len(_load(data).history) == 2


@pytest.mark.parametrize("blocker", ["play", 1, ""])
def test_the_undo_blocker_is_none_or_a_command_whose_cards_are_out_in_one_sentence(blocker):
    data = _played()
    data["undo_blocker"] = blocker
    assert _refusal(data) == "Saved table state: undo_blocker must be null or one of 'press', 'deal'."


def test_an_interrupted_entry_read_back_is_saved_again():
    t = _load(_saved(_dealing()))            # the shot out, read back as the interrupted entry
    assert t.interrupted == SHOT
    assert _saved(t)["interrupted"] == SHOT and _saved(t)["shot"] is None
