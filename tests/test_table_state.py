"""The table as JSON: to_dict / from_dict round trips and refusals of foreign or corrupt data."""

import copy
import json
import random

import pytest

from shooter.editions.records import EXTREME
from shooter.errors import StateFileError
from shooter.table import RuleOptions, Table, table_diagram
from shooter.table.loader import load_snapshot
from shooter.table.state import snapshot


def busy_table():
    """A table mid-round with owed presses, an Uno window, a last play and undo history."""
    t = Table(options=RuleOptions(blank_as="skip", penalty_queue="back"), rng=random.Random(9))
    t.new_game(5, dealer=3, scoring="elimination", limit=300)
    t.start_round("reverse")
    t.play("7")
    t.play("hit2", seat=2)
    t.penalty("advice", 5)
    return t


def scored_table():
    t = Table(rng=random.Random(9))
    t.new_game(3, limit=50)
    t.start_round("5")
    t.play("5", last=True)
    t.score(1, 60)
    return t


def round_trip(t):
    data = json.loads(json.dumps(t.to_dict()))
    return Table.from_dict(data, rng=random.Random(0))


@pytest.mark.parametrize("make", [Table, busy_table, scored_table])
def test_to_dict_round_trips_through_json(make):
    t = make()
    assert round_trip(t).to_dict() == t.to_dict()


def test_to_dict_names_its_format_and_version():
    data = Table().to_dict()
    assert (data["format"], data["version"], data["game"]) == ("uno-shooter/table", 3, None)


def test_a_restored_table_plays_on_like_the_original():
    t = busy_table()
    copy_ = round_trip(t)
    for table in (t, copy_):
        table.undo()
    assert [t.press() for _ in range(3)] == [copy_.press() for _ in range(3)]
    assert copy_.status() == t.status()
    assert copy_.options == t.options


def test_status_matches_the_protocol_game_object():
    status = busy_table().status()
    assert {"players", "dealer", "round", "phase", "current", "direction", "owed", "queue", "totals", "out",
            "winner"} <= set(status)
    assert status["owed"] == status["queue"][0] and status["totals"] == {str(s): 0 for s in range(1, 6)}
    assert Table().status() is None


def test_table_diagram_is_mermaid_of_the_phases():
    text = table_diagram()
    assert "stateDiagram-v2" in text and "play --> scoring: end_round" in text


DELETE = object()   # set_at's value that takes the field out


def set_at(data, path, value) -> None:
    """Sets the field at ``path`` (keys and indices) of nested saved data to ``value`` (DELETE: deletes it)."""
    for key in path[:-1]:
        data = data[key]
    if value is DELETE:
        del data[path[-1]]
    else:
        data[path[-1]] = value


def corrupt(path, value, *more):
    """busy_table's data with fields set (path: keys and indices; KeyError deletes), pairs after pairs."""
    data = copy.deepcopy(busy_table().to_dict())
    for where, what in [(path, value), *zip(more[::2], more[1::2], strict=True)]:
        set_at(data, where, DELETE if what is KeyError else what)
    return data


