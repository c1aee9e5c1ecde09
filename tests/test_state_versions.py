"""The game file's versions: every file an earlier controller wrote (tests/saved_games, one of each shape of
each version) is migrated and resumed as that controller left it; a newer version is set aside, never read."""

import json
import random
from pathlib import Path

import pytest

from shooter.editions import lookup
from shooter.errors import StateFileError
from shooter.persist import STATE_FILE
from shooter.table import Table
from shooter.table.persist import MIGRATIONS, VERSION
from tests.conftest import run_console

SAVED = Path(__file__).parent / "saved_games"
FILES = sorted(p for p in SAVED.glob("v*.json") if not p.name.endswith(".status.json"))


def status_then(path: Path) -> dict:
    """The `game` of the `status` the controller that wrote ``path`` answered right after."""
    return json.loads(path.with_name(path.stem + ".status.json").read_text())


def test_there_is_a_saved_file_of_every_version_and_every_rules_family():
    versions = {json.loads(p.read_text())["version"] for p in FILES}
    assert versions | {VERSION} == set(range(1, VERSION + 1))   # every earlier version has its files
    variants = {status_then(p).get("variant", "extreme") for p in FILES}
    assert variants == {"extreme", "classic", "all-wild", "flip", "attack"}
    phases = {(status_then(p).get("variant", "extreme"), status_then(p)["phase"]) for p in FILES}
    assert {(v, ph) for v in variants for ph in ("play", "deal")} <= phases   # mid-round and between rounds


def test_every_earlier_version_has_its_migration():
    assert sorted(MIGRATIONS) == list(range(1, VERSION))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_file_of_an_earlier_version_is_resumed_as_its_controller_left_it(tmp_path, path):
    (tmp_path / STATE_FILE).write_bytes(path.read_bytes())
    out = run_console(["status"], state_dir=tmp_path)
    game = out[-1]["game"]
    then = status_then(path)
    assert {key: game[key] for key in then} == then      # every field that controller reported, unchanged
    assert game["interrupted"] is None
    assert not list(tmp_path.glob(f"{STATE_FILE}.bad-*"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_migrated_game_plays_on_and_is_saved_in_todays_version(tmp_path, path):
    (tmp_path / STATE_FILE).write_bytes(path.read_bytes())
    then = status_then(path)
    # a command every one of them takes: a press mid-round (a draw or what is owed), a new round between rounds
    line = "press" if then["phase"] == "play" else ("round start" if lookup(then.get("variant", "extreme")).counting
                                                    else "round start first=5")
    out = run_console([line, "status"], state_dir=tmp_path)
    assert [o["ok"] for o in out if "reply" in o] == [True, True], [o for o in out if "reply" in o]
    saved = json.loads((tmp_path / STATE_FILE).read_text())
    assert saved["version"] == VERSION
    again = run_console(["status"], state_dir=tmp_path)[-1]["game"]
    assert again == [o for o in out if o.get("reply") == "status"][-1]["game"]


def test_the_migration_groups_each_rules_family_s_own_fields():
    classic = Table.from_dict(json.loads((SAVED / "v1-classic-mid.json").read_text()), rng=random.Random(0))
    extreme = Table.from_dict(json.loads((SAVED / "v1-before-editions-extreme-mid.json").read_text()))
    saved_classic, saved_extreme = classic.to_dict()["game"], extreme.to_dict()["game"]
    assert "counting" in saved_classic and "extreme" not in saved_classic and "hands" not in saved_classic
    assert saved_classic["counting"]["hands"] == {"1": 6, "2": 8, "3": 7}
    assert "extreme" in saved_extreme and "counting" not in saved_extreme
    assert set(saved_extreme["extreme"]) == {"edition", "hands", "last_play"}   # (version 3's hand counts)
    assert saved_extreme["extreme"]["hands"] is None   # an Uno Extreme deck keeps none
    # the last play a wrong-card penalty takes back was migrated with the game (one level)
    assert saved_extreme["extreme"]["last_play"]["before"]["extreme"]["last_play"] is None


def test_a_version_1_extreme_game_keeps_loading_whatever_uno_penalty_its_options_gave_it():
    data = json.loads((SAVED / "v1-extreme-mid.json").read_text())
    data["game"]["uno_penalty"] = 4   # [rules] uno_penalty = 4 was copied into every game, Extreme ones too
    assert Table.from_dict(data).status()["phase"] == "play"


def test_a_version_1_field_of_the_other_family_that_holds_something_is_named_not_dropped():
    data = json.loads((SAVED / "v1-extreme-mid.json").read_text())
    data["game"]["hands"] = {"1": 7, "2": 7, "3": 7}   # counted hands in an Extreme game: not a game v1 wrote
    with pytest.raises(StateFileError, match=r"game\.hands is not a field of the state of a game of variant extreme"):
        Table.from_dict(data)


@pytest.mark.parametrize("version", [VERSION + 1, 99])
def test_a_newer_version_is_set_aside_with_one_line_saying_so_and_never_read(tmp_path, version):
    data = json.loads((SAVED / "v1-classic-mid.json").read_text())
    data["version"] = version
    (tmp_path / STATE_FILE).write_text(json.dumps(data))
    logged: list[str] = []
    from shooter.app import App
    from shooter.config import parse_config
    with App(parse_config({}), sim=True, virtual=True, state_dir=tmp_path, log=logged.append) as app:
        assert app.controller.table.game is None
    said = [m for m in logged if STATE_FILE in m]
    assert len(said) == 1 and f"version {version} is newer than this controller's" in said[0]
    assert "not migrated down" in said[0] and "kept it as" in said[0] and "\n" not in said[0]
    kept = list(tmp_path.glob(f"{STATE_FILE}.bad-*"))
    assert [json.loads(p.read_text()) for p in kept] == [data]   # the file as it was, for a newer controller


@pytest.mark.parametrize("version", [0, -1])
def test_a_version_older_than_any_known_is_refused_naming_it(version):
    data = json.loads((SAVED / "v1-classic-mid.json").read_text())
    data["version"] = version
    with pytest.raises(StateFileError, match=f"version {version} is older than any this controller migrates"):
        Table.from_dict(data)


def test_the_migrations_leave_the_file_s_own_data_alone():
    data = json.loads((SAVED / "v1-flip-between.json").read_text())
    before = json.dumps(data, sort_keys=True)
    Table.from_dict(data)
    assert json.dumps(data, sort_keys=True) == before
