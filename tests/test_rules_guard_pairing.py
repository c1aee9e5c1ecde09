"""Guards of who may act: the paired browsers' file as it is read back, and pairing's requests and tokens.

Written for the mutants mutation testing found alive (docs/mutation.md). The saved pairings are read by one
parse function behind the one loader (a bad file is set aside in one log line naming the field); every case below
is a file a crash, a hand edit or an older controller may leave.
"""

from __future__ import annotations

import pytest

from hal import VirtualClock
from shooter.access import Access, refusal
from shooter.errors import CommandError, NotPaired, StateFileError
from shooter.persist import Store
from shooter.web.pairing import MAX_TOKENS, TOKENS_FILE, Pairing
from shooter.web.tokens_file import LABEL_LENGTH, MAX_ID, tokens_from_dict

HASH = "ab" * 32
TOKEN = {"id": 3, "hash": HASH, "label": "iPhone"}


@pytest.mark.parametrize(("data", "message"), [
    ([], "Saved pairings: must be an object of tokens (and next_id), not of []."),
    (5, "Saved pairings: must be an object of tokens (and next_id), not of []."),
    ("tokens", "Saved pairings: must be an object of tokens (and next_id), not of []."),
    ({"tokens": [], "extra": 1}, "Saved pairings: must be an object of tokens (and next_id), not of "
                                 "['extra', 'tokens']."),
    ({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}, "Saved pairings: must be an object of tokens (and next_id), not of "
                                               "['a', 'b', 'c', 'd']."),
    ({"tokens": {}}, "Saved pairings: tokens must be a list."),
    ({"tokens": [[]]}, "Saved pairings: tokens[0] must be an object of id, hash and label."),
    ({"tokens": [{"id": 1}]}, "Saved pairings: tokens[0] must be an object of id, hash and label."),
    ({"tokens": [{**TOKEN, "x": 1}]}, "Saved pairings: tokens[0] must be an object of id, hash and label."),
    ({"tokens": [{**TOKEN, "id": 0}]}, f"Saved pairings: tokens[0].id must be a whole number 1..{MAX_ID}."),
    ({"tokens": [{**TOKEN, "id": MAX_ID + 1}]}, f"Saved pairings: tokens[0].id must be a whole number 1..{MAX_ID}."),
    ({"tokens": [{**TOKEN, "id": True}]}, f"Saved pairings: tokens[0].id must be a whole number 1..{MAX_ID}."),
    ({"tokens": [{**TOKEN, "hash": 5}]}, "Saved pairings: tokens[0].hash must be a SHA-256 in hex."),
    ({"tokens": [{**TOKEN, "hash": "AB" * 32}]}, "Saved pairings: tokens[0].hash must be a SHA-256 in hex."),
    ({"tokens": [{**TOKEN, "label": 7}]},
     f"Saved pairings: tokens[0].label must be text of at most {LABEL_LENGTH} characters."),
    ({"tokens": [{**TOKEN, "label": "x" * (LABEL_LENGTH + 1)}]},
     f"Saved pairings: tokens[0].label must be text of at most {LABEL_LENGTH} characters."),
    ({"tokens": [TOKEN, {**TOKEN, "label": ""}]}, "Saved pairings: tokens[1].id 3 is given twice."),
    ({"tokens": [], "next_id": -1}, f"Saved pairings: next_id must be a whole number 0..{MAX_ID}."),
    ({"tokens": [], "next_id": MAX_ID + 1}, f"Saved pairings: next_id must be a whole number 0..{MAX_ID}."),
])
def test_a_bad_pairings_file_is_refused_in_one_sentence_naming_the_field(data, message):
    with pytest.raises(StateFileError) as info:
        tokens_from_dict(data)
    assert str(info.value) == message


def test_every_good_pairings_file_is_taken_in_as_written():
    longest = "x" * LABEL_LENGTH
    assert tokens_from_dict({"tokens": []}) == ([], 1)
    assert tokens_from_dict({"tokens": [], "next_id": 0}) == ([], 1)
    assert tokens_from_dict({"tokens": [], "next_id": MAX_ID}) == ([], MAX_ID)
    assert tokens_from_dict({"tokens": [{"id": MAX_ID, "hash": HASH}], "next_id": 0}) == (
        [{"id": MAX_ID, "hash": HASH, "label": ""}], MAX_ID + 1)
    assert tokens_from_dict({"tokens": [{**TOKEN, "label": longest}, {"id": 1, "hash": HASH}]}) == (
        [{**TOKEN, "label": longest}, {"id": 1, "hash": HASH, "label": ""}], 4)   # one more than the highest id
    assert tokens_from_dict({"tokens": [TOKEN], "next_id": 9}) == ([TOKEN], 9)


# --- pairing's requests and tokens -------------------------------------------------------------------------

class Clock(VirtualClock):
    """The loop's virtual clock, moved on by the test: the timers due run as the loop runs them."""

    def advance(self, seconds: float) -> None:
        self.advance_to(self.now() + seconds)
        self.run_due()


def pairing(tmp_path=None) -> tuple[Pairing, Clock]:
    clock = Clock()
    return Pairing(clock, None if tmp_path is None else Store(tmp_path, TOKENS_FILE)), clock


