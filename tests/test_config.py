"""The config file: defaults, the example file, and clear errors that name the key."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from shooter.config import Config, load_config, parse_config
from shooter.errors import ConfigError

ROOT = Path(__file__).parent.parent


def test_an_empty_config_is_all_defaults():
    assert parse_config({}) == Config()


def test_the_example_config_is_valid_and_states_the_defaults():
    example = load_config(ROOT / "config.example.toml")
    # the example lists serial ports; everything else is the default
    assert example.hardware == Config().hardware
    assert example.launcher == Config().launcher
    assert example.console.serial == ("/dev/rfcomm0", "/dev/ttyGS0")


@pytest.mark.parametrize("doc, key, words", [
    ({"pins": {"button": 2}}, "pins.button", "fixed pull-up"),
    ({"pins": {"lid": 14}}, "pins.lid", "UART"),
    ({"pins": {"button": 40}}, "pins.button", "between 0 and 27"),
    ({"pins": {"button": "17"}}, "pins.button", "whole number"),
    ({"pins": {"button": 23}}, "pins.button", "already used by pins.motor_forward"),
    ({"pins": {"buton": 17}}, "pins.buton", "unknown key"),
    ({"motor": {"max_on_time": 0}}, "motor.max_on_time", "greater than 0"),
    ({"motor": {"duty": 1.5}}, "motor.duty", "between 0 and 1"),
    ({"motor": {"jam_timeout": 5.0}}, "motor.jam_timeout", "shorter than motor.max_on_time"),
    ({"motor": {"max_on_time": float("inf")}}, "motor.max_on_time", "finite"),
    ({"servo": {"min_angle": 10, "max_angle": 0}}, "servo.max_angle", "greater than"),
    ({"servo": {"seat_angles": {"3": [0, 10]}}}, "servo.seat_angles.3", "list of 3 angles"),
    ({"servo": {"seat_angles": {"3": [0, 10, 500]}}}, "servo.seat_angles.3[2]", "between"),
    ({"inputs": {"exit_active_low": "yes"}}, "inputs.exit_active_low", "true or false"),
    ({"beeper": {"kind": "loud"}}, "beeper.kind", "one of"),
    ({"scheduler": {"profile": "nope"}}, "scheduler.profile", "no profile 'nope'"),
    ({"scheduler": {"profiles": {"p": {"fire_probability": 2, "burst_weights": [1]}}}},
     "scheduler.profiles.p.fire_probability", ""),
    ({"rules": {"blank_as": "joker"}}, "rules", "blank_as"),
    ({"rules": {"colour": "red"}}, "rules.colour", "unknown key"),
    ({"console": {"tcp_port": 70000}}, "console.tcp_port", "between"),
    ({"console": {"serial": "/dev/rfcomm0"}}, "console.serial", "list of device paths"),
    ({"hardware": {"pin_factory": "pigpiod"}}, "hardware.pin_factory", "one of"),
    ({"hardware": {"servo_backend": "pigpio"}}, "hardware.servo_backend", "one of"),
    ({"hardware": {"pwm_chip": -1}}, "hardware.pwm_chip", "between"),
    ({"motors": {}}, "motors", "unknown key"),
    ({"pins": 5}, "pins", "must be a table"),
])
def test_a_bad_value_is_refused_with_a_message_naming_the_key(doc, key, words):
    with pytest.raises(ConfigError) as info:
        parse_config(doc)
    message = str(info.value)
    assert key in message
    assert words in message


def test_a_file_that_is_not_toml_names_the_file_and_the_problem(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[pins\n")
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML"):
        load_config(path)


def test_a_missing_file_given_by_name_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nope.toml")


def test_seat_angles_are_used_when_given():
    config = parse_config({"servo": {"seat_angles": {"3": [-45, 0, 45]}}})
    assert config.seat_angles == {3: (-45.0, 0.0, 45.0)}


VALUES = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True)
                      | st.text(max_size=8), lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
KEYS = st.sampled_from(["pins", "motor", "servo", "inputs", "beeper", "scheduler", "rules", "table", "console",
                        "state", "hardware", "sim", "service", "other"])
SUBKEYS = st.sampled_from(["button", "lid", "servo", "max_on_time", "duty", "speed", "kind", "profile", "profiles",
                           "blank_as", "tcp_port", "serial", "dir", "cards", "watchdog", "x", "seat_angles",
                           "min_angle", "exit_sensor", "default_seats"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, st.dictionaries(SUBKEYS, VALUES, max_size=4) | VALUES, max_size=4))
def test_fuzz_any_document_gives_a_config_or_a_config_error(doc):
    try:
        parse_config(doc)
    except ConfigError as exc:
        assert str(exc)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_any_file_gives_a_config_or_a_config_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("cfg") / "config.toml"
    path.write_bytes(data)
    try:
        load_config(path)
    except ConfigError as exc:
        assert str(path) in str(exc)


def test_the_longest_burst_must_fit_in_the_maximum_on_time():
    with pytest.raises(ConfigError, match=r"motor\.max_on_time: must be longer than the longest burst"):
        parse_config({"motor": {"max_on_time": 1.0, "seconds_per_card": 0.1}})
    parse_config({"motor": {"max_on_time": 1.5, "seconds_per_card": 0.1}})   # 0.06 + 12 x 0.1 fits
