"""The real ``uno-shooter`` command, as a person or a script runs it."""

import json
import subprocess
import sys

import pytest

CMD = [sys.executable, "-m", "shooter"]
VIRTUAL = ["run", "--sim", "--console", "stdio", "--clock", "virtual"]


def run(args, stdin="", timeout=60):
    return subprocess.run(CMD + args, input=stdin.encode(), capture_output=True, timeout=timeout)


def test_status_prints_one_json_reply_with_the_shooter_fields():
    out = run(VIRTUAL + ["--seed", "1"], "status\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.decode().splitlines()
    assert len(lines) == 1
    reply = json.loads(lines[0])
    assert reply["reply"] == "status" and reply["ok"] is True
    assert set(reply["shooter"]) >= {"state", "aim", "angle", "lid", "cards"}
    assert reply["shooter"]["state"] == "ready" and reply["shooter"]["lid"] == "closed"
    assert reply["game"] is None


SCRIPT = "".join("sim load cards=100\n" + "press\n" * 8 for _ in range(300))


def shots(stdout: bytes) -> list[dict]:
    return [o for o in map(json.loads, stdout.decode().splitlines()) if o.get("event") == "shot"]


@pytest.fixture(scope="module")
def seed11():
    return run(VIRTUAL + ["--seed", "11"], SCRIPT)


def test_H_RANDOM_2400_presses_through_the_console_show_the_original_profile(seed11):
    assert seed11.returncode == 0
    s = shots(seed11.stdout)
    assert len(s) == 2400
    fired = [x for x in s if x["planned"] > 0]
    assert 0.25 <= len(fired) / len(s) <= 0.45
    pattern = "".join("x" if x["planned"] else "." for x in s)
    assert "...." not in pattern and "xxx" not in pattern
    assert all(1 <= x["planned"] <= 12 for x in fired)
    assert sum(3 <= x["planned"] <= 8 for x in fired) / len(fired) >= 0.70
    assert all(x["ejected"] == x["planned"] for x in s)  # every card counted out


def test_same_seed_same_input_gives_the_same_output_byte_for_byte(seed11):
    again = run(VIRTUAL + ["--seed", "11"], SCRIPT)
    assert again.stdout == seed11.stdout


def test_another_seed_gives_other_shots(seed11):
    other = run(VIRTUAL + ["--seed", "12"], SCRIPT)
    assert [x["planned"] for x in shots(other.stdout)] != [x["planned"] for x in shots(seed11.stdout)]


def test_end_of_input_exits_0_and_blank_and_comment_lines_get_no_reply():
    out = run(VIRTUAL + ["--seed", "1"], "\n# a comment\n   \nversion\n")
    assert out.returncode == 0
    lines = [json.loads(x) for x in out.stdout.decode().splitlines()]
    assert lines == [{"reply": "version", "ok": True, "version": lines[0]["version"], "protocol": 1}]


def test_human_format_on_request():
    out = run(VIRTUAL + ["--seed", "1", "--format", "human"], "status\nfoo\n")
    text = out.stdout.decode()
    assert "status: ok" in text and "foo: error unknown-command" in text
    assert not text.lstrip().startswith("{")


def test_virtual_clock_without_sim_is_refused_with_a_clear_message():
    out = run(["run", "--console", "stdio", "--clock", "virtual"])
    assert out.returncode == 2
    assert b"--clock virtual needs --sim" in out.stderr


def test_help_explains_the_run_command():
    out = run(["run", "--help"])
    assert out.returncode == 0
    for option in (b"--sim", b"--clock", b"--seed", b"--console", b"--state-dir", b"--format"):
        assert option in out.stdout


def test_check_config_names_the_bad_key(tmp_path):
    bad = tmp_path / "config.toml"
    bad.write_text("[pins]\nbutton = 2\n")
    out = run(["check-config", str(bad)])
    assert out.returncode == 2
    assert b"pins.button" in out.stderr and b"GPIO2" in out.stderr


def test_real_time_simulation_ends_on_end_of_input():
    out = run(["run", "--sim", "--console", "stdio", "--seed", "1"], "version\n", timeout=30)
    assert out.returncode == 0
    assert json.loads(out.stdout.decode().splitlines()[0])["reply"] == "version"


def test_a_person_at_a_terminal_gets_the_readable_form():
    import os
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen(CMD + VIRTUAL + ["--seed", "1"], stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    os.write(master, b"version\n\x04")
    chunks = b""
    while b"protocol" not in chunks:
        try:
            chunks += os.read(master, 4096)
        except OSError:
            break
    proc.wait(timeout=30)
    os.close(master)
    assert b"version: ok" in chunks and b"protocol 1" in chunks   # the reply as a sentence (shooter.terminal)
    assert b'{"reply"' not in chunks


def test_a_custom_scheduler_profile_from_the_config_is_used(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[scheduler]\nprofile = "always3"\n'
                      '[scheduler.profiles.always3]\nfire_probability = 1.0\nburst_weights = { 3 = 1 }\n')
    out = run(VIRTUAL + ["--seed", "1", "--config", str(config)], "press\n" * 5 + "status\n")
    assert [s["planned"] for s in shots(out.stdout)] == [3] * 5
    assert json.loads(out.stdout.decode().splitlines()[-1])["shooter"]["profile"] == "always3"


def test_real_time_end_of_input_waits_for_the_bursts_it_started():
    out = run(["run", "--sim", "--console", "stdio", "--seed", "1"],
              "game new players=3\nround start first=hit2\npress\npress\n", timeout=30)
    assert out.returncode == 0
    objs = [json.loads(x) for x in out.stdout.decode().splitlines()]
    assert len([o for o in objs if o.get("event") == "shot"]) == 2


def test_simulate_refuses_bad_numbers_and_scorings_in_one_line_not_a_traceback():
    import subprocess
    import sys
    for args in (["--limit", "-5"], ["--games", "0"], ["--variant", "all-wild", "--scoring", "lowest"]):
        out = subprocess.run([sys.executable, "-m", "shooter", "simulate", *args], capture_output=True, timeout=60)
        assert out.returncode == 2, (args, out)
        assert b"Traceback" not in out.stderr and out.stderr.strip(), (args, out.stderr)


@pytest.mark.parametrize("text, words", [("0", "must be 1..9, got 0"), ("x", "must be a whole number, got 'x'"),
                                         ("1_0", "must be a whole number"), ("+3", "must be a whole number")])
def test_a_cli_number_is_checked_as_a_console_line_number_is(text, words):
    import argparse

    from shooter.bots.cli import whole as _whole
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        _whole(1, 9)(text)
    assert _whole(1, 9)(" 9 ") == 9


# ---- issue 15, item 10: the command line's odd ends, under real processes ----

import os  # noqa: E402
import select  # noqa: E402
import shlex  # noqa: E402
import socket  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOOTER = " ".join(map(shlex.quote, CMD))


def shell(script: str, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess:
    """``script`` under sh, where ``<&-`` and ``>&-`` really close a descriptor (stdin=DEVNULL does not)."""
    return subprocess.run(["sh", "-c", script], input=stdin, capture_output=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def no_traceback(out: subprocess.CompletedProcess) -> bool:
    return b"Traceback" not in out.stderr and b"Error:" not in out.stderr


@pytest.mark.parametrize("args", [VIRTUAL, ["selftest", "--sim", "--yes"], ["calibrate", "--sim", "--skip-motor"],
                                  ["run", "--sim", "--console", "stdio"]])
def test_a_closed_stdin_is_the_end_of_input_not_an_attribute_error(args):
    out = shell(f"{SHOOTER} {shlex.join(args)} <&-")
    assert no_traceback(out), out.stderr
    assert out.returncode in (0, 1), out.stderr       # calibrate: input ended before the seats were stored
    if args[0] == "selftest":
        assert out.returncode == 0 and b"all 6 parts passed" in out.stdout


@pytest.mark.parametrize("args", [["run", "--sim", "--console", "stdio"], VIRTUAL])
def test_run_with_stdout_closed_answers_nothing_and_ends_cleanly(args, tmp_path):
    out = shell(f"{SHOOTER} {shlex.join(args)} --state-dir {tmp_path} >&-", b"game new players=3\n")
    assert out.returncode == 0 and no_traceback(out), out.stderr
    state = json.loads((tmp_path / "game.json").read_text())   # the command was carried out, saved
    assert state["game"]["players"] == 3                      # (not written into fd 1 taken by the file)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_run_with_stdin_closed_serves_the_tcp_console():
    port = _free_port()
    proc = subprocess.Popen(["sh", "-c", f"exec {SHOOTER} run --sim --console tcp:{port} <&-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        said = b""
        while b"TCP console on" not in said:          # wait for its own word that it listens, bounded
            ready, _, _ = select.select([proc.stderr], [], [], 30)
            assert ready, said
            chunk = os.read(proc.stderr.fileno(), 4096)
            assert chunk, said                         # it died
            said += chunk
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(b"status\n")
            reply = json.loads(conn.makefile("rb").readline())
        assert reply["reply"] == "status" and reply["ok"]
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert b"Traceback" not in said + err and proc.returncode == 0, said + err


@pytest.mark.parametrize("where", ["missing/dir/x.svg", "a directory", "a FIFO nobody reads"])
def test_simulate_refuses_an_svg_path_it_cannot_write_before_any_game(tmp_path, where):
    target = {"missing/dir/x.svg": tmp_path / "missing" / "dir" / "x.svg", "a directory": tmp_path,
              "a FIFO nobody reads": tmp_path / "fifo"}[where]
    if where == "a FIFO nobody reads":
        os.mkfifo(target)
    out = run(["simulate", "--games", "100000", "--json", "--svg", str(target)], timeout=60)
    assert out.returncode == 2 and no_traceback(out) and out.stdout == b"", out.stderr   # no game ran
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and "--svg" in lines[0] and "cannot be written" in lines[0]


def test_simulate_writes_the_svg_it_opened_first(tmp_path):
    out = run(["simulate", "--games", "2", "--svg", str(tmp_path / "p.svg")])
    assert out.returncode == 0 and (tmp_path / "p.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("args", [["simulate", "--games", "200", "--json"], ["simulate", "--games", "50"],
                                  ["diagram", "table"], ["--help"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(args):
    out = shell(f"{SHOOTER} {shlex.join(args)} | head -c 1 >/dev/null", timeout=120)
    assert out.returncode == 0 and out.stderr.count(b"Traceback") == 0 and b"BrokenPipe" not in out.stderr, \
        out.stderr


@pytest.mark.parametrize("args", [["check-config", "{path}"], ["simulate", "--config", "{path}"],
                                  ["run", "--sim", "--console", "stdio", "--config", "{path}"],
                                  ["selftest", "--sim", "--yes", "--config", "{path}"]])
@pytest.mark.parametrize("what", ["FIFO", "/dev/zero", "directory", "too big"])
def test_a_config_argument_that_is_not_a_regular_file_is_refused_at_once(tmp_path, args, what):
    path = {"FIFO": tmp_path / "fifo", "/dev/zero": Path("/dev/zero"), "directory": tmp_path,
            "too big": tmp_path / "big.toml"}[what]
    if what == "FIFO":
        os.mkfifo(path)
    if what == "too big":
        path.write_bytes(b"# a comment\n" * 100_000)
    out = run([a.format(path=path) for a in args], timeout=60)   # the FIFO hung, /dev/zero ran out of memory
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and no_traceback(out) and len(lines) == 1, out.stderr
    assert str(path) in lines[0] and ("not a regular file" in lines[0] or "larger than" in lines[0])


def test_a_state_dir_argument_that_is_a_file_exits_2_for_every_command(tmp_path):
    (tmp_path / "file").write_text("")
    for args in (VIRTUAL, ["selftest", "--sim", "--yes"]):
        out = run(args + ["--state-dir", str(tmp_path / "file")], "status\n")
        assert out.returncode == 2 and no_traceback(out) and b"install error" in out.stderr, (args, out.stderr)
