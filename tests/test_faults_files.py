"""The fault suite (issue 15): every state file fuzzed, its contents, types, sizes, permissions, symlinks
and FIFOs. Each trial puts one bad (or, as a control, good) file of one kind beside good files of the three
other kinds, starts the controller as ``run`` does, and starts it again.

Survived: the start raised nothing; the file was taken in if its content is good, else set aside with its
bytes kept and one log line naming it; the next start is clean (no crash loop). A permission problem is
the one exception, as the real service run as another user: exit status 2, one line, nothing moved.
Data lost: a bad file whose bytes were not kept aside, or a good file (the trial's control or one of the
three beside it) that was not taken in: a bad file must cost only itself.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from shooter.persist import MAX_STATE_BYTES
from tests.fault_runners import FaultResult
from tests.state_files import FILES, good_contents, kept_aside, start
from tests.test_faults import record

pytestmark = pytest.mark.faults

ROOT = Path(__file__).resolve().parent.parent
RAW = ["1e400", "-1e400", "NaN", "Infinity", "9" * 4000, "[" * 1000 + "]" * 1000, '"' + "x" * 10000 + '"',
       "{" + '"a":' * 900 + "1" + "}" * 900, "null", "true", "-0", "1.5", '"\\u0000"', '"\\ud800"', "[]", "{}",
       "0", "2", "-1", str(2 ** 63), str(2 ** 53 + 1), '"1"', '"Ann\\nBob"', '"' + "é" * 20 + '"']
SENTINEL = "\u0001raw\u0001"


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


def typed(rng: random.Random, good: bytes) -> bytes:
    """The good file with one to three values (anywhere: a key, a list item, the whole) replaced by another
    type or an absurd number, or a key dropped."""
    data = json.loads(good)
    raws = []
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(_paths(data)))
        if not path:
            data = SENTINEL
            raws.append(rng.choice(RAW))
            break
        node = data
        for key in path[:-1]:
            node = node[key]
        if isinstance(node, dict) and rng.random() < 0.2:
            del node[path[-1]]
        else:
            node[path[-1]] = SENTINEL
            raws.append(rng.choice(RAW))
    text = json.dumps(data)
    for raw in raws:
        text = text.replace(json.dumps(SENTINEL), raw, 1)
    return text.encode("utf-8", "surrogatepass")


def mangled(rng: random.Random, good: bytes) -> bytes:
    """The good file's bytes cut, flipped, doubled or padded: what a pulled plug or a bad card leaves."""
    data = bytearray(good)
    how = rng.randrange(5)
    if how == 0:
        return bytes(data[:rng.randrange(len(data))])
    if how == 1:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if how == 2:
        return bytes(data + data)
    if how == 3:
        return bytes(data) + bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))


def sized(rng: random.Random, good: bytes) -> bytes:
    """Empty, at the cap (good JSON padded with blanks: still good), one byte past it, or far past it."""
    size = rng.choice([0, MAX_STATE_BYTES, MAX_STATE_BYTES + 1, 3 * MAX_STATE_BYTES])
    if size == 0:
        return b""
    return good + b" " * (size - len(good))


def is_good(content: bytes, good: bytes) -> bool:
    """Whether the controller must take the file in: it parses to the good file's data (padding blanks,
    a key order changed). Anything else is bad or at most a different good file: set aside or taken in."""
    try:   # compared as JSON text: true is not 1, 1.0 is not 1
        same = json.dumps(json.loads(content), sort_keys=True) == json.dumps(json.loads(good), sort_keys=True)
        return same and len(content) <= MAX_STATE_BYTES
    except (ValueError, RecursionError):
        return False


def _trial(state_dir: Path, goods: dict[str, bytes], name: str, content: bytes | None,
           must_load: bool | None) -> tuple[bool, int]:
    """One start on ``state_dir``, where the file ``name`` holds ``content`` (None: something that is not
    a file is in its place) beside good files of the other kinds: (survived, files lost). ``must_load``:
    True for a good file, False for a bad one, None when a mutation may have given another good file."""
    for other in FILES:
        if other != name:
            (state_dir / other).write_bytes(goods[other])
    logged: list[str] = []
    try:
        took = start(state_dir, logged.append, web=False)
        again = start(state_dir, logged.append, web=False)
    except Exception:   # any escape is the fault counted
        return False, 0
    lost = sum(not took[other] or not again[other] for other in FILES if other != name)
    aside = kept_aside(state_dir, name)
    if not aside and os.path.lexists(state_dir / name):   # read and kept: its content was good
        ok = must_load is not False and (must_load is not True or (took[name] and again[name]))
    else:
        said = [m for m in logged if name in m and "kept it as" in m]
        kept = len(aside) == 1 and (content is None or aside[0].read_bytes() == content)
        ok = must_load is not True and kept and len(said) == 1 and not again[name]
        lost += (must_load is True) + (content is not None and not kept)
    return ok and lost == 0, lost


