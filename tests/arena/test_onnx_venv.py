"""ONNX policies in a virtual environment without torch: ``pip install 'bidbluff[onnx]'`` (no torch, no
stable-baselines3), then ``bidbluff tournament GAME --agents onnx:...,random`` with every game's shipped network
exported here.  Slow: it builds the environment from the local package index (a minute or two)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from bidbluff import agents, envs

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "bidbluff", "envs", "agents", "arena", "training", "checkpoints")


@pytest.mark.slow
def test_tournament_of_onnx_policies_in_a_venv_without_torch(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from bidbluff.training.export import export

    graphs = {}
    for env_name in envs.ENVS:
        if agents.has_shipped(env_name):
            graphs[env_name] = export(agents.shipped_path(env_name), tmp_path / "graphs" / f"{env_name}.onnx")
    source = tmp_path / "source"  # a copy: the build writes build/ and egg-info beside the sources
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    home = tmp_path / "venv"
    venv.create(home, with_pip=True)
    python = home / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "-c", str(ROOT / "constraints.txt"), f"{source}[onnx]"]
    done = subprocess.run(install, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    for missing in ("torch", "stable_baselines3", "sb3_contrib"):
        probe = subprocess.run([str(python), "-c", f"import {missing}"], capture_output=True, timeout=60)
        assert probe.returncode != 0, f"{missing} was installed with the onnx extra"
    for env_name, graph in graphs.items():
        out = tmp_path / f"{env_name}.json"
        command = [str(home / "bin" / "bidbluff"), "tournament", env_name, "--agents", f"onnx:{graph},random"]
        command += ["--players", "2", "--games", "2", "--seed", "1", "--quiet", "--json", str(out)]
        played = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert played.returncode == 0, played.stderr[-3000:]
        result = json.loads(out.read_text())
        assert result["games"] == 2 and result["forfeits"] == []
        assert {row["entry"] for row in result["entries"]} == {f"onnx:{graph}", "random"}
    # what a torch-free tournament imports: nothing of torch, even with every module of the arena loaded
    probe = "import sys, bidbluff.cli, bidbluff.arena.tournament, bidbluff.agents; print('torch' in sys.modules)"
    seen = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert seen.returncode == 0 and seen.stdout.strip() == "False", seen.stderr
    assert sys.executable != str(python)
