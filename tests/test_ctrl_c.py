"""Ctrl-C at the terminal: exit 130, motor off, game saved, no traceback (a real process on a pseudo-terminal)."""

import fcntl
import json
import os
import pty
import select
import subprocess
import sys
import termios

CMD = [sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio"]


def _read_until(fd: int, needle: bytes, limit: float = 30.0) -> bytes:
    """Read the terminal until ``needle`` shows (select's timeout only guards a hung child)."""
    out = b""
    while needle not in out:
        ready, _, _ = select.select([fd], [], [], limit)
        if not ready:
            raise AssertionError(f"no {needle!r} on the terminal; got {out!r}")
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    return out


def _rest(fd: int) -> bytes:
    out = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 30.0)
        if not ready:
            return out
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return out
        if not chunk:
            return out
        out += chunk


def _on_terminal(args, tmp_path):
    """The command with a pseudo-terminal as its controlling terminal, like a shell starts it."""
    master, slave = pty.openpty()

    def controlling_tty():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    proc = subprocess.Popen(CMD + args, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                            preexec_fn=controlling_tty, cwd=tmp_path)
    os.close(slave)
    return proc, master


def test_ctrl_c_at_the_terminal_exits_cleanly_with_the_motor_off_and_the_game_saved(tmp_path):
    state = tmp_path / "state"
    proc, master = _on_terminal(["--state-dir", str(state)], tmp_path)
    try:
        os.write(master, b"game new players=3 dealer=1\r")
        _read_until(master, b"game: ok")
        os.write(master, b"status\r")
        _read_until(master, b"status: ok")
        os.write(master, b"\x03")   # Ctrl-C: the terminal sends SIGINT to the foreground group
        rest = _rest(master)
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
        os.close(master)
    assert b"Fatal Python error" not in rest and b"Traceback" not in rest, rest.decode(errors="replace")
    assert code in (130, 0), (code, rest)
    assert b"motor off" in rest
    saved = json.loads((state / "game.json").read_text())
    assert saved["game"]["players"] == 3
