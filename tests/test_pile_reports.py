"""The table follows the discard pile (shooter.camera.pile_reports): reads given as data become the camera's plays,
through the same protocol command a console sends, so replies, events, undo and refusals are a typed play's."""

from __future__ import annotations

import json

import pytest

from shooter.access import OWN_LINKS, Link
from shooter.camera.reads import Read

from .pile_rig import PileRig


@pytest.fixture
def rigs():
    made: list[PileRig] = []

    def make(*args, **kwargs) -> PileRig:
        made.append(PileRig(*args, **kwargs))
        return made[-1]
    yield make
    for rig in made:
        rig.close()


def extreme(rig: PileRig, players: int = 3) -> None:
    rig.send(f"game new players={players} dealer=3")
    rig.send("round start first=7")


def test_a_confident_read_is_the_typed_play_with_the_same_reply_events_and_undo(rigs):
    typed, seen = rigs(), rigs()
    extreme(typed), extreme(seen)
    reply, *caused = typed.send("play hit2 seat=1")
    camera, *also = seen.see(Read("hit2", "red", confidence=0.97))
    assert camera == {"event": "camera", "t": reply_time(caused), "id": 1, "line": "play hit2 seat=1",
                      "reply": reply}
    assert also == caused and caused[0]["event"] == "owed"
    assert seen.status()["game"] == typed.status()["game"]
    assert seen.send("undo") == typed.send("undo")        # the rules' own undo takes it back
    assert seen.status()["game"] == typed.status()["game"] and seen.status()["game"]["current"] == 1


def reply_time(events: list[dict]) -> float:
    return events[0]["t"]


@pytest.mark.parametrize("setup, card, typed_line", [
    (["game new players=3 dealer=3 edition=2010", "round start first=7"], "hit4", "play hit4 seat=1"),
    (["game new players=3 dealer=3", "round start first=7", "play hit2 seat=1"], "5", "play 5 seat=3"),
    ([], "7", "play 7"),
])
def test_a_read_the_rules_refuse_is_announced_to_every_console_like_a_typed_refusal(rigs, setup, card, typed_line):
    typed, seen = rigs(), rigs()
    for line in setup:
        typed.send(line), seen.send(line)
    before = seen.status()
    refusal = typed.send(typed_line)
    events = seen.see(Read(card, "red"))
    assert [e["event"] for e in events] == ["camera"]
    assert events[0]["line"] == typed_line and events[0]["reply"] == refusal[0] and not refusal[0]["ok"]
    after = seen.status()
    assert after["game"] == before["game"] and after["camera"]["counts"]["refused"] == 1
    assert after["camera"]["waiting"] == []


def test_an_unsure_read_asks_the_phones_and_a_tap_confirms_it(rigs):
    rig = rigs()
    extreme(rig)
    read = Read("8", "blue", confidence=0.6, alternatives=(("3", "blue", 0.3), ("6", "blue", 0.05), ("9", None, .01)))
    [seen] = rig.see(read)
    assert seen == {"event": "seen", "t": seen["t"], "id": 1, "seat": 1, "card": "8", "colour": "blue",
                    "side": None, "confidence": 0.6, "asks": ["card"],
                    "alternatives": [{"card": "3", "colour": "blue", "confidence": 0.3},
                                     {"card": "6", "colour": "blue", "confidence": 0.05}]}
    assert rig.status()["game"]["current"] == 1 and rig.status()["camera"]["waiting"][0]["id"] == 1
    reply, camera, *rest = rig.send("seen confirm id=1")
    assert reply == {"reply": "seen", "ok": True, "id": 1}
    assert camera["line"] == "play 8 seat=1" and camera["reply"] == {"reply": "play", "ok": True}
    assert [e["event"] for e in rest] == ["turn", "seen-closed", "aim"] and rest[1]["outcome"] == "played"
    assert rig.status()["game"]["current"] == 2


def test_a_read_its_reader_calls_unsure_is_asked_however_confident(rigs):
    rig = rigs()
    extreme(rig)
    [seen] = rig.see(Read("8", "blue", confidence=0.95, unsure=True))   # above the table's 0.9
    assert seen["event"] == "seen" and seen["asks"] == ["card"]
    assert rig.status()["game"]["current"] == 1


