"""Who may do what is the command table's: every command of COMMANDS, with arguments generated from its own
Spec, run from an unpaired web socket, a paired one, one whose token was revoked and each console of the
table's own. A command is refused (``not-paired``; ``bad-argument`` for the web console's own ``pair`` and
``auth`` on a table's console) exactly when its declared access says so, and a refused line never reaches its
handler, answers one line and changes nothing. A new command therefore cannot slip through: it must declare an
access, and this test runs it under every caller.
"""

from __future__ import annotations

import os
import pty
import re
import socket
import threading
import tty
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.access import IN_PROCESS, OWN_LINKS, Access, Caller, Link, may
from shooter.app import App
from shooter.commands.dispatch import CommandTable, Handler
from shooter.commands.table import COMMANDS
from shooter.config import parse_config
from shooter.consoles import SerialConsole, StdioConsole, TcpConsole
from shooter.errors import CommandError
from shooter.protocol import Spec
from shooter.web.pairing import Pairing

# What a console may type for an option: each option's candidates are those its Spec's converter accepts.
POOL = [*map(str, range(-1, 21)), "25", "100", "112", "500", "86400", "0.5", "2.5", "45", "-30", "1e3", "x",
        "extreme", "classic", "all-wild", "flip", "2016", "2010", "winner", "lowest", "elimination", "redraw",
        "apply", "light", "dark", "cw", "ccw", "upheld", "rejected", "random", "Ann", "Ann,Bob,-,Dirk",
        "5,skip,wild", "red-5", "tok3N-_x", "red"]
WORDS = ["5", "7", "skip", "reverse", "wild", "draw-two", "extreme-hit", "x"]   # positional words (a card)
LIMIT = 20.0   # s: only a guard against a hang
CALLERS = ["web unpaired", "web paired", "web revoked", *sorted(OWN_LINKS)]


def accepted(convert, key: str) -> list[str]:
    ok = []
    for text in POOL:
        try:
            convert(key, text)
        except CommandError:
            continue
        ok.append(text)
    return ok


def lines(spec: Spec) -> st.SearchStrategy[tuple[str, bool]]:
    """Valid-looking lines of ``spec``: its words, its args, every required option and some optional ones
    with values its converters accept, some of its flags, in any order after the words; and whether the line
    was then broken (an option the command does not have: its shape refuses it, after its access)."""
    options = {key: accepted(convert, key) for key, convert in {**spec.required, **spec.optional}.items()}
    for key, values in options.items():
        assert values, f"{spec.usage}: nothing in POOL is a valid {key}=; add a value it accepts"

    @st.composite
    def line(draw: st.DrawFn) -> tuple[str, bool]:
        args = [draw(st.sampled_from(WORDS)) for _ in range(spec.args)]
        chosen = [*spec.required, *draw(st.lists(st.sampled_from(list(spec.optional) or [""]), unique=True)
                                        .map(lambda keys: [k for k in keys if k]))]
        tokens = [f"{key}={draw(st.sampled_from(options[key]))}" for key in chosen]
        tokens += draw(st.lists(st.sampled_from(spec.flags), unique=True)) if spec.flags else []
        broken = draw(st.integers(0, 4)) == 0
        tokens += ["no-such-option=1"] if broken else []
        return " ".join([*spec.words, *args, *draw(st.permutations(tokens))]), broken
    return line()


