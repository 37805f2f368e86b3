"""Self-play PPO on Ray RLlib (new API stack): ``bidbluff selfplay <env> --trainer rllib``.

For a cluster, or many cores: RLlib's env runners play the games on any node of a Ray cluster
(``--address``), its learner updates one network that every learner seat shares.  This module holds only
the run's options (no Ray import: the command line lists them without the ``rllib`` extra); the pieces:

* ``bidbluff.training.rllib.env``: ``TableEnv``, a ``MultiAgentEnv`` adapter of our AEC envs.  Not RLlib's
  ``PettingZooEnv``: that wrapper fixes the agents at its construction (one table size) and hands every
  seat to a module, so a heuristic (which may read the engine: ``needs_env``) could not sit at the
  table.  The adapter seats each game from the league (``bidbluff.training.league``, drawn on the driver and sent
  to the env runners as PFSP weights): baselines act inside the adapter (no module round trip, any
  agent works); the learner's seats and the snapshots' seats are RLlib agents named
  ``player_<seat>/<module>``, so the policy mapping is the name's suffix (``module_of``).
* ``bidbluff.training.rllib.module``: ``MaskedActorCritic``, an RLModule whose network *is*
  ``bidbluff.agents.networks.ActorCritic`` with illegal actions' logits masked, so weights copy to and from the
  project's checkpoints one to one (export, ``--init``).
* ``bidbluff.training.rllib.trainer``: the run.  Snapshots are frozen modules ``pool_0 .. pool_<pool_max - 1>``
  (a ring: generation k sits in slot (k - 1) mod pool_max), never trained.

Run layout (``--out``, default ``runs/<env>-rllib``): ``config.json``, ``progress.csv``, ``eval.csv``,
``checkpoints/step_<N>.zip|.json`` (the project's format; the sidecar holds the league), ``rllib/step_<N>/``
(RLlib's own checkpoint: optimizer and every module; ``--resume`` restores the newest one that has its
project checkpoint), ``final.zip|.json``.
"""

from __future__ import annotations

from typing import Any

from bidbluff.training.rllib.config import RESUMABLE, RllibConfig

__all__ = ["RESUMABLE", "RllibConfig", "train_rllib"]


def train_rllib(config: RllibConfig, resume: bool = False, progress_bar: bool = True) -> Any:
    """Run (or resume) an RLlib self-play run; returns the final checkpoint's zip path.  Needs the ``rllib``
    extra (``pip install -e '.[rllib]'``): without Ray, a ``ValueError`` says so."""
    try:
        from bidbluff.training.rllib.trainer import RllibTrainer
    except ImportError as missing:
        raise ValueError(
            f"--trainer rllib needs the rllib extra: pip install -c constraints.txt -e '.[rllib]' ({missing})"
        ) from None
    return RllibTrainer(config, resume=resume, progress_bar=progress_bar).run()