def test_a_tap_picks_an_alternative_or_rejects_the_read(rigs):
    rig = rigs()
    extreme(rig)
    rig.see(Read("8", "blue", confidence=0.5, alternatives=(("skip", "blue", 0.4),)))
    assert rig.send("seen confirm id=1 pick=2")[0]["error"] == "bad-argument"   # it has one alternative
    reply, camera, *_ = rig.send("seen confirm id=1 pick=1")
    assert reply["ok"] and camera["line"] == "play skip seat=1"
    assert rig.status()["game"]["current"] == 3                       # the skip skipped seat 2
    rig.see(Read("4", "green", confidence=0.2))
    before = rig.status()["game"]
    reply, closed = rig.send("seen reject id=2")
    assert reply == {"reply": "seen", "ok": True, "id": 2} and closed["outcome"] == "rejected"
    assert rig.status()["game"] == before and rig.status()["camera"]["waiting"] == []
    gone = rig.send("seen confirm id=2")[0]   # shown once, rejected since: gone (not a read never shown)
    assert (gone["error"], gone["message"]) == (
        "gone", "read 2 is gone: it was reported, or shown before a restart (waiting: none)")
    assert rig.send("seen confirm id=3")[0]["message"] == "no read 3 waits (waiting: none)"


def test_ask_mode_asks_for_every_read_however_sure(rigs):
    rig = rigs("ask")
    extreme(rig)
    [seen] = rig.see(Read("5", "red", confidence=1.0))
    assert seen["event"] == "seen" and seen["asks"] == ["card"]
    assert rig.status()["game"]["current"] == 1
    assert rig.send("seen confirm id=1")[1]["line"] == "play 5 seat=1"


def test_off_mode_counts_reads_and_plays_nothing(rigs):
    rig = rigs("off")
    extreme(rig)
    assert rig.see(Read("5", "red")) == []
    status = rig.status()
    assert "camera" not in status and status["game"]["current"] == 1 and rig.controller.pile.counts["reads"] == 1


def test_a_wild_waits_for_the_colour_its_player_names_by_a_tap(rigs):
    rig = rigs()
    extreme(rig)
    [seen] = rig.see(Read("wild", None, confidence=0.99))
    assert seen["asks"] == ["colour"] and rig.status()["game"]["current"] == 1
    assert rig.send("seen colour=red id=7")[0]["error"] == "bad-argument"
    reply, camera, *_rest = rig.send("seen colour=red")
    assert reply == {"reply": "seen", "ok": True, "id": 1}
    assert camera["line"] == "play wild seat=1" and camera["colour"] == "red" and camera["by"] == "tap"
    assert rig.status()["game"]["current"] == 2
    assert rig.send("seen colour=blue")[0]["message"] == "no wild waits for its colour"


def test_a_wild_takes_the_colour_of_the_next_card_read(rigs):
    rig = rigs()
    extreme(rig)
    rig.see(Read("wild", None))
    events = rig.see(Read("5", "green"))
    cameras = [e for e in events if e.get("event") == "camera"]
    assert [c["line"] for c in cameras] == ["play wild seat=1", "play 5 seat=2"]
    assert cameras[0]["colour"] == "green" and cameras[0]["by"] == "card"
    assert rig.status()["game"]["current"] == 3


def test_an_aimed_card_asks_for_its_target_like_the_page_does(rigs):
    rig = rigs()
    extreme(rig)
    [seen] = rig.see(Read("extreme-hit", None))
    assert seen["asks"] == ["target", "colour"]
    reply = rig.send("seen confirm id=1 target=3")[0]
    assert reply == {"reply": "seen", "ok": True, "id": 1, "asks": ["colour"]}   # the colour is still asked
    reply, camera, *_rest = rig.send("seen colour=yellow")
    assert camera["line"] == "play extreme-hit seat=1 target=3"
    assert rig.status()["game"]["owed"] == {"seat": 3, "presses": 2, "reason": "extreme-hit", "by": 1}


