"""uno-shooter simulate's summary: what a builder reads at a glance about a profile (fire rate, burst sizes,
blank runs, cards per press, presses per round), as text bars or SVG, with progress on a terminal."""

import subprocess
import sys
from collections import Counter

from shooter.bots.simulate import GameResult
from shooter.bots.summary import summarise, svg, text
from shooter.scheduler import PROFILES


def game(planned, ejected=None, rounds=2):
    return GameResult(seed=1, winner=1, totals={}, rounds=rounds, lines=0, virtual_seconds=0.0,
                      planned=planned, ejected=ejected if ejected is not None else planned)


def test_the_summary_counts_bursts_blank_runs_and_rates_from_every_press():
    summary = summarise([game([0, 0, 3, 0, 5, 0, 0, 0], ejected=[0, 0, 3, 0, 4, 0, 0, 0]), game([2], rounds=1)],
                        PROFILES["original"])
    assert summary.bursts == Counter({3: 1, 5: 1, 2: 1})
    assert summary.blank_runs == Counter({2: 1, 1: 1, 3: 1})   # a run ends with its game
    assert summary.fire_rate == 3 / 9
    assert summary.cards_per_press == 9 / 9
    assert summary.presses_per_round == 9 / 3


def test_the_text_summary_draws_bars_in_proportion():
    out = text(summarise([game([4, 4, 0, 8])], PROFILES["original"]))
    assert "      4 | " + "#" * 40 + " 2 (67%)" in out
    assert "      8 | " + "#" * 20 + " 1 (33%)" in out
    assert "fire rate       75.0% of presses fire (the profile expects 35.0%)" in out


def test_the_svg_summary_has_a_bar_per_burst_size_and_the_figures():
    picture = svg(summarise([game([4, 4, 0, 8])], PROFILES["original"]))
    assert picture.startswith("<svg") and picture.count("<rect x=") == 3   # bursts 4 and 8, blank run 1
    assert "fire rate 75.0%" in picture


def run(*args):
    return subprocess.run([sys.executable, "-m", "shooter", "simulate", *args], capture_output=True, text=True,
                          timeout=120)


def test_simulate_summarises_a_custom_profile_from_the_config(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[scheduler.profiles.always3]\nfire_probability = 1.0\nburst_weights = { 3 = 1 }\n')
    picture = tmp_path / "summary.svg"
    out = run("--games", "2", "--players", "3", "--config", str(config), "--profile", "always3", "--svg",
              str(picture), "--progress")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("profile always3: ")
    assert "fire rate      100.0% of presses fire" in out.stdout
    bursts = out.stdout.split("burst sizes")[1].split("blank runs")[0]
    assert [line.split("|")[0].strip() for line in bursts.splitlines()[1:] if "|" in line] == ["3"]
    assert "blank runs (presses in a row that shot nothing):\n    (none)" in out.stdout
    assert "profile always3" in picture.read_text()
    assert "2/2 games" in out.stderr and "s left" in out.stderr


def test_an_unknown_profile_is_refused_naming_the_known_ones():
    out = run("--profile", "nope")
    assert out.returncode == 2 and "--profile nope: no such profile (built in: original, uniform" in out.stderr
