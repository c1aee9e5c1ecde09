"""Every rule of docs/rules.md, played through the console protocol.

Each test sends console lines to the real controller (simulated hardware, virtual clock, see
``tests.conftest.run_console``) and checks only what the protocol shows: replies, events and
``status``. Test names carry the docs/rules.md id they check (``test_P_UNO_...`` checks P-UNO).

Tables used throughout:

* ``FOUR``: four seats, seat 1 deals, a number turned up: seat 2 plays first, clockwise.
* ``TWO``: two seats, seat 1 deals, a number turned up: seat 2 plays first.
"""

from __future__ import annotations

import pytest

from shooter.config import parse_config
from shooter.seats import spread_angles
from tests.conftest import run_console

FOUR = ("game new players=4 dealer=1", "round start first=7")
TWO = ("game new players=2 dealer=1", "round start first=7")


# --- helpers ------------------------------------------------------------------------------------------


def _bare(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if k != "t"}


class Session:
    """One console session: the lines sent, one reply per line and the events each line caused.

    A ``status`` line is appended, so ``game`` / ``shooter`` describe the state at the end.
    ``check="setup"`` (default) asserts that every line but the last one sent was accepted;
    ``check="all"`` that every line was; ``check=None`` checks nothing.
    """

    def __init__(self, lines, *, seed=1, rules=None, cards=None, check="setup"):
        data = {}
        if rules:
            data["rules"] = rules
        if cards is not None:
            data["sim"] = {"cards": cards}
        self.lines = [*lines, "status"]
        self.out = run_console(self.lines, seed=seed, config=parse_config(data) if data else None)
        self.steps: list[dict] = []
        for obj in self.out:
            if "reply" in obj:
                self.steps.append({"reply": obj, "events": []})
            else:
                assert self.steps, f"an event before any reply: {obj}"
                self.steps[-1]["events"].append(_bare(obj))
        assert len(self.steps) == len(self.lines), "every line gets exactly one reply"
        sent = self.steps[:-1]
        must_pass = {"setup": sent[:-1], "all": sent, None: []}[check]
        for line, step in zip(self.lines, must_pass, strict=False):
            assert step["reply"]["ok"], f"{line!r} was refused: {step['reply']}"

    # replies
    def reply(self, i: int = -1) -> dict:
        """The reply to the i-th line sent (the final status excluded)."""
        return self.steps[:-1][i]["reply"]

    def error(self, i: int = -1) -> str | None:
        r = self.reply(i)
        return None if r["ok"] else r["error"]

    def replies(self, name: str) -> list[dict]:
        return [s["reply"] for s in self.steps if s["reply"]["reply"] == name]

    def presses(self) -> list[tuple]:
        """(seat, reason) of every accepted press."""
        return [(r["seat"], r["reason"]) for r in self.replies("press") if r["ok"]]

    # events
    def events(self, name: str | None = None, i: int | None = None) -> list[dict]:
        steps = self.steps if i is None else [self.steps[:-1][i]]
        return [e for s in steps for e in s["events"] if name is None or e["event"] == name]

    def seats(self, name: str, i: int | None = None) -> list[int]:
        return [e["seat"] for e in self.events(name, i)]

    def owed(self, i: int | None = None) -> list[tuple]:
        return [(e["seat"], e["presses"], e["reason"]) for e in self.events("owed", i)]

    # state
    @property
    def statuses(self) -> list[dict]:
        return self.replies("status")

    @property
    def status(self) -> dict:
        return self.statuses[-1]

    @property
    def game(self) -> dict | None:
        return self.status["game"]

    @property
    def aim(self) -> int | None:
        return self.status["shooter"]["aim"]


def play(*lines, **kw) -> Session:
    return Session(lines, **kw)


def owed_entry(seat, presses, reason, by=None) -> dict:
    return {"seat": seat, "presses": presses, "reason": reason, "by": seat if by is None else by}


def scores(**points) -> list[str]:
    """score lines: scores(s1=10, s3=5) -> ["score seat=1 points=10", "score seat=3 points=5"]."""
    return [f"score seat={k[1:]} points={v}" for k, v in points.items()]


# --- S-SEATS ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 10])
def test_S_SEATS_two_to_ten_players_sit_at_seats_1_to_N(players):
    s = play(f"game new players={players}", "round start first=7", check="all")
    assert s.game["players"] == players
    assert list(s.game["totals"]) == [str(seat) for seat in range(1, players + 1)]


@pytest.mark.parametrize("players", [0, 1, 11])
def test_S_SEATS_fewer_than_two_or_more_than_ten_players_are_refused(players):
    s = play(f"game new players={players}")
    assert s.error() == "bad-argument"
    assert s.game is None


def test_S_SEATS_play_starts_clockwise_and_wraps_from_the_last_seat_to_seat_1():
    s = play("game new players=10 dealer=8", "round start first=7", "play 5", "play 5", "play 5", check="all")
    assert s.events("turn") == [{"event": "turn", "seat": seat, "direction": "cw"} for seat in (9, 10, 1, 2)]


@pytest.mark.parametrize("line", ["play 5 seat=5", "play extreme-hit target=5", "uno seat=5", "catch seat=5",
                                  "penalty advice seat=5", "set current=5"])
def test_S_SEATS_a_seat_that_is_not_at_the_table_is_refused(line):
    s = play(*FOUR, line)
    assert s.error() == "bad-argument"
    assert s.game["current"] == 2 and s.game["queue"] == []


# --- S-DEALER ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer,starter", [(1, 2), (2, 3), (3, 4), (4, 1)])
def test_S_DEALER_the_player_left_of_the_dealer_starts_clockwise(dealer, starter):
    s = play(f"game new players=4 dealer={dealer}", "round start first=7", check="all")
    assert s.events("turn") == [{"event": "turn", "seat": starter, "direction": "cw"}]
    assert (s.game["dealer"], s.game["current"], s.game["direction"]) == (dealer, starter, "cw")


def test_S_DEALER_without_a_dealer_seat_1_deals_and_seat_2_starts():
    s = play("game new players=5", "round start first=7", check="all")
    assert (s.game["dealer"], s.game["current"]) == (1, 2)


def test_S_DEALER_round_start_may_name_the_dealer():
    s = play("game new players=5 dealer=1", "round start first=7 dealer=4", check="all")
    assert (s.game["dealer"], s.game["current"]) == (4, 5)


def test_S_DEALER_the_dealer_moves_one_seat_clockwise_each_new_round():
    s = play("game new players=3 dealer=2",
             "round start first=7", "status", "play 9 last", *scores(s1=5, s2=5),
             "round start first=7", "status", "play 9 last", *scores(s2=5, s3=5),
             "round start first=7", "status", check="all")
    assert [(st["game"]["dealer"], st["game"]["current"]) for st in s.statuses] == [(2, 3), (3, 1), (1, 2), (1, 2)]
    assert [st["game"]["round"] for st in s.statuses] == [1, 2, 3, 3]


def test_S_DEALER_every_round_starts_clockwise_even_after_a_reverse():
    s = play(*FOUR, "play reverse", "play 9 last", *scores(s2=5, s3=5, s4=5), "round start first=7", check="all")
    assert s.game["direction"] == "cw"
    assert s.events("turn")[-1] == {"event": "turn", "seat": 3, "direction": "cw"}  # dealer 2, seat 3 starts


