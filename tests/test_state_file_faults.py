"""No state file can cause a crash loop (issue 7, item 9)."""

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

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


# ---- issue 15, item 4: one loader, one policy, for every state file ----

from tests.state_files import FILES, good_contents, kept_aside as kept_aside_of, start  # noqa: E402

BAD = {   # content -> what it is; each is bad for every state file
    "1e400": lambda good: good.replace(b"1", b"1e400", 1) if b"1" in good else b'{"x": 1e400}',
    "id 1e400": lambda good: b'{"tokens": [{"id": 1e400, "hash": "' + b"ab" * 32 + b'"}]}',
    "a list": lambda good: b"[]", "a string": lambda good: b'"x"', "null": lambda good: b"null",
    "nested 1000 deep": lambda good: b"[" * 1000 + b"]" * 1000,
    "nested 900 deep in an object": lambda good: b'{"tokens": ' + b"[" * 900 + b"]" * 900 + b"}",
    "NaN": lambda good: b'{"tokens": [{"id": NaN, "hash": "' + b"ab" * 32 + b'"}], "version": NaN}',
    "a 4,000-digit id": lambda good: b'{"tokens": [{"id": ' + b"9" * 4000 + b', "hash": "' + b"ab" * 32 + b'"}]}',
    "half of it": lambda good: good[:len(good) // 2],
    "no key": lambda good: b"{}" if b"tokens" not in good and b"seat_angles" not in good else b'{"x": {}}',
    "an unknown version": lambda good: re.sub(rb'"version": ?\d+', b'"version":99', good) if b"version" in good
    else b'{"version": 99}',
}


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return good_contents(tmp_path_factory.mktemp("good"))


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("bad", BAD)
def test_every_state_file_with_bad_content_is_set_aside_in_one_line_and_the_controller_starts(
        tmp_path, good, name, bad):
    content = BAD[bad](good[name])
    (tmp_path / name).write_bytes(content)
    logged: list[str] = []
    took = start(tmp_path, logged.append)                       # no exception: it starts
    assert not took[name]
    assert [p.read_bytes() for p in kept_aside_of(tmp_path, name)] == [content]
    said = [m for m in logged if name in m]
    assert len(said) == 1 and "kept it as" in said[0] and "\n" not in said[0] and len(said[0]) < 700, said
    assert start(tmp_path, logged.append) == {n: False for n in FILES}   # the next start is clean: no loop


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("kind", ["directory", "symlink to /dev/zero", "FIFO", "symlink loop"])
def test_every_state_file_replaced_by_something_that_is_not_a_file_is_set_aside(tmp_path, name, kind):
    path = tmp_path / name
    {"directory": lambda: path.mkdir(), "symlink to /dev/zero": lambda: os.symlink("/dev/zero", path),
     "FIFO": lambda: os.mkfifo(path), "dangling symlink": lambda: os.symlink(tmp_path / "gone", path),
     "symlink loop": lambda: os.symlink(path, path)}[kind]()
    logged: list[str] = []
    start(tmp_path, logged.append, web=False)
    assert len(kept_aside_of(tmp_path, name)) == 1 and not os.path.lexists(path)
    assert len([m for m in logged if name in m]) == 1


def test_every_good_state_file_is_taken_in(tmp_path, good):
    for name, content in good.items():
        (tmp_path / name).write_bytes(content)
    assert start(tmp_path, lambda m: None) == {n: True for n in FILES}


def test_the_tokens_next_id_is_kept_and_defaults_to_one_more_than_the_highest_id(tmp_path):
    from hal import VirtualClock
    from shooter.web.pairing import TOKENS_FILE, Pairing
    token = {"hash": "ab" * 32, "label": "x"}
    for data, next_id in [({"tokens": [{"id": 3, **token}]}, 4), ({"tokens": [{"id": 3, **token}], "next_id": 9}, 9),
                          ({"tokens": [], "next_id": 0}, 1), ({"tokens": [{"id": 5, **token}], "next_id": 2}, 6)]:
        (tmp_path / TOKENS_FILE).write_text(json.dumps(data))
        assert Pairing(VirtualClock(), Store(tmp_path, TOKENS_FILE))._next_id == next_id, data
    for bad in [-1, 1.5, "3", True, None, 2 ** 60]:
        (tmp_path / TOKENS_FILE).write_text(json.dumps({"tokens": [], "next_id": bad}))
        logged: list[str] = []
        Pairing(VirtualClock(), Store(tmp_path, TOKENS_FILE), log=logged.append)
        assert len(logged) == 1 and "next_id" in logged[0], bad


def test_every_state_file_the_controller_reads_at_start_goes_through_the_one_loader(tmp_path, good, mocker):
    """A new state file cannot forget the policy: every Store made while the controller (and the bring-up
    bench) starts reads its file through load_or_set_aside and nothing else."""
    from shooter.bringup.bench import Bench
    from shooter.config import parse_config
    for name, content in good.items():
        (tmp_path / name).write_bytes(content)
    made, through = [], []
    real_init, real_load, real_policy = Store.__init__, Store.load, Store.load_or_set_aside

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(self.path.name)

    def policy(self, *args, **kwargs):
        through.append(self.path.name)
        self._in_policy = True
        try:
            return real_policy(self, *args, **kwargs)
        finally:
            self._in_policy = False

    def load(self):
        assert getattr(self, "_in_policy", False), f"{self.path.name} read without load_or_set_aside"
        return real_load(self)
    mocker.patch.object(Store, "__init__", init)
    mocker.patch.object(Store, "load", load)
    mocker.patch.object(Store, "load_or_set_aside", policy)
    assert start(tmp_path, lambda m: None) == {n: True for n in FILES}
    with Bench(parse_config({}), sim=True, state_dir=tmp_path, log=lambda m: None):
        pass
    assert sorted(made) == sorted(through) and set(made) == set(FILES), (made, through)


ROOT = Path(__file__).resolve().parent.parent   # the checkout under test, for the child's PYTHONPATH


@pytest.fixture
def shared_dir():
    """A state directory the user nobody may reach and write (pytest's tmp_path is root's alone)."""
    import tempfile
    path = Path(tempfile.mkdtemp(prefix="uno-state-", dir="/tmp"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _as_nobody(args, stdin=b""):
    """``uno-shooter ARGS`` run as the user nobody (root reads every file)."""
    return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                           sys.executable, "-m", "shooter", *args], input=stdin, capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to run as nobody")
@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("how", ["mode 000", "owned by root, 0600"])
def test_a_state_file_the_service_may_not_read_is_an_install_error_exit_2_in_one_line(shared_dir, good, name, how):
    tmp_path = shared_dir
    path = tmp_path / name
    path.write_bytes(good[name])
    os.chmod(path, 0 if how == "mode 000" else 0o600)          # the file stays root's
    run = _as_nobody(["run", "--sim", "--console", "stdio", "--web", "127.0.0.1:0", "--state-dir",
                      str(tmp_path)], b"status\n")
    lines = run.stderr.decode().splitlines()
    assert run.returncode == 2, run.stderr
    assert b"Traceback" not in run.stderr and [line for line in lines if "install error" in line and name in line]
    assert path.read_bytes() == good[name] and not kept_aside_of(tmp_path, name)   # nothing discarded


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to run as nobody")
@pytest.mark.parametrize("command", [["selftest", "--sim", "--yes"], ["calibrate", "--sim", "--skip-motor"]])
def test_a_calibration_the_bring_up_tools_may_not_read_is_an_install_error_exit_2(shared_dir, good, command):
    tmp_path = shared_dir
    path = tmp_path / "calibration.json"
    path.write_bytes(good["calibration.json"])
    path.chmod(0)
    run = _as_nobody([*command, "--state-dir", str(tmp_path)])
    assert run.returncode == 2 and b"Traceback" not in run.stderr and b"install error" in run.stderr, run.stderr


def test_a_tokens_id_of_1e400_no_longer_crash_loops_the_real_service(tmp_path):
    from shooter.web.pairing import TOKENS_FILE
    (tmp_path / TOKENS_FILE).write_bytes(b'{"tokens": [{"id": 1e400, "hash": "' + b"ab" * 32 + b'"}]}')
    run = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--web",
                          "127.0.0.1:0", "--state-dir", str(tmp_path)], input=b"status\n", capture_output=True,
                         timeout=60)
    assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr
    assert json.loads(run.stdout.splitlines()[-1])["ok"] and len(kept_aside_of(tmp_path, TOKENS_FILE)) == 1


def test_a_file_where_the_state_directory_goes_is_an_install_error_exit_2(tmp_path):
    (tmp_path / "state").write_text("")
    run = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--clock",
                          "virtual", "--state-dir", str(tmp_path / "state")], input=b"status\n",
                         capture_output=True, timeout=60)
    assert run.returncode == 2 and b"install error" in run.stderr and b"Traceback" not in run.stderr, run.stderr
