"""Masked PPO in one file, CleanRL's way (``ppo.py``), on a registered bidbluff id through ``gymnasium.make_vec``.

Reads top to bottom: the arguments, the vector env, the network, the rollout, the advantages, the update.
Two things differ from CleanRL's ``ppo.py``, both because of the games, not of the recipe:

* **Masks.** The legal actions come batched in ``infos["action_mask"]``; illegal logits are set to -1e8 before
  the softmax (``ActorCritic.get_action_and_value``), in the rollout and in the update alike.
* **Next-step autoreset** (Gymnasium 1.x's default).  After a step that ends a game, the next observation is the
  game's last one (no legal action: the mask is all zeros) and the next ``step`` only resets that copy: its
  action is ignored and its reward is 0.  Those steps are marked invalid and left out of the loss, and a
  truncated game bootstraps from the value of its last observation, which this mode keeps in the rollout.

The network is the project's ``ActorCritic`` so that the result saves as a project checkpoint and plays in
its tournament::

    python examples/cleanrl_ppo_masked.py --env-id bidbluff/Libertalia-v0 --num-players 4 --total-timesteps 600000
    bidbluff tournament libertalia_v0 --agents runs/cleanrl/final.zip,random*3 --players 4 --games 2000 --seed 1
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
from torch import nn, optim

import bidbluff  # noqa: F401 - registers the ids
from bidbluff.agents.networks import ActorCritic
from bidbluff.agents.policy import env_signature, save_checkpoint


@dataclass
class Args:
    env_id: str = "bidbluff/Libertalia-v0"
    num_players: int = 4
    opponents: str = "random"
    seed: int = 1
    total_timesteps: int = 600_000
    time_limit: float = 0.0  # seconds; 0: none (the run stops after the update that passes it)
    learning_rate: float = 2.5e-4
    num_envs: int = 8
    vectorization_mode: str = "sync"
    num_steps: int = 256
    anneal_lr: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float = 0.0  # 0: no early stop
    trunk: int = 256
    net_arch: tuple[int, ...] = (128,)
    out: str = "runs/cleanrl"
    torch_threads: int = 1


def parse_args() -> Args:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        if field.type == "bool":
            parser.add_argument(flag, type=lambda s: s.lower() in ("1", "true", "yes"), default=field.default)
        elif field.name == "net_arch":
            parser.add_argument(flag, type=int, nargs="+", default=list(field.default))
        else:
            kind = {"int": int, "float": float, "str": str}[str(field.type)]
            parser.add_argument(flag, type=kind, default=field.default)
    values = vars(parser.parse_args())
    values["net_arch"] = tuple(values["net_arch"])
    return Args(**values)


def main(args: Args) -> Path:
    batch_size = args.num_envs * args.num_steps
    num_iterations = args.total_timesteps // batch_size
    print(json.dumps(dataclasses.asdict(args)))
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    rng = torch.Generator().manual_seed(args.seed)

    # -- the env: the registered id, vectorised by Gymnasium ----------------------------------------
    envs = gym.make_vec(
        args.env_id,
        num_envs=args.num_envs,
        vectorization_mode=args.vectorization_mode,
        num_players=args.num_players,
        opponents=args.opponents,
        seat="random",
    )
    obs_size = envs.single_observation_space.shape[0]
    n_actions = envs.single_action_space.n

    # -- the network ---------------------------------------------------------------------------------
    agent = ActorCritic(obs_size, n_actions, trunk=args.trunk, net_arch=args.net_arch)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # -- storage -------------------------------------------------------------------------------------
    obs = torch.zeros((args.num_steps, args.num_envs, obs_size))
    masks = torch.zeros((args.num_steps, args.num_envs, n_actions), dtype=torch.bool)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    terminateds = torch.zeros((args.num_steps, args.num_envs))
    truncateds = torch.zeros((args.num_steps, args.num_envs))
    valid = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    global_step, start, wins = 0, time.time(), []
    next_obs_np, infos = envs.reset(seed=args.seed)
    next_obs = torch.tensor(next_obs_np)
    next_mask = torch.tensor(infos["action_mask"], dtype=torch.bool)
    next_autoreset = torch.zeros(args.num_envs, dtype=torch.bool)  # this step only resets its copy

    for iteration in range(1, num_iterations + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / num_iterations) * args.learning_rate

        # -- rollout ---------------------------------------------------------------------------------
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step], valid[step] = next_obs, (~next_autoreset).float()
            # a game's last observation has no legal action; its action is ignored, any will do
            mask = next_mask | ~next_mask.any(dim=1, keepdim=True)
            masks[step] = mask
            with torch.no_grad():
                out = agent.get_action_and_value(next_obs, mask, generator=rng)
            actions[step], logprobs[step], values[step] = out.action, out.log_prob, out.value

            next_obs_np, reward, terminated, truncated, infos = envs.step(out.action.numpy())
            rewards[step] = torch.tensor(reward, dtype=torch.float32)
            terminateds[step] = torch.tensor(terminated, dtype=torch.float32)
            truncateds[step] = torch.tensor(truncated, dtype=torch.float32)
            next_obs = torch.tensor(next_obs_np)
            next_mask = torch.tensor(infos["action_mask"], dtype=torch.bool)
            next_autoreset = torch.tensor(np.logical_or(terminated, truncated))
            if "won" in infos:
                wins += [float(w) for w, has in zip(infos["won"], infos["_won"], strict=True) if has]

        # -- advantages (GAE), across next-step autoreset --------------------------------------------
        with torch.no_grad():
            next_value = agent.value(next_obs)
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                # terminated: no future; truncated: the future is the last observation's value (the next row)
                delta = rewards[t] + args.gamma * following * (1.0 - terminateds[t]) - values[t]
                carry = 1.0 - torch.maximum(terminateds[t], truncateds[t])  # the next row is another game's
                lastgaelam = delta + args.gamma * args.gae_lambda * carry * lastgaelam
                advantages[t] = lastgaelam
            returns = advantages + values

        # -- update ----------------------------------------------------------------------------------
        b_obs, b_masks = obs.reshape(batch_size, obs_size), masks.reshape(batch_size, n_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        b_valid = valid.reshape(-1)
        b_inds = np.flatnonzero(b_valid.numpy())  # the autoreset steps teach nothing
        clipfracs, approx_kl = [], torch.tensor(0.0)
        for _epoch in range(args.update_epochs):
            np.random.default_rng(args.seed + iteration * 100 + _epoch).shuffle(b_inds)
            for mb in np.array_split(b_inds, args.num_minibatches):  # equal shares of the valid steps
                out = agent.get_action_and_value(b_obs[mb], b_masks[mb], b_actions[mb])
                logratio = out.log_prob - b_logprobs[mb]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
                pg_loss = pg_loss.mean()
                v_clipped = b_values[mb] + (out.value - b_values[mb]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = 0.5 * torch.max((out.value - b_returns[mb]) ** 2, (v_clipped - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * out.entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
            if args.target_kl and approx_kl > args.target_kl:
                break

        recent = wins[-500:]
        sps = int(global_step / (time.time() - start))
        print(
            f"step {global_step} sps {sps} games {len(wins)} win_rate(last {len(recent)}) "
            f"{np.mean(recent) if recent else float('nan'):.3f} pg {pg_loss.item():.4f} v {v_loss.item():.4f} "
            f"kl {approx_kl.item():.4f} clip {np.mean(clipfracs):.3f}",
            flush=True,
        )
        if args.time_limit and time.time() - start > args.time_limit:
            break
    envs.close()

    # -- save in the project's checkpoint format (it plays in `bidbluff tournament`) ----------------------
    env_name = gym.spec(args.env_id).kwargs["env_name"]
    meta = {
        **env_signature(env_name),
        "env_options": {},
        "num_players": args.num_players,
        "algorithm": "PPO (examples/cleanrl_ppo_masked.py)",
        "steps": global_step,
        "opponents": [args.opponents],
        "options": dataclasses.asdict(args),
        "evaluation": [{"step": global_step, "train_win_rate": float(np.mean(wins[-500:])) if wins else None}],
        "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "versions": {"torch": torch.__version__, "gymnasium": gym.__version__},
    }
    Path(args.out).mkdir(parents=True, exist_ok=True)
    path = save_checkpoint(Path(args.out) / "final.zip", agent, meta)
    print(f"saved {path}")
    return path


if __name__ == "__main__":
    main(parse_args())
