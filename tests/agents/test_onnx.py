"""ONNX export (``bidbluff export``) and the ``onnx:`` agent: parity with torch on real observations, the sidecar,
the mask inside the graph, the checks that refuse a wrong graph, the engine-loop example of the docs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from bidbluff import agents, envs
from bidbluff.agents.networks import masked_logits
from bidbluff.agents.onnx_policy import CheckpointError, OnnxAgent, load_onnx, read_onnx_sidecar
from bidbluff.agents.policy import env_signature, load_network
from bidbluff.training.export import export

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [name for name in envs.ENVS if agents.has_shipped(name)]
PARITY_ROWS = 1000


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every game's shipped network exported once for the module."""
    folder = tmp_path_factory.mktemp("onnx")
    return {name: export(agents.shipped_path(name), folder / f"{name}.onnx") for name in SHIPPED}


def random_play_observations(env_name: str, rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``rows`` observations and masks of acting seats, from seeded random games at the default table."""
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    game = 0
    while len(observations) < rows:
        env = envs.make(env_name)
        env.reset(seed=seed + game)
        game += 1
        for _ in env.agent_iter():
            observation, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            observations.append(observation["observation"])
            masks.append(observation["action_mask"])
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            if len(observations) >= rows:
                break
    return np.stack(observations), np.stack(masks)


@pytest.mark.parametrize("env_name", SHIPPED)
def test_parity_with_torch_on_1000_observations(env_name: str, exported: dict[str, Path]) -> None:
    observations, masks = random_play_observations(env_name, PARITY_ROWS)
    net, _, _ = load_network(agents.shipped_path(env_name), env_name)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(observations))
        legal = torch.from_numpy(masks.astype(bool))
        expected = torch.where(legal, torch.softmax(masked_logits(logits, legal), dim=-1), 0.0).numpy()
    agent = load_onnx(exported[env_name], env_name)
    probs, onnx_values = agent.evaluate(observations, masks)
    assert probs.shape == (PARITY_ROWS, masks.shape[1]) and onnx_values.shape == (PARITY_ROWS,)
    prob_gap = float(np.abs(probs - expected).max())
    value_gap = float(np.abs(onnx_values - values.numpy()).max())
    print(f"{env_name}: max |dp| {prob_gap:.2e}, max |dv| {value_gap:.2e} over {PARITY_ROWS} observations")
    assert prob_gap <= 1e-5 and value_gap <= 1e-5
    assert np.all(probs[masks == 0] == 0.0), "an illegal action has a probability"
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)


def test_sidecar_carries_signature_names_and_fields(exported: dict[str, Path]) -> None:
    for env_name, path in exported.items():
        meta = json.loads(path.with_suffix(".json").read_text())
        signature = env_signature(env_name)
        assert {k: meta[k] for k in signature} == signature
        assert len(meta["action_names"]) == meta["action_n"] and all(meta["action_names"])
        assert meta["observation_fields"] is None or meta["observation_fields"].startswith("| at | field")
        assert meta["inputs"] == {"observation": ["batch", *signature["observation_shape"]],
                                  "action_mask": ["batch", signature["action_n"]]}  # fmt: skip
    liars = json.loads(exported["liars_dice_v0"].with_suffix(".json").read_text())
    assert liars["action_names"][0] == "bid 1x1" and "own" in liars["observation_fields"]


def test_agent_spec_plays_greedy_and_sampled_seeded(exported: dict[str, Path]) -> None:
    path = exported["liars_dice_v0"]
    greedy = agents.make(f"onnx:{path}", env_name="liars_dice_v0", seed=0)
    assert isinstance(greedy, OnnxAgent) and greedy.deterministic and greedy.name == "onnx:liars_dice_v0"
    torch_greedy = agents.make("shipped", env_name="liars_dice_v0", seed=0)
    observations, masks = random_play_observations("liars_dice_v0", 200, seed=7)
    for obs, mask in zip(observations, masks, strict=True):
        seen = {"observation": obs, "action_mask": mask}
        assert greedy.act(seen, "player_0") == torch_greedy.act(seen, "player_0")
    draws = []
    for _ in range(2):
        sampler = agents.make(f"onnx:{path}:sample", env_name="liars_dice_v0", seed=3)
        draws.append(
            [
                sampler.act({"observation": o, "action_mask": m}, "player_0")
                for o, m in zip(observations, masks, strict=True)
            ]
        )
        assert all(masks[i][a] for i, a in enumerate(draws[-1]))
    assert draws[0] == draws[1]


def test_refuses_wrong_env_corrupt_graph_and_missing_sidecar(exported: dict[str, Path], tmp_path: Path) -> None:
    path = exported["liars_dice_v0"]
    with pytest.raises(CheckpointError, match="exported for liars_dice_v0, not spytails_v0"):
        read_onnx_sidecar(path, "spytails_v0")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(path.read_bytes()[:-10])
    broken.with_suffix(".json").write_text(path.with_suffix(".json").read_text())
    with pytest.raises(CheckpointError, match="corrupt, truncated or replaced"):
        load_onnx(broken)
    lonely = tmp_path / "lonely.onnx"
    lonely.write_bytes(path.read_bytes())
    with pytest.raises(CheckpointError, match=r"sidecar .* does not exist"):
        agents.make(f"onnx:{lonely}", env_name="liars_dice_v0")
    changed = tmp_path / "changed.onnx"
    changed.write_bytes(path.read_bytes())
    meta = json.loads(path.with_suffix(".json").read_text())
    changed.with_suffix(".json").write_text(json.dumps({**meta, "layout": "0" * 16}))
    with pytest.raises(CheckpointError, match="layout was '0000000000000000' at export"):
        load_onnx(changed)
    with pytest.raises(ValueError, match=r"onnx:PATH"):
        agents.make("onnx:", env_name="liars_dice_v0")


def test_export_command_writes_graph_and_sidecar(tmp_path: Path) -> None:
    from bidbluff.cli import main

    out = tmp_path / "deep" / "liars.onnx"
    assert main(["export", str(agents.shipped_path("liars_dice_v0")), str(out)]) == 0
    assert out.is_file() and out.with_suffix(".json").is_file()
    with pytest.raises(SystemExit):
        main(["export", str(agents.shipped_path("liars_dice_v0")), str(tmp_path / "x.bin")])


def test_engine_loop_example_runs_on_numpy_and_onnxruntime(exported: dict[str, Path]) -> None:
    """examples/onnx_loop.py plays a game with the exported graph; it imports neither torch nor bidbluff's
    agents (checked by the script itself)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "onnx_loop.py"), str(exported["liars_dice_v0"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "scores" in done.stdout and "torch imported: False" in done.stdout


def test_a_tournament_of_onnx_policies_imports_no_torch(exported: dict[str, Path]) -> None:
    """The command line, the tournament and the agents' specs load and play with torch made unimportable (the slow
    test tests/arena/test_onnx_venv.py does it in an environment that has no torch at all)."""
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from bidbluff.cli import main\n"
        f"main(['tournament', 'liars_dice_v0', '--agents', 'onnx:{exported['liars_dice_v0']},random', "
        "'--games', '2', '--quiet'])\n"
        "print('torch' in sys.modules and sys.modules['torch'] is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "False"