def test_a_confirmed_play_the_rules_refuse_is_the_taps_refusal_and_the_read_still_waits(rigs):
    rig = rigs()
    extreme(rig)
    rig.see(Read("extreme-hit", None))
    reply = rig.send("seen confirm id=1 target=1 colour=red")[0]   # at its own player: the rules say no
    assert reply["ok"] is False and reply["error"] == "bad-argument"
    assert rig.status()["camera"]["waiting"][0]["id"] == 1 and rig.status()["game"]["current"] == 1
    # a refused tap changes nothing: the colour it named is not kept, the next tap is asked for it again
    assert rig.send("seen confirm id=1 target=2")[0]["asks"] == ["colour"]
    assert rig.send("seen confirm id=1 colour=red")[1]["line"] == "play extreme-hit seat=1 target=2"


def test_a_card_read_while_one_waits_waits_behind_it_and_is_played_after_it(rigs):
    rig = rigs()
    extreme(rig)
    rig.see(Read("8", "blue", confidence=0.5))
    assert rig.see(Read("2", "blue", confidence=1.0)) == []   # covered: it is the next seat's only later
    assert rig.send("seen confirm id=2")[0]["message"] == "read 2 waits behind read 1: that card lies under it"
    events = rig.send("seen confirm id=1")
    assert [e["line"] for e in events if e.get("event") == "camera"] == ["play 8 seat=1", "play 2 seat=2"]
    assert rig.status()["game"]["current"] == 3


def test_a_typed_play_supersedes_the_read_waiting_first(rigs):
    rig = rigs()
    extreme(rig)
    rig.see(Read("8", "blue", confidence=0.5))
    reply, *events = rig.send("play 3 seat=1")
    assert reply["ok"] and {"event": "seen-closed", "t": events[0]["t"], "id": 1, "outcome": "typed"} in events
    assert rig.status()["camera"]["waiting"] == [] and rig.status()["game"]["current"] == 2


def test_a_new_game_closes_the_reads_still_waiting_and_its_own_cards_are_asked(rigs):
    # a read left waiting (nobody tapped) once stood before every read of the next game: none of them was asked
    rig = rigs("ask")
    extreme(rig)
    rig.see(Read("8", "blue", confidence=0.5))
    rig.see(Read("2", "blue", confidence=1.0))   # behind it, never asked
    reply, *events = rig.send("game new players=3 dealer=3 force")
    assert reply["ok"] and [e["id"] for e in events if e["event"] == "seen-closed"] == [1]
    assert {"event": "seen-closed", "t": events[-1]["t"], "id": 1, "outcome": "new-game"} in events
    assert rig.status()["camera"]["waiting"] == []
    rig.send("round start first=7")
    [seen] = rig.see(Read("5", "red", confidence=1.0))
    assert (seen["event"], seen["id"], seen["seat"], seen["card"]) == ("seen", 3, 1, "5")
    assert rig.send("seen confirm id=3")[1]["line"] == "play 5 seat=1"


def test_a_last_card_said_ahead_ends_the_extreme_round(rigs):
    rig = rigs()
    extreme(rig)
    assert rig.send("seen last")[0] == {"reply": "seen", "ok": True, "seat": 1}
    events = rig.see(Read("9", "red"))
    assert events[0]["line"] == "play 9 seat=1 last"
    assert {"round-over"} <= {e["event"] for e in events} and rig.status()["game"]["phase"] == "scoring"


def test_status_shows_the_cameras_reporting_state(rigs):
    rig = rigs("auto", threshold=0.8)
    extreme(rig)
    rig.see(Read("7", "red"))
    rig.see(Read("skip", "red", confidence=0.7))
    camera = rig.status()["camera"]
    assert camera["report"] == "auto" and camera["threshold"] == 0.8 and camera["last"] is None
    assert [w["id"] for w in camera["waiting"]] == [2] and camera["waiting"][0]["seat"] == 2
    assert camera["counts"] == {"asked": 1, "played": 1, "reads": 2}