class Rig:
    """A simulated shooter with pairing in virtual time, its commands' handlers counted, and the callers."""

    def __init__(self) -> None:
        self.app = App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None)
        self.controller = self.app.controller
        self.controller.web.open(Pairing(self.app.clock))
        self.reached: list[str] = []
        self.controller.commands = CommandTable((spec, Handler(handler.part, self._counted(spec, handler.run)))
                                                for spec, handler in COMMANDS)
        self.news: list[dict] = []
        self.callers = {"web unpaired": Caller(Link.WEB, address="10.0.0.2"),
                        "web paired": Caller(Link.WEB, address="10.0.0.3"),
                        "web revoked": Caller(Link.WEB, address="10.0.0.4"),
                        **{str(link): Caller(link) for link in OWN_LINKS}}
        self.asked = 0

    def _counted(self, spec: Spec, handler):
        def counted(*args, **kwargs):
            self.reached.append(" ".join(spec.words))
            return handler(*args, **kwargs)
        return counted

    def _grant(self, caller: Caller) -> int:
        """A token for ``caller``, granted as an approval grants one (each from an address of its own)."""
        self.asked += 1
        pairing = self.controller.pairing
        req = pairing.request(self.news.append, address=f"192.0.2.{self.asked % 250}", on_grant=caller.holds)
        return pairing.approve(req.number).id

    def caller(self, name: str) -> Caller:
        """The caller, in the pairing its name says (re-paired when a command revoked it, revoked again)."""
        caller, pairing = self.callers[name], self.controller.pairing
        if name == "web unpaired":
            caller.holds(None)   # a pair it sent may have been approved, or a press paired it
        if name == "web paired" and not pairing.valid(caller.token_id):
            self._grant(caller)
        if name == "web revoked" and (caller.token_id is None or pairing.valid(caller.token_id)):
            pairing.revoke(self._grant(caller))   # it still holds the id, which pairs nobody now
        return caller

    def run(self, line: str, caller: Caller) -> list[dict]:
        """Everything the caller's console is sent for ``line`` (its reply first)."""
        out: list[dict] = []
        self.controller.add_sink(out.append)
        self.app.loop.post(lambda: self.controller.handle_line(line, out.append, caller))
        self.app.loop.run_until_quiet(limit=2 * 86400.0)   # sim wait seconds= may let a day pass
        self.controller.remove_sink(out.append)
        return out


@pytest.fixture(scope="module")
def rig():
    """One shooter for the module (its state carries over from line to line, as on a real table)."""
    r = Rig()
    yield r
    r.app.close()


@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize("spec", [spec for spec, _ in COMMANDS], ids=lambda spec: " ".join(spec.words))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_command_is_refused_exactly_when_its_declared_access_says(rig, spec, who, data):
    r = rig
    caller = r.caller(who)
    line, broken = data.draw(lines(spec), label="line")
    allowed = may(spec.access, caller, r.controller.pairing.valid)
    assert allowed == {Access.WATCH: True, Access.ASK: who.startswith("web"),
                       Access.PAIRED: who not in ("web unpaired", "web revoked"),
                       Access.TABLE: not who.startswith("web")}[spec.access]
    before = r.controller.table.to_dict(), r.controller.launcher.cards, r.controller.pairing.status()
    r.reached.clear()
    out = r.run(line, caller)
    answer = out[0]
    assert answer["reply"] == spec.words[0], (line, answer)
    if allowed and broken:   # its shape refuses it: the handler is not reached either
        assert (r.reached, answer["ok"], answer["error"]) == ([], False, "bad-argument"), (line, answer)
    elif allowed:
        assert r.reached == [" ".join(spec.words)], (line, answer)
        if spec.words != ("auth",):   # an unknown token is the handler's own not-paired
            assert answer.get("error") != "not-paired", (line, answer)
    else:
        expected = "bad-argument" if spec.access is Access.ASK else "not-paired"
        assert (r.reached, answer["ok"], answer["error"]) == ([], False, expected), (line, answer)
        assert out == [answer], "a refused line answers one line and causes no event"
        assert (r.controller.table.to_dict(), r.controller.launcher.cards,
                r.controller.pairing.status()) == before


def test_every_command_declares_who_may_run_it_and_a_watcher_only_reads():
    """A new command must say who may run it (Spec has no default); what anyone may run is what reads."""
    for spec, _ in COMMANDS:
        assert isinstance(spec.access, Access), spec.usage
    assert {" ".join(s.words) for s, _ in COMMANDS if s.access is Access.WATCH} == {"help", "version", "status"}
    assert {" ".join(s.words) for s, _ in COMMANDS if s.access is Access.ASK} == {"pair", "auth"}
    with pytest.raises(TypeError):
        Spec(("new",), usage="new")  # type: ignore[call-arg]


