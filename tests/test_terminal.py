"""The stdio console for a person: readable replies, sentences for events, a prompt, Dutch or English."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys

from shooter.consoles.terminal import Renderer
from shooter.i18n import Messages
from tests.conftest import run_console


def rendered(lines, lang="en"):
    r = Renderer(Messages(lang), stamp=lambda ev: "12:00:00")
    return [text for text in map(r, run_console(lines)) if text is not None]


def test_status_is_a_few_readable_lines():
    out = rendered(["game new players=4", "round start first=5", "play 3", "press", "status"])
    status = [line.strip() for line in out[-1].splitlines()]
    assert status == ["status: ok", "Round 1: playing",
                      "Seat 4 to play, clockwise. The shooter points at seat 4. Nothing owed.",
                      "Scores: seat 1 0, seat 2 0, seat 3 0, seat 4 0",
                      "Shooter: ready, 75 cards left, lid closed."]


def test_events_are_sentences_with_a_time():
    out = rendered(["game new players=4", "round start first=5", "play hit2"])
    assert "[12:00:00] Seat 2 to play, clockwise." in out
    assert "[12:00:00] Seat 3 owes 2 presses (Hit 2)." in out
    assert "[12:00:00] The shooter points at seat 3." in out


def test_a_refused_press_is_said_once_not_twice():
    out = rendered(["sim lid open", "press"])
    said = [line for line in out if "lid is open: close it" in line]
    assert said == ["press: error lid-open: the lid is open: close it to shoot"]


def test_a_refused_press_of_the_button_is_still_said():
    out = rendered(["sim lid open", "sim button"])
    assert any(line.endswith("Press refused: the lid is open: close it to shoot") for line in out)


def test_help_gives_one_line_summaries():
    help_text = rendered(["help"])[0]
    assert re.search(r"^  press +exactly what a press of the shooter's button does$", help_text, re.M)


def test_dutch_from_the_catalogue():
    out = rendered(["game new players=4", "round start first=5", "play hit2", "sim lid open", "press"], lang="nl")
    assert "[12:00:00] Plaats 3 moet 2 keer drukken (Druk 2 keer)." in out
    assert "press: fout lid-open: De klep is open: doe hem eerst dicht." in out


def read_until(fd, pattern: bytes, seen: bytearray) -> bytes:
    """Read the terminal until ``pattern`` shows (a 20 s guard turns a hang into a failure)."""
    while pattern not in seen:
        ready, _, _ = select.select([fd], [], [], 20.0)
        assert ready, f"no {pattern!r} in {bytes(seen)!r}"
        try:
            seen += os.read(fd, 4096)
        except OSError:
            break
    return bytes(seen)


def test_a_person_at_a_terminal_gets_a_banner_a_prompt_and_sentences(tmp_path):
    master, slave = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "LANG": "en_GB.UTF-8", "LC_ALL": "", "TERM": "xterm"}
    env.pop("LC_ALL")
    proc = subprocess.Popen([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--seed", "1"],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env, start_new_session=True)
    os.close(slave)
    seen = bytearray()
    try:
        read_until(master, b"uno> ", seen)
        assert re.search(rb"uno-shooter \d+\.\d+\.\d+\. Type help for the commands", seen)
        os.write(master, b"sim lid open\n")
        read_until(master, b"The lid is open.", seen)
        os.write(master, b"press\n")
        read_until(master, b"close it to shoot", seen)
        os.write(master, b"stat\t\n")  # readline completes the command word
        read_until(master, b"No game. Start one", seen)
        os.write(master, b"\x04")  # Ctrl-D: end of input ends the program
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = bytes(seen).decode()
    assert text.count("close it to shoot") == 1  # the refused press is said once
    assert re.search(r"\[\d\d:\d\d:\d\d\] The lid is open\.", text)  # wall-clock time
    assert '{"reply"' not in text
    assert "stat" in (tmp_path / ".uno_shooter_history").read_text()


def test_ctrl_c_at_the_prompt_gives_the_terminal_back_as_it_was(tmp_path):
    import fcntl
    import termios
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)

    def own_terminal():  # the shell's job control: the pty is the program's controlling terminal
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    proc = subprocess.Popen([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--seed", "1"],
                            stdin=slave, stdout=slave, stderr=slave, preexec_fn=own_terminal,
                            env={**os.environ, "HOME": str(tmp_path), "TERM": "xterm"})
    seen = bytearray()
    try:
        read_until(master, b"uno> ", seen)
        os.write(master, b"stat")  # half a line typed: readline has the terminal in raw mode
        read_until(master, b"stat", seen)
        os.write(master, b"\x03")
        assert proc.wait(timeout=30) == 130  # SIGINT, as a shell reports it
    finally:
        if proc.poll() is None:
            proc.kill()
    after = termios.tcgetattr(slave)
    os.close(master)
    os.close(slave)
    assert after[3] & termios.ECHO and after[3] & termios.ICANON
    assert after[3] == before[3]
