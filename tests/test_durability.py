"""Durability: the save's order of system calls, its atomicity against a crash, and the console's
line splitter at the length limit (issue 10, item 7)."""

import os
import subprocess
import sys
import textwrap

import pytest

from shooter.consoles import read_lines
from shooter.errors import CommandError
from shooter.persist import STATE_FILE, Store
from shooter.protocol import MAX_LINE_BYTES, parse


# ---- the save's system calls ----
@pytest.fixture
def syscalls(mocker):
    """Every os.open/write/fsync/replace the save makes, in order, with the path each fd names."""
    calls: list[tuple] = []
    paths: dict[int, str] = {}
    real_open, real_write, real_fsync, real_replace = os.open, os.write, os.fsync, os.replace

    def spy_open(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        paths[fd] = os.fspath(path)
        return fd

    def spy_write(fd, data):
        calls.append(("write", paths.get(fd)))
        return real_write(fd, data)

    def spy_fsync(fd):
        calls.append(("fsync", paths.get(fd)))
        return real_fsync(fd)

    def spy_replace(src, dst, **kwargs):
        calls.append(("replace", os.fspath(src), os.fspath(dst)))
        return real_replace(src, dst, **kwargs)

    mocker.patch("shooter.persist.os.open", side_effect=spy_open)
    mocker.patch("shooter.persist.os.write", side_effect=spy_write)
    mocker.patch("shooter.persist.os.fsync", side_effect=spy_fsync)
    mocker.patch("shooter.persist.os.replace", side_effect=spy_replace)
    return calls


def test_a_save_writes_then_fsyncs_the_file_then_replaces_then_fsyncs_the_directory(tmp_path, syscalls):
    store = Store(tmp_path)
    store.save({"a": 1})
    replaces = [c for c in syscalls if c[0] == "replace"]
    assert len(replaces) == 1
    _, tmp, target = replaces[0]
    assert target == str(store.path) and os.path.dirname(tmp) == str(tmp_path) and tmp != target
    at = syscalls.index(replaces[0])
    before = [c for c in syscalls[:at] if c[0] in ("write", "fsync")]
    after = [c for c in syscalls[at + 1:] if c[0] in ("write", "fsync")]
    # before the rename: the new bytes, all of them to the temporary file, then its fsync, last
    assert before and before[-1] == ("fsync", tmp) and all(c == ("write", tmp) for c in before[:-1])
    assert ("write", tmp) in before
    # after the rename: the directory's fsync, so the rename itself survives a power cut
    assert after == [("fsync", str(tmp_path))], syscalls


def test_a_save_that_is_never_renamed_is_never_fsynced_as_a_directory(tmp_path, syscalls, mocker):
    mocker.patch("shooter.persist.os.replace", side_effect=OSError("injected"))
    with pytest.raises(OSError):
        Store(tmp_path).save({"a": 1})
    assert ("fsync", str(tmp_path)) not in syscalls  # the directory is fsynced for the rename only


# ---- atomicity against a crash ----
CRASH = textwrap.dedent("""
    import os, sys
    from shooter.persist import Store
    store = Store(sys.argv[1])
    store.save({"turn": "old", "cards": list(range(50))})
    real_write = os.write
    def die_after_half(fd, data):
        real_write(fd, bytes(data[:len(data) // 2]))
        os._exit(9)              # the plug pulled in the middle of writing the new state
    def die(*args, **kwargs):
        os._exit(9)              # the plug pulled between the write and the rename
    if sys.argv[2] == "write":
        os.write = die_after_half
    else:
        os.replace = die
    store.save({"turn": "new", "cards": list(range(60))})
    sys.exit("the save did not reach the injected crash")
""")


@pytest.mark.parametrize("crash_at", ["write", "replace"])
def test_a_process_dying_during_a_save_leaves_the_old_state_intact_and_readable(tmp_path, crash_at):
    proc = subprocess.run([sys.executable, "-c", CRASH, str(tmp_path), crash_at], capture_output=True)
    assert proc.returncode == 9, proc.stderr.decode()
    assert Store(tmp_path).load() == {"turn": "old", "cards": list(range(50))}


def test_an_exception_between_write_and_rename_keeps_the_old_state_and_no_temporary_file(tmp_path, mocker):
    store = Store(tmp_path)
    store.save({"turn": "old"})
    old = store.path.read_bytes()
    mocker.patch("shooter.persist.os.replace", side_effect=OSError("injected: the rename failed"))
    with pytest.raises(OSError, match="injected"):
        store.save({"turn": "new"})
    assert store.path.read_bytes() == old and store.load() == {"turn": "old"}
    assert [p.name for p in tmp_path.iterdir()] == [STATE_FILE]


# ---- the console's line splitter ----
def reader(data: bytes, chunk: int):
    """A read(n) over ``data`` that returns at most ``chunk`` bytes a call (a slow link)."""
    pos = 0

    def read(n: int) -> bytes:
        nonlocal pos
        part = data[pos:pos + min(n, chunk)]
        pos += len(part)
        return part
    return read


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_read_lines_splits_lines_across_reads_and_keeps_a_last_line_without_newline(chunk):
    data = b"status\nversion\n\npress\nhelp"
    assert list(read_lines(reader(data, chunk))) == [b"status", b"version", b"", b"press", b"help"]


@pytest.mark.parametrize("chunk", [1, 100, 4096])
def test_read_lines_passes_a_line_at_the_limit_whole(chunk):
    line = b"x" * MAX_LINE_BYTES
    assert list(read_lines(reader(line + b"\nstatus\n", chunk))) == [line, b"status"]


@pytest.mark.parametrize("chunk", [1, 100, 600])
def test_read_lines_cuts_an_overlong_line_one_byte_past_the_limit_and_skips_its_rest(chunk):
    long_line = b"y" * (MAX_LINE_BYTES * 3 + 5)
    lines = list(read_lines(reader(b"status\n" + long_line + b"\nversion\n", chunk)))
    assert lines == [b"status", b"y" * (MAX_LINE_BYTES + 1), b"version"]
    with pytest.raises(CommandError) as error:  # the cut line is still too long: the parser says so
        parse(lines[1])
    assert error.value.code == "line-too-long"


def test_an_overlong_line_that_arrives_in_one_read_is_still_refused_as_too_long():
    # (it is yielded whole, not cut: the parser's limit is what refuses it)
    lines = list(read_lines(reader(b"y" * (MAX_LINE_BYTES + 40) + b"\nversion\n", 4096)))
    assert lines[1] == b"version" and len(lines[0]) > MAX_LINE_BYTES
    with pytest.raises(CommandError) as error:
        parse(lines[0])
    assert error.value.code == "line-too-long"


def test_read_lines_never_holds_more_than_a_line_of_an_endless_line():
    sent = 0

    def endless(n: int) -> bytes:
        nonlocal sent
        if sent > 50 * 4096:
            return b""
        sent += 4096
        return b"z" * 4096
    assert [len(x) for x in read_lines(endless)] == [MAX_LINE_BYTES + 1]


# ---- saves only when the game changed ----
def test_only_commands_that_change_the_game_write_it(tmp_path, mocker):
    from tests.conftest import run_console
    save = mocker.spy(Store, "save")
    lines = ["press", "press", "status", "aim seat=2",        # no game: nothing to write
             "game new players=3 dealer=3",                  # written
             "press",                                        # no round yet: the game did not change
             "round start first=5", "press", "status"]       # written, written, not
    out = run_console(lines, state_dir=tmp_path)
    assert all(o["ok"] for o in out if "reply" in o)
    assert save.call_count == 3
    assert Store(tmp_path).load()["game"]["round"] == 1


def test_a_failed_save_is_tried_again_by_the_next_command_even_if_nothing_changed(tmp_path, mocker):
    import errno

    from tests.conftest import run_console
    real_fsync = os.fsync
    failures = [OSError(errno.ENOSPC, "No space left on device")]

    def fsync(fd):
        if failures:
            raise failures.pop()
        return real_fsync(fd)
    mocker.patch("shooter.persist.os.fsync", side_effect=fsync)
    out = run_console(["game new players=3 dealer=3", "press"], state_dir=tmp_path)
    assert [o["event"] for o in out if o.get("event") == "save-failed"] == ["save-failed"]
    assert Store(tmp_path).load()["game"]["players"] == 3  # the press (no change) wrote it after all
