"""The stdio console for a person: readable replies, sentences for events, a prompt, Dutch or English."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys

import pytest

from shooter.consoles.terminal import Renderer
from shooter.i18n import Messages
from tests.conftest import run_console


def rendered(lines, lang="en"):
    r = Renderer(Messages(lang), stamp=lambda ev: "12:00:00")
    return [text for text in map(r, run_console(lines)) if text is not None]


def said(lines, lang="en"):
    """Every line the terminal printed (a reply or event may print two)."""
    return "\n".join(rendered(lines, lang)).splitlines()


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


@pytest.mark.parametrize(("lang", "variant", "box"), [
    ("en", "extreme", "Uno Extreme"), ("en", "classic", "Uno (classic)"), ("nl", "classic", "Uno (gewoon)"),
    ("en", "attack", "Uno Attack"), ("nl", "flip", "Uno Flip")])
def test_a_new_game_is_named_by_its_box_in_the_terminals_language(lang, variant, box):
    # the edition record's name, not the protocol's word for the variant
    out = rendered([f"game new players=3 variant={variant}"], lang=lang)
    assert any(f", {box}, " in line for line in out), out


def test_a_variant_the_terminal_does_not_know_is_named_as_sent():
    r = Renderer(Messages("en"), stamp=lambda ev: "t")
    assert "2 players, uno-99, " in r({"event": "game", "t": 0, "players": 2, "variant": "uno-99", "dealer": 1})


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
    assert "press: fout lid-open: de klep is open: doe hem dicht om te schieten" in out


NAMED = ["names seats=Anna,Bram,Cor", "game new players=3", "round start first=5"]


def test_seats_are_named_in_every_sentence():
    out = said(NAMED + ["play hit2", "press", "play 4 seat=2", "status"])
    assert "[12:00:00] Bram to play, clockwise." in out
    assert "[12:00:00] Cor owes 2 presses (Hit 2)." in out
    assert "[12:00:00] The shooter points at Cor." in out
    assert "press: ok: a press for Cor (Hit 2)." in out
    assert "play: error not-your-turn: It is Anna's turn, not Bram's." in out
    assert "  Scores: Anna 0, Bram 0, Cor 0" in out
    assert not any("seat 3" in line or "Seat 3" in line for line in out[3:]), out


def test_names_known_before_the_terminal_started_are_used():
    # the names were given before (saved in the state directory): the terminal learns them as it starts
    r = Renderer(Messages("en"), stamp=lambda ev: "t")
    r.learn_names({1: "Anna", 2: "Bram"})
    assert r({"event": "turn", "t": 0, "seat": 2, "direction": "cw"}) == "[t] Bram to play, clockwise."
    assert r({"event": "turn", "t": 0, "seat": 3, "direction": "cw"}) == "[t] Seat 3 to play, clockwise."


def test_counts_are_said_right_one_press_no_cards():
    # seed 1: Cor's second Hit 2 press shoots nothing
    out = said(NAMED + ["play hit2", "press", "press"])
    assert "[12:00:00] Cor owes 1 press (Hit 2)." in out
    assert "[12:00:00] Cor got no cards (Hit 2)." in out
    assert not any("1 presses" in line or "0 of 0" in line for line in out), out
    nl = said(NAMED + ["play hit2", "press", "press", "magazine cards=1"], lang="nl")
    assert "[12:00:00] Cor moet 1 keer drukken (Druk 2 keer)." in nl
    assert "[12:00:00] Cor kreeg geen kaarten (Druk 2 keer)." in nl
    assert "magazine: ok: het magazijn heeft 1 kaart." in nl


def test_the_presser_gets_its_cards_before_the_next_player_is_named():
    # the controller passes the turn on as the last press is counted, before that press's shot is over
    lines = said(NAMED + ["play hit2", "press", "press", "press"])
    at = {line: i for i, line in enumerate(lines)}   # the last time each line was printed
    assert at["[12:00:00] Cor got no cards (Hit 2)."] < at["[12:00:00] Anna to play, clockwise."]
    assert at["[12:00:00] Anna got 5 cards (draw)."] < at["[12:00:00] Bram to play, clockwise."]
    # nothing waits longer than one line: a status sent before the shot ends comes after the turn
    r = Renderer(Messages("en"), stamp=lambda ev: "t")
    assert r({"reply": "press", "ok": True, "seat": 1, "reason": "draw"}) == "press: ok: a press for seat 1 (draw)."
    assert r({"event": "turn", "t": 0, "seat": 2, "direction": "cw"}) is None
    assert r({"reply": "magazine", "ok": True, "cards": 0}) == \
        "[t] Seat 2 to play, clockwise.\nmagazine: ok: the magazine is empty."
    assert r({"event": "shot", "t": 0, "seat": 1, "planned": 2, "ejected": 2, "reason": "draw"}) == \
        "[t] Seat 1 got 2 cards (draw)."


def test_dutch_keeps_the_detail_of_every_error():
    out = rendered(NAMED + ["game new players=11", "play 4 seat=3", "play wrongcard", "undo", "undo", "undo"],
                   lang="nl")
    assert "game: fout bad-argument: players= moet 2..10 zijn, niet 11" in out
    assert "play: fout not-your-turn: Bram is aan de beurt, niet Cor." in out
    assert any(line.startswith("play: fout bad-argument: Onbekende kaart 'wrongcard'; de kaarten zijn ")
               for line in out), out
    assert "undo: fout cannot-undo: Er is niets om ongedaan te maken." in out
    assert not any("Dat klopt niet" in line or "Dat kan nu niet" in line for line in out), out


def test_dutch_help_says_what_every_command_does():
    help_text = rendered(["help"], lang="nl")[0]
    assert re.search(r"^  press +precies wat een druk op de knop van de schieter doet$", help_text, re.M)
    assert re.search(r"^  undo +neemt de laatste kaart, Uno, ", help_text, re.M)


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


def converse(tmp_path, lang: str, exchanges: list[tuple[bytes, bytes]], *args: str) -> str:
    """The program on a pseudo-terminal in locale ``lang``: each line typed once the answer before it showed,
    then Ctrl-D (end of input ends the program); returns everything the terminal showed."""
    master, slave = pty.openpty()
    env = {**os.environ, "HOME": str(tmp_path), "LANG": lang, "TERM": "xterm"}
    for var in ("LC_ALL", "LC_MESSAGES"):
        env.pop(var, None)
    proc = subprocess.Popen([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--seed", "1",
                             *args], stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    os.close(slave)
    seen = bytearray()
    try:
        read_until(master, b"uno> ", seen)
        for line, answer in exchanges:
            os.write(master, line)
            read_until(master, answer, seen)
        os.write(master, b"\x04")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return bytes(seen).decode()


def test_a_person_at_a_terminal_gets_a_banner_a_prompt_and_sentences(tmp_path):
    text = converse(tmp_path, "en_GB.UTF-8", [
        (b"sim lid open\n", b"The lid is open."), (b"press\n", b"close it to shoot"),
        (b"stat\t\n", b"No game. Start one")])   # readline completes the command word
    assert re.search(r"uno-shooter \d+\.\d+\.\d+\. Type help for the commands", text)
    assert text.count("close it to shoot") == 1  # the refused press is said once
    assert re.search(r"\[\d\d:\d\d:\d\d\] The lid is open\.", text)  # wall-clock time
    assert '{"reply"' not in text
    assert "stat" in (tmp_path / ".uno_shooter_history").read_text()


def test_a_dutch_terminal_says_everything_in_dutch_with_its_detail(tmp_path):
    state = ("--state-dir", str(tmp_path / "state"))
    text = converse(tmp_path, "nl_NL.UTF-8", [
        (b"help\n", b"precies wat een druk op de knop"), (b"names seats=Anna,Bram,Cor\n", b"De plaatsen heten"),
        (b"game new players=11\n", b"players= moet 2..10 zijn, niet 11"), (b"game new players=3\n", b"Anna deelt"),
        (b"round start first=5\n", b"Bram is aan de beurt"),
        (b"play hit2\n", b"Cor moet 2 keer drukken (Druk 2 keer)."), (b"press\n", b"Cor moet 1 keer drukken")], *state)
    assert "Typ help voor de commando's" in text
    assert "Dat klopt niet" not in text and '{"reply"' not in text
    assert "plaats 3" not in text.split("plaats 3 Cor.")[1]   # Cor by name from then on
    # started again on the same state directory: the saved names from the first line on, and the game resumed
    again = converse(tmp_path, "nl_NL.UTF-8", [(b"press\n", b"Cor heeft genoeg gedrukt.")], *state)
    assert "plaats" not in again.lower(), again


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


def test_the_shooter_ready_again_after_a_burst_is_left_unsaid():
    # every burst ends with a `ready` event (for a page that redraws the shooter's state): a person hears the
    # motor stop, and a line after every shot would drown the table's sentences
    out = run_console(["game new players=3", "round start first=5", "play hit2", "press", "press"])
    assert [o["event"] for o in out if o.get("event") == "ready"]
    assert not any("ready" in line.lower() for line in rendered(["game new players=3", "round start first=5",
                                                                 "play hit2", "press", "press"]))


ATTACK_ROUND = (b"names seats=Anna,Bram,Cor\n", b"game new players=3 variant=attack\n", b"round start first=5\n",
                b"play wild-all-hit\n", b"press\n", b"press\n", b"play trade-hands target=1\n", b"play 5 last\n",
                b"hand seat=2 cards=hit2\n", b"hand seat=3 cards=trade-hands,7\n")


@pytest.mark.parametrize(("lang", "answers"), [
    ("en_GB.UTF-8", ("The seats are named", "3 players, Uno Attack, Anna deals", "Bram to play",
                     "Cor owes 1 press (Wild All Hit).", "Anna owes 1 press (Wild All Hit).", "Cor to play",
                     "Anna to play", "Anna won the round.",
                     "hand: ok", "Round scored: Anna +57 points.")),
    ("nl_NL.UTF-8", ("De plaatsen heten", "3 spelers, Uno Attack, Anna deelt", "Bram is aan de beurt",
                     "Cor moet 1 keer drukken (Iedereen drukt).", "Anna moet 1 keer drukken (Iedereen drukt).",
                     "Cor is aan de beurt",
                     "Anna is aan de beurt", "Anna heeft de ronde gewonnen.", "hand: ok",
                     "Ronde geteld: Anna +57 punten."))])
def test_a_round_of_uno_attack_at_a_terminal_in_english_and_dutch(tmp_path, lang, answers):
    # AT-ALLHIT, AT-TRADE, AT-SCORE typed by a person: the reasons in the terminal's language (the record's
    # names), the hands scored with the Attack points (Hit 2 20, Trade Hands 30)
    text = converse(tmp_path, lang, [(line, answer.encode()) for line, answer in zip(ATTACK_ROUND, answers,
                                                                                     strict=True)])
    assert '{"reply"' not in text and "error" not in text and "fout" not in text


def test_once_closed_the_terminal_never_hands_the_terminal_to_readline_again():
    # a Ctrl-C (or SIGTERM) closes the console while its reader is between two lines: the reader must not start
    # another readline, which would put the terminal back in raw mode after close() restored it (CI saw a
    # terminal left without echo after Ctrl-C once; the program also restores it at exit, atexit)
    import io
    import threading

    from shooter.app import App
    from shooter.config import parse_config
    from shooter.consoles import terminal

    asked, go, calls = threading.Event(), threading.Event(), []

    def inp(prompt: str) -> str:
        calls.append(prompt)
        if len(calls) > 1:
            raise EOFError
        asked.set()
        assert go.wait(10)
        return "status"
    with App(parse_config({}), sim=True, virtual=True, seed=1, log=lambda m: None) as app:
        close = terminal.start(post=lambda f: None, controller=app.controller, version="t", on_end=lambda: None,
                               out=io.StringIO(), inp=inp)
        assert asked.wait(10)
        close()
        go.set()
        reader = next(t for t in threading.enumerate() if t.name == "terminal-console")
        reader.join(10)
        assert not reader.is_alive() and len(calls) == 1, calls
