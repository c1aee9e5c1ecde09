"""An id a person can tap is never given twice, across restarts too (issue 31, item 2; shooter.tap_ids): a phone
whose page still shows read 1 of the last run taps ``seen confirm id=1`` and must not confirm whatever read 1 is
now; a tap for an id that is gone is refused with ``gone`` and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shooter.access import Caller, Link
from shooter.camera.reads import Read
from shooter.errors import StateFileError
from shooter.persist import Store
from shooter.tap_ids import IDS_FILE, TapIds, ids_from_dict, ids_to_dict
from shooter.web.pairing import TOKENS_FILE, Pairing

from .pile_rig import PileRig


def ask_rig(state_dir: Path) -> PileRig:
    """A controller on ``state_dir`` (as a restart finds it), the camera asking for every read, the web console's
    pairing open with the app's ids (as App.start_web opens it)."""
    rig = PileRig("ask", state_dir=state_dir)
    rig.controller.web.open(Pairing(rig.app.clock, Store(state_dir, name=TOKENS_FILE), ids=rig.app.ids))
    return rig


def on_disk(state_dir: Path) -> dict[str, int]:
    return json.loads((state_dir / IDS_FILE).read_text())["next"]


def send_as(rig: PileRig, line: str, caller: Caller) -> dict:
    replies: list[dict] = []
    rig.app.loop.post(lambda: rig.controller.handle_line(line, replies.append, caller))
    rig.app.loop.run_until_quiet()
    return replies[0]


def test_a_read_of_the_run_before_a_restart_is_gone_and_its_tap_confirms_nothing(tmp_path):
    first = ask_rig(tmp_path)
    try:
        first.send("game new players=3 dealer=3")
        first.send("round start first=5")
        [seen] = [e for e in first.see(Read("7", "red")) if e.get("event") == "seen"]
        assert seen["id"] == 1                                  # the phone's page shows read 1: a red 7
    finally:
        first.close()                                           # the plug is pulled: the read is not saved
    again = ask_rig(tmp_path)
    try:
        [seen] = [e for e in again.see(Read("skip", "blue")) if e.get("event") == "seen"]
        assert seen["id"] == 2                                  # never 1 again
        before = again.status()
        reply = again.send("seen confirm id=1")[0]              # the stale page's tap
        assert (reply["ok"], reply["error"]) == (False, "gone")
        assert reply["message"] == "read 1 is gone: it was reported, or shown before a restart (waiting: 2)"
        assert again.status() == before                         # nothing confirmed, nothing played
        assert [w["id"] for w in before["camera"]["waiting"]] == [2] and before["game"]["current"] == 1
        for line in ("seen reject id=1", "seen colour=red id=1"):
            assert again.send(line)[0]["error"] == "gone"
        assert again.status() == before
        assert again.send("seen confirm id=3")[0]["error"] == "bad-argument"   # never shown: no such read
    finally:
        again.close()


def test_a_pairing_request_of_the_run_before_a_restart_is_gone_and_approving_it_pairs_nobody(tmp_path):
    phone = Caller(Link.WEB, address="10.0.0.2", device="iPhone")
    first = ask_rig(tmp_path)
    try:
        assert send_as(first, "pair name=Ann", phone)["request"] == 1   # a paired phone's page shows request 1
    finally:
        first.close()
    again = ask_rig(tmp_path)
    try:
        other = Caller(Link.WEB, address="10.0.0.9", device="Android phone")
        assert send_as(again, "pair name=Eve", other)["request"] == 2   # never 1 again
        before = again.status()
        reply = again.send("pair approve request=1")[0]
        assert (reply["ok"], reply["error"]) == (False, "gone")
        assert reply["message"].startswith("request 1 is gone: it was granted, refused, replaced or timed out")
        assert again.send("pair refuse request=1")[0]["error"] == "gone"
        assert again.status() == before and before["pairing"]["paired"] == []
        assert [r["request"] for r in before["pairing"]["requests"]] == [2]   # Eve still waits, unpaired
        assert other.token_id is None
        assert again.send("pair approve request=7")[0]["error"] == "bad-argument"   # never asked
    finally:
        again.close()


def test_an_unpaired_browser_is_gone(tmp_path):
    rig = ask_rig(tmp_path)
    try:
        phone = Caller(Link.WEB, address="10.0.0.2", device="iPhone")
        request = send_as(rig, "pair", phone)["request"]
        token = rig.send(f"pair approve request={request}")[0]["id"]
        assert rig.send(f"unpair id={token}")[0]["ok"]
        assert rig.send(f"unpair id={token}")[0]["error"] == "gone"
        assert rig.send(f"unpair id={token + 1}")[0]["error"] == "bad-argument"
    finally:
        rig.close()


