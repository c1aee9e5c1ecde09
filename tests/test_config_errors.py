"""Every bad config is one clean line naming the right key, the value shortened and escaped, exit 2, never a
traceback (issue 15, item 8); the loader fuzzed: nothing but a ConfigError leaves it."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.config import Config, load_config, parse_config
from shooter.errors import ConfigError
from shooter.shown import LINE

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = (ROOT / "config.example.toml").read_text()


def one_clean_line(message: str) -> bool:
    return message.isprintable() and len(message) <= LINE


@pytest.mark.parametrize("text, key", [
    ('[servo.seat_angles]\n"²" = [1, 2]\n', 'servo.seat_angles."²"'),      # a digit to isdigit(), not to int()
    ('[servo.seat_angles]\n"٣" = [1, 2, 3]\n', 'servo.seat_angles."٣"'),
    ('[web]\nlisten = "0.0.0.0:²"\n', "web.listen"),
    ('[web]\nlisten = "0.0.0.0:8_0"\n', "web.listen"),
    ("x = " + "[" * 1000 + "]" * 1000 + "\n", "nested too deeply"),
    ("[scheduler.profiles.p]\nburst_weights = " + "[" * 600 + "]" * 600 + "\n", "nested too deeply"),
    ("a = " + "{b = " * 600 + "1" + "}" * 600 + "\n", "nested too deeply"),
    ("[motor]\nthermal_window = 10\n", "motor.thermal_window"),          # the default budget of 30 s: too long
    ("[motor]\nthermal_window = 10\nthermal_budget = 20\n", "motor.thermal_budget"),   # both set: the budget
    ('[rules]\nblank_as = "' + "y" * 5000 + '"\n', "rules.blank_as"),
    ('[rules]\nuno_penalty = 9\n', "rules.uno_penalty"),
    ('[motor]\n"\\u001b[2J\\u001b[H" = 1\n', 'motor."\\u001b[2J\\u001b[H"'),
    ('[servo.seat_angles]\n"\\u001b]0;pwned\\u0007" = 1\n', "servo.seat_angles."),
    ('[rules]\n"\\u009b2J\\u202e" = 1\n', "rules."),
    ('[hardware]\npin_factory = "' + "x" * 5000 + '"\n', "hardware.pin_factory"),
    ('[state]\ndir = "a\\u0000b"\n', "state.dir"),
    ('[console]\nserial = ["/dev/a\\u0000"]\n', "console.serial"),
    ('[scheduler]\nprofile = "\\u001b[2J' + "z" * 3000 + '"\n', "scheduler.profile"),
])
def test_a_bad_config_is_one_clean_line_naming_the_right_key(tmp_path, text, key):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert one_clean_line(message), message
    assert message.startswith(f"{path}: ") and key in message, message
    assert "\x1b" not in message and "\x9b" not in message and "\0" not in message


@pytest.mark.parametrize("text", ['[servo.seat_angles]\n"²" = [1, 2]\n', "x = " + "[" * 1000 + "]" * 1000,
                                  '[motor]\n"\\u001b[2J" = 1\n', '[rules]\nblank_as = "' + "y" * 5000 + '"\n'])
def test_check_config_prints_the_one_line_and_exits_2(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "shooter", "check-config", str(path)], capture_output=True,
                         timeout=60)
    lines = out.stderr.decode().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and b"Traceback" not in out.stderr, out.stderr
    assert b"\x1b" not in out.stderr and len(lines[0]) <= LINE + 40


# ---- the loader fuzzed ----

SECTIONS = {section: sorted(keys) for section, keys in {
    "pins": {"motor_forward", "motor_backward", "button", "lid", "beeper", "servo", "exit_sensor"},
    "motor": {"max_on_time", "rest_time", "thermal_window", "thermal_budget", "pwm_frequency", "duty",
              "retract_duty", "jam_timeout", "retract_time", "seconds_per_card", "spin_up"},
    "servo": {"min_angle", "max_angle", "min_pulse_width", "max_pulse_width", "frame_width", "speed",
              "settle_time", "seat_angles"},
    "inputs": {"button_debounce", "lid_close_debounce", "exit_active_low"}, "beeper": {"kind"},
    "scheduler": {"profile", "profiles"}, "table": {"default_seats"},
    "rules": {"dealer_rotation", "default_dealer", "blank_as", "uno_penalty", "penalty_queue"},
    "console": {"stdio", "tcp_port", "serial", "baudrate", "reopen_interval", "max_clients"},
    "state": {"dir"}, "hardware": {"pin_factory", "servo_backend", "pwm_chip"}, "sim": {"cards", "scene"},
    "service": {"watchdog"}, "web": {"listen", "max_connections"},
}.items()}

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["²", "3", "-1", "0.0.0.0:8080", "off", "original", "uniform", "p", "\x1b[2J", "a\0b", "/dev/ttyGS0"])
SCALAR = (st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() | TEXT
          | st.sampled_from([0, 1, 2, 3, 4, 12, 17, 18, 60, 1e400, -1e400, 0.5, 2 ** 63]))
VALUE = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=3),
                     max_leaves=12)


@st.composite
def documents(draw):
    """Config documents near the real ones: one to three known keys (now and then an unknown one) set to odd
    values, the rest left to their defaults, so that each odd value reaches its own check."""
    doc: dict = {}
    for _ in range(draw(st.integers(1, 3))):
        section = draw(st.sampled_from([*SECTIONS, "bogus"]))
        key = draw(st.sampled_from([*SECTIONS.get(section, ["x"]), "²", "\x1b"]))
        table = doc.setdefault(section, {})
        if (section, key) == ("servo", "seat_angles"):
            table[key] = draw(st.dictionaries(TEXT | st.sampled_from(["2", "3", "10", "11", "²", "٣"]),
                                              st.lists(SCALAR, max_size=4) | VALUE, max_size=3))
        elif (section, key) == ("scheduler", "profiles"):
            table[key] = {draw(TEXT): draw(st.dictionaries(st.sampled_from(
                ["fire_probability", "burst_weights", "max_blank_run", "max_shot_run", "x"]), VALUE, max_size=4))}
        else:
            table[key] = draw(VALUE)
    if draw(st.integers(0, 9)) == 0:
        doc[draw(TEXT)] = draw(VALUE)
    return doc


@settings(max_examples=1500, deadline=None)
@given(documents())
def test_fuzz_parse_config_raises_nothing_but_a_config_error(doc):
    try:
        assert isinstance(parse_config(doc), Config)
    except ConfigError:
        pass


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_load_config_on_mutated_example_files_gives_a_config_or_one_clean_line(tmp_path, data):
    text = EXAMPLE
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 20))
        text = text[:at] + data.draw(TEXT | st.sampled_from(["[", "]" * 3, "=", '"', "\n[motor]\n", "1e400",
                                                             "[[" * 400, "²", "\x1b"])) + text[at + cut:]
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        load_config(path)
    except ConfigError as exc:
        assert one_clean_line(str(exc)), str(exc)


def test_the_example_still_loads_and_means_what_it_says():
    assert load_config(ROOT / "config.example.toml") == parse_config(tomllib.loads(EXAMPLE))
