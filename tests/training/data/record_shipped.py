"""Record what a shipped checkpoint plays, as the reference its conversion must reproduce.

    python tests/training/data/record_shipped.py liars_dice_v0 [--rows 2000]

was run on each env's checkpoint in the old stable-baselines3 format, before it
was converted (``python -m bidbluff.training.convert``); ``test_shipped_conversion.py``
checks the converted checkpoint against it.  The observations are positions of
games the checkpoint played against itself (sampling, seeded), stored as
float16 (the inputs are those rounded values); the reference outputs come from
stable-baselines3's own ``MaskablePPO`` (an implementation apart from ours):
the greedy action, the value, and the five likeliest actions with their
log-probabilities.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from bidbluff import agents, envs

TOP = 5


def positions(env_name: str, rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    player = agents.make("shipped:sample", env_name=env_name, seed=seed)
    env = envs.make(env_name, raw=True)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    while len(obs) < rows:
        env.reset(seed=int(rng.integers(1 << 30)))
        while not env.game_state.is_terminal() and len(obs) < rows:
            seen = env.observe(env.agent_selection)
            obs.append(seen["observation"].astype(np.float16))
            masks.append(seen["action_mask"].astype(bool))
            env.step(player.act(seen, env.agent_selection))
    return np.array(obs), np.array(masks)


def main() -> None:
    from sb3_contrib import MaskablePPO

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env", choices=envs.ENVS)
    parser.add_argument("--rows", type=int, default=2000)
    args = parser.parse_args()
    path = agents.shipped_path(args.env)
    obs, masks = positions(args.env, args.rows)
    policy = MaskablePPO.load(path, device="cpu").policy
    with torch.no_grad():
        obs_t = torch.from_numpy(obs.astype(np.float32))
        dist = policy.get_distribution(obs_t, action_masks=masks)
        log_probs = dist.distribution.logits  # normalised: log-probabilities, illegal ones about -1e8
        values = policy.predict_values(obs_t).squeeze(-1)
    top = torch.topk(log_probs, TOP, dim=-1)
    out = Path(__file__).with_name(f"shipped_{args.env}.npz")
    np.savez_compressed(
        out,
        obs=obs,
        mask=np.packbits(masks, axis=1),
        n_actions=masks.shape[1],
        greedy=log_probs.argmax(-1).numpy().astype(np.int16),
        top_ids=top.indices.numpy().astype(np.int16),
        top_log_probs=top.values.numpy(),
        values=values.numpy(),
        zip_sha256=agents.policy.read_sidecar(path)["zip_sha256"],
    )
    print(f"{out}: {len(obs)} positions of {args.env}")


if __name__ == "__main__":
    main()