def test_each_id_is_on_disk_before_the_reply_or_the_event_that_shows_it(tmp_path):
    rig = ask_rig(tmp_path)
    try:
        assert not (tmp_path / IDS_FILE).exists()               # a fresh directory: ids start at 1
        rig.send("game new players=3 dealer=3")
        rig.send("round start first=5")
        shown: list[tuple[int, dict[str, int]]] = []
        rig.controller.add_sink(lambda o: shown.append((o["id"], on_disk(tmp_path))) if o.get("event") == "seen"
                                else None)
        rig.see(Read("7", "red"))
        assert shown == [(1, {"read": 2, "request": 1})]

        def reply(o: dict) -> None:
            shown.append((o["request"], on_disk(tmp_path)))
        rig.app.loop.post(lambda: rig.controller.handle_line("pair", reply, Caller(Link.WEB, address="10.0.0.5")))
        rig.app.loop.run_until_quiet()
        assert shown[-1] == (1, {"read": 2, "request": 2})
    finally:
        rig.close()


@pytest.mark.parametrize("content", [
    b"{", b"[]",
    json.dumps({"format": "uno-shooter/tap-ids", "version": 2, "next": {"read": 1, "request": 1}}).encode(),
    json.dumps({"format": "uno-shooter/tap-ids", "version": 1, "next": {"read": 0, "request": 1}}).encode(),
    json.dumps({"format": "uno-shooter/tap-ids", "version": 1, "next": {"read": True, "request": 1}}).encode(),
    json.dumps({"format": "uno-shooter/tap-ids", "version": 1, "next": {"read": 3}}).encode(),
    json.dumps({"format": "uno-shooter/tap-ids", "version": 1, "next": {"read": 3, "request": 2 ** 60}}).encode(),
])
def test_a_bad_file_is_set_aside_in_one_line_and_ids_start_past_any_given(tmp_path, content):
    (tmp_path / IDS_FILE).write_bytes(content)
    said: list[str] = []
    ids = TapIds.restore(tmp_path, writable=True, log=said.append, wall=lambda: 1_765_000_000.25)
    [line] = said
    assert IDS_FILE in line and "kept it as" in line and line.endswith("the ids a person taps start at 1765000000250")
    assert len(list(tmp_path.glob(f"{IDS_FILE}.bad-*"))) == 1
    assert ids.give("read") == 1_765_000_000_250 and ids.give("request") == 1_765_000_000_250
    assert on_disk(tmp_path) == {"read": 1_765_000_000_251, "request": 1_765_000_000_251}


def test_no_file_beside_an_older_controllers_pairings_starts_past_its_ids_else_at_1(tmp_path):
    older, fresh = tmp_path / "older", tmp_path / "fresh"
    older.mkdir()
    fresh.mkdir()
    (older / "web-tokens.json").write_text('{"tokens": [], "next_id": 4}')   # phones paired by an older one
    (fresh / "game.json").write_text("{}")                                   # a game, no phone ever paired
    said: list[str] = []
    assert TapIds.restore(older, writable=True, log=said.append, wall=lambda: 2_000.0).give("read") == 2_000_000
    assert len(said) == 1 and "older controller" in said[0]
    assert TapIds.restore(fresh, writable=True, log=said.append, wall=lambda: 2_000.0).give("read") == 1
    assert len(said) == 1 and on_disk(fresh) == {"read": 2, "request": 1}
    again = TapIds.restore(fresh, writable=True, log=said.append, wall=lambda: 9_000.0)   # a restart: the file's
    assert again.give("read") == 2 and again.given("read", 1) and not again.given("read", 3)


def test_read_only_ids_are_read_and_never_written(tmp_path):
    Store(tmp_path, IDS_FILE).save(ids_to_dict({"read": 5, "request": 2}))
    ids = TapIds.restore(tmp_path, writable=False, log=print)
    assert ids.give("read") == 5 and on_disk(tmp_path) == {"read": 5, "request": 2}


def test_the_format_is_checked_field_by_field():
    good = ids_to_dict({"read": 4, "request": 9})
    assert good == {"format": "uno-shooter/tap-ids", "version": 1, "next": {"read": 4, "request": 9}}
    assert ids_from_dict(good) == {"read": 4, "request": 9}
    for bad, words in (({**good, "version": 3}, "version 3"), ({**good, "extra": 1}, "'extra' is unknown"),
                       ({**good, "next": {"read": 4}}, "next must be"),
                       ({**good, "next": {"read": "4", "request": 1}}, "next.read must be")):
        with pytest.raises(StateFileError, match=words):
            ids_from_dict(bad)
