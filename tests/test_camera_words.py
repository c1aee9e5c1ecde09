"""The camera's words are defined once (shooter/camera/words.py): ``[sim] scene``'s names are the ones the config
takes and the simulated camera knows, ``cards bench --exposure``'s the ones the CLI offers and the bench takes."""

from __future__ import annotations

import argparse

import pytest

from shooter.camera import cards_cli
from shooter.camera.words import EXPOSURES, SIM_SCENES, Exposure, SimScene
from shooter.config import parse_config
from shooter.errors import ConfigError


def test_every_scene_name_is_taken_by_the_config_and_known_to_the_simulated_camera():
    pytest.importorskip("cv2")
    from shooter.app import App
    from sim.camera import HELD_OUT, LEARNING
    seen = []
    for scene in SimScene:
        config = parse_config({"camera": {"backend": "sim", "report": "ask"}, "sim": {"scene": scene.value}})
        assert config.sim_scene == scene
        with App(config, sim=True, virtual=True, seed=1, log=lambda line: None) as app:
            assert app.camera is not None
            seen.append(app.camera.camera.camera.settings)
    assert seen == [HELD_OUT, LEARNING]


def test_the_config_refuses_a_scene_outside_the_names_and_lists_them():
    with pytest.raises(ConfigError, match=r"sim\.scene: must be one of held-out, learning, got 'sunny'"):
        parse_config({"sim": {"scene": "sunny"}})
    assert SIM_SCENES == ("held-out", "learning")


def _bench_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    cards_cli.add_parser(parser.add_subparsers(dest="command"))
    return parser


def test_the_cli_offers_the_bench_exactly_the_exposure_words():
    parser = _bench_parser()
    for word in EXPOSURES:
        assert parser.parse_args(["cards", "bench", "--sim", "--exposure", word]).exposure == word
    assert parser.parse_args(["cards", "bench", "--sim"]).exposure == Exposure.SET


def test_the_bench_refuses_a_word_outside_them_before_it_renders_anything():
    pytest.importorskip("numpy")
    from shooter.vision.bench import bench
    with pytest.raises(ConfigError, match=r"exposure 'manual': one of set, own"):
        bench([], seed=1, cards=1, exposure="manual")
