"""bidbluff: multi-agent RL environments for Lying Pirates, Spytails and Libertalia, with agents, training,
tournaments and human play.

The public API lives in the subpackages: ``bidbluff.envs`` (the PettingZoo AEC envs: ``from bidbluff.envs
import liars_dice_v0``), ``bidbluff.agents`` (``bidbluff.agents.make("shipped", env_name=...)``),
``bidbluff.arena`` (matches, tournaments, records, play) and ``bidbluff.training`` (the trainers).  In the
repository they are the top-level folders ``envs/``, ``agents/``, ``arena/``, ``training/`` and
``checkpoints/``; the build maps them into this one namespace (``pyproject.toml``'s ``package-dir``), so an
installed copy puts nothing but ``bidbluff`` on the top of ``sys.path``.

Importing the package registers every env with Gymnasium as a single-agent env (``bidbluff.gym``:
``gymnasium.make("bidbluff/LiarsDice-v0")``); that imports Gymnasium alone, nothing of the envs or agents.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("bidbluff")
except PackageNotFoundError:  # pragma: no cover - a source tree on sys.path that was never installed
    __version__ = "0+unknown"

from bidbluff.gym import register_envs

register_envs()

__all__ = ["__version__"]
