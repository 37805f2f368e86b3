"""Agents that play bidbluff envs.

``make(spec, env_name=..., seed=...)`` builds one from a spec string:

==================  ==========================================================
``random``          uniform over the legal actions
``heuristic``       the game's hand-written player (``bidbluff.agents.heuristic``)
``heuristic@DATE``  an earlier heuristic kept for comparisons: spytails_v0's
                    ``heuristic@2026-11`` (the first one)
``lowball``         spytails_v0's outside-style player: forecasts its sure winners
                    and ducks (``bidbluff.agents.outsiders``; never used in training)
``odds``            liars_dice_v0 and lying_pirates_v0's: a fixed-threshold bidder
``myopic``          libertalia_v0's: the card worth most today, no plan for later days
``outsider``        the game's outside-style player (one of the three above)
``bayes``           liars_dice_v0: the heuristic's policy on odds that
                    believe the other captains' bets (``bidbluff.agents.heuristic.
                    liars_dice_bayes``); ``bayes:2`` for a belief of 2
``ismcts``          IS-MCTS, 200 simulations; ``ismcts:50`` for 50,
                    ``ismcts:100ms`` for a time budget (needs ``bind(env)``);
                    settings after commas: ``prior=shipped`` (PUCT on the
                    network's policy), ``value=shipped`` (its value head cuts
                    rollouts off, at once or after ``steps=K``),
                    ``rollout=heuristic|shipped``, ``select=ucb|puct``,
                    ``prior=`` and ``rollout=`` also take an
                    outside-style player (``prior=odds,rollout=odds,
                    others=prior``: a best response by search to a
                    table of ``odds``, which it knows move for move),
                    ``c=1.5``, ``belief=bayes`` (Liar's dice: draw the
                    hidden cups as the bets imply; ``belief=prior``: as
                    the prior would have bet), ``others=prior`` (the
                    other seats' moves drawn from the prior, not searched;
                    ``others=prior+heuristic``: from the prior or the
                    heuristic, whichever each seat's bets say it plays);
                    a checkpoint path in place of ``shipped``
``expert``          the game's strongest search setting within about one
                    second per decision (``bidbluff.agents.ismcts.EXPERT``)
``cfr``             liars_dice_v0, 2 players x 1 die, Lying Pirates' rules:
                    CFR+'s equilibrium policy (``checkpoints/liars_dice/
                    cfr_2p1d.json``, sampled); ``cfr:<path>`` another
                    tabular policy (``bidbluff.agents.tabular``)
``ppo-2p1d``        liars_dice_v0, 2 players x 1 die: the equilibrium recipe's
                    network (Lying Pirates' rules; ``ppo-2p1d-classic``: the
                    classic preset), sampled; ``ppo-2p1d:greedy`` plays its
                    most likely bet
``shipped``         the env's shipped self-play checkpoint
                    (``checkpoints/<game>/selfplay.zip``); ``shipped:sample``
``<path>``          a trained checkpoint (``x.zip``, ``x.json`` or ``x``),
                    greedy; ``<path>:sample`` samples from the policy
``onnx:<path>``     a policy exported by ``bidbluff export`` (``x.onnx`` and
                    its ``x.json``), played with onnxruntime alone (no
                    torch); greedy, ``onnx:<path>:sample`` sampled
                    (``bidbluff.agents.onnx_policy``)
``cmd:<command>``   any program speaking the JSON-lines agent protocol on
                    stdin/stdout (``bidbluff.agents.program``,
                    ``docs/program-agents.md``): ``cmd:"node my_agent.js"``;
                    time limits after commas: ``move=5s``, ``game=300s``,
                    ``start=20s``
``<name>``          a spec registered under a name (``register(name, spec)``;
                    on the command line ``--agent mine=cmd:"node a.js"``)
==================  ==========================================================

Every agent has ``act(observation, agent) -> int`` and ``reset()``; see
``bidbluff.agents.base`` for the protocol and the engine bind.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from bidbluff.agents.base import Agent, ForfeitError, RandomAgent, bind_all, seat_of
from bidbluff.agents.heuristic import HEURISTICS, make_heuristic
from bidbluff.agents.ismcts import EXPERT, ISMCTSAgent
from bidbluff.agents.outsiders import OUTSIDERS, make_outsider
from bidbluff.agents.policy import CheckpointError, PolicyAgent, load
from bidbluff.agents.program import LIMITS, comma_items
from bidbluff.agents.shipped import (
    CFR_TABLE,
    CHECKPOINTS,
    EQUILIBRIUM,
    has_shipped,
    names_shipped,
    network_path,
    retired_path,
    retired_versions,
    shipped_network,
    shipped_path,
)
from bidbluff.agents.tabular import TabularAgent, load_tabular

KINDS = (
    "random",
    "heuristic",
    "lowball",
    "odds",
    "myopic",
    "outsider",
    "bayes",
    "ismcts",
    "expert",
    "cfr",
    *EQUILIBRIUM,
    "shipped",
    "shipped@VERSION",
    "onnx:",
    "cmd:",
    "<checkpoint path>",
)
SEARCH_KEYS = {
    "prior": "prior",
    "value": "value",
    "rollout": "rollout",
    "steps": "steps",
    "select": "selection",
    "c": "exploration",
    "mix": "mix",
    "reward": "reward_mode",
    "belief": "belief",
    "others": "others",
}
SEARCH_BUDGET = re.compile(r"(\d+)(ms)?")  # a search's simulations or milliseconds, as expert's "ismcts:100,1000ms"
PROGRAM_KEYS = tuple(LIMITS)  # a cmd: spec's settings: its time limits (bidbluff.agents.program)
NAMED: dict[str, str] = {}  # specs registered under a name (``register``), e.g. a program: mine -> cmd:"node a.js"
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


def register(name: str, spec: str) -> None:
    """Make ``name`` stand for ``spec`` in every later ``make`` (and so in spec lists): the command line's
    ``--agent NAME=SPEC``.  A name is a word (letters, digits, ``_.-``) that is not a kind of agent."""
    if not NAME.fullmatch(name):
        raise ValueError(f"agent name {name!r}: a name starts with a letter and holds letters, digits, _ . - only")
    if name in KINDS or name in ("bayes", "expert") or name in SEARCH_KEYS:
        raise ValueError(f"agent name {name!r} is a kind of agent; choose another name")
    if not spec.strip():
        raise ValueError(f"agent name {name!r} is given no spec (write --agent {name}=SPEC)")
    if spec in NAMED or spec == name:
        raise ValueError(f"agent name {name!r}: its spec {spec!r} must be a spec, not another name")
    NAMED[name] = spec


def parse_registration(text: str) -> tuple[str, str]:
    """``"mine=cmd:node a.js"`` -> ``("mine", "cmd:node a.js")`` (the command line's ``--agent NAME=SPEC``)."""
    name, eq, spec = text.partition("=")
    if not eq or not NAME.fullmatch(name.strip()):
        raise ValueError(f"--agent {text!r}: write NAME=SPEC, e.g. --agent mine='cmd:\"node my_agent.js\"'")
    return name.strip(), spec.strip()


# A cmd: spec runs a command.  Where specs come from people other than the one running bidbluff (the browser
# table's requests), only programs registered by name at start-up may run: ``named_programs_only()``.
_UNNAMED_PROGRAMS = {"allowed": True}


def named_programs_only() -> None:
    """From now on a ``cmd:`` spec runs only when registered by name (``register``); a bare one is refused.
    ``bidbluff serve`` calls it: a request to the browser table must never run a command of its choosing."""
    _UNNAMED_PROGRAMS["allowed"] = False


def make(spec: str, env_name: str | None = None, seed: int | None = None, **options: Any) -> Any:
    """An agent from a spec (see the module docstring); ``options`` go to the agent's constructor."""
    if spec in NAMED:
        agent = _make(NAMED[spec], env_name, seed, named=True, **options)
        agent.name = spec  # the tournament's tables and the forfeit lines show the registered name
        return agent
    return _make(spec, env_name, seed, named=False, **options)


def _make(spec: str, env_name: str | None, seed: int | None, named: bool, **options: Any) -> Any:
    kind, _, arg = spec.partition(":")
    if kind == "cmd" and not (named or _UNNAMED_PROGRAMS["allowed"]):
        raise ValueError(f"agent spec {spec!r}: here a program plays only when it was named at start-up (--agent)")
    if kind == "onnx":
        from bidbluff.agents.onnx_policy import from_spec

        return from_spec(spec, arg, env_name, seed)
    if kind == "cmd":
        from bidbluff.agents.program import from_spec as program_from_spec

        return program_from_spec(spec, arg, env_name, seed, **options)
    if kind == "random":
        _no_arg(spec, arg)
        return RandomAgent(seed)
    if kind == "heuristic" or kind.startswith("heuristic@"):
        _no_arg(spec, arg)
        return make_heuristic(env_name, seed, version=kind.partition("@")[2])
    if kind in OUTSIDERS or kind == "outsider":
        _no_arg(spec, arg)
        return make_outsider(kind, env_name, seed)
    if kind == "bayes":
        return _bayes(spec, arg, env_name, seed)
    if kind == "ismcts":
        return ISMCTSAgent(seed=seed, **{**search_options(spec, arg), **options})
    if kind == "expert":
        _no_arg(spec, arg)
        if env_name not in EXPERT:
            raise ValueError(f"agent spec 'expert' is per game: pass env_name (one of {', '.join(EXPERT)})")
        return _make(EXPERT[env_name], env_name, seed, named, **options)
    if kind == "cfr":
        if env_name not in (None, "liars_dice_v0"):
            raise ValueError(f"agent spec {spec!r}: tabular policies exist for liars_dice_v0 only, not {env_name}")
        return load_tabular(arg or CFR_TABLE, seed=seed)
    path, mode = spec, "greedy"
    if spec.endswith((":sample", ":greedy")):
        path, mode = spec.rsplit(":", 1)
    if path in EQUILIBRIUM:
        if env_name not in (None, "liars_dice_v0"):
            raise ValueError(f"agent spec {spec!r} plays liars_dice_v0 only, not {env_name}")
        mode = "greedy" if spec.endswith(":greedy") else "sample"  # an equilibrium mixes
        return load(EQUILIBRIUM[path], env_name=env_name, deterministic=mode == "greedy", seed=seed)
    if names_shipped(path):
        if env_name is None:
            raise ValueError(f"agent spec {spec!r} needs the env (agents.make({path!r}, env_name=...))")
        path = shipped_network(path, env_name)
    if path.endswith((".zip", ".json")) or Path(path + ".zip").exists() or Path(path).exists():
        return load(path, env_name=env_name, deterministic=mode == "greedy", seed=seed)
    raise ValueError(f"unknown agent {spec!r}; known: {', '.join(KINDS)}")


def _bayes(spec: str, arg: str, env_name: str | None, seed: int | None) -> Any:
    from bidbluff.agents.heuristic.liars_dice_bayes import LiarsDiceBayes

    if env_name not in (None, "liars_dice_v0"):
        raise ValueError(f"agent spec {spec!r} plays liars_dice_v0 only, not {env_name}")
    try:
        belief = float(arg) if arg else 1.0
    except ValueError:
        raise ValueError(f"agent spec {spec!r}: the belief after 'bayes:' is a number, e.g. bayes:1.5") from None
    return LiarsDiceBayes(seed=seed, belief=belief)


def split_specs(text: str) -> list[str]:
    """Comma-separated agent specs, where a search spec's own settings stay with it:
    ``"ismcts:200,prior=shipped,value=shipped,heuristic"`` -> ``["ismcts:200,prior=shipped,value=shipped",
    "heuristic"]``, and so do a program's (``'cmd:"node a.js --x=1,2",move=2s,random'`` -> ``["cmd:'node a.js
    --x=1,2',move=2s", "random"]``: the command quoted again, so each spec splits back to itself)."""
    specs: list[str] = []
    for item in comma_items(text):
        key = item.partition("=")[0]
        if specs and specs[-1].startswith("ismcts:") and (key in SEARCH_KEYS or SEARCH_BUDGET.fullmatch(item)):
            specs[-1] += "," + item
        elif specs and key in PROGRAM_KEYS and specs[-1].startswith("cmd:"):
            spec, star, count = specs[-1].rpartition("*")  # a repeat (*3) stays last: expand_specs reads it there
            specs[-1] = f"{spec},{item}*{count}" if star and count.isdigit() else f"{specs[-1]},{item}"
        elif item.startswith("cmd:"):
            found = re.fullmatch(r"(.*?)(\*\d+)?", item[4:], re.DOTALL)
            specs.append("cmd:" + shlex.quote(found.group(1)) + (found.group(2) or ""))
        else:
            specs.append(item)
    return specs


def expand_specs(text: str) -> list[str]:
    """``split_specs`` with repeats: ``"heuristic,random*3"`` -> ``["heuristic", "random", "random", "random"]``."""
    out = []
    for part in split_specs(text):
        spec, star, count = part.rpartition("*")
        if star and count.isdigit():
            out += [spec] * int(count)
        else:
            out.append(part)
    if not out:
        raise ValueError("--agents lists no agent")
    return out


def search_options(spec: str, arg: str) -> dict[str, Any]:
    """``ISMCTSAgent`` options of an ``ismcts:`` spec's comma-separated items: a budget (``200``, ``500ms``, or
    both) and ``key=value`` settings (``prior=``, ``value=``, ``rollout=``, ``steps=``, ``select=``, ``c=``,
    ``mix=``, ``reward=``)."""
    options: dict[str, Any] = {}
    budget: dict[str, Any] = {}
    for item in filter(None, arg.split(",")):
        key, eq, value = item.partition("=")
        found = SEARCH_BUDGET.fullmatch(item)
        if found:
            budget["time_ms" if found.group(2) else "simulations"] = int(found.group(1))
        elif eq and key in SEARCH_KEYS and value:
            options[SEARCH_KEYS[key]] = value
        else:
            raise ValueError(
                f"agent spec {spec!r}: {item!r} is neither a budget (ismcts:<simulations>, "
                f"ismcts:<milliseconds>ms) nor a setting ({', '.join(k + '=' for k in SEARCH_KEYS)})"
            )
    if "time_ms" in budget:
        budget.setdefault("simulations", None)
    for key, cast in (("steps", int), ("exploration", float), ("mix", float)):
        if key in options:
            try:
                options[key] = cast(options[key])
            except ValueError:
                raise ValueError(f"agent spec {spec!r}: {key} must be a number, not {options[key]!r}") from None
    return {**budget, **options}


def _no_arg(spec: str, arg: str) -> None:
    if arg:
        raise ValueError(f"agent spec {spec!r}: this agent takes no ':' argument")


__all__ = [
    "CFR_TABLE",
    "CHECKPOINTS",
    "EQUILIBRIUM",
    "HEURISTICS",
    "KINDS",
    "NAMED",
    "Agent",
    "CheckpointError",
    "ForfeitError",
    "ISMCTSAgent",
    "PolicyAgent",
    "RandomAgent",
    "TabularAgent",
    "bind_all",
    "expand_specs",
    "has_shipped",
    "load",
    "make",
    "named_programs_only",
    "network_path",
    "parse_registration",
    "register",
    "retired_path",
    "retired_versions",
    "seat_of",
    "shipped_network",
    "shipped_path",
    "split_specs",
]
