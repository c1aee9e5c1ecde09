"""The serial console over a pseudo-terminal, with the controller on its real-time loop (issue 7, item 5).

The pty's master side is the client (a phone's Bluetooth link); the console opens the slave side
through pyserial like a real /dev/rfcomm0. Nothing sleeps: the tests wait for output or a thread's
end with limits that only guard against a hang, and the retry pauses are injected.
"""

import os
import pty
import select
import threading
import tty

import pytest

from shooter.app import App
from shooter.config import parse_config
from shooter.consoles import SerialConsole

LIMIT = 20.0


class Link:
    """A pty pair: ``master`` is the client's end; ``path`` the device the console opens."""

    def __init__(self):
        self.master, slave = pty.openpty()
        tty.setraw(self.master)
        self.path = os.ttyname(slave)
        os.close(slave)
        self.seen = b""

    def send(self, data: bytes):
        os.write(self.master, data)

    def read_until(self, needle: bytes) -> bytes:
        while needle not in self.seen:
            ready, _, _ = select.select([self.master], [], [], LIMIT)
            assert ready, f"no {needle!r} from the console; got ...{self.seen[-300:]!r}"
            self.seen += os.read(self.master, 65536)
        before, _, self.seen = self.seen.partition(needle)
        return before + needle

    def close(self):
        os.close(self.master)


@pytest.fixture
def shooter_loop():
    app = App(parse_config({}), sim=True, seed=1, log=lambda m: None)
    thread = threading.Thread(target=app.loop.run_forever, name="test-loop", daemon=True)
    thread.start()
    yield app
    app.loop.stop()
    thread.join(LIMIT)
    app.close()


class Log(list):
    """The console's log; ``opened`` waits for the port to be open (pyserial flushes what came before)."""

    def __init__(self):
        super().__init__()
        self._changed = threading.Condition()

    def __call__(self, message: str) -> None:
        with self._changed:
            self.append(message)
            self._changed.notify_all()

    def wait_for(self, text: str, count: int = 1) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: sum(text in m for m in self) >= count, LIMIT), list(self)


def flood(app, n: int, size: int = 2000) -> None:
    """``n`` big events to every console, from the loop."""
    def emit():
        for i in range(n):
            app.controller.emit("test-flood", i=i, pad="x" * size)
    app.loop.post(emit)


def test_a_stalled_serial_reader_loses_the_backlog_not_the_console(shooter_loop):
    link = Link()
    logged = Log()
    console = SerialConsole(link.path, baudrate=115200, post=shooter_loop.loop.post, controller=shooter_loop.controller,
                            write_timeout=None, queue_limit=8, log=logged)
    try:
        logged.wait_for(" open")
        link.send(b"version\r")
        link.read_until(b'"reply": "version"')
        flood(shooter_loop, 400)   # the client reads nothing meanwhile: the pty fills, the writer blocks
        link.send(b"version\r")
        out = link.read_until(b'"event": "dropped"')  # reading again lets the writer go on
        line = out.rsplit(b"\n", 1)[-1] + link.read_until(b"\n")
        assert b'"lines": ' in line
        link.read_until(b'"reply": "version"')   # the console answers again
        link.send(b"status\r\n")
        link.read_until(b'"reply": "status"')
        assert console.opened == 1
    finally:
        console.close()
        link.close()


def test_a_serial_write_that_fails_reopens_the_port(shooter_loop):
    link = Link()
    logged = Log()
    console = SerialConsole(link.path, baudrate=115200, post=shooter_loop.loop.post, controller=shooter_loop.controller,
                            write_timeout=0.2, reopen_interval=0.01, log=logged)
    try:
        logged.wait_for(" open")
        link.send(b"version\n")
        link.read_until(b'"reply": "version"')
        flood(shooter_loop, 400)   # the pty fills; a write times out
        logged.wait_for("write failed")
        logged.wait_for(" open", 2)   # reopened
        link.send(b"version\n")
        link.read_until(b'"reply": "version"')   # the client reads again: the console answers
        assert console.opened == 2
        assert any(f"console {link.path} open" in m for m in logged[1:])
    finally:
        console.close()
        link.close()


def test_a_missing_serial_device_is_retried_with_backoff_up_to_a_minute_and_logged_once(shooter_loop, tmp_path):
    pauses = []
    logged = []
    done = threading.Event()

    def wait(seconds):
        pauses.append(seconds)
        if len(pauses) >= 10:
            done.set()
            return True   # as if stopped
        return False
    _console = SerialConsole(str(tmp_path / "rfcomm0"), baudrate=115200, post=shooter_loop.loop.post,
                             controller=shooter_loop.controller, reopen_interval=2.0, log=logged.append, wait=wait)
    assert done.wait(LIMIT)
    assert pauses == [2, 4, 8, 16, 32, 60, 60, 60, 60, 60]
    assert len(logged) == 1 and "rfcomm0" in logged[0]


def test_a_bare_cr_serial_terminal_gets_one_reply_per_line(shooter_loop):
    link = Link()
    logged = Log()
    console = SerialConsole(link.path, baudrate=115200, post=shooter_loop.loop.post, controller=shooter_loop.controller,
                            log=logged)
    try:
        logged.wait_for(" open")
        link.send(b"version\rstatus\r# note\rhelp\r")
        out = link.read_until(b'"reply": "help"')
        assert out.count(b'"reply"') == 3
    finally:
        console.close()
        link.close()
