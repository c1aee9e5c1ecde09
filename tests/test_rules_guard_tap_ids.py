"""Guards of the saved tap ids (shooter/tap_ids.py), written for the mutants that survived its tests
(docs/mutation.md, the eighth run): each refusal of a bad tap-ids.json in its one exact sentence (the line the
controller logs when it sets the file aside), the ids' bound taken in at its edge, and a save that fails (a full
disk) said once, and again once after a save that worked."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from shooter.errors import StateFileError
from shooter.persist import Store
from shooter.tap_ids import IDS_FILE, MAX_ID, TapIds, ids_from_dict, ids_to_dict


def good(**next_ids: int) -> dict:
    return ids_to_dict({"read": 1, "request": 1} | next_ids)


@pytest.mark.parametrize(("data", "sentence"), [
    ({"format": "uno-shooter/table"}, "Saved tap ids: not one (the format is not 'uno-shooter/tap-ids')."),
    (good() | {"version": 2}, "Saved tap ids: version 2; this controller reads version 1."),
    (good() | {"extra": 1}, "Saved tap ids: field 'extra' is unknown."),
    (good() | {"next": [1, 2]}, "Saved tap ids: next must be an object of read, request."),
    (good() | {"next": {"read": 1}}, "Saved tap ids: next must be an object of read, request."),
    (good(read=0), f"Saved tap ids: next.read must be a whole number 1..{MAX_ID}."),
    (good(request=MAX_ID + 1), f"Saved tap ids: next.request must be a whole number 1..{MAX_ID}."),
    (good() | {"next": {"read": True, "request": 1}}, f"Saved tap ids: next.read must be a whole number 1..{MAX_ID}."),
])
def test_a_bad_tap_ids_file_is_refused_in_one_sentence_naming_it(data, sentence):
    with pytest.raises(StateFileError) as refused:
        ids_from_dict(data)
    assert str(refused.value) == sentence


def test_the_last_id_a_browser_holds_exactly_is_taken_in():
    assert ids_from_dict(good(read=MAX_ID, request=MAX_ID)) == {"read": MAX_ID, "request": MAX_ID}


class FullDisk(Store):
    """A store whose saves fail while ``full`` (ENOSPC), as a full SD card does."""

    full = True

    def save(self, state: dict) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        super().save(state)


def test_a_save_that_fails_is_said_once_and_again_after_one_that_worked(tmp_path: Path):
    logged: list[str] = []
    store = FullDisk(tmp_path, IDS_FILE)
    ids = TapIds(store, log=logged.append)
    assert [ids.give("read"), ids.give("read")] == [1, 2]    # the ids are still given, held until a restart
    assert logged == [f"uno-shooter: cannot save the tap ids in {store.path}: [Errno 28] No space left on device"]
    store.full = False
    ids.give("request")                                        # saved: the disk has room again
    assert ids_from_dict(json.loads(store.path.read_text()))["read"] == 3
    assert len(logged) == 1
    store.full = True
    ids.give("read")
    assert len(logged) == 2 and logged[1] == logged[0]        # a new failure after a good save is said again


def test_a_restored_store_that_cannot_save_says_so_in_the_log_it_was_given(tmp_path: Path, monkeypatch):
    """The twelfth run: the restored ids kept the log (``restore``'s ``log``) only for the file's reading."""
    Store(tmp_path, IDS_FILE).save(ids_to_dict({"read": 7, "request": 2}))
    logged: list[str] = []
    ids = TapIds.restore(tmp_path, writable=True, log=logged.append)

    def full(self: Store, state: dict) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Store, "save", full)
    assert ids.give("read") == 7
    assert logged == [f"uno-shooter: cannot save the tap ids in {tmp_path / IDS_FILE}: "
                      "[Errno 28] No space left on device"]


@pytest.mark.parametrize("wall", [0.0, 0.0005])
def test_a_wall_clock_under_a_millisecond_still_starts_the_ids_at_1(tmp_path: Path, wall: float):
    """The twelfth run: ids start at the wall clock's milliseconds, but never below 1 (a clock at the epoch)."""
    (tmp_path / IDS_FILE).write_text("{")
    logged: list[str] = []
    ids = TapIds.restore(tmp_path, writable=True, log=logged.append, wall=lambda: wall)
    [line] = logged
    assert line.endswith("the ids a person taps start at 1")
    assert [ids.give("read"), ids.give("request")] == [1, 1]
