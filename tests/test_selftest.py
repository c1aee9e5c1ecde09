"""uno-shooter selftest: every part passes on a sound simulated shooter, and a broken wire in the simulator
fails the part it belongs to, with a message naming it. Every wait is on the virtual clock."""

import io
import subprocess
import sys

import pytest

from shooter.bringup.bench import Bench, TerminalPerson
from shooter.bringup.selftest import check_beeper, check_motor, run_selftest
from shooter.config import parse_config


def selftest(*args):
    return subprocess.run([sys.executable, "-m", "shooter", "selftest", "--sim", "--yes", *args],
                          capture_output=True, text=True, timeout=120)


def lines(out, prefix):
    return [line for line in out.splitlines() if line.startswith(prefix)]


def test_selftest_sim_yes_passes_every_part():
    out = selftest()
    assert out.returncode == 0, out.stdout + out.stderr
    assert [line.split(":")[0] for line in lines(out.stdout, "PASS")] == [
        "PASS  beeper", "PASS  servo", "PASS  lid", "PASS  button", "PASS  exit sensor", "PASS  motor"]
    assert out.stdout.splitlines()[-1] == "selftest: all 6 parts passed"


def test_a_disconnected_lid_fails_the_lid_and_keeps_the_motor_off():
    out = selftest("--sim-fault", "lid")
    assert out.returncode == 1
    assert lines(out.stdout, "FAIL  lid:")[0].startswith("FAIL  lid: never read closed within 30 s: the switch "
                                                         "on GPIO27 reads open")
    assert lines(out.stdout, "FAIL  motor:") == ["FAIL  motor: the lid reads open: the motor stays off (see lid)"]
    assert "selftest: FAILED: lid, motor (4 of 6 parts passed)" in out.stdout


def test_a_dead_exit_sensor_fails_the_exit_sensor_and_the_counted_card():
    out = selftest("--sim-fault", "exit_sensor")
    assert out.returncode == 1
    assert lines(out.stdout, "FAIL  exit sensor:")[0].startswith("FAIL  exit sensor: no card seen on GPIO22")
    assert "exit sensor is dead (see exit sensor;" in lines(out.stdout, "FAIL  motor:")[0]


@pytest.fixture
def bench():
    b = Bench(parse_config({}), sim=True, log=lambda m: None)
    yield b
    b.close()


def test_a_disconnected_button_fails_after_the_timeout_on_the_virtual_clock():
    with Bench(parse_config({}), sim=True, faults=("button",), log=lambda m: None) as bench:
        out = io.StringIO()
        results = run_selftest(bench, bench.person(out=out, read_line=input, yes=True), out, timeout=12.5)
        button = next(r for r in results if r.part == "button")
        assert not button.ok and "no press on GPIO17 within 12.5 s" in button.detail
        assert bench.clock.now() > 12.5


def test_the_motor_check_shoots_exactly_one_counted_card_and_never_with_the_lid_open(bench):
    before = bench.world.cards_out
    result = check_motor(bench, bench.person(out=io.StringIO(), read_line=input, yes=True), 30)
    assert result.ok, result.detail
    assert bench.world.cards_out == before + 1
    assert bench.world.unsafe_time() == 0.0
    assert not bench.world.motor_on


def test_the_motor_check_refuses_to_run_with_the_lid_open(bench):
    bench.world.open_lid()
    bench.wait(0.1)
    result = check_motor(bench, bench.person(out=io.StringIO(), read_line=input, yes=True), 30)
    assert not result.ok and "lid reads open" in result.detail
    assert bench.world.longest_motor_run == 0.0


def test_a_person_at_the_terminal_who_heard_nothing_fails_the_beeper(bench):
    answers = iter(["n\n"])
    out = io.StringIO()
    result = check_beeper(bench, TerminalPerson(out, lambda: next(answers), yes=False), 30)
    assert not result.ok and "GPIO5" in result.detail
    assert "Did you hear 8 patterns (13 beeps)? [Y/n]" in out.getvalue()


def test_yes_answers_the_questions_but_the_beeper_still_plays(bench):
    out = io.StringIO()
    assert check_beeper(bench, TerminalPerson(out, lambda: pytest.fail("asked"), yes=True), 30).ok
    assert len(bench.world.beeps) == 13  # the 8 patterns of shooter.beeps, as the simulated beeper heard them


def _gpio_here() -> bool:
    from hal.backends import NoPinFactoryError, choose_pin_factory
    try:
        choose_pin_factory("auto", environ={})[0].close()
    except NoPinFactoryError:
        return False
    return True


laptop_only = pytest.mark.skipif(_gpio_here(), reason="a GPIO pin factory loads here (a Pi): these need a laptop")


@laptop_only
@pytest.mark.parametrize("command", [["run", "--console", "stdio"], ["selftest", "--yes"], ["calibrate"]])
def test_without_gpio_and_without_sim_one_clear_message_instead_of_gpiozeros_fallback_warnings(command):
    import os
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    out = subprocess.run([sys.executable, "-m", "shooter", *command], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60, env=env)
    assert out.returncode == 1
    assert len(out.stderr.splitlines()) == 1, out.stderr
    assert "no GPIO pin factory works here (lgpio: " in out.stderr and "--sim runs the simulator" in out.stderr
    assert "Falling back" not in out.stderr


@laptop_only
def test_gpiozero_pin_factory_in_the_environment_is_the_one_tried():
    import os
    out = subprocess.run([sys.executable, "-m", "shooter", "selftest", "--yes"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=60, env={**os.environ, "GPIOZERO_PIN_FACTORY": "lgpio"})
    assert out.returncode == 1
    assert "(from GPIOZERO_PIN_FACTORY) (lgpio: " in out.stderr and "rpigpio" not in out.stderr.split(";")[0]


def test_end_of_input_at_the_terminal_is_no_answer_not_a_yes(bench):
    out = io.StringIO()
    assert not check_beeper(bench, TerminalPerson(out, lambda: "", yes=False), 30).ok
    assert "(no answer: end of input)" in out.getvalue()


def test_a_dead_exit_sensor_lets_only_a_few_cards_out_uncounted():
    with Bench(parse_config({}), sim=True, faults=("exit_sensor",), log=lambda m: None) as bench:
        result = check_motor(bench, bench.person(out=io.StringIO(), read_line=input, yes=True), 30)
        assert not result.ok and "uncounted" in result.detail
        assert 1 <= bench.world.cards_out <= 3


def test_ctrl_c_during_a_bring_up_tool_leaves_the_motor_off(monkeypatch, capsys):
    from shooter import cli
    from shooter.bringup import selftest as selftest_module
    benches = []

    def interrupted(bench, person, out, timeout):
        bench.hw.motor.forward(1.0)
        benches.append(bench)
        raise KeyboardInterrupt
    monkeypatch.setattr(selftest_module, "run_selftest", interrupted)
    assert cli.main(["selftest", "--sim", "--yes"]) == 130
    assert not benches[0].world.motor_on and benches[0].hw.closed
    assert "interrupted; the motor is off" in capsys.readouterr().err
