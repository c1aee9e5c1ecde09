"""Each profile's guarantees over long runs (H-RANDOM), and random configs through hypothesis.

Hard guarantees (run limits, burst sizes) must hold in every press; statistical
ones (fire rate, burst shares) are checked with margins of many standard
deviations, on fixed seeds, so these tests do not flake.
"""

import math
import random
from functools import cache
from itertools import accumulate, groupby

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shooter.errors import ConfigError
from shooter.scheduler import (
    BURST_MAX,
    PROFILES,
    CustomProfile,
    Profile,
    Scheduler,
    UniformProfile,
    profile_from_config,
)

PRESSES = 100_000
SEEDS = (1, 2, 3, 2016, 9364)
WINDOW = 2_000


def run(profile, seed, n, restart_every=None):
    """n presses; returns the segments between restarts (one segment without restarts).

    With ``restart_every`` the lid is cycled at random points, on average every that many
    presses (drawn from a separate generator). Checks on the way that the scheduler's run
    counters match the presses of the current segment.
    """
    scheduler = Scheduler(profile, random.Random(seed))
    lid = random.Random(-seed - 1)
    segments, segment = [], []
    for _ in range(n):
        if restart_every and lid.random() < 1 / restart_every:
            assert (scheduler.blank_run, scheduler.shot_run) == trailing_runs(segment)
            scheduler.restart()
            segments.append(segment)
            segment = []
        segment.append(scheduler.next_press())
    segments.append(segment)
    return segments


def trailing_runs(presses):
    """(blank_run, shot_run) at the end of a segment."""
    if not presses:
        return (0, 0)
    length = len(list(next(groupby(reversed(presses), key=bool))[1]))
    return (0, length) if presses[-1] else (length, 0)


def runs(presses):
    """{True: [lengths of shot runs], False: [lengths of blank runs]}."""
    found = {True: [], False: []}
    for fired, group in groupby(presses, key=bool):
        found[fired].append(sum(1 for _ in group))
    return found


def longest_runs(segments):
    blank = shot = 0
    for segment in segments:
        found = runs(segment)
        blank = max([blank, *found[False]])
        shot = max([shot, *found[True]])
    return blank, shot


def fire_rate(presses):
    return sum(1 for n in presses if n) / len(presses)


def bursts(presses):
    return [n for n in presses if n]


@cache
def original(seed):
    (presses,) = run(PROFILES["original"], seed, PRESSES)
    return tuple(presses)


@cache
def original_all():
    return [n for seed in SEEDS for n in original(seed)]


# -- original (H-RANDOM) --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_original_never_gives_more_than_3_blanks_in_a_row(seed):
    assert max(runs(original(seed))[False]) == 3


@pytest.mark.parametrize("seed", SEEDS)
def test_original_never_gives_more_than_2_shots_in_a_row(seed):
    assert max(runs(original(seed))[True]) == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_original_fire_rate_stays_between_25_and_45_percent_in_every_window(seed):
    presses = original(seed)
    fired = [0, *accumulate(1 if n else 0 for n in presses)]
    rates = [(fired[i + WINDOW] - fired[i]) / WINDOW for i in range(len(presses) - WINDOW + 1)]
    assert min(rates) >= 0.25 and max(rates) <= 0.45, (min(rates), max(rates))


def test_original_fires_on_about_35_percent_of_presses():
    rate = fire_rate(original_all())
    assert rate == pytest.approx(0.35, abs=0.01)
    assert rate == pytest.approx(PROFILES["original"].expected_fire_rate, abs=0.004)


def test_original_bursts_are_1_to_12_cards_and_all_of_them_occur():
    assert set(bursts(original_all())) == set(range(1, 13))


def test_original_puts_at_least_70_percent_of_bursts_at_3_to_8_cards():
    found = bursts(original_all())
    assert sum(1 for n in found if 3 <= n <= 8) / len(found) >= 0.70


def test_original_has_rare_big_bursts_above_8():
    found = bursts(original_all())
    assert 0.02 <= sum(1 for n in found if n > 8) / len(found) <= 0.12


def test_original_burst_shares_match_its_weights():
    found = bursts(original_all())
    for size, share in PROFILES["original"].burst_distribution().items():
        assert found.count(size) / len(found) == pytest.approx(share, abs=0.005), size


def test_original_run_lengths_match_its_state_machine():
    # Documented: blank runs 1/2/3 long 30% / 31.5% / 38.5%, a second shot in 1 case of 8.
    found = runs(original_all())
    blank, shot = found[False], found[True]
    for length, share in {1: 0.30, 2: 0.315, 3: 0.385}.items():
        assert blank.count(length) / len(blank) == pytest.approx(share, abs=0.01)
    assert shot.count(2) / len(shot) == pytest.approx(0.125, abs=0.01)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_original_limits_hold_between_restarts_at_random_points(seed):
    segments = run(PROFILES["original"], seed, PRESSES, restart_every=40)
    assert len(segments) > 1_000
    assert longest_runs(segments) <= (3, 2)
    assert longest_runs(segments)[0] == 3


# -- uniform --------------------------------------------------------------------------------------

UNIFORMS = [UniformProfile(), UniformProfile(0.6, 3, 3), UniformProfile(0.1, 5, 12)]


@pytest.mark.parametrize("profile", UNIFORMS, ids=repr)
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_uniform_fires_at_its_probability_with_every_size_equally_likely(profile, seed):
    (presses,) = run(profile, seed, PRESSES)
    assert fire_rate(presses) == pytest.approx(profile.fire_probability, abs=0.01)
    found = bursts(presses)
    sizes = range(profile.min_burst, profile.max_burst + 1)
    assert set(found) == set(sizes)
    for size in sizes:
        assert found.count(size) / len(found) == pytest.approx(1 / len(sizes), abs=0.02)