def test_a_request_nobody_answers_expires_once_with_the_time_and_stops_waiting():
    p, clock = pairing()
    news: list[dict] = []
    p.request(news.append, address="a")
    clock.advance(29.9)
    assert news == [] and p.waiting_count == 1
    clock.advance(30.0000004 - clock.now())
    assert news == [{"event": "pair-expired", "t": 30.0}]   # to the microsecond, as every event's time
    assert p.waiting_count == 0 and p.status()["requests"] == []
    clock.advance(60)
    assert len(news) == 1


def test_a_request_answered_is_never_told_it_expired():
    for answer in ("approve", "refuse", "button"):
        p, clock = pairing()
        news: list[dict] = []
        req = p.request(news.append, address="a")
        if answer == "approve":
            p.approve(req.number)
        elif answer == "refuse":
            p.refuse(req.number)
        else:
            p.button_pressed()
        clock.advance(60)
        assert [n["event"] for n in news] == ["pair-refused" if answer == "refuse" else "pair-granted"], answer


def test_several_waiting_the_button_refuses_each_with_the_documented_event():
    p, clock = pairing()
    news_a: list[dict] = []
    news_b: list[dict] = []
    p.request(news_a.append, address="a")
    clock.advance(1.5)
    p.request(news_b.append, address="b")
    assert p.button_pressed() is None
    several = {"event": "pair-refused", "t": 1.5, "reason": "several",
               "message": "several browsers asked at once: ask again one at a time"}
    assert news_a == [several] and news_b == [several]
    clock.advance(60)
    assert len(news_a) == 1 and len(news_b) == 1   # their windows were closed: no pair-expired after


def test_a_refused_request_gets_the_documented_event_and_a_wrong_number_names_the_waiting_ones():
    p, clock = pairing()
    news: list[dict] = []
    with pytest.raises(CommandError) as info:
        p.refuse(1)
    assert (info.value.code, info.value.message) == ("bad-argument", "no request 1 is waiting (waiting: none)")
    a = p.request(news.append, address="a")
    b = p.request(lambda n: None, address="b")
    with pytest.raises(CommandError) as info:
        p.approve(7)
    assert info.value.message == f"no request 7 is waiting (waiting: {a.number}, {b.number})"
    clock.advance(2)
    p.refuse(a.number)
    assert news == [{"event": "pair-refused", "t": 2.0, "reason": "refused",
                     "message": "a paired phone refused this request"}]


def test_unpair_of_an_unknown_id_names_the_paired_ones_and_changes_nothing(tmp_path):
    p, _ = pairing(tmp_path)
    revoked: list[int] = []
    p.on_revoke = revoked.append
    with pytest.raises(CommandError) as info:
        p.revoke(1)
    assert (info.value.code, info.value.message) == ("bad-argument", "no paired browser with id 1 (paired: none)")
    for address in ("a", "b"):
        p.approve(p.request(lambda n: None, address=address).number)
    with pytest.raises(CommandError) as info:
        p.revoke(9)
    assert info.value.message == "no paired browser with id 9 (paired: 1, 2)"
    p.revoke(1)
    assert revoked == [1]
    assert [t["id"] for t in p.status()["paired"]] == [2]
    again, _ = pairing(tmp_path)   # the revocation is on disk
    assert [t["id"] for t in again.status()["paired"]] == [2]


def test_the_token_cap_revokes_the_oldest_as_an_unpair_and_keeps_the_newest(tmp_path):
    p, _ = pairing(tmp_path)
    revoked: list[int] = []
    p.on_revoke = revoked.append
    for i in range(MAX_TOKENS + 2):
        grant = p.approve(p.request(lambda n: None, address=f"10.0.0.{i}").number)
    assert grant.evicted == [2] and revoked == [1, 2]
    assert [t["id"] for t in p.status()["paired"]] == list(range(3, MAX_TOKENS + 3))


def test_a_command_an_unpaired_browser_may_not_run_is_refused_in_the_one_documented_sentence():
    # docs/protocol.md, "Who may run what": an unpaired browser is told to pair, with the command's words left out
    refused = refusal("game new players=3", Access.PAIRED)
    assert isinstance(refused, NotPaired)
    assert str(refused) == ("this browser may only watch: pair it (press the shooter's button when asked) "
                            "to send commands")


def test_a_pairing_the_disk_refuses_to_keep_is_said_once_in_the_log_and_holds_until_a_restart(tmp_path):
    # (the two survivors of web/pairing.py's tenth run: the log kept, and what it is told)
    state = tmp_path / "state"
    state.mkdir()
    said: list[str] = []
    p = Pairing(Clock(), Store(state, TOKENS_FILE), log=said.append)
    state.rmdir()   # the state directory gone (a card pulled, a full disk): the save's temporary file cannot be made
    grant = p.approve(p.request(lambda n: None, address="a").number)
    assert len(said) == 1
    assert said[0].startswith(f"uno-shooter: cannot save the paired browsers in {state / TOKENS_FILE}: ")
    assert "No such file or directory" in said[0]
    assert [t["id"] for t in p.status()["paired"]] == [grant.id]   # the pairing holds meanwhile