def test_S_DEALER_the_round_winner_deals_next_when_configured():
    s = play("game new players=4 dealer=1", "round start first=7", "play 5", "play 9 last",
             *scores(s1=5, s2=5, s4=5), "round start first=7", rules={"dealer_rotation": "winner"}, check="all")
    assert (s.game["dealer"], s.game["current"]) == (3, 4)


# --- S-AIM ------------------------------------------------------------------------------------------------


def test_S_AIM_points_at_each_player_whose_turn_it_is():
    s = play(*FOUR, "play 5", "play reverse", "play 5", "press", check="all")
    assert s.seats("turn") == [2, 3, 2, 1, 4]
    assert s.seats("aim") == [2, 3, 2, 1, 4]
    assert s.aim == s.game["current"] == 4


def test_S_AIM_points_at_the_hit_victim_while_presses_are_owed_then_at_the_next_player():
    s = play(*FOUR, "play hit2", "status", "press", "status", "press", check="all")
    mid = [(st["shooter"]["aim"], st["game"]["owed"], st["game"]["current"]) for st in s.statuses]
    assert mid == [(3, owed_entry(3, 2, "hit2"), 4), (3, owed_entry(3, 1, "hit2"), 4), (4, None, 4)]
    assert s.seats("aim") == [2, 3, 4]
    assert s.seats("shot") == [3, 3]


def test_S_AIM_extreme_hit_points_at_the_target_while_the_card_player_presses():
    s = play(*FOUR, "play extreme-hit target=4", "status", "press", "status", "press", check="all")
    first, second, end = s.statuses
    assert first["shooter"]["aim"] == 4 and first["game"]["owed"] == owed_entry(4, 2, "extreme-hit", by=2)
    assert second["shooter"]["aim"] == 4 and second["game"]["owed"] == owed_entry(4, 1, "extreme-hit", by=2)
    assert end["shooter"]["aim"] == 3 and end["game"]["owed"] is None
    assert s.seats("aim") == [2, 4, 3]
    assert s.presses() == [(4, "extreme-hit"), (4, "extreme-hit")]


def test_S_AIM_a_penalty_points_at_the_penalised_player_and_then_back_at_the_current_player():
    s = play(*FOUR, "play 5", "penalty advice seat=1", "status", *["press"] * 4, check="all")
    assert s.statuses[0]["shooter"]["aim"] == 1 and s.statuses[0]["game"]["current"] == 3
    assert s.seats("aim") == [2, 3, 1, 3]
    assert s.aim == 3


def test_S_AIM_a_penalty_while_hit_presses_are_owed_points_at_the_penalised_player_first():
    s = play(*FOUR, "play hit2", "catch seat=2", *["press"] * 4, check="all")
    assert s.seats("aim") == [2, 3, 2, 3, 4]
    assert s.presses() == [(2, "uno"), (2, "uno"), (3, "hit2"), (3, "hit2")]


def test_S_AIM_a_first_hit_points_at_the_player_left_of_the_dealer():
    s = play("game new players=4 dealer=3", "round start first=hit2", check="all")
    assert s.aim == 4 and s.game["current"] == 1
    assert s.seats("aim") == [4]


def test_S_AIM_a_manual_aim_is_undone_by_the_next_change_of_the_game():
    s = play(*FOUR, "aim seat=4", "status", "play 5", check="all")
    assert s.statuses[0]["shooter"]["aim"] == 4
    assert s.seats("aim") == [2, 4, 3] and s.aim == 3


def test_S_AIM_a_press_after_a_manual_aim_still_shoots_at_the_player_who_pressed():
    s = play(*FOUR, "aim seat=4", "press", check="all")
    events = s.events(i=-1)
    shot = next(e for e in events if e["event"] == "shot")
    assert shot["seat"] == 2 and shot["planned"] > 0  # something came out (seed 1)
    aims_before_shot = [e["seat"] for e in events[: events.index(shot)] if e["event"] == "aim"]
    assert aims_before_shot[-1] == 2  # the shooter turned back to seat 2 before it fired
    assert s.aim == 3


def test_S_AIM_undo_turns_the_shooter_back():
    s = play(*FOUR, "play hit2", "undo", check="all")
    assert s.seats("aim") == [2, 3, 2] and s.aim == 2


def test_S_AIM_a_new_game_with_fewer_seats_turns_to_where_the_seat_is_now():
    # Seat 2 of four sits at -30 degrees, seat 2 of three at 0: the same seat number, another place.
    s = play(*FOUR, "game new players=3 dealer=1 force", "round start first=7", check="all")
    assert s.aim == 2 and s.game["current"] == 2
    assert s.status["shooter"]["angle"] == spread_angles(3, -90.0, 90.0)[1]
    assert s.seats("aim") == [2, 2]  # it turned again for the new game's seat 2


# --- T-PLAY / T-PRESS / T-EXACT / T-STUCK -----------------------------------------------------------------


def test_T_PLAY_a_play_ends_the_turn():
    s = play(*FOUR, "play 5 seat=2", check="all")
    assert s.events(i=-1)[0] == {"event": "turn", "seat": 3, "direction": "cw"}
    assert s.game["current"] == 3 and s.game["queue"] == []


def test_T_PLAY_a_play_for_another_seat_is_not_your_turn_and_changes_nothing():
    s = play(*FOUR, "play 5 seat=3")
    assert s.error() == "not-your-turn"
    assert s.events(i=-1) == []
    assert s.game["current"] == 2


def test_T_PRESS_one_press_ends_the_turn_whatever_comes_out():
    s = play(*FOUR, "press", "press", "press", "press", "press", check="all")
    shots = s.events("shot")
    assert {shot["planned"] > 0 for shot in shots} == {True, False}  # bursts and nothing (seed 1)
    assert s.presses() == [(2, "draw"), (3, "draw"), (4, "draw"), (1, "draw"), (2, "draw")]
    assert [shot["seat"] for shot in shots] == [2, 3, 4, 1, 2]  # whatever comes out is the presser's
    assert s.seats("turn") == [2, 3, 4, 1, 2, 3]


def test_T_PRESS_cards_from_the_shooter_are_not_played_in_the_same_turn():
    s = play(*FOUR, "press", "play 5 seat=2")
    assert s.events("shot")[0]["planned"] > 0
    assert s.error() == "not-your-turn"
    assert s.game["current"] == 3


def test_T_PRESS_the_physical_button_is_the_current_players_press():
    s = play(*FOUR, "sim button", check="all")
    assert [_bare(e) for e in s.events("press")] == [{"event": "press", "source": "button", "seat": 2,
                                                       "reason": "draw"}]
    assert s.game["current"] == 3