def _run(kind: str, n: int, seed: int, make: Callable[[random.Random, bytes, Path], tuple[bytes | None, bool | None]],
         figures: Callable[[], dict] | None = None) -> FaultResult:
    """``n`` trials, the file kinds in turn; ``make`` puts the thing at the path (or returns the bytes to
    write there) and says whether it must be taken in."""
    rng = random.Random(seed)
    survived = lost = aside = 0
    with tempfile.TemporaryDirectory() as tmp:
        goods = good_contents(Path(tmp) / "good")
        for i in range(n):
            name = FILES[i % len(FILES)]
            state_dir = Path(tmp) / f"t{i}"
            state_dir.mkdir()
            content, must_load = make(rng, goods[name], state_dir / name)
            if content is not None:
                (state_dir / name).write_bytes(content)
            ok, files_lost = _trial(state_dir, goods, name, content, must_load)
            survived += ok
            lost += files_lost
            aside += bool(kept_aside(state_dir, name))
            shutil.rmtree(state_dir)
    return FaultResult(kind, n, survived, lost, {"set aside": aside, "taken in": n - aside,
                                                 **(figures() if figures else {})})


def test_state_file_contents_types_and_sizes_fuzzed():
    def contents(rng, good, path):
        if rng.random() < 0.1:
            return good, True                                  # the control: a good file is taken in
        content = mangled(rng, good)
        return content, (True if is_good(content, good) else None)

    def types(rng, good, path):
        content = typed(rng, good)
        return content, (True if is_good(content, good) else None)

    def sizes(rng, good, path):
        content = sized(rng, good)
        return content, len(content) <= MAX_STATE_BYTES and bool(content)

    for kind, n, make in [("state files: contents", 1200, contents), ("state files: types", 1200, types),
                          ("state files: sizes", 80, sizes)]:
        r = record(_run(kind, n, 15, make))
        assert r.survived == r.tried and r.lost == 0, r.row()


def test_state_files_replaced_by_symlinks_fifos_devices_and_directories():
    things = {
        "symlink to /dev/zero": lambda path: os.symlink("/dev/zero", path),
        "symlink to /dev/urandom": lambda path: os.symlink("/dev/urandom", path),
        "symlink loop": lambda path: os.symlink(path, path),
        "symlink to a directory": lambda path: os.symlink(path.parent, path),
        "FIFO": lambda path: os.mkfifo(path),
        "directory": lambda path: path.mkdir(),
        "directory with a file in it": lambda path: (path.mkdir(), (path / "x").write_text("x")),
    }
    names = sorted(things)
    tally = dict.fromkeys(names, 0)

    def place(rng, good, path):
        kind = names[sum(tally.values()) % len(names)]
        tally[kind] += 1
        things[kind](path)
        return None, False

    r = record(_run("state files: symlinks, FIFOs, dirs", 140, 16, place, lambda: dict(tally)))
    assert r.survived == r.tried and r.lost == 0, r.row()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root to run as nobody")
def test_state_files_the_service_may_not_read():
    """As the service's own user (nobody here; the file stays root's): mode 000 or 0600 owned by root.
    Survived: exit 2, one line naming the file as an install error, no traceback, the file untouched."""
    survived = lost = tried = 0
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        goods = good_contents(Path(tmp) / "good")
        for i, (name, mode) in enumerate((n, m) for n in FILES for m in (0, 0o600)):
            state_dir = Path(tmp) / f"p{i}"
            state_dir.mkdir()
            state_dir.chmod(0o777)
            Path(tmp).chmod(0o755)
            (state_dir / name).write_bytes(goods[name])
            (state_dir / name).chmod(mode)
            run = subprocess.run(
                ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-m", "shooter",
                 "run", "--sim", "--console", "stdio", "--web", "127.0.0.1:0", "--state-dir", str(state_dir)],
                input=b"status\n", capture_output=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
            tried += 1
            lines = run.stderr.decode(errors="replace").splitlines()
            kept = (state_dir / name).read_bytes() == goods[name] and not kept_aside(state_dir, name)
            survived += (run.returncode == 2 and b"Traceback" not in run.stderr and kept
                         and any("install error" in line and name in line for line in lines))
            lost += not kept
    r = record(FaultResult("state files: permissions", tried, survived, lost, {"as user": "nobody"}))
    assert r.survived == r.tried and r.lost == 0, r.row()
