"""Information-set Monte Carlo tree search, written once for every game on the engine API.

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012) with one change
that suits simultaneous and hidden moves: a tree node is the *information set
of the seat to act*, keyed by that seat and its observation bytes
(``game.encode(state, seat)``).  So an opponent's node after our hidden
sunrise pick is the same whichever card we picked: the opponent cannot react
to what it cannot see, and our own later nodes merge the deals we cannot tell
apart.

Each simulation:

1. **Determinise**: ``state.resample_hidden(seat, rng)`` draws a full state
   consistent with everything the acting seat knows (and nothing more); with
   ``belief=bayes`` (Liar's dice) the other cups' crew dice are then drawn
   from the posterior that the bets imply (``bidbluff.agents.heuristic.liars_dice_bayes.
   BetBelief``) instead of fair; with ``belief=prior`` from the posterior
   under the prior's policy (``bidbluff.agents.beliefs.PolicyBelief``).  In
   Libertalia ``belief=prior`` draws the cards already put face down at this
   sunrise from the prior's policy instead of uniformly
   (``bidbluff.agents.sunrise.SunriseBelief``).
2. **Select**: from the root, at each node in the tree take the action, among
   those legal in this determinisation, that the selection rule ranks first
   for the seat acting there.  Both rules count a parent's visits as the
   action's *availability* (simulations in which it was legal):

   * ``ucb``: UCB1, ``W/N + c * sqrt(ln(A)/N)``, untried actions first (at random);
   * ``puct``: AlphaZero's rule, ``W/N + c * P * sqrt(A)/(1 + N)`` with the
     node's prior ``P`` (0 for ``W/N`` of an untried action, as OpenSpiel does).

   With ``others=prior`` only the searching seat's nodes select; the other
   seats' moves are drawn from the prior (the network's policy), an opponent
   model, so the search is a best response to the prior's play where plain
   IS-MCTS assumes opponents that search as well.  With ``others=prior+heuristic``
   (``belief=prior``) each determinisation also draws which of the two each
   other seat plays, from the posterior its bets (Liar's dice) or the cards it
   has turned over (Libertalia) give, and that seat plays it in the tree and in
   the rollout.
3. **Expand** the first information set not yet in the tree and ask the
   evaluator (``bidbluff.agents.evaluators``) for its prior and every seat's value:
   a rollout to the end (uniform, heuristic or network policy), or one cut off
   by a network's value head after K steps or at once.
4. **Back up** every seat's value into the edges taken by that seat.

``search`` returns a ``SearchResult``: the action, the root's visit counts and
visit distribution over the action ids, and the root value for the searching
seat, the statistics OpenSpiel's ``mcts`` returns and that search-improved
training targets need.

The budget is a number of simulations, a time in milliseconds, or both (the
first reached stops).  The agent needs the engine: ``bind(env)`` before play
(see ``bidbluff.agents.base``); it reads the env's state only to determinise it.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from bidbluff.agents.base import legal_ids, seat_of
from bidbluff.agents.evaluators import (
    RULES_PLAYERS,
    Evaluator,
    HeuristicPrior,
    HeuristicRollout,
    PolicyRollout,
    RandomRollout,
    load_network,
)
from bidbluff.envs.core import REWARD_MODES

SELECTIONS = ("ucb", "puct")
# determinisations that read more than the rules: the games each one reads
BELIEFS = {None: (), "bayes": ("liars_dice_v0",), "prior": ("liars_dice_v0", "libertalia_v0")}
# Each game's "expert" opponent: the strongest setting measured against the heuristics, capped at one second of wall
# time per decision (README, "Search strength").  Liar's dice: the network's rollouts under its prior, each other
# captain taken to play the network or the heuristic as its bets say, with its cup drawn from that posterior
# (others=prior+heuristic, belief=prior: 0.424 against three heuristics and 0.326 against three networks, one
# setting for both).  Lying Pirates: the network's prior and value at once, the other seats' moves drawn from the
# prior (0.527; 38 ms of CPU).  Spytails: the same, but with 8 decisions of the network's rollout before its value
# cuts off; the value read at once put the search under its network (0.547 against 0.397; about 50 ms).
# Libertalia: the network's rollouts to the end under its prior, backing up the win share, each other seat taken to
# play the network or the heuristic as the cards it has turned over say, its face-down card at this sunrise drawn
# from that policy (0.907 against three heuristics and 0.663 against three networks; 160-370 ms).
EXPERT = {
    "liars_dice_v0": (
        "ismcts:500,1000ms,prior=shipped,rollout=shipped,others=prior+heuristic,belief=prior,reward=winner"
    ),
    "libertalia_v0": (
        "ismcts:30,1000ms,prior=shipped,rollout=shipped,others=prior+heuristic,belief=prior,reward=winner"
    ),
    "lying_pirates_v0": "ismcts:50,1000ms,prior=shipped,value=shipped,others=prior",
    "spytails_v0": "ismcts:30,1000ms,prior=shipped,value=shipped,rollout=shipped,steps=8,others=prior",
}


OTHERS = ("search", "prior", "prior+heuristic")  # how the other seats' decisions are made inside the simulations


class _Node:
    __slots__ = ("avail", "model", "prior", "visits", "wins")

    def __init__(self, prior: dict[int, float] | None, model: tuple[list[int], np.ndarray] | None = None) -> None:
        self.prior = prior  # None: uniform
        self.model = model  # others=prior: the other seat's ids and unmixed prior, to sample its move from
        self.visits: dict[int, int] = {}
        self.wins: dict[int, float] = {}
        self.avail: dict[int, int] = {}


@dataclass(frozen=True)
class SearchResult:
    """What one search found from the searching seat's information set."""

    action: int  # the most visited legal id (ties broken at random)
    visits: dict[int, int]  # every legal id's visit count at the root
    policy: np.ndarray  # (n_actions,) the visit distribution over the action ids (0 for illegal ones)
    value: float  # the searching seat's mean backed-up value at the root
    action_values: dict[int, float]  # each visited legal id's mean backed-up value (its Q)
    simulations: int


