"""A real two-node Ray cluster on this host (slow; needs the rllib extra): ``ray start --head`` on loopback,
a second node joined with ``ray start --address``, and an RLlib run given ``--address`` whose env runners
sit on both nodes."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")
pytestmark = pytest.mark.slow

import ray  # noqa: E402

from bidbluff.agents.policy import read_sidecar  # noqa: E402
from bidbluff.training.rllib import RllibConfig  # noqa: E402

RAY = shutil.which("ray", path=str(Path(sys.executable).parent))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pids_mentioning(text: str) -> list[int]:
    """This cluster's processes: those whose command line names its address or its temp dir."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return [pid for pid in found if pid != os.getpid()]


def _stop(pids: list[int]) -> None:
    """SIGTERM, then SIGKILL what is left after a grace period (a raylet may take its time)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids):
            time.sleep(0.5)


@pytest.fixture
def two_nodes(monkeypatch):
    """The head (1 CPU) and a worker node (1 CPU) on 127.0.0.1, token authentication off (loopback only);
    stopped by process id afterwards."""
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    port = _free_port()
    address = f"127.0.0.1:{port}"
    temp = tempfile.mkdtemp(prefix="bbray", dir="/tmp")  # short: Ray's socket paths must fit 107 characters
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", "--disable-usage-stats"]
    try:
        subprocess.run(
            [RAY, "start", "--head", f"--port={port}", f"--temp-dir={temp}", "--include-dashboard=false", *common],
            check=True,
            capture_output=True,
            timeout=180,
        )
        subprocess.run([RAY, "start", f"--address={address}", *common], check=True, capture_output=True, timeout=180)
        yield address
    finally:
        ray.shutdown()
        _stop(sorted({pid for marker in (f":{port}", temp) for pid in _pids_mentioning(marker)}))
        shutil.rmtree(temp, ignore_errors=True)


def test_env_runners_are_placed_on_both_nodes(two_nodes, tmp_path):
    from bidbluff.training.rllib.trainer import RllibTrainer

    config = RllibConfig(
        "liars_dice_v0",
        players=2,
        address=two_nodes,
        num_env_runners=2,
        num_envs_per_env_runner=1,
        rollout_steps=128,
        minibatch_size=64,
        total_steps=100,
        checkpoint_every=10**6,
        eval_games=0,
        trunk=32,
        net_arch=[16],
        pool_max=1,
        out=str(tmp_path / "run"),
    )
    trainer = RllibTrainer(config, progress_bar=False)
    alive = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
    placed = trainer.algo.env_runner_group.foreach_env_runner(
        lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False
    )
    assert len(alive) == 2 and sorted(set(placed)) == sorted(alive)
    final = trainer.run()
    assert read_sidecar(final, "liars_dice_v0")["steps"] >= 100
