"""The benchmark suite runs: every figure is produced (tiny counts; no timing is asserted here)."""

import json
import shutil

import pytest

from benchmarks import press, processes, run


def test_the_benchmark_suite_runs_and_reports_every_figure_with_its_goal():
    result = run.run_suite(tiny=True)
    json.loads(json.dumps(result))  # one JSON object
    for key in ("press_path_ratio", "startup_ratio", "rss_ratio", "idle_wakeups_per_second",
                "virtual_presses_per_second", "bot_game_ms", "rss_after_100k_lines_mb", "gc_max_pause_ms",
                "game_ratio", "save_depth_ratio"):
        assert key in result, key
    assert set(result["press_path_ratio"]) == {"no_game", "firing", "in_game", "full_cycle"}
    assert set(result["met"]) == set(result["goals"])
    assert "press_path_ratio.in_game" in run.table(result)
    assert set(result["details"]["press_parts"]) == {"whole_us", "edge_and_debounce_us", "beep_us", "events_us"}
    assert set(result["details"]["press_path_without_physics"]) == {"no_game", "in_game"}
    assert set(result["details"]["press_path_paced"]) == {"no_game", "in_game"}
    assert result["details"]["press_path_instructions"] == {"skipped": "tiny run"}
    assert "not counted: tiny run" in run.table(result)
    # not counted here: neither met nor missed
    assert result["press_path_instructions_ratio"] == {"no_game": None, "in_game": None}
    assert result["met"]["press_path_instructions_ratio.in_game"] is None
    assert {"startup_ratio", "bot_game_ms", "press_on_pi_zero_2_ms.in_game"} <= set(result["goals"])
    # the camera's recogniser: a one-card bench when the vision extra is installed, its figures no goal's
    assert set(result["vision"]) == {"correct_share", "wrong_share", "ms_per_read_frame"}
    assert result["met"]["vision.correct_share"] is None and "vision.wrong_share" in run.table(result)


def test_a_part_taken_out_of_the_measured_press_is_really_out_and_the_press_still_served():
    whole, quiet = press.StackPress(None, "motor"), press.StackPress(None, "motor", without="beep")
    try:
        for _ in range(6):
            whole.press()
            quiet.press()
        assert whole.served == quiet.served == 6
        assert len(whole.app.hw.beeper.played) > 0 and len(quiet.app.hw.beeper.played) == 0
    finally:
        whole.close()
        quiet.close()


def test_with_the_rules_taken_out_a_press_only_goes_through_the_edge_and_the_debounce():
    bare = press.StackPress(None, "motor", without="rules")
    try:
        for _ in range(6):
            bare.press()
        assert bare.served == 6 and bare.motor_on is False and len(bare.app.hw.beeper.played) == 0
    finally:
        bare.close()


def test_without_physics_no_world_sees_the_motor_on_either_side():
    ours, bare = press.StackPress(None, "motor", physics=False), press.BarePress(physics=False)
    try:
        fired = 0
        for _ in range(12):
            ours.press()
            fired += ours.motor_on
        assert fired > 0 and ours.served == 12  # bursts are timed (no exit sensor), so every press is served
        assert ours.app.world.launcher.speed == 0 and ours.app.world.longest_motor_run == 0
        assert bare.world is None
    finally:
        ours.close()
        bare.close()


def test_at_a_persons_pace_a_second_of_virtual_time_passes_between_presses():
    paced, hurried = press.StackPress(None, "motor", pause=press.PERSONS_PAUSE), press.StackPress(None, "motor")
    try:
        for _ in range(3):
            paced.press()
            hurried.press()
        assert paced.app.clock.now() >= 3 * press.PERSONS_PAUSE > hurried.app.clock.now()
    finally:
        paced.close()
        hurried.close()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_callgrind_counts_the_measured_presses_and_nothing_around_them():
    two, six = (press._counted_per_press("bare", n) * n for n in (2, 6))
    # the child's imports and set-up (hundreds of millions of instructions) are not counted, nor each press's
    # release: six measured presses count three times what two do
    assert 2.7 < six / two < 3.3, (two, six)
    assert 10_000 < two / 2 < 1_000_000  # a press is tens of thousands of instructions, not a whole program


def met(key: str, value: float) -> bool:
    """The benchmark's own goal for ``key`` (benchmarks/run.py GOALS: the one place a goal is written)."""
    check = run.GOALS[key][1]
    assert check is not None, key
    return check(value)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_the_press_path_in_instructions_is_within_its_goals_and_well_under_a_millisecond_on_a_pi_zero_2():
    counted = press.press_instructions(40)   # counts, not times: the same on a busy machine
    for name in press.INSTRUCTION_PATHS:
        assert met(f"press_path_instructions_ratio.{name}", counted[name]["ratio"]), counted
        assert met(f"press_on_pi_zero_2_ms.{name}", counted[name]["pi_zero_2_ms"]), counted


# The start-up goal (benchmarks/run.py GOALS, 1.3x the bare imports) is met narrowly since the cut of 2026-12-02
# (docs/design.md, "Start-up and bot games"): 1.21-1.35x measured here beside other work, 1.40-1.44x on the commit
# before. On a busy 2-core machine a run may miss the goal, so this test holds a ceiling with some room: a start-up
# that grows past it (an import of everything at start, the camera's modules without a camera, the collector let
# loose over start-up again) fails.
STARTUP_CEILING = 1.4


@pytest.mark.slow
def test_start_up_to_the_first_reply_stays_under_its_ceiling_of_the_bare_imports():
    # a ratio of the best of 8 starts of each side, the sides alternating; a busy neighbour only ever slows a
    # start, so a second and third round may find the quiet moment the first missed (the ceiling is not moved)
    tries = []
    for _ in range(3):
        measured = processes.startup(8)
        tries.append(measured)
        if measured["ratio"] <= STARTUP_CEILING:
            break
    assert min(t["ratio"] for t in tries) <= STARTUP_CEILING, tries
    assert run.GOALS["startup_ratio"][0] == "<= 1.3x"   # the goal itself stays where issue 16 put it


def test_the_pi_zero_2_figure_is_the_count_at_the_pace_written_in_the_docs():
    # 150,000 x86-64 instructions: 225,000 on ARM at half an instruction per cycle of 1 GHz = 0.45 ms
    assert press.on_pi_zero_2_ms(150_000) == pytest.approx(0.45)
