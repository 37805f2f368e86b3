"""What every game shares: the engine contract, the action codec, the AEC env, rewards."""

from bidbluff.envs.core.aec import BoardGameEnv, wrap
from bidbluff.envs.core.codec import Action, ActionCodec, ActionKind
from bidbluff.envs.core.game import TERMINAL, Game, GameState
from bidbluff.envs.core.rewards import REWARD_MODES, final_rewards

__all__ = [
    "REWARD_MODES",
    "TERMINAL",
    "Action",
    "ActionCodec",
    "ActionKind",
    "BoardGameEnv",
    "Game",
    "GameState",
    "final_rewards",
    "wrap",
]