BAD = {
    "wrong format": (("format",), "something/else"),
    "a newer version": (("version",), 4),
    "no version": (("version",), KeyError),
    "version as text": (("version",), "2"),
    "unknown top field": (("extra",), 1),
    "missing history": (("history",), KeyError),
    "bad option": (("options", "blank_as"), "joker"),
    "unknown option": (("options", "house_rule"), True),
    "too many players": (("game", "players"), 11),
    "players as text": (("game", "players"), "5"),
    "seat out of range": (("game", "current"), 6),
    "bool as seat": (("game", "dealer"), True),
    "bad direction": (("game", "direction"), "left"),
    "bad phase": (("game", "phase"), "lunch"),
    "bad reason": (("game", "queue", 0, "reason"), "fun"),
    "too many presses": (("game", "queue", 0, "presses"), 9),
    "queue entry not an object": (("game", "queue", 0), [3, 2]),
    "totals missing a seat": (("game", "totals"), {"1": 0}),
    "negative total": (("game", "totals", "2"), -5),
    "out is not a list": (("game", "out"), 3),
    "everyone out": (("game", "out"), [1, 2, 3, 4, 5]),
    "missing game field": (("game", "round"), KeyError),
    "unknown game field": (("game", "colour"), "red"),
    "current outside play": (("game", "phase"), "deal"),
    "window not an object": (("game", "uno_window"), "open"),
    "going out with nothing owed": (("game", "queue"), [], ("game", "going_out"), 2),
    "bad history command": (("history", 0, "command"), "press"),
    "corrupt history game": (("history", 0, "game", "players"), 1),
    "bad undo blocker": (("undo_blocker",), "sometimes"),
    "nested last play": (("history", -1, "game", "extreme", "last_play", "before", "extreme", "last_play"),
                         {"seat": 1, "before": {}}),
    "the other family's part": (("game", "counting"), {}),
    "an exact field at the top": (("game", "hands"), {"1": 7}),
    "family part not an object": (("game", "extreme"), None),
    "family part missing a field": (("game", "extreme", "edition"), KeyError),
    "an exact entry in an extreme queue": (("game", "queue", 0, "cards"), 2, ("game", "queue", 0, "served"), 0),
    "shot without an exact game": (("shot",), {"seat": 1, "reason": "hit2", "planned": 2, "counted": 0,
                                               "hand": 0}),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_from_dict_refuses_corrupt_data_with_a_state_file_error(name):
    data = corrupt(*BAD[name])
    with pytest.raises(StateFileError) as info:
        Table.from_dict(data)
    assert str(info.value)


@pytest.mark.parametrize("data", [None, [], "table", 42, {"format": "uno-shooter/table"}])
def test_from_dict_refuses_foreign_data(data):
    with pytest.raises(StateFileError):
        Table.from_dict(data)


def test_from_dict_refuses_a_history_without_a_game():
    data = busy_table().to_dict()
    data["game"] = None
    with pytest.raises(StateFileError, match="history"):
        Table.from_dict(data)


def test_from_dict_message_names_the_field():
    with pytest.raises(StateFileError, match=r"game\.current"):
        Table.from_dict(corrupt(("game", "current"), 6))


def exact_snapshot_with_a_challenge():
    """A classic game's snapshot while seat 3 may challenge seat 2's wild draw four."""
    from tests.test_editions_engine import table

    t = table("classic", players=4)
    t.play("wild-draw-four")
    data = snapshot(t.game, t.phase)
    assert data["counting"]["challenge"] == {"seat": 3, "by": 2, "card": "wild-draw-four"}
    return data


def test_a_saved_uno_windows_list_holding_null_is_refused():
    # was loaded as a window of None, which crashed the next command that moved the windows
    data = exact_snapshot_with_a_challenge()
    data["counting"]["uno_windows"] = [None]
    with pytest.raises(StateFileError, match=r"game\.counting\.uno_window"):
        load_snapshot(data)


@pytest.mark.parametrize("field, value", [("by", 9), ("seat", 0), ("seat", "3")])
def test_a_saved_challenge_names_seats_of_the_table(field, value):
    # was loaded unchecked: an upheld challenge then owed cards to seat 9 of a 4-seat table
    data = exact_snapshot_with_a_challenge()
    data["counting"]["challenge"][field] = value
    with pytest.raises(StateFileError, match=rf"game\.counting\.challenge\.{field}"):
        load_snapshot(data)


def test_an_undo_history_holding_another_game_is_refused():
    # was loaded: `undo` then resumed that game, an exact variant's too (which is never resumed)
    data = busy_table().to_dict()
    data["history"][0]["game"] = exact_snapshot_with_a_challenge()
    with pytest.raises(StateFileError, match=r"history\[0\]\.game is not a state of the saved game"):
        Table.from_dict(data)


@pytest.mark.parametrize("variant", ["extreme", "classic", "flip", "all-wild"])
def test_a_game_knows_it_is_exact_from_its_variant_when_made_copied_or_loaded(variant):
    t = Table(rng=random.Random(3))
    t.new_game(4, dealer=1, variant=variant)
    exact = variant != "extreme"
    loaded, _ = load_snapshot(snapshot(t.game, t.phase))
    assert (t.game.exact, t.game.clone().exact, loaded.exact) == (exact, exact, exact)


def _containers(value, path=()):
    """(path, container) for every dict and list inside JSON data."""
    if isinstance(value, (dict, list)):
        yield path, value
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from _containers(item, (*path, key))


def test_a_snapshot_copies_the_last_play_it_holds_and_shares_no_dict_or_list_with_the_game():
    table = Table(rng=random.Random(9))
    table.new_game(4, dealer=1)
    table.start_round("5")
    table.play("7")   # a last play (for penalty wrong-card), holding the snapshot before it
    game = table.game
    assert game.last_play is not None
    data = snapshot(game, table.phase)[EXTREME]   # the Extreme family's own part of the snapshot
    assert data["last_play"] == copy.deepcopy(game.last_play)
    ours = {id(c): path for path, c in _containers(game.last_play)}
    shared = [path for path, c in _containers(data["last_play"]) if id(c) in ours]
    assert not shared, shared
