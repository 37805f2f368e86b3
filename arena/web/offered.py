"""The agents a page may seat: the built-in kinds, searches capped at the ``expert`` cost, checkpoints in the
server's folders, and names the server registered at start-up (``--agent NAME=SPEC``).

A spec from a request is never handed to ``agents.make`` as it came: it is parsed here, every budget is
capped, every path is resolved inside the folders, and a new spec is written from the parts.  Only the
server's own registered specs are trusted as they are (they come from its command line).
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bidbluff import agents as agent_lib
from bidbluff.agents.ismcts import BELIEFS, OTHERS, SELECTIONS, ISMCTSAgent
from bidbluff.agents.policy import checkpoint_paths
from bidbluff.arena.web.folders import Folder, read_bounded, resolve
from bidbluff.arena.web.guard import BadRequestError
from bidbluff.arena.web.limits import (
    MAX_CHECKPOINT_FILE,
    MAX_ROLLOUT_STEPS,
    MAX_SEARCH_MS,
    MAX_SIMULATIONS,
    MAX_SPEC,
    MOVE_TIME_S,
)
from bidbluff.envs.core import REWARD_MODES

BUILT_IN = ("shipped", "heuristic", "ismcts", "expert", "random")
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,39}")
# the settings of a search spec a page may give, and what each may be (a checkpoint: a path in the folders)
NETWORK_SETTINGS = ("prior", "value", "rollout")


def _finite(low: float, high: float) -> Any:
    def check(text: str) -> float:
        value = float(text)
        if not (math.isfinite(value) and low <= value <= high):
            raise ValueError
        return value

    check.allowed = f"a number from {low:g} to {high:g}"  # type: ignore[attr-defined]
    return check


def _steps(text: str) -> int:
    value = int(text)
    if not 0 <= value <= MAX_ROLLOUT_STEPS:
        raise ValueError
    return value


_steps.allowed = f"a whole number from 0 to {MAX_ROLLOUT_STEPS}"  # type: ignore[attr-defined]


def _choice(*choices: str | None) -> Any:
    named = [c for c in choices if c is not None]

    def check(text: str) -> str:
        if text not in named:
            raise ValueError
        return text

    check.allowed = "one of " + ", ".join(named)  # type: ignore[attr-defined]
    return check


PLAIN_SETTINGS = {
    "steps": _steps,
    "select": _choice(*SELECTIONS),
    "c": _finite(0, 10),
    "mix": _finite(0, 1),
    "reward": _choice(*REWARD_MODES),
    "belief": _choice(*BELIEFS),
    "others": _choice(*OTHERS),
}


@dataclass
class Offered:
    """What this server seats.  ``folders``: where checkpoints are read (the shipped ones and ``--runs``);
    ``registered``: ``--agent NAME=SPEC`` of the command line; ``move_time``: each agent's per-move limit."""

    folders: tuple[Folder, ...]
    registered: dict[str, str] = field(default_factory=dict)
    move_time: float = MOVE_TIME_S

    def __post_init__(self) -> None:
        for name in self.registered:
            if not NAME.fullmatch(name) or name.partition(":")[0] in (*BUILT_IN, "cfr", "bayes"):
                raise ValueError(f"--agent {name}=...: a name is a letter then letters, digits, _ . - (not a built-in)")

    def kinds(self, env_name: str) -> list[str]:
        """The choices a page offers for ``env_name`` (the form's list)."""
        out = [k for k in BUILT_IN if k not in ("shipped", "expert") or agent_lib.has_shipped(env_name)]
        if env_name == "liars_dice_v0":
            out.append("bayes")
        return out + list(self.registered)

    def checkpoints(self, env_name: str) -> list[str]:
        """Checkpoints of ``env_name``'s game in ``--runs`` folders, as the page may name them."""
        game = env_name.rsplit("_v", 1)[0]
        found = []
        for folder in self.folders:
            if folder.label == "shipped":
                continue
            for sidecar in sorted(folder.path.rglob("*.json"))[:2000]:
                if sidecar.with_suffix(".zip").is_file() and (game in str(sidecar.relative_to(folder.path))):
                    found.append(f"{folder.label}/{sidecar.with_suffix('.zip').relative_to(folder.path)}")
        return found[:200]

    def spec_for(self, given: Any, env_name: str, field_name: str = "opponent") -> str:
        """The trusted spec that seats what the page asked for as ``given``; ``BadRequestError`` naming the
        field and what is allowed otherwise."""
        allowed = (
            f"{', '.join(self.kinds(env_name))}, ismcts:<simulations up to {MAX_SIMULATIONS}>[,<ms up to "
            f"{MAX_SEARCH_MS}>ms][,settings], or a checkpoint in the server's folders"
        )
        if not isinstance(given, str) or not given.strip() or len(given) > MAX_SPEC:
            raise BadRequestError(f"{field_name}: an agent is named by a short text: {allowed}")
        spec = given.strip()
        if spec in self.registered:
            return self.registered[spec]
        kind, _, arg = spec.partition(":")
        try:
            if kind in ("random", "heuristic", "expert") and not arg:
                return spec
            if kind == "shipped" and arg in ("", "sample", "greedy"):
                return spec
            if kind == "bayes" and env_name == "liars_dice_v0":
                try:
                    return f"bayes:{_finite(0, 10)(arg or '1')}"
                except ValueError:
                    raise ValueError(f"the belief after bayes: is a number from 0 to 10, not {arg[:20]!r}") from None
            if kind == "cfr" and env_name == "liars_dice_v0":
                return f"cfr:{self._checkpoint(arg)}" if arg else "cfr"
            if kind == "ismcts":
                return self._search(spec, arg)
        except ValueError as bad:
            raise BadRequestError(f"{field_name} {spec[:80]!r}: {bad}") from None
        if kind in ("random", "heuristic", "expert", "shipped", "bayes", "cfr"):
            raise BadRequestError(f"{field_name} {spec[:80]!r} is not offered for {env_name}: {allowed}")
        path, mode = spec, "greedy"
        if spec.endswith((":sample", ":greedy")):
            path, mode = spec.rsplit(":", 1)
        if "/" in path or path.endswith((".zip", ".json")):
            try:
                return f"{self._checkpoint(path)}:{mode}"
            except ValueError as bad:
                raise BadRequestError(f"{field_name} {spec[:80]!r}: {bad}") from None
        raise BadRequestError(f"{field_name}: unknown agent {spec[:80]!r}; offered: {allowed}")

    def _search(self, spec: str, arg: str) -> str:
        simulations, time_ms = None, None
        parts = []
        for item in filter(None, arg.split(",")):
            key, eq, value = item.partition("=")
            budget = re.fullmatch(r"(\d{1,12})(ms)?", item)
            if budget:
                n = int(budget.group(1))
                if budget.group(2):
                    if not 1 <= n <= MAX_SEARCH_MS:
                        raise ValueError(f"a search's time is 1 to {MAX_SEARCH_MS} ms a decision here, not {n}")
                    time_ms = n
                else:
                    if not 1 <= n <= MAX_SIMULATIONS:
                        raise ValueError(f"a search's budget is 1 to {MAX_SIMULATIONS} simulations here, not {n}")
                    simulations = n
            elif eq and key in NETWORK_SETTINGS:
                if value in ("shipped", "heuristic", "random"):
                    parts.append(item)
                else:
                    parts.append(f"{key}={self._checkpoint(value)}")
            elif eq and key in PLAIN_SETTINGS:
                check = PLAIN_SETTINGS[key]
                try:
                    parts.append(f"{key}={check(value)}")
                except ValueError:
                    raise ValueError(f"{key} must be {check.allowed}, not {value[:40]!r}") from None
            else:
                raise ValueError(
                    f"{item[:40]!r} is neither a budget (<simulations>, <ms>ms) nor a setting "
                    f"({', '.join(k + '=' for k in (*NETWORK_SETTINGS, *PLAIN_SETTINGS))})"
                )
        budget = [str(simulations or 200)] + ([f"{time_ms}ms"] if time_ms else [])
        return "ismcts:" + ",".join(budget + parts)

    def _checkpoint(self, given: str) -> str:
        if "," in given:
            raise ValueError("a checkpoint path has no commas")
        try:
            found = resolve(given, self.folders, "checkpoint", ("", ".zip"))
        except BadRequestError as bad:
            raise ValueError(str(bad)) from None
        files = [found]
        if found.suffix in (".zip", ".json") and found.with_suffix(".zip").exists():
            files = [p.resolve() for p in checkpoint_paths(found) if p.exists()]
        for path in files:
            if not any(path.is_relative_to(f.path) for f in self.folders):
                raise ValueError("a checkpoint's files must all lie in the server's folders")
            read_bounded_size(path)
        return str(found)

    def build(self, spec: str, env_name: str, seed: int, stop: threading.Event) -> Any:
        """The agent of a trusted ``spec`` (from ``spec_for``), its search capped at the per-move limit and
        stopped by ``stop`` (a closed table's thinking ends with its best move so far)."""
        limit_ms = self.move_time * 1000
        options: dict[str, Any] = {}
        kind, _, arg = spec.partition(":")
        if kind in ("ismcts", "expert"):
            given = agent_lib.search_options(spec, arg) if kind == "ismcts" else {}
            options["time_ms"] = min(given.get("time_ms") or limit_ms, limit_ms)
            if kind == "ismcts":
                options["simulations"] = given.get("simulations")
        try:
            agent = agent_lib.make(spec, env_name=env_name, seed=seed, **options)
        except (ValueError, TypeError, KeyError, OSError) as bad:
            raise BadRequestError(f"agent {spec[:80]!r} cannot play {env_name}: {bad}") from None
        if isinstance(agent, ISMCTSAgent):
            agent.stop = stop
        return agent


def read_bounded_size(path: Path) -> None:
    """Refuse a checkpoint file past the size limit (checked before anything loads it)."""
    if path.stat().st_size > MAX_CHECKPOINT_FILE:
        raise ValueError(f"the checkpoint file is over the limit of {MAX_CHECKPOINT_FILE:,} bytes")


__all__ = ["BUILT_IN", "Offered", "read_bounded"]
