"""Tabular policies for ``liars_dice_v0``: action probabilities per information state, in a JSON file.

The file (``checkpoints/liars_dice/cfr_2p1d.json`` is one, from ``python -m bidbluff.training.cfr``)::

    {"format": "bidbluff-tabular-policy", "format_version": 1, "env": "liars_dice_v0",
     "num_players": 2, "env_options": {"dice": 1, "preset": "lying_pirates", "specials": []},
     "algorithm": "...", "exploitability": 0.0004, ...,
     "policy": {"P0 | own 3 | bets -": {"bid 1x4": 0.61, "bid 2x6": 0.39}, ...}}

Keys are information states as ``bidbluff.envs.liars_dice.infoset.describe`` names them (the OpenSpiel bridge's
information state strings), actions as the env writes them, every legal action listed.
``TabularAgent`` finds its information state from the observation alone
(``bidbluff.envs.liars_dice.infoset.from_observation``) and plays the table: sampled (seeded), or the likeliest
action with ``greedy=True``.  The name of an information state does not say the rules or the table size,
so the agent checks the mask against the actions its row lists: a table played at other rules or another
table size is an error, never a silently wrong policy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff.agents.base import SeededAgent, legal_ids
from bidbluff.envs.liars_dice import codec
from bidbluff.envs.liars_dice.infoset import from_observation

FORMAT = "bidbluff-tabular-policy"
FORMAT_VERSION = 1
ENV_NAME = "liars_dice_v0"
_ID_OF = {codec.action_to_str(codec.id_to_action(i)): i for i in range(codec.CODEC.n)}


def save_table(path: str | Path, policy: dict[str, dict[int, float]], meta: dict[str, Any]) -> Path:
    """Write ``policy`` (information state -> env action id -> probability, every legal action) with ``meta``."""
    rows = {
        key: {codec.action_to_str(codec.id_to_action(i)): round(p, 7) for i, p in sorted(row.items())}
        for key, row in sorted(policy.items())
    }
    data = {"format": FORMAT, "format_version": FORMAT_VERSION, "env": ENV_NAME, **meta, "policy": rows}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def load_table(path: str | Path) -> tuple[dict[str, dict[int, float]], dict[str, Any]]:
    """``(policy, meta)`` of a tabular policy file; a ``ValueError`` that says what is wrong otherwise."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"tabular policy {path} does not exist")
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as bad:
        raise ValueError(f"tabular policy {path} is not valid JSON ({bad})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"{path} is not a {FORMAT} file of version {FORMAT_VERSION}")
    if data.get("env") != ENV_NAME:
        raise ValueError(f"tabular policy {path} is for {data.get('env')!r}; only {ENV_NAME} has tabular policies")
    policy: dict[str, dict[int, float]] = {}
    for key, row in data["policy"].items():
        unknown = [name for name in row if name not in _ID_OF]
        if unknown:
            raise ValueError(f"tabular policy {path}: {key!r} names unknown actions {unknown}")
        policy[key] = {_ID_OF[name]: float(p) for name, p in row.items()}
    meta = {k: v for k, v in data.items() if k != "policy"}
    return policy, meta


class TabularAgent(SeededAgent):
    """Plays a tabular policy (see the module docstring) from the observation of the seat to act."""

    def __init__(
        self,
        policy: dict[str, dict[int, float]],
        meta: dict[str, Any],
        seed: int | None = None,
        greedy: bool = False,
        name: str = "tabular",
    ) -> None:
        super().__init__(seed)
        self.policy = policy
        self.meta = meta
        self.deterministic = greedy
        self.name = name

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The table's row for this observation's information state, over the env's action ids."""
        key = from_observation(observation["observation"])
        row = self.policy.get(key)
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        if row is None or sorted(row) != legal:
            table = f"{self.meta.get('num_players')} players with {self.meta.get('env_options')}"
            missing = "has no information state" if row is None else "has other legal actions at"
            raise ValueError(
                f"the {self.name} table ({table}) {missing} {key!r}: is this another table size or rule preset?"
            )
        out = np.zeros(codec.CODEC.n)
        out[list(row)] = list(row.values())
        return out / out.sum()

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = legal_ids(observation, agent)
        if legal.size == 1:
            return int(legal[0])
        probs = self.probabilities(observation)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(len(probs), p=probs))


def load_tabular(path: str | Path, seed: int | None = None, greedy: bool = False) -> TabularAgent:
    policy, meta = load_table(path)
    return TabularAgent(policy, meta, seed=seed, greedy=greedy, name=f"tabular:{Path(path).stem}")