# -- custom ---------------------------------------------------------------------------------------

CUSTOMS = [
    CustomProfile(0.5, {2: 1, 4: 3, 6: 1}, max_blank_run=2, max_shot_run=3, name="party"),
    CustomProfile(0.1, [0, 0, 1, 1, 1], max_blank_run=6, max_shot_run=1, name="stingy"),
    CustomProfile(0.9, {1: 1, 20: 1}, max_shot_run=4, name="flood"),
    CustomProfile(0.05, {8: 1}, max_blank_run=10, name="sleepy"),
]


@pytest.mark.parametrize("profile", CUSTOMS, ids=lambda p: p.name)
@pytest.mark.parametrize("seed", SEEDS[:2])
def test_custom_limits_and_sizes_hold_and_the_rate_is_as_expected(profile, seed):
    (presses,) = run(profile, seed, PRESSES)
    blank, shot = longest_runs([presses])
    assert blank <= (profile.max_blank_run or math.inf)
    assert shot <= (profile.max_shot_run or math.inf)
    found = bursts(presses)
    assert set(found) == set(profile.burst_weights)
    for size, share in profile.burst_distribution().items():
        assert found.count(size) / len(found) == pytest.approx(share, abs=0.02)
    assert fire_rate(presses) == pytest.approx(profile.expected_fire_rate, abs=0.01)


@pytest.mark.parametrize("profile", CUSTOMS, ids=lambda p: p.name)
def test_custom_limits_hold_between_restarts_at_random_points(profile):
    segments = run(profile, 7, PRESSES // 2, restart_every=25)
    blank, shot = longest_runs(segments)
    assert blank <= (profile.max_blank_run or math.inf)
    assert shot <= (profile.max_shot_run or math.inf)


# -- random valid configs (hypothesis) ------------------------------------------------------------

probabilities = st.one_of(st.sampled_from([0, 1, 0.5]), st.floats(0, 1))
weights = st.one_of(st.integers(0, 100), st.floats(0, 1e6))


@st.composite
def custom_tables(draw):
    """Valid [scheduler.profiles.<name>] tables, as a TOML parser would hand them over."""
    table = {"fire_probability": draw(probabilities)}
    max_blank = draw(st.none() | st.integers(0, 15))
    max_shot = draw(st.none() | st.integers(1, 15))
    if max_blank == 0:  # every press fires: only consistent without a shot limit
        table["fire_probability"], max_shot = 1, None
    if table["fire_probability"] == 0 and max_blank is None:  # else it would never fire
        max_blank = draw(st.integers(1, 15))
    if max_blank is not None:
        table["max_blank_run"] = max_blank
    if max_shot is not None:
        table["max_shot_run"] = max_shot
    sizes = draw(st.sets(st.integers(1, BURST_MAX), min_size=1, max_size=BURST_MAX))
    chosen = {size: draw(weights.filter(lambda w: w > 0)) for size in sizes}
    if draw(st.booleans()):
        table["burst_weights"] = {str(size): w for size, w in chosen.items()}
    else:
        table["burst_weights"] = [chosen.get(size, 0) for size in range(1, max(sizes) + 1)]
    return table


def check_limits(profile, segments):
    blank, shot = longest_runs(segments)
    assert blank <= (math.inf if profile.max_blank_run is None else profile.max_blank_run)
    assert shot <= (math.inf if profile.max_shot_run is None else profile.max_shot_run)
    assert set(bursts([n for s in segments for n in s])) <= set(profile.burst_weights)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=custom_tables(), seed=st.integers(0, 2**32))
def test_random_custom_profiles_keep_their_limits_and_rate(table, seed):
    profile = profile_from_config("random", table)
    (presses,) = run(profile, seed, 20_000)
    check_limits(profile, [presses])
    # Unforced presses are independent, so the spread is at most about a Bernoulli's
    # (sd <= 0.0036 over 20,000 presses): 0.03 is over 8 sd.
    assert fire_rate(presses) == pytest.approx(profile.expected_fire_rate, abs=0.03)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=custom_tables(), seed=st.integers(0, 2**32), every=st.integers(2, 100))
def test_random_custom_profiles_keep_their_limits_across_restarts(table, seed, every):
    profile = profile_from_config("random", table)
    check_limits(profile, run(profile, seed, 20_000, restart_every=every))


# -- anything at all in the config: a profile or a ConfigError, nothing else ----------------------

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-30, 30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=22)
    | st.dictionaries(st.text(max_size=3) | st.integers(-2, 25), inner, max_size=4),
    max_leaves=25,
)
keys = st.sampled_from(["fire_probability", "max_blank_run", "max_shot_run", "burst_weights"])


@st.composite
def mangled_tables(draw):
    """A valid table with a few keys set to junk or removed, or junk throughout."""
    if draw(st.booleans()):
        return draw(st.dictionaries(keys | st.text(max_size=6), junk, max_size=5))
    table = draw(custom_tables())
    for _ in range(draw(st.integers(1, 2))):
        key = draw(keys | st.text(max_size=6))
        if draw(st.booleans()):
            table[key] = draw(junk)
        else:
            table.pop(key, None)
    return table


@settings(max_examples=200, deadline=None)
@given(table=mangled_tables())
def test_any_config_table_gives_a_profile_or_a_config_error_naming_the_profile(table):
    try:
        profile = profile_from_config("fuzz", table)
    except ConfigError as error:
        assert str(error).startswith("scheduler.profiles.fuzz")
    else:
        assert isinstance(profile, Profile)
        (presses,) = run(profile, 1, 2_000)
        check_limits(profile, [presses])
