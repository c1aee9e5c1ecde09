"""Hard limits on the motor's and the servo's timing config; every error names its key (issue 7, item 2)."""

import pytest

from shooter.config import parse_config
from shooter.errors import ConfigError


@pytest.mark.parametrize("doc, key, words", [
    ({"motor": {"max_on_time": 1e300}}, "motor.max_on_time", "at most 10"),
    ({"motor": {"max_on_time": 11}}, "motor.max_on_time", "at most 10"),
    ({"motor": {"rest_time": 0}}, "motor.rest_time", "at least 0.05"),
    ({"motor": {"rest_time": "0.1"}}, "motor.rest_time", "a number"),
    ({"motor": {"thermal_budget": 2.0}}, "motor.thermal_budget", "at least 3.0"),
    ({"motor": {"thermal_budget": 90.0}}, "motor.thermal_budget", "at most 60.0"),
    ({"motor": {"thermal_window": 0.5}}, "motor.thermal_window", "at least 1.0"),
    ({"motor": {"retract_time": 3.0}}, "motor.retract_time", "shorter than motor.max_on_time"),
    ({"motor": {"max_on_time": 1.25}}, "motor.max_on_time", "motor.retract_time"),
    ({"servo": {"speed": 1e-300}}, "servo.speed", "at least 10"),
    ({"servo": {"speed": 1e9}}, "servo.speed", "at most 3000"),
    ({"servo": {"speed": True}}, "servo.speed", "a number"),
])
def test_timing_config_out_of_its_hard_limits_is_refused_naming_the_key(doc, key, words):
    with pytest.raises(ConfigError) as caught:
        parse_config(doc)
    message = str(caught.value)
    assert message.startswith(f"{key}: ") and words in message


def test_the_longest_burst_with_its_pull_back_must_fit_in_the_maximum_on_time():
    # 0.06 + 12 x 0.09 = 1.14 s of burst fits 1.25 s, but not with the 0.15 s pull-back that follows it
    with pytest.raises(ConfigError, match=r"motor\.max_on_time: must be longer than the longest burst"):
        parse_config({"motor": {"max_on_time": 1.25}})
    parse_config({"motor": {"max_on_time": 1.3}})


def test_the_motors_rest_and_thermal_budget_are_config_keys():
    motor = parse_config({"motor": {"rest_time": 0.5, "thermal_window": 120.0,
                                    "thermal_budget": 40.0}}).hardware.motor
    assert (motor.rest_time, motor.thermal_window, motor.thermal_budget) == (0.5, 120.0, 40.0)
