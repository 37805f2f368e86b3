"""A tiny training run end to end on every env, through the command line, with an interruption and --resume."""

from __future__ import annotations

import csv
import json

import pytest

from bidbluff import agents, envs
from bidbluff.agents.policy import read_sidecar
from bidbluff.cli import main

TINY = ["--num-envs", "2", "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "32",
        "--checkpoint-every", "64", "--eval-games", "2", "--no-progress"]  # fmt: skip


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_train_then_resume(env_name, tmp_path):
    out = tmp_path / "run"
    assert main(["train", env_name, "--total-steps", "128", "--out", str(out), *TINY]) == 0
    first = read_sidecar(out / "final.zip", env_name)
    assert first["steps"] >= 128 and first["env"] == env_name
    assert first["options"]["learning_rate"] == 3e-4 and first["opponents"] == ["random"]
    assert first["evaluation"] and 0 <= first["evaluation"][-1]["win_share"] <= 1
    steps = sorted(int(p.stem.split("_")[1]) for p in (out / "checkpoints").glob("step_*.zip"))
    assert steps == [64, 128]

    # an interrupted run: the newest checkpoint is truncated; resume falls back to the one before
    newest = out / "checkpoints" / f"step_{steps[-1]}.zip"
    newest.write_bytes(newest.read_bytes()[:100])
    with pytest.raises(SystemExit, match="already holds a run"):
        main(["train", env_name, "--total-steps", "256", "--out", str(out), *TINY])
    with pytest.raises(SystemExit, match="cannot change learning_rate"):
        main(["train", env_name, "--resume", "--learning-rate", "0.1", "--out", str(out), *TINY])
    assert main(["train", env_name, "--resume", "--total-steps", "256", "--out", str(out), *TINY]) == 0
    final = read_sidecar(out / "final.zip", env_name)
    assert final["steps"] >= 256
    assert len(final["evaluation"]) > len(first["evaluation"]) - 1
    rows = list(csv.DictReader((out / "progress.csv").open()))
    assert int(rows[-1]["step"]) >= 256
    config = json.loads((out / "config.json").read_text())
    assert config["total_steps"] == 256 and config["net_arch"] == [32]

    agent = agents.make(str(out / "final.zip"), env_name=env_name)
    env = envs.make(env_name)
    env.reset(seed=0)
    for name in env.agent_iter():
        obs, _, done, truncated, _ = env.last()
        env.step(None if done or truncated else agent.act(obs, name))


@pytest.mark.parametrize("trainer", ["train", "batched"])
def test_time_limit_stops_a_run_with_a_final_checkpoint(trainer, tmp_path):
    out = tmp_path / "run"
    if trainer == "train":
        args = ["train", "liars_dice_v0", *TINY]
    else:
        args = ["selfplay", "liars_dice_v0", "--trainer", "batched", "--num-games", "4", "--rollout-steps", "64",
                "--trunk", "16", "--net-arch", "8", "--eval-games", "0", "--no-progress"]  # fmt: skip
    assert main([*args, "--total-steps", "100000000", "--time-limit", "1.5", "--out", str(out)]) == 0
    final = read_sidecar(out / "final.zip", "liars_dice_v0")
    assert 0 < final["steps"] < 100_000_000
