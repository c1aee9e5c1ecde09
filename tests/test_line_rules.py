"""The line rules, the same on every console (docs/protocol.md "Input"; issue 7, item 7)."""

import io
import subprocess
import sys
import unicodedata

import pytest

from shooter.consoles import read_lines
from shooter.errors import BadArgument
from shooter.protocol import CONTROL, MAX_LINE_BYTES, parse
from tests.conftest import run_console


def lines_of(data: bytes, chunk: int = 4096, partial: bool = True) -> list[bytes]:
    stream = io.BytesIO(data)
    return list(read_lines(lambda n: stream.read(min(n, chunk)), partial=partial))


@pytest.mark.parametrize("chunk", [1, 2, 3, 4096])
def test_lf_crlf_and_a_bare_cr_each_end_a_line(chunk):
    assert lines_of(b"status\nversion\r\nhelp\rpress\r\n\r\n", chunk) == \
        [b"status", b"version", b"help", b"press", b""]


def test_a_cr_at_the_end_of_one_read_and_an_lf_at_the_start_of_the_next_are_one_line_end():
    assert lines_of(b"status\r\nversion\r", chunk=7) == [b"status", b"version"]


def test_an_unterminated_last_line_is_dropped_when_the_transport_says_it_was_cut_off():
    assert lines_of(b"status\nsim lid open", partial=False) == [b"status"]
    assert lines_of(b"status\nsim lid open", partial=True) == [b"status", b"sim lid open"]


@pytest.mark.parametrize("line", [b"press\x1f", b"\x1fpress", b"pre\x00ss", b"press\x1c", b"press\x7f",
                                  "press\u0085".encode(), b"status\x0b", b"status\x0c", b"\x1b[Astatus"])
def test_control_characters_anywhere_refuse_the_line(line):
    out = run_console([line])
    assert len(out) == 1 and out[0]["ok"] is False and out[0]["error"] == "bad-argument"
    assert "control character" in out[0]["message"]
    assert "\n" not in out[0]["reply"] and out[0]["reply"].isprintable()


def test_the_refused_characters_are_unicodes_control_characters_but_the_tab():
    # parse searches the line for protocol.CONTROL: exactly the code points of category Cc (C0, DEL, C1) but the tab
    control = {chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cc"} - {"\t"}
    assert {c for c in map(chr, range(sys.maxunicode + 1)) if CONTROL.fullmatch(c)} == control
    for c in sorted(control):
        with pytest.raises(BadArgument, match=f"the control character U\\+{ord(c):04X}$"):
            parse(f"sim lid{c} open")
    line = parse("sim\tlid open\u00a0\u2028")   # a tab separates words; other characters are not controls
    assert line is not None and line.words == ["sim", "lid", "open\u00a0\u2028"]


def test_a_press_with_a_control_character_at_its_end_does_not_fire():
    out = run_console([b"press\x1f", "status"])
    assert not any(o.get("event") == "shot" for o in out)


def test_tabs_separate_words_like_spaces():
    out = run_console([b"sim\tload\tcards=3"])
    assert out[0] == {"reply": "sim", "ok": True, "cards": 83 + 3}


@pytest.mark.parametrize("line", ["aim seat=٣", "aim seat=３", "sim load cards=1_0", "sim wait seconds=١.5",
                                  "sim wait seconds=1e3", "sim load cards= 3", "game new players=٣",
                                  "game new players=3 dealer=٢"])
def test_unicode_digits_are_not_numbers(line):
    out = run_console([line, "status"])
    assert out[0]["ok"] is False and out[0]["error"] == "bad-argument"
    assert out[-1]["game"] is None and out[-1]["shooter"]["aim"] is None


@pytest.mark.parametrize("line", [b"# a note", b"   # indented", b"\t#tab", b"# \xff\xfe not UTF-8",
                                  b"# control \x01 chars", b"#" + b"x" * (MAX_LINE_BYTES + 10)])
def test_a_comment_never_gets_a_reply(line):
    assert parse(line) is None
    assert run_console([line]) == []


@pytest.mark.parametrize("line", [b"", b"   ", b"\t \t"])
def test_a_blank_line_gets_no_reply(line):
    assert run_console([line]) == []


@pytest.mark.parametrize("line", [b"\xff", b"status \xff", b"\x01", "\u2028".encode(), b"=", b"x=1",
                                  "٣".encode(), b"status" + b" " * MAX_LINE_BYTES, b"GET / HTTP/1.1"])
def test_every_other_non_blank_line_gets_exactly_one_reply(line):
    out = run_console([line])
    assert len(out) == 1 and "reply" in out[0]


def test_a_bare_cr_terminal_on_stdio_gets_one_reply_per_line():
    proc = subprocess.run([sys.executable, "-m", "shooter", "run", "--sim", "--console", "stdio", "--clock",
                           "virtual", "--seed", "1"], input=b"version\rstatus\r# note\rpress\x1f\r",
                          capture_output=True, timeout=60)
    out = [line for line in proc.stdout.decode().splitlines() if '"reply"' in line]
    assert proc.returncode == 0 and len(out) == 3, proc.stdout
    assert '"error": "bad-argument"' in out[2]
