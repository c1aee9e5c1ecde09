"""No state file can cause a crash loop (issue 7, item 9)."""

import errno
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.errors import InstallError, StateFileError
from shooter.persist import MAX_STATE_BYTES, STATE_FILE, Store
from shooter.table import Table
from tests.conftest import run_console
from tests.test_persistence import GAME


def kept_aside(tmp_path):
    return [p for p in tmp_path.iterdir() if p.name.startswith(f"{STATE_FILE}.bad-")]


def a_saved_game(tmp_path) -> dict:
    run_console(GAME[:12], seed=5, state_dir=tmp_path)
    return json.loads((tmp_path / STATE_FILE).read_text())


@pytest.mark.parametrize("content", [
    b"[" * 100000,                                     # deeper than the parser goes
    b"{" * 100000,
    b'{"format": "uno-shooter/table", "version": ' + b"9" * 5000 + b"}",   # a 5,000-digit number
    b"[" + b"1," * 10 + b"1" + b"]",
])
def test_deep_or_huge_json_is_kept_aside_and_the_controller_starts_fresh(tmp_path, content):
    (tmp_path / STATE_FILE).write_bytes(content)
    out = run_console(["status"], state_dir=tmp_path)
    assert out[-1]["ok"] and out[-1]["game"] is None
    assert [p.read_bytes() for p in kept_aside(tmp_path)] == [content]


def test_a_state_file_bigger_than_the_cap_is_kept_aside_unread(tmp_path):
    (tmp_path / STATE_FILE).write_bytes(b" " * (MAX_STATE_BYTES + 1))
    with pytest.raises(StateFileError, match="larger than"):
        Store(tmp_path).load()


@pytest.mark.parametrize("path, value", [
    (("options",), []), (("options",), {"blank_as": 5}), (("game",), "x"), (("game", "players"), "3"),
    (("game", "totals"), [1, 2]), (("game", "current"), 99), (("game", "phase"), None),
    (("history",), {"a": 1}), (("history",), [{"command": "play", "game": 7}]), (("game", "queue"), [[1]]),
    (("game", "players"), 10 ** 40), (("game", "direction"), ["cw"]), (("game",), {}),
])
def test_wrong_types_anywhere_are_kept_aside(tmp_path, path, value):
    state = a_saved_game(tmp_path)
    node = state
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    (tmp_path / STATE_FILE).write_text(json.dumps(state))
    out = run_console(["status"], state_dir=tmp_path)
    assert out[-1]["ok"] and out[-1]["game"] is None
    assert len(kept_aside(tmp_path)) == 1


def test_a_fifo_in_place_of_the_state_file_is_kept_aside_without_blocking(tmp_path):
    os.mkfifo(tmp_path / STATE_FILE)
    out = run_console(["status"], state_dir=tmp_path)
    assert out[-1]["ok"] and out[-1]["game"] is None
    assert len(kept_aside(tmp_path)) == 1 and not (tmp_path / STATE_FILE).exists()


def test_a_directory_in_place_of_the_state_file_is_kept_aside(tmp_path):
    (tmp_path / STATE_FILE).mkdir()
    out = run_console(["status", "game new players=3"], state_dir=tmp_path)
    assert out[0]["game"] is None and out[1]["ok"]
    assert len(kept_aside(tmp_path)) == 1 and (tmp_path / STATE_FILE).is_file()


def test_a_device_in_place_of_the_state_file_is_refused_as_not_a_regular_file(tmp_path):
    os.symlink("/dev/zero", tmp_path / STATE_FILE)   # endless: never read past the cap
    with pytest.raises(StateFileError, match="not a regular file"):
        Store(tmp_path).load()


def test_leftover_temp_files_of_a_killed_save_are_removed_at_start(tmp_path):
    (tmp_path / f".{STATE_FILE}.12345.tmp").write_bytes(b'{"half')
    (tmp_path / "other.tmp").write_bytes(b"not ours")
    Store(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.tmp"]


def _read_only(mocker, tmp_path):
    """The card was remounted read-only: nothing can be created, renamed or removed."""
    real_open = os.open

    def no_create(path, flags, *args):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *args)
    mocker.patch("shooter.persist.os.open", side_effect=no_create)
    mocker.patch("shooter.persist.os.replace", side_effect=OSError(errno.EROFS, "Read-only file system"))


def test_a_bad_state_file_on_a_read_only_card_starts_with_the_game_in_memory_announced(tmp_path, mocker):
    (tmp_path / STATE_FILE).write_bytes(b"[" * 100000)
    _read_only(mocker, tmp_path)
    out = run_console(["status", "game new players=3", "status"], state_dir=tmp_path)
    storage = [o for o in out if o.get("event") == "storage"]
    assert len(storage) == 1 and storage[0]["mode"] == "memory" and str(tmp_path) in storage[0]["path"]
    replies = [o for o in out if "reply" in o]
    assert replies[0]["storage"]["mode"] == "memory" and replies[0]["game"] is None
    assert replies[1]["ok"] and replies[2]["game"]["players"] == 3   # it keeps serving
    assert not any(o.get("event") == "save-failed" for o in out)     # it does not try to save


def test_a_good_game_on_a_read_only_card_is_resumed_in_memory(tmp_path, mocker):
    state = a_saved_game(tmp_path)
    _read_only(mocker, tmp_path)
    out = run_console(["status"], seed=5, state_dir=tmp_path)
    assert out[-1]["game"]["players"] == state["game"]["players"] and out[-1]["storage"]["mode"] == "memory"


def test_a_permission_error_on_the_state_file_is_an_install_error_and_nothing_is_discarded(tmp_path, mocker):
    a_saved_game(tmp_path)
    before = (tmp_path / STATE_FILE).read_bytes()
    mocker.patch("shooter.persist.os.open", side_effect=PermissionError(errno.EACCES, "Permission denied"))
    from shooter.app import App
    from shooter.config import parse_config
    with pytest.raises(InstallError, match="install error"):
        App(parse_config({}), sim=True, virtual=True, state_dir=tmp_path, log=lambda m: None)
    assert (tmp_path / STATE_FILE).read_bytes() == before and not kept_aside(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_state_file_exits_2_naming_it(tmp_path):
    (tmp_path / STATE_FILE).write_text("{}")
    (tmp_path / STATE_FILE).chmod(0)
    out = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--clock",
                          "virtual", "--state-dir", str(tmp_path)], input=b"status\n", capture_output=True,
                         timeout=60)
    assert out.returncode == 2 and b"install error" in out.stderr and STATE_FILE.encode() in out.stderr


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                               max_size=4), max_leaves=20)


@pytest.fixture(scope="module")
def saved_state(tmp_path_factory):
    return a_saved_game(tmp_path_factory.mktemp("state"))


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_the_loader_any_mutation_of_a_saved_game_loads_or_is_refused_cleanly(saved_state, data):
    state = json.loads(json.dumps(saved_state))
    paths = list(_paths(state))[1:]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        node = state
        try:
            for key in path[:-1]:
                node = node[key]
            if data.draw(st.booleans()) or not isinstance(node, dict):
                node[path[-1]] = data.draw(JSON)
            else:
                del node[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
    try:
        table = Table.from_dict(state)
    except StateFileError:
        return
    table.status()   # a table that loads can be shown


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_fuzz_the_loader_arbitrary_json_is_refused_cleanly(value):
    try:
        Table.from_dict(value)
    except StateFileError:
        pass
