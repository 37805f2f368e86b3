"""The Gymnasium registration: one id per env, versions from the env modules, and nothing heavy imported."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import gymnasium
import pytest

import bidbluff
from bidbluff import envs
from bidbluff.arena.gym_env import SingleAgentEnv
from bidbluff.gym import IDS, NAMESPACE, env_ids


def test_every_env_has_one_id_whose_version_is_the_modules():
    assert sorted(IDS.values()) == sorted(envs.ENVS)
    for env_id in env_ids():
        spec = gymnasium.spec(env_id)
        env_name = spec.kwargs["env_name"]
        assert spec.namespace == NAMESPACE
        assert spec.version == int(re.fullmatch(r".+_v(\d+)", env_name).group(1))
        # the name is the module's game in CamelCase: liars_dice_v0 -> LiarsDice
        assert spec.name == "".join(part.title() for part in env_name.rsplit("_v", 1)[0].split("_"))


def test_registering_again_changes_nothing():
    before = {env_id: gymnasium.spec(env_id) for env_id in env_ids()}
    bidbluff.gym.register_envs()
    assert {env_id: gymnasium.spec(env_id) for env_id in env_ids()} == before


def test_importing_the_package_registers_and_imports_no_env_agent_or_torch():
    code = (
        "import json, sys, gymnasium, bidbluff;"
        "print(json.dumps([sorted(k for k in gymnasium.registry if k.startswith('bidbluff/')),"
        " sorted(m for m in sys.modules if m.startswith('bidbluff')), 'torch' in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    ids, modules, torch = json.loads(out)
    assert ids == sorted(env_ids())
    assert modules == ["bidbluff", "bidbluff.gym"]
    assert not torch


def test_make_builds_the_env_with_the_games_options():
    env = gymnasium.make("bidbluff/LiarsDice-v0", num_players=4, opponents="heuristic*3", seat=2, dice=3)
    inner = env.unwrapped
    assert isinstance(inner, SingleAgentEnv)
    assert inner.num_players == 4 and inner.aec.game_state is None
    _, info = env.reset(seed=0)
    assert info["learner_seat"] == 2
    assert [type(a).__name__ for a in inner.seated if a is not None] == [type(inner.seated[3]).__name__] * 3
    assert inner.seated[2] is None and all(a is not None for s, a in enumerate(inner.seated) if s != 2)
    env.close()


def test_the_module_colon_form_imports_the_package():
    env = gymnasium.make("bidbluff:bidbluff/Spytails-v0")
    assert isinstance(env.unwrapped, SingleAgentEnv)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"seat": 9}, "seat"),
        ({"seat": "left"}, "seat"),
        ({"obs_type": "image"}, "obs_type"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"num_players": 9}, "players"),
        ({"reward_mode": "points"}, "reward_mode"),
    ],
)
@pytest.mark.filterwarnings("ignore:.*render_mode")  # gymnasium.make's own warning, before the env refuses it
def test_bad_kwargs_are_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        gymnasium.make("bidbluff/LiarsDice-v0", **kwargs)


def test_an_unknown_opponent_is_refused_when_the_first_game_seats_it():
    env = gymnasium.make("bidbluff/LiarsDice-v0", opponents="grandmaster")
    with pytest.raises(ValueError, match="unknown agent"):
        env.reset(seed=0)
