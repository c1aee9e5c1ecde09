"""A save encodes each undo snapshot once: the bytes are plain sorted JSON, the cost does not grow with
the undo depth (counted in encodings here; timed in benchmarks/run.py)."""

import json
import random

import pytest

import shooter.persist
from shooter.persist import STATE_FILE, Store
from shooter.table import Table


def plain(state: dict) -> bytes:
    return json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")


def deep_table() -> Table:
    """A game with a full undo history (UNDO_LEVELS snapshots)."""
    table = Table(rng=random.Random(3))
    table.new_game(4, dealer=1)
    table.start_round("7")
    for _ in range(60):
        table.set(direction="ccw" if table.game.direction == "cw" else "cw")
    return table


def test_every_save_writes_exactly_the_sorted_json_of_the_state(tmp_path):
    store = Store(tmp_path)
    table = deep_table()
    steps = [lambda: None, lambda: table.play("5"), table.undo, table.undo, lambda: table.play("hit2"),
             table.press, lambda: table.set(current=3), table.undo]
    for step in steps:
        step()
        state = table.to_dict()
        store.save(state)
        assert store.path.read_bytes() == plain(state)
        # and a table read back from the file saves the same bytes (its history entries are new objects)
        again = Table.from_dict(json.loads(store.path.read_bytes()), rng=random.Random(3))
        store.save(again.to_dict())
        assert store.path.read_bytes() == plain(state)


def test_a_save_after_one_more_command_encodes_only_the_new_snapshot(tmp_path, mocker):
    store = Store(tmp_path)
    table = deep_table()
    store.save(table.to_dict())
    assert len(table.history) == 50
    encode = mocker.spy(shooter.persist, "_dumps")
    table.set(current=2)                      # one new snapshot; the oldest falls off
    store.save(table.to_dict())
    history_items = [c for c in encode.call_args_list if isinstance(c.args[0], dict) and "command" in c.args[0]]
    assert len(history_items) == 1            # not 50


@pytest.mark.parametrize("name", ["tokens.json", "calibration.json"])
def test_other_files_are_encoded_whole_every_time(tmp_path, name):
    store = Store(tmp_path, name)
    tokens = [{"hash": "a", "seen": 1}]
    store.save({"history": tokens})
    tokens[0]["seen"] = 2                     # changed in place: must be written as it is now
    store.save({"history": tokens})
    assert json.loads(store.path.read_bytes()) == {"history": [{"hash": "a", "seen": 2}]}
    assert Store(tmp_path, STATE_FILE).sealed == {"history"}