EXACT = {
    # setup lines, (seat, presses, reason) owed, the player whose draw comes next
    "hit2": ((*FOUR, "play hit2"), (3, 2, "hit2"), 4),
    "hit4": ((*FOUR, "play hit4"), (3, 4, "hit4"), 4),
    "extreme-hit": ((*FOUR, "play extreme-hit target=1"), (1, 2, "extreme-hit"), 3),
    "first-hit2": (("game new players=4 dealer=1", "round start first=hit2"), (2, 2, "start"), 3),
    "first-hit4": (("game new players=4 dealer=1", "round start first=hit4"), (2, 4, "start"), 3),
    "uno": ((*FOUR, "play 5", "catch seat=2"), (2, 2, "uno"), 3),
    "advice": ((*FOUR, "penalty advice seat=4"), (4, 4, "advice"), 2),
    "wrong-card": ((*FOUR, "play 5", "penalty wrong-card seat=2"), (2, 2, "wrong-card"), 3),
}


@pytest.mark.parametrize("case", EXACT.values(), ids=EXACT.keys())
def test_T_EXACT_exactly_the_owed_presses_then_a_draw_for_the_current_player(case):
    setup, (seat, n, reason), drawer = case
    s = play(*setup, *["press"] * (n + 1), check="all")
    assert s.presses() == [(seat, reason)] * n + [(drawer, "draw")]
    assert [o for o in s.owed() if o[0] == seat and o[2] == reason] == [(seat, k, reason) for k in range(n, -1, -1)]
    assert s.game["queue"] == []


def test_T_EXACT_a_hit2_owes_two_presses_even_when_the_first_one_brings_nothing():
    # seed 2: the first press of the session fires nothing
    s = play(*FOUR, "play hit2", "press", "status", "press", "press", seed=2, check="all")
    assert s.events("shot")[0]["planned"] == 0
    assert s.statuses[0]["game"]["owed"] == owed_entry(3, 1, "hit2")
    assert s.presses() == [(3, "hit2"), (3, "hit2"), (4, "draw")]


def test_T_EXACT_a_refused_press_is_not_counted():
    s = play(*FOUR, "play hit2", "sim lid open", "press", "sim lid close", "press", "press", "press", check=None)
    assert s.replies("press")[0]["error"] == "lid-open"
    assert s.presses() == [(3, "hit2"), (3, "hit2"), (4, "draw")]


def test_T_STUCK_a_jammed_press_counts_and_what_sticks_out_is_the_pressers():
    s = play(*FOUR, "play hit2", "sim jam", "press", "press", "sim lid open", "sim lid close", "press", "press",
             check=None)
    jammed = s.events("shot")[0]
    assert (jammed["seat"], jammed["interrupted"], jammed["reason"]) == (3, "jam", "hit2")
    assert s.replies("press")[1]["error"] == "jammed"
    # the jammed press was one of the two: one more for seat 3, then seat 4 draws
    assert s.presses() == [(3, "hit2"), (3, "hit2"), (4, "draw")]
    assert s.events("cleared") == [{"event": "cleared", "seat": 3}]


# --- C-* cards --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["number", "1", "5", "9", "NUMBER"])
def test_C_NUM_a_number_is_a_normal_play(card):
    s = play(*FOUR, f"play {card}", check="all")
    assert s.events(i=-1) == [{"event": "turn", "seat": 3, "direction": "cw"},
                              {"event": "aim", "seat": 3, "angle": 30.0}]


@pytest.mark.parametrize("card", ["0", "10"])
def test_C_NUM_there_is_no_0_and_no_10(card):
    s = play(*FOUR, f"play {card}")
    assert s.error() == "bad-argument"
    assert s.game["current"] == 2


def test_C_HIT2_the_next_player_presses_twice_and_loses_the_turn():
    s = play(*FOUR, "play hit2", "press", "press", check="all")
    assert s.owed() == [(3, 2, "hit2"), (3, 1, "hit2"), (3, 0, "hit2")]
    assert s.seats("turn") == [2, 4]  # seat 3 never gets a turn
    assert s.game["current"] == 4


@pytest.mark.parametrize("line", ["play hit2", "play hit2 seat=3", "play 5"])
def test_C_HIT2_no_passing_on_the_victim_cannot_play_while_owing(line):
    s = play(*FOUR, "play hit2", line)
    assert s.error() in ("presses-owed", "not-your-turn")
    assert s.game["queue"] == [owed_entry(3, 2, "hit2")]


def test_C_HIT2_on_a_hit2_is_allowed_for_the_player_whose_turn_it_is():
    s = play(*FOUR, "play hit2", "press", "press", "play hit2 seat=4", check="all")
    assert s.owed(i=-1) == [(1, 2, "hit2")]
    assert s.game["current"] == 2


def test_C_REV_the_direction_flips():
    s = play(*FOUR, "play reverse", "play 5", "play reverse", "play 5", check="all")
    assert s.events("turn") == [{"event": "turn", "seat": 2, "direction": "cw"},
                                {"event": "turn", "seat": 1, "direction": "ccw"},
                                {"event": "turn", "seat": 4, "direction": "ccw"},
                                {"event": "turn", "seat": 1, "direction": "cw"},
                                {"event": "turn", "seat": 2, "direction": "cw"}]


def test_C_REV_a_hit_after_a_reverse_goes_counter_clockwise():
    s = play(*FOUR, "play reverse", "play hit2", "press", "press", check="all")
    assert s.owed(i=3) == [(4, 2, "hit2")]
    assert s.game["current"] == 3


def test_C_SKIP_the_next_player_loses_the_turn():
    s = play(*FOUR, "play skip", check="all")
    assert s.seats("turn") == [2, 4]
    assert s.game["queue"] == []  # a skip owes no presses


def test_C_SKIP_counter_clockwise_skips_the_seat_on_the_right():
    s = play(*FOUR, "play reverse", "play skip", check="all")
    assert s.seats("turn") == [2, 1, 3]


@pytest.mark.parametrize("card", ["discard-all", "Discard_All"])
def test_C_DALL_discard_all_is_a_normal_play(card):
    s = play(*FOUR, f"play {card}", check="all")
    assert s.seats("turn") == [2, 3] and s.game["queue"] == []


@pytest.mark.parametrize("card", ["wild", "WILD"])
def test_C_WILD_a_wild_is_a_normal_play(card):
    s = play(*FOUR, f"play {card}", check="all")
    assert s.seats("turn") == [2, 3] and s.game["queue"] == [] and s.game["direction"] == "cw"


def test_C_XHIT_the_card_player_presses_twice_at_the_target():
    s = play(*FOUR, "play extreme-hit target=4", "press", "press", check="all")
    assert s.owed() == [(4, 2, "extreme-hit"), (4, 1, "extreme-hit"), (4, 0, "extreme-hit")]
    assert [shot["seat"] for shot in s.events("shot")] == [4, 4]


def test_C_XHIT_the_target_does_not_lose_a_turn():
    # the target is the next player: play goes on with them
    s = play(*FOUR, "play extreme-hit target=3", "press", "press", check="all")
    assert s.seats("turn") == [2, 3]
    assert s.game["current"] == 3


def test_C_XHIT_play_continues_with_the_player_after_the_card_player_in_the_current_direction():
    s = play(*FOUR, "play reverse", "play extreme-hit target=3", "press", "press", check="all")
    assert s.game["owed"] is None and s.game["current"] == 4 and s.game["direction"] == "ccw"
    assert s.seats("turn") == [2, 1, 4]


@pytest.mark.parametrize("line", ["play extreme-hit", "play extreme-hit target=2", "play wild target=3"])
def test_C_XHIT_needs_a_target_that_is_another_seat(line):
    s = play(*FOUR, line)
    assert s.error() == "bad-argument"
    assert s.game["current"] == 2 and s.game["queue"] == []


