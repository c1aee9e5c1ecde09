"""The table benchmark (benchmarks/bench_table.py) runs the presses it says it times (tiny counts; no
timing is asserted here)."""

from benchmarks import bench_table


def test_the_table_benchmark_reports_each_figure():
    result = bench_table.measure(presses=8, rounds=1)
    assert set(result) == {"extreme_press", "extreme_press_after_play", "classic_press", "classic_count_shot",
                           "fsm_trigger", "fsm_trigger_to_state"}
    assert all(value >= 0 for value in result.values())


def test_the_extreme_benchmark_game_is_a_round_on_where_each_press_is_a_draw():
    table = bench_table.extreme_table()
    for seat in (2, 3, 4, 1, 2):
        assert table.press_owner() == (seat, "draw")
        table.press()


def test_the_classic_benchmark_game_has_the_current_seat_drawing_one_card():
    table = bench_table.classic_table()
    assert table.phase == "play" and table.game.queue == []
    table.press()
    assert table.due() == (2, "draw", 1)


def test_the_trigger_benchmark_pulls_each_trigger_it_counts(monkeypatch):
    pulled = []
    monkeypatch.setattr(bench_table._Model, "act", lambda self: pulled.append("after"))
    monkeypatch.setattr(bench_table._Model, "entered", lambda self: pulled.append("enter"))
    bench_table.time_triggers(3)
    assert pulled == ["after"] * 3 + ["enter", "after"] * 3