class ISMCTSAgent:
    """IS-MCTS over the bound env's engine.

    Args:
        simulations: simulations per decision (``None``: only ``time_ms`` bounds it).
        time_ms: wall-clock budget per decision in milliseconds (``None``: none).
        exploration: the selection constant ``c`` (default: 0.7 for ``ucb``, 1.5 for ``puct``).
        reward_mode: the env reward mode backed up (``bidbluff.envs.core.REWARD_MODES``; ``"winner"`` aims at the win
            share alone where a game's own ``win`` payoffs differ); with a value network, that network's mode
            (the default then).
        selection: ``"ucb"`` or ``"puct"`` (default: ``puct`` with a prior, ``ucb`` without).
        prior: the network of the prior, ``"shipped"`` or a checkpoint path, or a rules-based player's choice:
            ``"heuristic"``, or an outside-style player the game has (``"odds"``, ``"lowball"``, ``"myopic"``)
            (``None``: uniform).
        value: the network whose value head cuts rollouts off (``None``: roll out to the end).
        rollout: ``"random"``, a rules-based player (as for ``prior``), or a network (``"shipped"`` or a
            checkpoint path).
        steps: rollout decisions before the value cut-off (default 0 with ``value``: at once).
        others: ``"search"``: the other seats' nodes select as the searching seat's do; ``"prior"``: their moves
            are drawn from the prior (an opponent model; needs ``prior``); ``"prior+heuristic"``: from the prior
            or the game's heuristic, whichever each seat's bets (or, in Libertalia, its cards turned over) say it
            plays (needs ``belief="prior"``).
        mix: the share of a uniform prior mixed into the network's at every node, so that a move the network
            all but rules out still gets tried once the others' values are known (a sure "Liar!" in a spot
            unlike its training); AlphaZero's root noise plays this part in training.
        belief: ``"bayes"`` (liars_dice_v0): determinisations draw the other cups from the posterior the bets
            imply (``BetBelief``), not fair; ``"prior"``: from the posterior under the prior's policy
            (``bidbluff.agents.beliefs.PolicyBelief``; in libertalia_v0 the face-down sunrise cards,
            ``bidbluff.agents.sunrise.SunriseBelief``; needs a ``prior``); ``None``: the game's own
            ``resample_hidden``.
        seed: seeds determinisations, tie breaks and rollouts.

    Networks load at ``bind`` (checked against the bound env's game), once per process.
    """

    name = "ismcts"
    needs_env = True

    def __init__(
        self,
        simulations: int | None = 200,
        time_ms: float | None = None,
        exploration: float | None = None,
        reward_mode: str | None = None,
        selection: str | None = None,
        prior: str | None = None,
        value: str | None = None,
        rollout: str = "random",
        steps: int | None = None,
        mix: float = 0.25,
        belief: str | None = None,
        others: str = "search",
        seed: int | None = None,
    ) -> None:
        if simulations is None and time_ms is None:
            raise ValueError("IS-MCTS needs a budget: simulations, time_ms or both")
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        selection = selection or ("puct" if prior else "ucb")
        if selection not in SELECTIONS:
            raise ValueError(f"IS-MCTS selection {selection!r} is not one of {', '.join(SELECTIONS)}")
        if steps is not None and value is None:
            raise ValueError("rollout steps set a value cut-off: name the value network too (value=...)")
        if value is not None and steps is None:
            if rollout != "random":
                raise ValueError("a rollout policy with a value cut-off needs the number of steps (steps=K)")
            steps = 0
        self.simulations = simulations
        self.time_ms = time_ms
        self.selection = selection
        self.exploration = exploration if exploration is not None else (1.5 if selection == "puct" else 0.7)
        self.reward_mode = reward_mode
        if reward_mode is not None and reward_mode not in REWARD_MODES:
            raise ValueError(f"IS-MCTS reward mode {reward_mode!r} is not one of {', '.join(REWARD_MODES)}")
        if not 0 <= mix <= 1:
            raise ValueError(f"the uniform share of the prior (mix) must be between 0 and 1, not {mix}")
        self.mix = mix
        if belief not in BELIEFS:
            raise ValueError(f"IS-MCTS belief {belief!r} is not one of {', '.join(map(str, BELIEFS))}")
        if belief == "prior" and prior is None:
            raise ValueError(
                "belief=prior reads the bets with the prior's policy: name one (prior=shipped, a "
                "checkpoint path or heuristic)"
            )
        self.belief = belief
        if others not in OTHERS:
            raise ValueError(f"IS-MCTS others={others!r} is not one of {', '.join(OTHERS)}")
        if others != "search" and prior is None:
            raise ValueError(f"others={others} draws the other seats' moves from the prior: name it (prior=...)")
        if others == "prior+heuristic" and belief != "prior":
            raise ValueError(
                "others=prior+heuristic tells which one each seat plays from its bets or cards: it needs "
                "belief=prior (Liar's dice, Libertalia)"
            )
        self.others = others
        self.specs = {"prior": prior, "value": value, "rollout": rollout, "steps": steps}
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.env: Any = None
        self.evaluator: Evaluator | None = None
        self.models: list[Any] = []  # others=prior+heuristic: the policies the other seats may play
        self.model_rollouts: list[Any] = []  # and each one as a rollout policy
        self.likelihoods: dict = {}  # belief=prior: past bets' likelihoods, read again at later decisions
        # belief=prior in Libertalia: the other seats' cards, a game long, for each env the agent plays in (a
        # baseline may sit at several tables at once)
        self.sunrises: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # An Event (anything with is_set()) a caller may set to end the search in progress: it then answers its
        # best move so far, as at the time budget (the browser table stops the thinking of a closed table).
        self.stop: Any = None

    def bind(self, env: Any) -> None:
        """Give the agent the env whose engine it simulates (call after each ``env.reset``)."""
        raw = getattr(env, "unwrapped", env)
        if not hasattr(raw, "game_state") or not hasattr(raw, "game"):
            raise TypeError(f"IS-MCTS binds to a bidbluff env (BoardGameEnv), not {type(env).__name__}")
        if self.belief is not None and raw.game.name not in BELIEFS[self.belief]:
            raise ValueError(
                f"IS-MCTS belief={self.belief} is written for {', '.join(BELIEFS[self.belief])} only, "
                f"not {raw.game.name}"
            )
        self.env = raw
        if self.evaluator is None:
            self.evaluator = self.make_evaluator(raw.game)
        if not self.models and self.others == "prior+heuristic":
            self.models = [self.evaluator.prior, HeuristicPrior(raw.game.name, raw.game.codec.n, self.seed)]
            self.model_rollouts = [PolicyRollout(model) for model in self.models]

    def make_evaluator(self, game: Any) -> Evaluator:
        """The evaluator of this agent's settings for ``game`` (its networks loaded and checked)."""
        spec = self.specs
        prior: Any = None
        if spec["prior"] in RULES_PLAYERS:
            prior = HeuristicPrior(game.name, game.codec.n, self.seed, spec["prior"])
        elif spec["prior"]:
            prior = load_network(spec["prior"], game.name)
        value = load_network(spec["value"], game.name) if spec["value"] else None
        if spec["rollout"] == "random":
            rollout: Any = RandomRollout()
        elif spec["rollout"] in RULES_PLAYERS:
            rollout = HeuristicRollout(game.name, self.seed, spec["rollout"])
        else:
            rollout = PolicyRollout(load_network(spec["rollout"], game.name))
        mode = self.reward_mode or (value.reward_mode if value is not None else "win")
        evaluator = Evaluator(rollout, value, spec["steps"], prior, mode)
        evaluator.check(game)
        return evaluator

    def reset(self) -> None:
        """A new game in the env bound last: forget what was read of the game before there."""
        if self.env is not None:
            self.sunrises.pop(self.env, None)

    def act(self, observation: dict[str, np.ndarray], agent: str) -> int:
        legal = legal_ids(observation, agent)
        if self.env is None:
            raise RuntimeError("ISMCTSAgent needs the engine: call agent.bind(env) after env.reset() before play")
        if legal.size == 1:
            return int(legal[0])
        return self.search(observation, agent).action

    def probabilities(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The visit distribution of a search from ``observation`` (the bound env's seat to act): what
        search-improved targets train a network on (``bidbluff.training.distill --teacher 4=ismcts:...``)."""
        if self.env is None:
            raise RuntimeError("ISMCTSAgent needs the engine: call agent.bind(env) after env.reset() before play")
        return self.search(observation, self.env.agent_selection).policy

    def search(self, observation: dict[str, np.ndarray], agent: str) -> SearchResult:
        """Search ``agent``'s decision in the bound env (``agent`` is to act there); the full result."""
        if self.env is None or self.evaluator is None:
            raise RuntimeError("ISMCTSAgent needs the engine: call agent.bind(env) after env.reset() before play")
        seat = seat_of(agent)
        game, state = self.env.game, self.env.game_state
        # The real state is touched only here: who acts, and determinisations for that seat.
        if state is None or state.current_player() != seat:
            raise RuntimeError(f"ISMCTSAgent is bound to an env where {agent} is not the one to act")
        first = state.resample_hidden(seat, self.rng)
        obs = np.asarray(observation["observation"], dtype=np.float32)
        if not np.array_equal(game.encode(first, seat), obs):
            raise RuntimeError("ISMCTSAgent: the observation does not match the bound env's state (wrong env?)")
        redraw = None
        if self.belief == "bayes":
            from bidbluff.agents.heuristic.liars_dice_bayes import BetBelief

            believe = BetBelief(observation).redraw
            redraw = lambda sample, seat, rng: (believe(sample, seat, rng), None)  # noqa: E731
        elif self.belief == "prior":
            if game.name == "libertalia_v0":
                from bidbluff.agents.sunrise import SunriseBelief

                sunrise = self.sunrises.get(self.env)
                if sunrise is None:
                    sunrise = self.sunrises[self.env] = SunriseBelief(game, self.models or [self.evaluator.prior])
                sunrise.update(first, seat)
                draw = sunrise.draw
            else:
                from bidbluff.agents.beliefs import PolicyBelief

                if len(self.likelihoods) > 100_000:  # bets of finished games
                    self.likelihoods.clear()
                draw = PolicyBelief(game, first, seat, self.models or [self.evaluator.prior], self.likelihoods).draw
            if self.others == "prior+heuristic":
                redraw = draw
            else:
                redraw = lambda sample, seat, rng: (draw(sample, seat, rng)[0], None)  # noqa: E731
        return self.run(game, state, seat, obs, legal_ids(observation, agent), first, redraw)

    # -- the search --------------------------------------------------------------
    def run(
        self,
        game: Any,
        state: Any,
        seat: int,
        observation: np.ndarray,
        legal: np.ndarray,
        first: Any = None,
        redraw: Any = None,
    ) -> SearchResult:
        """The budget of simulations from ``seat``'s information set (``observation``) in ``state``;
        ``redraw(determinisation, seat, rng)``, when given, redraws the hidden part of each determinisation and
        says which of ``models`` each other seat plays in it (``{seat: index}``, or ``None``: the prior)."""
        rng = self.rng
        nodes: dict[tuple[int, bytes], _Node] = {}
        policies: dict[tuple[int, bytes], tuple[list[int], np.ndarray]] = {}  # (model, other seat's key) -> its moves
        root_key = (seat, observation.tobytes())
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        done = 0
        while True:
            if self.simulations is not None and done >= self.simulations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if self.stop is not None and done > 0 and self.stop.is_set():
                break
            sample = first if done == 0 and first is not None else state.resample_hidden(seat, rng)
            drawn = None
            if redraw is not None:
                sample, drawn = redraw(sample, seat, rng)
            self._simulate(game, sample, nodes, root_key, observation, drawn, policies)
            done += 1
        root = nodes[root_key]
        visits = {int(a): root.visits.get(int(a), 0) for a in legal}
        action = max(visits, key=lambda a: (visits[a], rng.random()))
        policy = np.zeros(game.codec.n)
        policy[list(visits)] = list(visits.values())
        total = sum(visits.values())
        policy /= max(total, 1)
        value = sum(root.wins.values()) / total if total else 0.0
        q = {a: root.wins[a] / n for a, n in visits.items() if n}
        return SearchResult(action, visits, policy, float(value), q, done)

    def _simulate(
        self,
        game: Any,
        state: Any,
        nodes: dict,
        root_key: tuple[int, bytes],
        root_obs: np.ndarray,
        drawn: dict[int, int] | None,
        policies: dict,
    ) -> None:
        """One simulation; with ``drawn`` (others=prior+heuristic) each other seat plays the model drawn for it,
        in the tree and in the rollout."""
        rng, evaluator = self.rng, self.evaluator
        rollouts = None if not drawn else {s: self.model_rollouts[m] for s, m in drawn.items()}
        path: list[tuple[_Node, int, int]] = []  # (node, acting seat, action id)
        values = None
        while not state.is_terminal():
            actor = state.current_player()
            obs = root_obs if not path else game.encode(state, actor)
            key = root_key if not path else (actor, obs.tobytes())
            ids = {game.action_to_id(state, a, actor): a for a in state.legal_actions()}
            node = nodes.get(key)
            if node is None:
                legal = sorted(ids)
                leaf = evaluator.leaf(game, state, actor, obs, legal, rng, rollouts)
                prior = None if leaf.prior is None else (1 - self.mix) * leaf.prior + self.mix / len(legal)
                model = None
                if self.others != "search" and actor != root_key[0]:
                    model = (legal, leaf.prior.astype(np.float64) / leaf.prior.sum())
                node = nodes[key] = _Node(
                    None if prior is None else dict(zip(legal, prior.tolist(), strict=True)), model
                )
                values = leaf.values
                break
            for i in ids:
                node.avail[i] = node.avail.get(i, 0) + 1
            model = node.model
            if drawn and actor in drawn:
                model = policies.get((drawn[actor], key))
                if model is None:
                    legal = sorted(ids)
                    model = policies[drawn[actor], key] = (legal, self.models[drawn[actor]].policy(obs, legal, actor))
            choice = -1 if model is None else model[0][int(rng.choice(len(model[0]), p=model[1]))]
            if choice not in ids:  # a searched node (or a move this determinisation does not allow)
                choice = self._puct(node, ids) if self.selection == "puct" else self._ucb(node, ids)
            path.append((node, actor, choice))
            state.apply(ids[choice], rng)
        if values is None:
            values = game.final_rewards(state, evaluator.reward_mode)
        for node, actor, choice in path:
            node.visits[choice] = node.visits.get(choice, 0) + 1
            node.wins[choice] = node.wins.get(choice, 0.0) + float(values[actor])

    def _ucb(self, node: _Node, ids: dict[int, Any]) -> int:
        untried = [i for i in ids if i not in node.visits]
        if untried:
            return untried[int(self.rng.integers(len(untried)))]
        c = self.exploration
        best, best_value = -1, -math.inf
        for i in ids:
            n = node.visits[i]
            value = node.wins[i] / n + c * math.sqrt(math.log(node.avail[i]) / n)
            if value > best_value:
                best, best_value = i, value
        return best

    def _puct(self, node: _Node, ids: dict[int, Any]) -> int:
        c, prior = self.exploration, node.prior
        uniform = 1.0 / len(ids)
        best, best_value = -1, -math.inf
        for i in ids:
            n = node.visits.get(i, 0)
            p = uniform if prior is None else prior.get(i, 0.0)
            value = (node.wins[i] / n if n else 0.0) + c * p * math.sqrt(node.avail[i]) / (1 + n)
            if value > best_value:
                best, best_value = i, value
        return best