def test_C_HIT4_the_next_player_presses_four_times_and_loses_the_turn():
    s = play(*FOUR, "play hit4", *["press"] * 4, check="all")
    assert s.owed() == [(3, k, "hit4") for k in (4, 3, 2, 1, 0)]
    assert s.seats("turn") == [2, 4]


def test_C_BLANK_a_blank_counts_as_a_wild():
    s = play(*FOUR, "play blank", check="all")
    assert s.seats("turn") == [2, 3] and s.game["queue"] == []


@pytest.mark.parametrize("acts_as,turns,owed", [
    ("skip", [2, 4], []),
    ("hit2", [2], [(3, 2, "hit2")]),
    ("reverse", [2, 1], []),
])
def test_C_BLANK_acts_as_the_configured_card(acts_as, turns, owed):
    s = play(*FOUR, "play blank", rules={"blank_as": acts_as}, check="all")
    assert s.seats("turn") == turns
    assert s.owed() == owed


@pytest.mark.parametrize("card,points", [
    pytest.param("1", 1, id="C-NUM-1"), pytest.param("9", 9, id="C-NUM-9"),
    pytest.param("hit2", 20, id="C-HIT2"), pytest.param("reverse", 20, id="C-REV"),
    pytest.param("skip", 20, id="C-SKIP"), pytest.param("discard-all", 30, id="C-DALL"),
    pytest.param("wild", 50, id="C-WILD"), pytest.param("extreme-hit", 50, id="C-XHIT"),
    pytest.param("hit4", 40, id="C-HIT4"), pytest.param("blank", 50, id="C-BLANK"),
])
def test_C_card_points_in_a_counted_hand(card, points):
    s = play(*TWO, "play 9 last", f"hand seat=1 cards={card}", check="all")
    assert s.events("round-scored") == [{"event": "round-scored", "winner": 2, "points": points,
                                         "totals": {"1": 0, "2": points}}]


@pytest.mark.parametrize("line", ["round start first={card}", "play {card}", "play 9 last\nhand seat=1 cards={card}"])
@pytest.mark.parametrize("card", ["hit4", "blank"])
def test_C_HIT4_and_C_BLANK_are_refused_in_the_2010_edition(card, line):
    start = ["game new players=2 dealer=1 edition=2010"] + ([] if line.startswith("round") else ["round start first=7"])
    s = Session([*start, *line.format(card=card).split("\n")])
    assert s.error() == "bad-argument"
    assert s.events(i=-1) == []


def test_C_HIT4_and_C_BLANK_are_played_in_the_2016_edition():
    s = play("game new players=4 dealer=1 edition=2016", "round start first=7", "play blank", "play hit4",
             check="all")
    assert s.game["edition"] == "2016" and s.game["owed"] == owed_entry(4, 4, "hit4")


def test_C_REV_in_the_2010_edition_a_reverse_flips_the_direction_too():
    s = play("game new players=4 dealer=1 edition=2010", "round start first=7", "play reverse", "play 5",
             check="all")
    assert s.seats("turn") == [2, 1, 4] and s.game["direction"] == "ccw"


@pytest.mark.parametrize("edition,ok", [("2016", False), ("2010", True)])
def test_C_REV_a_hand_may_hold_eight_reverses_in_2010_but_only_four_in_2016(edition, ok):
    s = play(f"game new players=2 dealer=1 edition={edition}", "round start first=7", "play 9 last",
             "hand seat=1 cards=" + ",".join(["reverse"] * 5))
    assert s.reply()["ok"] is ok
    assert s.game["totals"]["2"] == (100 if ok else 0)


# --- C-2P-* -----------------------------------------------------------------------------------------------


def test_C_2P_REV_reverse_acts_as_skip_with_two_players():
    s = play(*TWO, "play reverse", "status", "play reverse", "play 5", check="all")
    assert s.statuses[0]["game"]["current"] == 2
    assert s.seats("turn") == [2, 2, 2, 1]


def test_C_2P_SKIP_after_a_skip_the_same_player_plays_again():
    s = play(*TWO, "play skip", "status", "play skip", "play 5", check="all")
    assert s.statuses[0]["game"]["current"] == 2
    assert s.seats("turn") == [2, 2, 2, 1]
    assert s.game["queue"] == []


@pytest.mark.parametrize("card,n", [("hit2", 2), ("hit4", 4)])
def test_C_2P_HIT_the_opponent_presses_and_the_card_player_is_up_again(card, n):
    s = play(*TWO, f"play {card}", *["press"] * (n + 1), check="all")
    assert s.presses() == [(1, card)] * n + [(2, "draw")]
    assert s.seats("turn") == [2, 2, 1]
    assert s.seats("aim") == [2, 1, 2, 1]


def test_C_2P_extreme_hit_the_opponent_gets_the_cards_and_plays_next():
    s = play(*TWO, "play extreme-hit target=1", "press", "press", check="all")
    assert s.presses() == [(1, "extreme-hit")] * 2
    assert s.game["current"] == 1


def test_C_2P_the_rules_for_two_do_not_apply_with_three_players():
    s = play("game new players=3 dealer=1", "round start first=7", "play reverse", "play skip", check="all")
    assert s.seats("turn") == [2, 1, 2]


# --- F-* first card ---------------------------------------------------------------------------------------


def test_F_REV_the_dealer_starts_and_play_goes_counter_clockwise():
    s = play("game new players=4 dealer=3", "round start first=reverse", "play 5", "play 5", check="all")
    assert s.events("turn") == [{"event": "turn", "seat": seat, "direction": "ccw"} for seat in (3, 2, 1)]


def test_F_REV_with_two_players_the_dealer_starts():
    s = play("game new players=2 dealer=1", "round start first=reverse", "play 5", check="all")
    assert s.seats("turn") == [1, 2]


def test_F_SKIP_the_player_left_of_the_dealer_is_skipped():
    s = play("game new players=4 dealer=3", "round start first=skip", "press", check="all")
    assert s.seats("turn") == [1, 2]
    assert s.presses() == [(1, "draw")]  # seat 4 owes nothing
    assert s.game["direction"] == "cw"


def test_F_SKIP_with_two_players_the_dealer_starts():
    s = play("game new players=2 dealer=2", "round start first=skip", check="all")
    assert s.game["current"] == 2 and s.game["queue"] == []


@pytest.mark.parametrize("card,n", [("hit2", 2), ("hit4", 4)])
def test_F_HIT_the_player_left_of_the_dealer_presses_and_is_skipped(card, n):
    s = play("game new players=4 dealer=3", f"round start first={card}", "status", "play 5", "play 5 seat=4",
             *["press"] * (n + 1), check=None)
    first = s.statuses[0]
    assert first["game"]["queue"] == [owed_entry(4, n, "start")]
    assert first["game"]["current"] == 1 and first["shooter"]["aim"] == 4
    assert [r.get("error") for r in s.replies("play")] == ["presses-owed", "not-your-turn"]
    assert s.presses() == [(4, "start")] * n + [(1, "draw")]
    assert s.seats("turn") == [1, 2]


