"""What an agent spec is: its registered spec and the digest of every file it loads.

A spec names an agent only up to its files: ``shipped`` is another network after a ship, and a checkpoint
retrained under the same path is another agent.  A record that keeps a figure (a scorecard's part, an
exploiter's run) keeps this identity beside it, to tell whether the figure still holds.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from bidbluff.agents.shipped import network_path

SEARCH_NETWORKS = ("prior=", "value=", "rollout=")


def identity(spec: str, env_name: str) -> dict[str, Any]:
    """``spec``, the spec it is registered as (if a name), and the first 16 hex digits of the SHA-256 of each
    file it loads."""
    from bidbluff import agents

    given = agents.NAMED.get(spec, spec)
    out: dict[str, Any] = {"spec": spec}
    if given != spec:
        out["registered"] = given
    digests = {str(p): hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in files(given, env_name)}
    if digests:
        out["sha256"] = digests
    return out


def files(spec: str, env_name: str) -> list[Path]:
    """The files a network, table, exported or search spec loads (none for a program: its files are its own)."""
    kind, _, arg = spec.partition(":")
    if kind == "cmd":
        return []
    if kind == "expert":
        from bidbluff.agents.ismcts import EXPERT

        kind, _, arg = EXPERT[env_name].partition(":")
    if kind == "ismcts":  # a search is the networks it reads: prior=, value=, rollout=
        loaded = [item.split("=", 1)[1] for item in arg.split(",") if item.startswith(SEARCH_NETWORKS)]
        return [path for given in loaded for path in files(given, env_name)]
    if kind == "cfr":
        from bidbluff.agents import CFR_TABLE

        return [Path(arg) if arg else CFR_TABLE]
    path = arg if kind == "onnx" else spec
    if path.endswith((":sample", ":greedy")):
        path = path.rsplit(":", 1)[0]
    path = network_path(path, env_name)
    stem = path[: -len(".zip")] if path.endswith(".zip") else path
    return [Path(p) for p in dict.fromkeys((path, stem + ".zip", stem + ".onnx")) if Path(p).is_file()]
