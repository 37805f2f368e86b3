"""A few steps of both trainers on every Lying Pirates option table (``test_configs``): each option set at all its
table sizes in one batched run (``--players`` as a list), and at its first size with MaskablePPO.  The buffers
must be sized from the configured game (an expansion table's observations are larger than the base game's)."""

from __future__ import annotations

import json

import pytest

from bidbluff import agents, envs
from bidbluff.agents.policy import read_sidecar
from bidbluff.cli import main

ENV = "lying_pirates_v0"


def option_tables() -> list[tuple[dict, list[int]]]:
    """``(options, table sizes)`` for each distinct option set of the env's test tables, and the base game."""
    tables: dict[str, tuple[dict, list[int]]] = {"{}": ({}, [2, 3, 4, 5, 6])}
    for config in envs.game(ENV).test_configs:
        options = {k: v for k, v in config.items() if k not in ("num_players", "slow")}
        tables.setdefault(json.dumps(options, sort_keys=True), (options, []))[1].append(config["num_players"])
    return list(tables.values())


@pytest.mark.parametrize(("options", "sizes"), option_tables(), ids=lambda v: json.dumps(v, sort_keys=True))
def test_both_trainers_take_a_few_steps(options, sizes, tmp_path):
    text = json.dumps(options)
    batched = tmp_path / "batched"
    assert main(["selfplay", ENV, "--players", ",".join(map(str, sizes)), "--env-options", text,
                 "--num-games", "3", "--rollout-steps", "32", "--minibatch-size", "16", "--n-epochs", "1",
                 "--trunk", "16", "--net-arch", "8", "--total-steps", "32", "--eval-games", "0",
                 "--opponents", "random", "--pool-fraction", "0.3", "--no-progress",
                 "--out", str(batched)]) == 0  # fmt: skip
    meta = read_sidecar(batched / "final.zip", ENV)
    assert meta["env_options"] == options and meta["table_sizes"] == sorted(set(sizes))
    assert meta["observation_shape"] == [envs.game(ENV, **options).observation_size]

    sb3 = tmp_path / "sb3"
    assert main(["train", ENV, "--players", str(sizes[0]), "--env-options", text, "--num-envs", "1",
                 "--n-steps", "32", "--batch-size", "32", "--n-epochs", "1", "--net-arch", "8", "--total-steps", "32",
                 "--eval-games", "0", "--no-progress", "--out", str(sb3)]) == 0  # fmt: skip
    for run in (batched, sb3):
        agent = agents.make(str(run / "final.zip"), env_name=ENV)
        env = envs.make(ENV, raw=True, num_players=sizes[0], **options)
        env.reset(seed=1)
        for _ in range(20):
            if env.game_state.is_terminal():
                break
            env.step(agent.act(env.observe(env.agent_selection), env.agent_selection))
