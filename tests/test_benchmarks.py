"""The benchmark suite runs: every figure is produced (tiny counts; no timing is asserted here)."""

import json

from benchmarks import run


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
