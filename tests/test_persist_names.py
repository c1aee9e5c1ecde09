"""The seat names (``names seats=...``) survive a restart and a pulled plug, like the game."""

import errno
import itertools
import json

import pytest
from hypothesis import given, strategies as st

from shooter.app import App
from shooter.commands.table import seat_names
from shooter.config import parse_config
from shooter.errors import CommandError, StateFileError
from shooter.persist import STATE_FILE, Store
from shooter.seat_names import NAMES_FILE, names_from_dict, names_to_dict
from shooter.web.pairing import Pairing
from tests.test_state_file_faults import _read_only

NAMED = {"1": "Ann", "2": "Bob", "4": "Dirk"}


def run(lines, state_dir, log=None) -> list[dict]:
    """The replies to ``lines`` then ``status`` as a phone sees them (the web console's pairing on, so that
    ``status`` has ``names``): one start of the controller on ``state_dir``, in-process, virtual time."""
    replies: list[dict] = []
    events: list[dict] = []
    with App(parse_config({}), sim=True, virtual=True, seed=1, state_dir=state_dir,
             log=log or (lambda m: None)) as app:
        app.controller.web.open(Pairing(app.clock))
        app.controller.add_sink(events.append)
        for line in [*lines, "status"]:
            app.loop.post(lambda line=line: app.controller.handle_line(line, replies.append))
            app.loop.run_until_quiet()
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    return replies + events


def status(out: list[dict]) -> dict:
    return [o for o in out if o.get("reply") == "status"][-1]


def kept_aside(tmp_path):
    return [p for p in tmp_path.iterdir() if p.name.startswith(f"{NAMES_FILE}.bad-")]


def test_seat_names_survive_a_restart_mid_game(tmp_path):
    before = status(run(["game new players=4 dealer=1", "names seats=Ann,Bob,-,Dirk", "round start first=5",
                         "play 7"], tmp_path))
    after = status(run([], tmp_path))
    assert before["names"] == NAMED and after["names"] == NAMED
    assert after["game"] == before["game"]


def test_names_without_seats_forgets_them_across_a_restart(tmp_path):
    run(["names seats=Ann,Bob,-,Dirk"], tmp_path)
    assert status(run(["names"], tmp_path))["names"] == {}
    assert status(run([], tmp_path))["names"] == {}


def test_new_names_replace_the_saved_ones_across_a_restart(tmp_path):
    run(["names seats=Ann,Bob,-,Dirk"], tmp_path)
    run(["names seats=-,Eve"], tmp_path)
    assert status(run([], tmp_path))["names"] == {"2": "Eve"}


def test_game_new_keeps_the_names_across_a_restart(tmp_path):
    run(["names seats=Ann,Bob,-,Dirk", "game new players=4"], tmp_path)
    out = run(["game new players=3 force"], tmp_path)
    assert status(out)["names"] == NAMED and status(out)["game"]["players"] == 3
    assert status(run([], tmp_path))["names"] == NAMED


def test_a_state_dir_without_a_names_file_resumes_the_game_with_no_names(tmp_path):
    run(["game new players=3 dealer=1", "round start first=5"], tmp_path)   # the state dir of an older version
    assert sorted(p.name for p in tmp_path.iterdir()) == [STATE_FILE]
    after = status(run([], tmp_path))
    assert after["names"] == {} and after["game"]["players"] == 3 and after["game"]["round"] == 1


def test_the_names_are_written_atomically_only_when_they_change(tmp_path, mocker):
    save = mocker.spy(Store, "save")
    run(["names seats=Ann,Bob", "names seats=Ann,Bob", "status"], tmp_path)
    assert [call.args[0].path.name for call in save.call_args_list] == [NAMES_FILE]
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAMES_FILE]   # no temporary file left
    assert json.loads((tmp_path / NAMES_FILE).read_text()) == names_to_dict({1: "Ann", 2: "Bob"})


def test_a_failed_names_save_is_announced_the_names_hold_and_the_next_names_writes_them(tmp_path, mocker):
    # the first fsync fails (a full card), the later ones are skipped: the data still reaches the file
    full = OSError(errno.ENOSPC, "No space left on device")
    mocker.patch("shooter.persist.os.fsync", side_effect=itertools.chain([full], itertools.repeat(None)))
    out = run(["names seats=Ann,Bob"], tmp_path)
    failed = [o for o in out if o.get("event") == "save-failed"]
    assert len(failed) == 1 and failed[0]["path"] == str(tmp_path / NAMES_FILE) and "No space" in failed[0]["message"]
    assert status(out)["names"] == {"1": "Ann", "2": "Bob"}      # the command counts
    assert not (tmp_path / NAMES_FILE).exists()
    run(["names seats=Ann,Bob"], tmp_path)                        # the same names: written this time
    assert status(run([], tmp_path))["names"] == {"1": "Ann", "2": "Bob"}


GOOD = names_to_dict({1: "Ann", 2: "Bob", 4: "Dirk"})