def test_F_HIT_with_two_players_the_opponent_presses_and_the_dealer_starts():
    s = play("game new players=2 dealer=1", "round start first=hit2", "press", "press", check="all")
    assert s.presses() == [(2, "start")] * 2
    assert s.seats("turn") == [1]


@pytest.mark.parametrize("then", ["press", "play discard-all"])
def test_F_DALL_an_ordinary_first_turn_for_the_player_left_of_the_dealer(then):
    s = play("game new players=4 dealer=3", "round start first=discard-all", then, check="all")
    assert s.seats("turn") == [4, 1]
    assert s.owed() == []
    if then == "press":
        assert s.presses() == [(4, "draw")]


@pytest.mark.parametrize("card,rules", [("wild", None), ("blank", None), ("blank", {"blank_as": "skip"}),
                                        ("blank", {"blank_as": "hit2"})])
def test_F_WILD_wild_or_blank_is_an_ordinary_first_turn(card, rules):
    s = play("game new players=4 dealer=3", f"round start first={card}", rules=rules, check="all")
    assert s.events("turn") == [{"event": "turn", "seat": 4, "direction": "cw"}]
    assert s.game["queue"] == [] and s.game["first"] == card


def test_F_XHIT_an_extreme_hit_first_is_treated_like_a_wild():
    s = play("game new players=4 dealer=3", "round start first=extreme-hit", "press", check="all")
    assert s.events("turn")[0] == {"event": "turn", "seat": 4, "direction": "cw"}
    assert s.presses() == [(4, "draw")]


def test_F_XHIT_can_be_configured_to_act_like_a_first_hit2():
    s = play("game new players=4 dealer=3", "round start first=extreme-hit", "press", "press", "press",
             rules={"first_extreme_hit": "hit2"}, check="all")
    assert s.presses() == [(4, "start"), (4, "start"), (1, "draw")]


@pytest.mark.parametrize("card", ["number", "1", "7", "9"])
def test_F_NUM_a_number_is_an_ordinary_first_turn(card):
    s = play("game new players=4 dealer=3", f"round start first={card}", "play 5", check="all")
    assert s.seats("turn") == [4, 1] and s.owed() == []


def test_F_NUM_there_is_no_0_to_turn_up():
    s = play("game new players=4 dealer=3", "round start first=0")
    assert s.error() == "bad-argument" and s.game["phase"] == "deal"


# --- P-UNO ------------------------------------------------------------------------------------------------


def test_P_UNO_catch_right_after_the_play_costs_two_presses_then_play_continues():
    s = play(*FOUR, "play 5", "catch seat=2", "status", "press", "press", "press", check="all")
    assert s.statuses[0]["game"]["queue"] == [owed_entry(2, 2, "uno")]
    assert s.statuses[0]["game"]["current"] == 3
    assert s.presses() == [(2, "uno"), (2, "uno"), (3, "draw")]