@pytest.mark.parametrize("line", ["frobnicate", "sim", "sim fly", "penalty", "pair foo"])
def test_a_line_the_table_does_not_know_tells_a_watcher_nothing_more(rig, line):
    """Unknown to the table (or a family's usage): a watcher is told to pair, a table console what it got."""
    r = rig
    watcher = r.run(line, r.caller("web unpaired"))[0]
    own = r.run(line, IN_PROCESS)[0]
    if line == "pair foo":   # pair is anyone's on the web: its usage is told
        assert watcher["error"] == own["error"] == "bad-argument"
        return
    assert (watcher["ok"], watcher["error"]) == (False, "not-paired")
    assert own["error"] in ("unknown-command", "bad-argument") and own["error"] != "not-paired"
    assert r.run(line, r.caller("web paired"))[0]["error"] == own["error"]


class Host:
    """A stand-in for the controller that records who each console says a line is from."""

    def __init__(self) -> None:
        self.clock = SimpleNamespace(now=lambda: 0.0)
        self.callers: list[Caller] = []
        self.got = threading.Event()

    def add_sink(self, sink) -> None:
        pass

    def remove_sink(self, sink) -> None:
        pass

    def handle_line(self, raw, respond, caller: Caller) -> None:
        self.callers.append(caller)
        self.got.set()


def post(fn):
    fn()


def test_the_stdio_console_says_it_is_stdio():
    host, (read_end, write_end), (out_read, out_write) = Host(), os.pipe(), os.pipe()
    console = StdioConsole(post=post, controller=host, on_end=lambda: None, stdin_fd=read_end, stdout_fd=out_write)
    try:
        os.write(write_end, b"status\n")
        assert host.got.wait(LIMIT)
        assert [c.link for c in host.callers] == [Link.STDIO] and host.callers[0].own
    finally:
        os.close(write_end)
        console.close()
        for fd in (read_end, out_read, out_write):
            os.close(fd)


def test_the_tcp_console_says_it_is_tcp_for_each_connection():
    host = Host()
    console = TcpConsole(0, post=post, controller=host)
    try:
        for _ in range(2):
            host.got.clear()
            with socket.create_connection(("127.0.0.1", console.port), timeout=LIMIT) as conn:
                conn.sendall(b"status\n")
                assert host.got.wait(LIMIT)
        assert [c.link for c in host.callers] == [Link.TCP, Link.TCP] and host.callers[0] is not host.callers[1]
    finally:
        console.close()


def test_the_serial_console_says_it_is_serial():
    pytest.importorskip("serial")
    host = Host()
    master, slave = pty.openpty()
    tty.setraw(master)
    path = os.ttyname(slave)
    os.close(slave)
    opened = threading.Event()
    console = SerialConsole(path, baudrate=115200, post=post, controller=host,
                            log=lambda message: opened.set() if message.endswith(" open") else None)
    try:
        assert opened.wait(LIMIT)   # opening flushes what came before
        os.write(master, b"status\n")
        assert host.got.wait(LIMIT)
        assert [c.link for c in host.callers] == [Link.SERIAL]
    finally:
        console.close()
        os.close(master)


def test_the_tcp_console_listens_on_loopback_only():
    from shooter.consoles import ConsolePortError
    app = App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None)
    try:
        with pytest.raises(ConsolePortError, match="loopback only"):
            TcpConsole(0, post=app.loop.post, controller=app.controller, host="0.0.0.0")
    finally:
        app.close()


def test_the_help_reply_lists_pair_and_auth_like_every_command(rig):
    r = rig
    usages = r.run("help", r.caller("web unpaired"))[0]["commands"]
    assert usages == [spec.usage for spec, _ in COMMANDS] and "auth token=T" in usages


def test_the_protocol_docs_access_table_is_the_command_tables():
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text().split("### Who may run what", 1)[1]
    doc = doc.split("\n## ", 1)[0]
    rows = [line for line in doc.splitlines() if line.startswith("| ") and "`" in line.split("|")[2]]
    documented = [set(re.findall(r"`([^`]+)`", row.split("|")[2])) for row in rows]
    declared = [{" ".join(s.words) for s, _ in COMMANDS if s.access is access} for access in Access]
    assert documented == declared
