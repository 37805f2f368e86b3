"""Gymnasium registration: one single-agent id per bidbluff env, under the ``bidbluff`` namespace.

``import bidbluff`` runs ``register_envs()``; then::

    import gymnasium
    import bidbluff  # noqa: F401 - registers the ids

    env = gymnasium.make("bidbluff/LiarsDice-v0", num_players=4, opponents="heuristic*3", seat="random")
    envs = gymnasium.make_vec("bidbluff/Libertalia-v0", num_envs=8, vectorization_mode="async")

(``gymnasium.make("bidbluff:bidbluff/LiarsDice-v0")`` imports the package itself.)  Each id's version is its
env module's ``_vN``; a change of the env's meaning bumps both.  The entry point is a string, so registering
imports nothing but Gymnasium: the env, its game and the opponents' agents load when an env is made.  The
kwargs are ``bidbluff.arena.gym_env.SingleAgentEnv``'s (see docs/gymnasium.md).
"""

from __future__ import annotations

import gymnasium

NAMESPACE = "bidbluff"
ENTRY_POINT = "bidbluff.arena.gym_env:SingleAgentEnv"
# Gymnasium id (without the namespace) -> bidbluff env module; tests/gym_envs checks it against bidbluff.envs.ENVS
IDS = {
    "Libertalia-v0": "libertalia_v0",
    "LiarsDice-v0": "liars_dice_v0",
    "LyingPirates-v0": "lying_pirates_v0",
    "Spytails-v0": "spytails_v0",
}


def env_ids() -> list[str]:
    """Every registered id: ``["bidbluff/Libertalia-v0", ...]``."""
    return [f"{NAMESPACE}/{name}" for name in IDS]


def register_envs() -> None:
    """Register every id once (importing the package twice, or reloading it, registers nothing new)."""
    for name, env_name in IDS.items():
        env_id = f"{NAMESPACE}/{name}"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"env_name": env_name})
