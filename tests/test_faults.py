"""The fault suite (issue 7): ``python -m pytest -m faults`` prints, for each fault kind, how many
were tried, how many the controller survived, and how much data was lost. Not part of the fast run.
"""


import pytest

from tests import fault_runners as runners

pytestmark = pytest.mark.faults

RESULTS: list = []   # read by tests/conftest.py's terminal summary


def record(result):
    RESULTS.append(result)
    print(result.row())
    return result


def test_10000_lid_openings_at_random_instants_during_back_to_back_bursts():
    r = record(runners.lid_openings(10_000))
    assert r.survived == r.tried and r.lost == 0
    assert r.figures["motor-on-with-lid-open s"] == 0.0
    assert r.figures["longest run s"] <= r.figures["max_on_time s"]


def test_1000_jams():
    r = record(runners.jams(1_000))
    assert r.survived == r.tried and r.lost == 0 and r.figures["jam events"] == 1_000


def test_10000_lid_openings_and_1000_jams_through_the_whole_controller():
    from tests import faults_hw
    lid, jam = faults_hw.lid_openings(10_000, seed=2), faults_hw.jams(1_000, seed=2)
    # data lost: lid cycles the shooter did not come back from, jams it did not see
    record(runners.FaultResult("lid + jams, whole controller", lid.tried + jam.tried, lid.survived + jam.detected,
                               (lid.tried - lid.survived) + (jam.tried - jam.detected), {
                                   "lid while running": lid.while_running,
                                   "motor-on-with-lid-open s": lid.unsafe_seconds,
                                   "longest run s": round(max(lid.longest_run, jam.longest_run), 3),
                                   "max_on_time s": lid.max_on_time, "shots": lid.shots}))
    assert lid.survived == lid.tried and jam.detected == jam.tried
    assert lid.unsafe_seconds == 0.0 and max(lid.longest_run, jam.longest_run) <= lid.max_on_time


def test_100000_fuzzed_lines_change_nothing_when_rejected_and_get_one_reply_each():
    r = record(runners.console_lines_in_process(100_000))
    assert r.survived == r.tried and r.figures["crashes"] == 0
    assert r.figures["state changes from rejected lines"] == 0 and r.figures["not exactly one reply"] == 0


def test_50000_fuzzed_lines_over_stdio_of_the_real_command():
    r = record(runners.console_lines_stdio_process(50_000))
    assert r.survived == r.tried and r.figures["replies"] == r.figures["expected"]


def test_50000_fuzzed_lines_over_tcp():
    r = record(runners.console_lines_tcp(50_000))
    assert r.survived == r.tried


def test_200_sigkills_resume_from_the_last_answered_command(tmp_path):
    from tests.test_persistence import GAME, _kill_runs
    kills, ahead, unanswered, resumed, _ = _kill_runs(200, tmp_path, seed=2)   # asserts no answered command is lost
    record(runners.FaultResult("SIGKILL at random points", 200, kills, 0,
                               {"killed before the reply": unanswered, "saved but unanswered": ahead,
                                "restarts that resumed a saved game": len(resumed)}))
    # kills landed before, during and after lines all through the script, not at a few points
    assert unanswered > 0 and len(resumed) >= len(GAME) // 2, (unanswered, sorted(resumed))


def test_50_serial_link_drops_and_stalls_over_a_pty():
    r = record(runners.serial_drops_and_stalls(50))
    assert r.survived == r.tried


def test_1000_tcp_connects_disconnects_half_closes_and_http_requests():
    r = record(runners.tcp_connections(1_000))
    assert r.survived == r.tried and r.figures["lid still closed"] and r.figures["tcp threads left"] == 0