@pytest.mark.parametrize("data, problem", [
    ([], "format"),
    ({**GOOD, "format": "uno-shooter/table"}, "format"),
    ({**GOOD, "version": 2}, "version 2"),
    ({**GOOD, "version": "1"}, "version '1'"),
    ({k: v for k, v in GOOD.items() if k != "names"}, "field 'names' is missing"),
    ({**GOOD, "seats": 4}, "field 'seats' is unknown"),
    ({**GOOD, "names": ["Ann", "Bob"]}, "names must be an object"),
    ({**GOOD, "names": {"0": "Ann"}}, "names.'0': the key must be a seat"),
    ({**GOOD, "names": {"11": "Ann"}}, "names.'11': the key must be a seat"),
    ({**GOOD, "names": {"01": "Ann"}}, "names.'01'"),
    ({**GOOD, "names": {"seat": "Ann"}}, "names.'seat'"),
    ({**GOOD, "names": {"1": ""}}, "names.1: must be a name"),
    ({**GOOD, "names": {"1": "A" * 17}}, "names.1: must be a name"),
    ({**GOOD, "names": {"1": "Ann,Bob"}}, "names.1"),
    ({**GOOD, "names": {"1": " Ann"}}, "names.1"),
    ({**GOOD, "names": {"1": "Ann\n"}}, "names.1"),
    ({**GOOD, "names": {"1": "-"}}, "names.1"),
    ({**GOOD, "names": {"1": 5}}, "names.1"),
    ({**GOOD, "names": {"1": None}}, "names.1"),
    ({**GOOD, "names": {"1": ["Ann"]}}, "names.1"),
])
def test_a_malformed_names_entry_is_refused_naming_the_problem(data, problem):
    with pytest.raises(StateFileError, match="seat names") as err:
        names_from_dict(data)
    assert problem in str(err.value)


@pytest.mark.parametrize("content", [
    json.dumps({**GOOD, "names": {"1": "A" * 17, "2": "Bob"}}).encode(),
    json.dumps({**GOOD, "version": 2}).encode(),
    b"{not json", b"", b"[" * 100000,
])
def test_a_bad_names_file_is_kept_aside_said_in_the_log_and_the_game_is_untouched(tmp_path, content):
    game = status(run(["game new players=4 dealer=1", "round start first=5"], tmp_path))["game"]
    (tmp_path / NAMES_FILE).write_bytes(content)
    logged: list[str] = []
    after = status(run([], tmp_path, log=logged.append))
    assert after["names"] == {} and after["game"] == game
    assert [p.read_bytes() for p in kept_aside(tmp_path)] == [content]
    said = [m for m in logged if NAMES_FILE in m]
    assert len(said) == 1 and "started without seat names" in said[0], logged
    assert status(run([], tmp_path))["names"] == {}                 # the next start is clean, not a loop


def test_a_leftover_temporary_names_file_of_a_killed_save_is_removed_and_the_names_kept(tmp_path):
    run(["names seats=Ann,Bob,-,Dirk"], tmp_path)
    (tmp_path / f".{NAMES_FILE}.4242.tmp").write_bytes(b'{"format":"uno-shooter/seat-na')   # killed mid-write
    assert status(run([], tmp_path))["names"] == NAMED
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAMES_FILE]


def test_on_a_read_only_card_the_names_are_restored_and_kept_in_memory(tmp_path, mocker):
    run(["names seats=Ann,Bob,-,Dirk"], tmp_path)
    _read_only(mocker, tmp_path)
    out = run(["status", "names seats=Eve"], tmp_path)
    assert status(out)["storage"]["mode"] == "memory"
    assert next(o for o in out if o.get("reply") == "status")["names"] == NAMED
    assert status(out)["names"] == {"1": "Eve"}
    assert not any(o.get("event") == "save-failed" for o in out)   # it does not try to write


@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_whatever_names_the_command_takes_the_file_gives_back(text):
    try:
        given_names = seat_names("seats", text)
    except CommandError:
        return
    names = {i + 1: n for i, n in enumerate(given_names) if n != "-"}
    assert names_from_dict(json.loads(json.dumps(names_to_dict(names)))) == names


def test_a_bad_names_file_that_cannot_be_moved_aside_is_said_and_the_controller_starts_without_names(
        tmp_path, monkeypatch):
    run(["names seats=Ann,Bob,-,Dirk"], tmp_path)
    (tmp_path / NAMES_FILE).write_bytes(b"{not json")

    def cannot_move(store):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(Store, "set_aside", cannot_move)
    logged: list[str] = []
    after = status(run([], tmp_path, log=logged.append))
    assert after["names"] == {}
    said = [m for m in logged if NAMES_FILE in m]
    assert len(said) == 1 and "cannot be moved aside (Read-only file system)" in said[0], logged
    assert (tmp_path / NAMES_FILE).read_bytes() == b"{not json"   # left where it was, for a person to look at
