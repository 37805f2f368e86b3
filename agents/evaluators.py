"""What IS-MCTS asks of a position: a prior over the acting seat's actions and a value for every seat.

As in OpenSpiel's ``mcts.py``, the ``Evaluator`` is the one seam where rollouts,
heuristics or a trained network plug into the search (``bidbluff.agents.ismcts``).  Its
``leaf(game, state, actor, observation, legal, rng)`` answers a new tree node:

* **prior**: probabilities over ``legal`` (the acting seat's legal ids) from the
  policy head of a ``Network`` given the acting seat's observation, or from one of
  the game's rules-based players (``HeuristicPrior``: the heuristic, or an outside-style
  player such as ``odds``), or ``None`` (uniform) without one.
  The tree keeps it in the node, which is keyed by the acting seat's
  information set, so it is asked once per information set.
* **values**: one per seat.  The evaluator plays the determinised ``state``
  forward with its ``Rollout`` policy (uniform random, one of the game's rules-based
  players, or a network's sampled policy), ``steps`` decisions or to the end, then reads
  the ``Network``'s value head on every live seat's observation (a cut-off), or
  the game's final rewards when the game ended first.

Batched network calls: at a cut-off every seat's observation goes through the
value network in one forward pass; when the prior comes from the same network
and the cut-off is at once (``steps=0``, AlphaZero's evaluator), the acting
seat's row of that same pass is the prior, so a simulation costs one forward
pass of ``num_players`` rows.

The value head's meaning.  A shipped network's value head was trained on the
reward of its run (the sidecar's ``options.reward_mode``: ``win`` or ``score``)
from the observing seat's perspective, discounted by ``gamma`` close to 1.  So
a search that reads it backs up final rewards in that same mode
(``Evaluator.reward_mode``), and reads seat ``s``'s value from ``s``'s own
observation.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from bidbluff.agents.heuristic import make_heuristic
from bidbluff.agents.outsiders import OUTSIDERS, make_outsider

MAX_ROLLOUT = 100_000  # a safety cap: a game that does not end is an engine bug


class Leaf(NamedTuple):
    prior: np.ndarray | None  # over the given legal ids, summing to 1; None: uniform
    values: np.ndarray  # (num_players,) each seat's value of the position


# -- networks ----------------------------------------------------------------------------
class Network:
    """A checkpoint's ``ActorCritic`` for search: batched logits and values from observation rows."""

    def __init__(self, net: Any, meta: dict[str, Any], name: str) -> None:
        self.net = net
        self.meta = meta
        self.name = name
        self.reward_mode: str = (meta.get("options") or {}).get("reward_mode", "win")
        self._fast: Any = None  # the numpy forward pass, made on first use (``NumpyActorCritic``)

    def check(self, game: Any) -> None:
        """Refuse a game whose observation or action layout the network was not built for."""
        sizes = self.net.sizes
        if sizes["obs_size"] != game.observation_size or sizes["n_actions"] != game.codec.n:
            raise ValueError(
                f"network {self.name} reads {sizes['obs_size']} observation values and has {sizes['n_actions']} "
                f"actions; {game.name} with these options has {game.observation_size} and {game.codec.n}"
            )

    def infer(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(logits (B, n_actions), values (B,))`` for observation rows ``(B, obs_size)``, one forward pass."""
        if len(observations) <= NUMPY_ROWS:
            return self.fast.forward(np.asarray(observations, dtype=np.float32))
        import torch

        threads = torch.get_num_threads()
        # A few rows gain nothing from intra-op threads, and on busy shared cores torch's thread pool makes a
        # forward pass ~50x slower; set back at once so that the caller's training keeps its own setting.
        torch.set_num_threads(1)
        try:
            with torch.no_grad():
                logits, values = self.net(torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32)))
        finally:
            torch.set_num_threads(threads)
        return logits.numpy(), values.numpy()

    @property
    def fast(self) -> Any:
        """The network's numpy forward pass (``bidbluff.agents.networks.NumpyActorCritic``): a rollout asks for
        one row at a time, and a torch call costs more than its arithmetic there (about 0.05 ms a row against
        torch's 0.1-0.2)."""
        if self._fast is None:
            from bidbluff.agents.networks import NumpyActorCritic

            self._fast = NumpyActorCritic(self.net)
        return self._fast

    def policy(self, observation: np.ndarray, legal: Sequence[int], actor: int) -> np.ndarray:
        """The policy head's probabilities over ``legal`` at ``observation``."""
        logits = self.fast.logits(np.asarray(observation[None], dtype=np.float32))
        return legal_softmax(logits[0], legal)


NUMPY_ROWS = 8  # up to this many rows a forward pass runs in numpy (``Network.fast``)


RULES_PLAYERS = ("heuristic", *OUTSIDERS)  # the rules-based players a search may take as its prior or rollout


def rules_player(env_name: str, player: str = "heuristic", seed: int | None = None) -> Any:
    """The game's rules-based ``player``: ``heuristic``, or an outside-style one (``odds``, ``lowball``, ``myopic``)
    where the game has it.  A search that takes an outside-style player as its prior and the others' model
    (``prior=odds,others=prior``) is a best response by search to a table of that player, which it knows move for
    move."""
    if player == "heuristic":
        return make_heuristic(env_name, seed)
    if player not in OUTSIDERS:
        raise ValueError(f"no rules-based player {player!r}; a search can take one of {', '.join(RULES_PLAYERS)}")
    return make_outsider(player, env_name, seed)


class HeuristicPrior:
    """A rules-based player as a prior (the game's heuristic unless ``player`` names another): the distribution
    it draws from where it tells one (``probabilities``), else all on the move it picks; the search mixes in a
    uniform share."""

    def __init__(self, env_name: str, n_actions: int, seed: int | None = None, player: str = "heuristic") -> None:
        self.player = rules_player(env_name, player, seed)
        self.env_name = env_name
        self.n_actions = n_actions
        self.name = player

    def policy(self, observation: np.ndarray, legal: Sequence[int], actor: int) -> np.ndarray:
        mask = np.zeros(self.n_actions, dtype=np.int8)
        mask[legal] = 1
        seen = {"observation": observation, "action_mask": mask}
        if hasattr(self.player, "probabilities"):
            probs = np.asarray(self.player.probabilities(seen), dtype=np.float64)[np.asarray(legal)]
            return probs / probs.sum()
        return (np.asarray(legal) == self.player.act(seen, f"player_{actor}")).astype(np.float64)


class Prior(Protocol):
    """A prior over the acting seat's legal ids from its observation."""

    name: str

    def policy(self, observation: np.ndarray, legal: Sequence[int], actor: int) -> np.ndarray: ...


def legal_softmax(logits: np.ndarray, legal: Sequence[int]) -> np.ndarray:
    """The policy restricted to ``legal`` ids (as ``bidbluff.agents.networks.masked_logits`` masks it), in that
    order."""
    chosen = np.asarray(logits, dtype=np.float64)[np.asarray(legal)]
    chosen = np.exp(chosen - chosen.max())
    return chosen / chosen.sum()


@functools.lru_cache(maxsize=8)
def load_network(spec: str, env_name: str) -> Network:
    """``shipped`` (the env's ``checkpoints/<game>/selfplay.zip``), ``shipped@VERSION`` (one retired as VERSION) or a
    checkpoint path, checked against the env (``bidbluff.agents.policy.load_network``); loaded once per process and
    shared by every search that names it."""
    from bidbluff.agents.policy import load_network as load_checkpoint
    from bidbluff.agents.shipped import shipped_network

    net, meta, _ = load_checkpoint(shipped_network(spec, env_name), env_name)
    return Network(net, meta, spec)


# -- rollout policies --------------------------------------------------------------------
class Rollout(Protocol):
    """Picks the acting seat's engine action in a simulated position (from that seat's information only)."""

    name: str

    def choose(self, game: Any, state: Any, actor: int, rng: np.random.Generator) -> Any: ...


class RandomRollout:
    """Uniform over the legal actions: IS-MCTS's classic default policy."""

    name = "random"

    def choose(self, game: Any, state: Any, actor: int, rng: np.random.Generator) -> Any:
        actions = state.legal_actions()
        return actions[int(rng.integers(len(actions)))]


def seat_view(
    game: Any, state: Any, actor: int, legal: list[int] | None = None
) -> tuple[dict[str, np.ndarray], list[int]]:
    """The acting seat's PettingZoo observation of a simulated position, and its legal ids (``legal``: known
    already)."""
    if legal is None:
        legal = game.legal_action_ids(state, actor)
    mask = np.zeros(game.codec.n, dtype=np.int8)
    mask[legal] = 1
    return {"observation": game.encode(state, actor), "action_mask": mask}, legal


class HeuristicRollout:
    """A rules-based player (the game's heuristic unless ``player`` names another) for every seat, from each seat's
    observation."""

    def __init__(self, env_name: str, seed: int | None = None, player: str = "heuristic") -> None:
        self.player = rules_player(env_name, player, seed)
        self.name = player

    def choose(self, game: Any, state: Any, actor: int, rng: np.random.Generator) -> Any:
        observation, _ = seat_view(game, state, actor)
        return game.id_to_action(state, self.player.act(observation, f"player_{actor}"), actor)


class PolicyRollout:
    """A prior's policy (a network's, one forward pass per decision, or the heuristic's distribution), sampled
    with the search's generator."""

    def __init__(self, prior: Prior) -> None:
        self.prior = prior
        self.name = f"network:{prior.name}" if isinstance(prior, Network) else prior.name

    def choose(self, game: Any, state: Any, actor: int, rng: np.random.Generator) -> Any:
        legal = game.legal_action_ids(state, actor)
        if len(legal) == 1:  # a forced move needs no observation and no forward pass
            return game.id_to_action(state, legal[0], actor)
        observation, legal = seat_view(game, state, actor, legal)
        probs = self.prior.policy(observation["observation"], legal, actor)
        # inverse CDF: Generator.choice(p=...) checks its p each call, a third of a rollout step's sampling
        pick = min(int(np.searchsorted(np.cumsum(probs), rng.random() * probs.sum(), side="right")), len(legal) - 1)
        return game.id_to_action(state, legal[pick], actor)


# -- the evaluator -----------------------------------------------------------------------
class Evaluator:
    """Prior and values of a leaf (see the module doc).

    Args:
        rollout: the policy that plays the position forward (default: uniform random).
        value: a ``Network`` whose value head cuts the rollout off; ``None``: play to the end.
        steps: decisions played before the cut-off (0: read the value at once); ``None``: to the end.
        prior: a ``Network`` whose policy head gives the prior, or a ``HeuristicPrior``; ``None``: uniform.
        reward_mode: the final rewards backed up; must be the value network's own mode (see module doc).
    """

    def __init__(
        self,
        rollout: Rollout | None = None,
        value: Network | None = None,
        steps: int | None = None,
        prior: Prior | None = None,
        reward_mode: str = "win",
    ) -> None:
        if (value is None) != (steps is None):
            raise ValueError("a value cut-off needs both a value network and a number of rollout steps (0: at once)")
        if steps is not None and steps < 0:
            raise ValueError(f"rollout steps must be 0 or more, not {steps}")
        if value is not None and value.reward_mode != reward_mode:
            raise ValueError(
                f"the value network {value.name} was trained on reward_mode {value.reward_mode!r}; "
                f"a search reading it backs up that mode, not {reward_mode!r}"
            )
        self.rollout = rollout or RandomRollout()
        self.value = value
        self.steps = steps
        self.prior = prior
        self.reward_mode = reward_mode

    def check(self, game: Any) -> None:
        for network in (self.value, self.prior):
            if isinstance(network, Network):
                network.check(game)

    def leaf(
        self,
        game: Any,
        state: Any,
        actor: int,
        observation: np.ndarray,
        legal: Sequence[int],
        rng: np.random.Generator,
        rollouts: dict[int, Rollout] | None = None,
    ) -> Leaf:
        """Prior over ``legal`` for ``actor`` (whose ``observation`` of ``state`` is given) and every seat's value;
        ``state`` is a determinisation the evaluator may play forward (``rollouts``: seats that play another
        policy than the evaluator's rollout there)."""
        if self.steps == 0 and self.prior is self.value:
            logits, values = self._cut_off(game, state, {actor: observation})
            return Leaf(legal_softmax(logits[actor], legal), values)
        prior = None if self.prior is None else self.prior.policy(observation, legal, actor)
        return Leaf(prior, self.evaluate(game, state, rng, rollouts))

    def evaluate(
        self, game: Any, state: Any, rng: np.random.Generator, rollouts: dict[int, Rollout] | None = None
    ) -> np.ndarray:
        """Every seat's value of ``state`` (consumed): roll out (``rollouts``: seats that play another policy),
        then the final rewards or the value cut-off."""
        limit = MAX_ROLLOUT if self.steps is None else self.steps
        rollouts = rollouts or {}
        for _ in range(limit):
            if state.is_terminal():
                break
            actor = state.current_player()
            state.apply(rollouts.get(actor, self.rollout).choose(game, state, actor, rng), rng)
        if state.is_terminal():
            return np.asarray(game.final_rewards(state, self.reward_mode), dtype=np.float64)
        if self.value is None:
            raise RuntimeError(f"IS-MCTS rollout did not end within {MAX_ROLLOUT} steps")
        return self._cut_off(game, state, {})[1]

    def _cut_off(self, game: Any, state: Any, known: dict[int, np.ndarray]) -> tuple[dict[int, np.ndarray], np.ndarray]:
        """One forward pass of every seat's observation: ``({seat: logits}, values)``; final rewards instead
        where the game is over."""
        if state.is_terminal():
            return {}, np.asarray(game.final_rewards(state, self.reward_mode), dtype=np.float64)
        seats = range(len(state.scores()))
        rows = np.stack([known[s] if s in known else game.encode(state, s) for s in seats])
        logits, values = self.value.infer(rows)
        return dict(enumerate(logits)), values.astype(np.float64)