def test_P_UNO_catch_is_too_late_once_the_next_player_played():
    s = play(*FOUR, "play 5", "play 6", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == []


def test_P_UNO_catch_is_too_late_once_the_next_player_pressed():
    s = play(*FOUR, "play 5", "press", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == []


def test_P_UNO_catch_is_too_late_once_the_next_player_pressed_the_physical_button():
    s = play(*FOUR, "play 5", "sim button", "catch seat=2")
    assert s.error() == "too-late"


def test_P_UNO_catch_is_still_valid_while_the_hit_victim_has_not_pressed():
    s = play(*FOUR, "play hit2", "catch seat=2", check="all")
    assert s.game["queue"] == [owed_entry(2, 2, "uno"), owed_entry(3, 2, "hit2")]


def test_P_UNO_catch_is_too_late_once_the_hit_victim_pressed():
    s = play(*FOUR, "play hit2", "press", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == [owed_entry(3, 1, "hit2")]


def test_P_UNO_catch_is_still_valid_during_the_card_players_own_extreme_hit_presses():
    s = play(*FOUR, "play extreme-hit target=4", "press", "press", "catch seat=2", check="all")
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_P_UNO_catch_is_still_valid_while_another_seat_pays_a_penalty():
    s = play(*FOUR, "play 5", "penalty advice seat=4", *["press"] * 4, "catch seat=2", check="all")
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_P_UNO_catch_before_the_card_reached_the_discard_pile_is_too_late():
    s = play(*FOUR, "catch seat=2")
    assert s.error() == "too-late"


def test_P_UNO_catch_of_a_seat_that_did_not_just_play_is_too_late():
    s = play(*FOUR, "play 5", "catch seat=1")
    assert s.error() == "too-late"


def test_P_UNO_calling_uno_after_the_play_makes_you_safe():
    s = play(*FOUR, "play 5", "uno seat=2", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == []


def test_P_UNO_calling_uno_while_putting_the_card_down_makes_you_safe():
    s = play(*FOUR, "uno seat=2", "play 5", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == []


def test_P_UNO_a_call_before_a_draw_does_not_protect_a_later_card():
    s = play(*FOUR, "uno seat=2", "press", "press", "press", "press", "play 5", "catch seat=2", check="all")
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_P_UNO_calling_uno_after_being_caught_is_too_late():
    s = play(*FOUR, "play 5", "catch seat=2", "uno seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_P_UNO_a_player_is_caught_only_once_per_card():
    s = play(*FOUR, "play 5", "catch seat=2", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_P_UNO_a_last_card_cannot_be_caught():
    s = play(*FOUR, "play 5 last", "catch seat=2")
    assert s.error() in ("too-late", "wrong-phase")
    assert s.game["phase"] == "scoring"


@pytest.mark.parametrize("card", ["skip", "reverse"])
def test_P_UNO_calling_uno_before_your_next_card_after_your_own_two_player_skip_makes_you_safe(card):
    s = play(*TWO, f"play {card}", "uno seat=2", "play 5", "catch seat=2")
    assert s.error() == "too-late"
    assert s.game["queue"] == []


def test_P_UNO_a_call_ahead_survives_a_wrong_card_penalty_of_the_player_before():
    head = [*FOUR, "play 5", "uno seat=3", "penalty wrong-card seat=2"]
    first = play(*head, check=None)
    # either the penalty is too late (something happened after the play) or it is carried out
    tail = ["press", "press"] if first.reply()["ok"] else []
    s = play(*head, *tail, "play 7 seat=3", "catch seat=3", check=None)
    assert s.reply(-2)["ok"]
    assert s.error() == "too-late"


# --- P-ADVICE ---------------------------------------------------------------------------------------------


def test_P_ADVICE_four_presses_at_the_adviser_then_play_continues_where_it_was():
    s = play(*FOUR, "play 5", "penalty advice seat=1", "status", *["press"] * 5, check="all")
    assert s.statuses[0]["game"]["queue"] == [owed_entry(1, 4, "advice")]
    assert s.statuses[0]["game"]["current"] == 3
    assert s.presses() == [(1, "advice")] * 4 + [(3, "draw")]
    assert s.seats("turn") == [2, 3, 3, 4]


def test_P_ADVICE_while_hit_presses_are_owed_the_adviser_presses_first():
    s = play(*FOUR, "play hit2", "press", "penalty advice seat=1", *["press"] * 6, check="all")
    assert s.presses() == [(3, "hit2")] + [(1, "advice")] * 4 + [(3, "hit2"), (4, "draw")]


def test_P_ADVICE_can_go_to_the_player_whose_turn_it_is():
    s = play(*FOUR, "penalty advice seat=2", *["press"] * 4, "play 5 seat=2", check="all")
    assert s.presses() == [(2, "advice")] * 4
    assert s.game["current"] == 3


# --- P-WRONG ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["5", "reverse", "skip", "hit2", "hit4", "extreme-hit target=1", "wild"])
def test_P_WRONG_right_after_the_play_the_card_and_its_effects_go_back(card):
    s = play(*FOUR, f"play {card}", "penalty wrong-card seat=2", "status", "press", "press", "press",
             check="all")
    taken_back = s.statuses[0]["game"]
    assert taken_back["queue"] == [owed_entry(2, 2, "wrong-card")]  # no hit presses left
    assert (taken_back["direction"], taken_back["current"]) == ("cw", 3)  # seat 2 lost this turn
    assert s.statuses[0]["shooter"]["aim"] == 2
    assert s.presses() == [(2, "wrong-card"), (2, "wrong-card"), (3, "draw")]


def test_P_WRONG_a_wrong_last_card_reopens_the_round():
    s = play(*FOUR, "play 9 last", "penalty wrong-card seat=2", "press", "press", "press", check="all")
    assert s.events("round-over") == [{"event": "round-over", "winner": 2}]
    assert s.game["phase"] == "play" and s.game["round_winner"] is None
    assert s.presses() == [(2, "wrong-card"), (2, "wrong-card"), (3, "draw")]


def test_P_WRONG_counter_clockwise_the_turn_goes_on_to_the_right():
    s = play(*FOUR, "play reverse", "play 5 seat=1", "penalty wrong-card seat=1", "press", "press", check="all")
    assert (s.game["direction"], s.game["current"]) == ("ccw", 4)


def test_P_WRONG_with_two_players_the_opponent_is_up():
    s = play(*TWO, "play skip", "penalty wrong-card seat=2", "press", "press", check="all")
    assert s.game["current"] == 1


TOO_LATE = {
    "next-player-pressed": ("play 5", "press"),
    "next-player-played": ("play 5", "play 6"),
    "hit-victim-pressed": ("play hit2", "press"),
    "extreme-hit-pressed": ("play extreme-hit target=4", "press"),
    "physical-button": ("play 5", "sim button"),
    "caught": ("play 5", "catch seat=2"),
    "advice": ("play 5", "penalty advice seat=4"),
    "set": ("play 5", "set current=4"),
    "hand-reported": ("play 5 last", "score seat=1 points=5"),
    "already-penalised": ("play 5", "penalty wrong-card seat=2", "press", "press"),
}


@pytest.mark.parametrize("after", TOO_LATE.values(), ids=TOO_LATE.keys())
def test_P_WRONG_too_late_once_anything_happened_after_the_play(after):
    s = play(*FOUR, *after, "status", "penalty wrong-card seat=2")
    assert s.error() == "too-late"
    assert s.events(i=-1) == []
    assert s.game == s.statuses[0]["game"]  # a rejected line changes nothing


@pytest.mark.parametrize("setup", [(), ("play 5",)])
def test_P_WRONG_too_late_for_a_seat_that_did_not_play_last(setup):
    s = play(*FOUR, *setup, "penalty wrong-card seat=3")
    assert s.error() == "too-late"


def test_P_WRONG_closes_the_catch_window_of_the_player_before():
    s = play(*FOUR, "play 5", "play 6", "penalty wrong-card seat=3", "catch seat=2")
    assert s.error() == "too-late"


# --- E-* end of a round -----------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["5", "number", "skip", "reverse", "discard-all", "wild", "blank"])
def test_E_OUT_the_round_ends_when_someone_plays_their_last_card(card):
    s = play(*FOUR, f"play {card} last", "play 5")
    assert s.events(i=-2) == [{"event": "round-over", "winner": 2}]
    assert s.error() == "wrong-phase"
    assert (s.game["phase"], s.game["round_winner"], s.game["current"]) == ("scoring", 2, None)
    assert s.game["waiting_for"] == [1, 3, 4]


@pytest.mark.parametrize("card,n,victim", [("hit2", 2, 3), ("hit4", 4, 3), ("extreme-hit last target=1", 2, 1)])
def test_E_OUT_going_out_on_a_hit_card_ends_the_round_after_its_presses(card, n, victim):
    line = f"play {card}" if "last" in card else f"play {card} last"
    s = play(*FOUR, line, *["press", "status"] * n, check="all")
    assert [st["game"]["phase"] for st in s.statuses] == ["play"] * (n - 1) + ["scoring", "scoring"]
    assert s.events("round-over") == [{"event": "round-over", "winner": 2}]
    assert s.events(i=-2)[-2:] == [{"event": "round-over", "winner": 2}, s.events("shot")[-1]]
    assert s.presses() == [(victim, card.split()[0])] * n


def test_E_OUT_a_press_after_the_round_is_over_owes_nothing_and_changes_nothing():
    s = play(*FOUR, "play 5 last", "press", check="all")
    assert s.reply()["reason"] == "draw"
    assert s.game["phase"] == "scoring" and s.game["queue"] == []


def test_E_XHIT_a_last_extreme_hit_is_carried_out_before_the_round_ends():
    s = play(*FOUR, "play extreme-hit last target=4", "status", "press", "status", "press", check="all")
    assert [st["game"]["phase"] for st in s.statuses] == ["play", "play", "scoring"]
    assert [st["shooter"]["aim"] for st in s.statuses[:2]] == [4, 4]
    assert s.statuses[0]["game"]["owed"] == owed_entry(4, 2, "extreme-hit", by=2)
    assert s.presses() == [(4, "extreme-hit")] * 2
    assert s.events("round-over") == [{"event": "round-over", "winner": 2}]


def test_E_XHIT_is_carried_out_even_when_last_hits_are_configured_not_to_count():
    s = play(*FOUR, "play extreme-hit last target=4", "press", "status", "press",
             rules={"last_hit_counts": False}, check="all")
    assert s.statuses[0]["game"]["phase"] == "play"
    assert s.events("round-over") == [{"event": "round-over", "winner": 2}]


@pytest.mark.parametrize("line", ["play extreme-hit target=4 last", "play 9 seat=2 last"])
def test_E_XHIT_E_OUT_last_written_after_the_options_as_in_the_protocol_usage_is_accepted(line):
    s = play(*FOUR, line)
    assert s.reply()["ok"]


@pytest.mark.parametrize("card,n", [("hit2", 2), ("hit4", 4)])
def test_E_HIT_the_next_player_still_presses_for_a_last_hit_card(card, n):
    s = play(*FOUR, f"play {card} last", "status", *["press"] * n, check="all")
    assert s.statuses[0]["game"]["phase"] == "play"
    assert s.statuses[0]["game"]["queue"] == [owed_entry(3, n, card)]
    assert s.presses() == [(3, card)] * n
    assert s.game["phase"] == "scoring" and s.game["round_winner"] == 2


@pytest.mark.parametrize("card", ["hit2", "hit4"])
def test_E_HIT_a_last_hit_card_ends_the_round_at_once_when_configured(card):
    s = play(*FOUR, f"play {card} last", rules={"last_hit_counts": False}, check="all")
    assert s.events(i=-1) == [{"event": "round-over", "winner": 2}]
    assert s.game["queue"] == [] and s.game["phase"] == "scoring"


def test_E_HIT_with_two_players_the_round_ends_after_the_presses_and_nobody_is_up_again():
    s = play(*TWO, "play hit2 last", "press", "press", check="all")
    assert s.presses() == [(1, "hit2")] * 2
    assert s.seats("turn") == [2]
    assert s.game["phase"] == "scoring" and s.game["current"] is None


def test_E_REFILL_after_loading_the_shooter_play_goes_on_where_it_was():
    s = play(*FOUR, "play hit2", "press", "press", "sim lid open", "sim load cards=20", "sim lid close",
             "press", "press", cards=3, check=None)
    assert s.events("empty") == [{"event": "empty", "seat": 3}]
    assert s.replies("press")[1]["error"] == "empty"  # not counted
    assert s.presses() == [(3, "hit2"), (3, "hit2"), (4, "draw")]
    assert s.game["current"] == 1 and s.status["shooter"]["state"] == "ready"


# --- G-* scoring ------------------------------------------------------------------------------------------


def test_G_WIN_the_round_winner_scores_the_points_left_in_the_other_hands():
    s = play("game new players=3 dealer=3", "round start first=7", "play 9 last",
             "hand seat=2 cards=wild,hit4,7", "score seat=3 points=100", check="all")
    assert s.events("round-scored") == [{"event": "round-scored", "winner": 1, "points": 197,
                                         "totals": {"1": 197, "2": 0, "3": 0}}]
    assert (s.game["phase"], s.game["round"], s.game["winner"]) == ("deal", 2, None)


def test_G_WIN_the_winner_does_not_report_a_hand():
    s = play("game new players=3 dealer=3", "round start first=7", "play 9 last", "score seat=1 points=10")
    assert s.error() == "bad-argument"
    assert s.game["waiting_for"] == [2, 3]


@pytest.mark.parametrize("points,over", [(499, False), (500, True)])
def test_G_WIN_the_first_to_reach_500_wins_the_game(points, over):
    s = play("game new players=2 dealer=2", "round start first=7", "play 9 last", f"score seat=2 points={points}",
             "round start first=7")
    expected = [{"event": "game-over", "winner": 1, "totals": {"1": points, "2": 0}}] if over else []
    assert s.events("game-over") == expected
    assert s.game["winner"] == (1 if over else None)
    assert s.game["phase"] == ("over" if over else "play")
    assert s.reply()["ok"] is not over  # no new round once the game is over


def test_G_WIN_totals_add_up_over_rounds_until_someone_reaches_the_limit():
    s = play("game new players=2 dealer=2 limit=300", "round start first=7", "play 9 last", "score seat=2 points=150",
             "round start first=7", "play 5", "play 9 last", "score seat=2 points=150", check="all")
    assert [e["totals"] for e in s.events("round-scored")] == [{"1": 150, "2": 0}, {"1": 300, "2": 0}]
    assert s.events("game-over") == [{"event": "game-over", "winner": 1, "totals": {"1": 300, "2": 0}}]


def test_G_LOW_everyone_adds_the_points_of_their_own_hand():
    s = play("game new players=3 dealer=3 scoring=lowest", "round start first=7", "play 9 last",
             "hand seat=2 cards=wild,hit4,7", "score seat=3 points=100", check="all")
    assert s.events("round-scored") == [{"event": "round-scored", "winner": 1, "points": 197,
                                         "totals": {"1": 0, "2": 97, "3": 100}}]
    assert s.game["phase"] == "deal"


def test_G_LOW_when_someone_reaches_the_limit_the_lowest_total_wins():
    s = play("game new players=3 dealer=3 scoring=lowest limit=100", "round start first=7", "play 9 last",
             *scores(s2=60, s3=10), "round start first=7", "play 9 last", *scores(s1=40, s3=20), check="all")
    assert s.events("round-scored")[-1]["totals"] == {"1": 40, "2": 60, "3": 30}
    assert s.events("game-over") == []  # nobody reached 100 yet
    s = play("game new players=3 dealer=3 scoring=lowest limit=100", "round start first=7", "play 9 last",
             *scores(s2=60, s3=10), "round start first=7", "play 9 last", *scores(s1=100, s3=20), check="all")
    assert s.events("game-over") == [{"event": "game-over", "winner": 3,
                                      "totals": {"1": 100, "2": 60, "3": 30}}]
    assert s.game["phase"] == "over"


ELIM = ("game new players=3 dealer=1 scoring=elimination limit=100", "round start first=7", "play 9 last")


def test_G_ELIM_whoever_reaches_the_limit_is_out():
    s = play(*ELIM, *scores(s3=100, s1=99), "round start first=7", check="all")
    assert s.events("round-scored") == [{"event": "round-scored", "winner": 2, "points": 199,
                                         "totals": {"1": 99, "2": 0, "3": 100}, "out": [3]}]
    assert s.game["out"] == [3] and s.game["winner"] is None


@pytest.mark.parametrize("line", ["play extreme-hit target=3", "uno seat=3", "penalty advice seat=3",
                                  "set current=3"])
def test_G_ELIM_an_eliminated_seat_takes_no_part_any_more(line):
    s = play(*ELIM, *scores(s3=100, s1=10), "round start first=7", line)
    assert s.error() == "bad-argument"


def test_G_ELIM_eliminated_seats_are_skipped_in_turn_order():
    s = play("game new players=4 dealer=1 scoring=elimination limit=100", "round start first=7", "play 9 last",
             *scores(s3=100, s4=5, s1=5), "round start first=7", "play 5", "play 5", "press", check="all")
    # round 2: dealer 2, seat 3 is out: seat 4 starts
    assert s.seats("turn")[-4:] == [4, 1, 2, 4]


TWO_LEFT = {
    "C-2P-REV": (("play reverse",), [1, 1]),
    "C-2P-SKIP": (("play skip",), [1, 1]),
    "C-2P-HIT": (("play hit2", "press", "press"), [1, 1]),
}


@pytest.mark.parametrize("lines,turns", TWO_LEFT.values(), ids=TWO_LEFT.keys())
def test_G_ELIM_the_last_two_play_on_under_the_two_player_rules(lines, turns):
    # round 2: dealer 2, seat 3 out: seat 1 starts; seat 1's card brings the turn back to seat 1
    s = play(*ELIM, *scores(s3=100, s1=10), "round start first=7", *lines, check="all")
    assert s.seats("turn")[-2:] == turns
    assert s.game["current"] == 1


def test_G_ELIM_the_last_one_left_wins_the_game():
    s = play(*ELIM, *scores(s3=100, s1=10), "round start first=7", "play 9 last", "score seat=2 points=100",
             "round start first=7")
    assert s.events("round-scored")[-1]["out"] == [2]
    assert s.events("game-over") == [{"event": "game-over", "winner": 1, "totals": {"1": 10, "2": 100, "3": 100}}]
    assert (s.game["phase"], s.game["winner"], s.game["out"]) == ("over", 1, [2, 3])
    assert s.error() == "wrong-phase"


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_G_DEALER_a_random_dealer_is_replayable_with_the_same_seed(seed):
    lines = ("game new players=6 dealer=random", "round start first=7")
    a, b = play(*lines, seed=seed, check="all"), play(*lines, seed=seed, check="all")
    assert a.out == b.out
    dealer = a.game["dealer"]
    assert a.game["current"] == dealer % 6 + 1  # the player left of the dealer starts


def test_G_DEALER_random_dealers_differ_between_seeds():
    dealers = {play("game new players=6 dealer=random", seed=seed, check="all").game["dealer"] for seed in range(1, 9)}
    assert len(dealers) > 1 and dealers <= set(range(1, 7))


def test_G_DEALER_the_dealer_moves_clockwise_each_round_skipping_eliminated_seats():
    s = play("game new players=4 dealer=1 scoring=elimination limit=100",
             "round start first=7", "status", "play 9 last", *scores(s3=100, s4=5, s1=5),
             "round start first=7", "status", "play 9 last", *scores(s1=5, s2=5),
             "round start first=7", "status", check="all")
    assert [(st["game"]["dealer"], st["game"]["current"]) for st in s.statuses[:3]] == [(1, 2), (2, 4), (4, 1)]


def test_G_WIN_a_new_game_starts_with_all_totals_0():
    s = play("game new players=2 dealer=2", "round start first=7", "play 9 last", "score seat=2 points=50",
             "game new players=3 force", check="all")
    assert s.game["totals"] == {"1": 0, "2": 0, "3": 0}
    assert (s.game["phase"], s.game["round"]) == ("deal", 1)


# --- undo ---------------------------------------------------------------------------------------------------


def test_UNDO_takes_back_several_levels_one_at_a_time():
    s = play(*FOUR, "play 5", "play reverse", "play hit2", *["undo", "status"] * 4, "undo")
    states = [(st["game"]["phase"], st["game"]["current"], st["game"]["direction"], st["game"]["queue"])
              for st in s.statuses[:4]]
    assert states == [("play", 2, "ccw", []), ("play", 3, "cw", []), ("play", 2, "cw", []),
                      ("deal", None, "cw", [])]
    assert all(r["ok"] for r in s.replies("undo")[:4])
    assert s.error() == "cannot-undo"


def test_UNDO_a_press_cannot_be_undone():
    s = play(*FOUR, "play 5", "press", "undo")
    assert s.error() == "cannot-undo"
    assert s.game["current"] == 4 and s.game["undo"] == 0


def test_UNDO_stops_at_the_last_press():
    s = play(*FOUR, "play hit2", "press", "press", "play 5", "undo", "undo", check=None)
    assert [r["ok"] for r in s.replies("undo")] == [True, False]
    assert s.error() == "cannot-undo"
    assert s.game["current"] == 4 and s.game["queue"] == []


def test_UNDO_a_catch_gives_back_the_presses_and_the_catch_window():
    s = play(*FOUR, "play 5", "catch seat=2", "undo", "status", "catch seat=2", check="all")
    assert s.statuses[0]["game"]["queue"] == [] and s.statuses[0]["game"]["uno_window"] == {"seat": 2,
                                                                                            "called": False}
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_UNDO_an_uno_call_makes_the_player_catchable_again():
    s = play(*FOUR, "play 5", "uno seat=2", "undo", "catch seat=2", check="all")
    assert s.game["queue"] == [owed_entry(2, 2, "uno")]


def test_UNDO_a_penalty_is_taken_back():
    s = play(*FOUR, "play 5", "penalty advice seat=1", "undo", check="all")
    assert s.game["queue"] == [] and s.aim == 3


def test_UNDO_a_wrong_card_penalty_gives_the_card_back():
    s = play(*FOUR, "play hit2", "penalty wrong-card seat=2", "undo", check="all")
    assert s.game["queue"] == [owed_entry(3, 2, "hit2")] and s.aim == 3


def test_UNDO_the_score_that_settled_a_round_restores_the_totals():
    s = play("game new players=3 dealer=3", "round start first=7", "play 9 last", "score seat=2 points=10",
             "score seat=3 points=20", "undo", "score seat=3 points=25", check="all")
    assert [e["totals"] for e in s.events("round-scored")] == [{"1": 30, "2": 0, "3": 0}, {"1": 35, "2": 0, "3": 0}]


def test_UNDO_the_last_card_reopens_the_round():
    s = play(*FOUR, "play 9 last", "undo", check="all")
    assert (s.game["phase"], s.game["current"], s.game["round_winner"]) == ("play", 2, None)
    assert s.events(i=-1)[0] == {"event": "turn", "seat": 2, "direction": "cw"}


def test_UNDO_a_new_game_cannot_be_undone():
    s = play("game new players=3", "undo")
    assert s.error() == "cannot-undo"


# --- set ----------------------------------------------------------------------------------------------------


def test_SET_current_moves_the_turn_and_the_shooter():
    s = play(*FOUR, "set current=4", "play 5", check="all")
    assert s.events(i=-2) == [{"event": "turn", "seat": 4, "direction": "cw"},
                              {"event": "aim", "seat": 4, "angle": 90.0}]
    assert s.game["current"] == 1


def test_SET_direction_changes_the_turn_order():
    s = play(*FOUR, "set direction=ccw", "play 5", "play 5", check="all")
    assert s.seats("turn") == [2, 2, 1, 4] and s.game["direction"] == "ccw"


def test_SET_while_presses_are_owed_the_shooter_stays_on_the_receiver():
    s = play(*FOUR, "play hit2", "set current=1", "status", "press", "press", check="all")
    assert s.statuses[0]["shooter"]["aim"] == 3 and s.statuses[0]["game"]["current"] == 1
    assert s.presses() == [(3, "hit2"), (3, "hit2")]
    assert s.game["current"] == 1 and s.aim == 1


def test_SET_can_be_undone():
    s = play(*FOUR, "set current=4", "set direction=ccw", "undo", "undo", check="all")
    assert (s.game["current"], s.game["direction"]) == (2, "cw") and s.aim == 2


@pytest.mark.parametrize("line,code", [("set", "bad-argument"), ("set current=0", "bad-argument"),
                                       ("set direction=left", "bad-argument")])
def test_SET_needs_a_valid_seat_or_direction(line, code):
    s = play(*FOUR, line)
    assert s.error() == code
    assert s.game["current"] == 2


def test_SET_outside_a_round_is_wrong_phase():
    s = play("game new players=4", "set current=2")
    assert s.error() == "wrong-phase"


def test_P_UNO_catch_is_too_late_once_the_next_player_pressed_for_a_penalty_of_their_own():
    s = play(*FOUR, "play 5", "penalty advice seat=3", "press", "catch seat=2")
    assert s.error() == "too-late"


def test_P_UNO_a_penalty_press_of_another_seat_leaves_the_window_open():
    s = play(*FOUR, "play 5", "penalty advice seat=4", "press", "catch seat=2")
    assert s.error() is None
    assert [(q["seat"], q["presses"], q["reason"]) for q in s.statuses[-1]["game"]["queue"]] == \
        [(4, 3, "advice"), (2, 2, "uno")]
