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
    assert b"version: ok" in chunks and b"protocol: 1" in chunks
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

    from shooter.cli import _whole
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        _whole(1, 9)(text)
    assert _whole(1, 9)(" 9 ") == 9