# ---- the counting editions: classic, All Wild, Flip ----
def exact(rig: PileRig, variant: str, players: int = 3) -> None:
    rig.send(f"game new players={players} dealer=1 variant={variant}")
    rig.send("round start")
    if rig.status()["game"]["phase"] == "first":
        rig.send("first 5")


def test_classic_a_wild_draw_four_asks_for_the_colour_and_deals_when_named(rigs):
    rig = rigs()
    exact(rig, "classic")
    assert rig.see(Read("wild-draw-four", None))[0]["asks"] == ["colour"]
    _reply, camera, *_rest = rig.send("seen colour=blue")
    assert camera["line"] == "play wild-draw-four seat=2"
    assert rig.status()["game"]["owed"]["cards"] == 4 and rig.status()["game"]["hands"]["2"] == 6


def test_all_wild_names_no_colour_and_asks_the_target_of_an_aimed_card(rigs):
    rig = rigs()
    exact(rig, "all-wild")
    events = rig.see(Read("wild-skip", None))                 # no colour in All Wild: played at once
    assert events[0]["line"] == "play wild-skip seat=2" and events[0]["reply"]["ok"]
    [seen] = rig.see(Read("targeted-draw-two", None))
    assert seen["asks"] == ["target"] and seen["seat"] == 1
    camera = rig.send("seen confirm id=2 target=3")[1]
    assert camera["line"] == "play targeted-draw-two seat=1 target=3"
    assert rig.status()["game"]["owed"]["seat"] == 3


def test_flip_a_card_of_the_side_that_is_down_is_refused_like_a_typed_one(rigs):
    typed, seen = rigs(), rigs()
    exact(typed, "flip"), exact(seen, "flip")
    refusal = typed.send("play skip-everyone seat=2")[0]
    [camera] = seen.see(Read("skip-everyone", "teal", side="dark"))
    assert camera["reply"] == refusal and refusal["error"] == "bad-argument"
    assert seen.see(Read("flip", "red", side="light"))[0]["reply"]["ok"]
    assert seen.status()["game"]["side"] == "dark"


def test_a_confirmed_read_is_saved_before_its_reply(rigs, tmp_path):
    rig = rigs(state_dir=tmp_path)
    extreme(rig)
    rig.see(Read("reverse", "red", confidence=0.3))
    on_disk: list[dict] = []

    def respond(answer: dict) -> None:   # the reply is on its way: the game file must hold the play already
        on_disk.append(json.loads((tmp_path / "game.json").read_text()))
    rig.app.loop.post(lambda: rig.controller.handle_line("seen confirm id=1", respond))
    rig.app.loop.run_until_quiet()
    assert rig.status()["game"]["direction"] == "ccw"
    saved = on_disk[0]
    assert json.dumps(saved).count('"ccw"') >= 1 and saved != {}


def test_the_camera_is_a_console_of_the_tables_own():
    assert Link.CAMERA in OWN_LINKS   # tests/test_access.py runs every command under it


def test_a_read_that_names_no_card_or_a_bad_confidence_is_refused_at_once():
    for bad in [dict(card=""), dict(card="red 5"), dict(card="5", confidence=1.5), dict(card="5", colour="black"),
                dict(card="5", confidence=float("nan")), dict(card="5", alternatives=(("", None, 0.1),))]:
        with pytest.raises(ValueError, match="a read"):
            Read(**bad)


def test_the_camera_session_in_the_protocol_doc_is_what_the_controller_says():
    from pathlib import Path

    from shooter.protocol import dumps
    doc = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text()
    body = doc.split("```camera\n", 1)[1].split("```", 1)[0]
    rig = PileRig("auto", seed=4)
    try:
        said: list[str] = []
        for line in body.splitlines():
            if line.startswith("> "):
                said += [line, *map(dumps, rig.send(line[2:]))]
            elif line.startswith("~ "):
                fields = json.loads(line[2:])
                fields["alternatives"] = tuple(tuple(a) for a in fields.get("alternatives", ()))
                said += [line, *map(dumps, rig.see(Read(**fields)))]
        assert said == body.splitlines()
    finally:
        rig.close()
