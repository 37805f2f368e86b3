"""A checkpoint's policy as an ONNX graph that any ONNX runtime can play, and the sidecar that says what it is for.

``bidbluff export CHECKPOINT out.onnx`` (``export(checkpoint, out)``) writes two files:

* ``out.onnx``: inputs ``observation`` (float32, ``[batch, observation_size]``) and ``action_mask`` (int8,
  ``[batch, action_n]``, the env's mask as it is); outputs ``probabilities`` (float32, ``[batch, action_n]``:
  the policy restricted to the mask, an illegal action exactly 0, a row without a legal action all 0) and
  ``value`` (float32, ``[batch]``).  The mask is applied inside the graph, so no caller can forget it.
* ``out.json``: the env signature (``bidbluff.agents.policy.env_signature``: env, version, spaces, action
  layout), the env options, the name of every action id, the observation's field table, the source
  checkpoint, the graph's size and SHA-256.  ``bidbluff.agents.onnx_policy`` checks it before playing.

The graph is built from the network's layers directly (``Gemm`` per linear layer, ``Tanh``/``Relu``, then
``Where``/``Softmax``/``Mul`` for the mask) rather than traced by ``torch.onnx.export``: the network is a plain
MLP, this needs only the ``onnx`` package (torch's current exporter also wants onnxscript), and every node
is one we chose (opset 17, IR version 8, which onnxruntime releases of the last years all read).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from bidbluff import envs
from bidbluff.agents.onnx_policy import FORMAT, FORMAT_VERSION, sidecar_path
from bidbluff.agents.policy import checkpoint_paths, env_signature, load_network, write_atomic

OPSET = 17
IR_VERSION = 8
MASKED = -1e8  # an illegal action's logit, as in training (bidbluff.agents.networks.MASKED)


def build_model(net: Any, producer: str = "bidbluff") -> Any:
    """``net`` (an ``ActorCritic``) as an ``onnx.ModelProto`` with the inputs and outputs of the module doc."""
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
        from torch import nn
    except ImportError as missing:
        raise ValueError(f"export needs the export extra: pip install 'bidbluff[export]' ({missing})") from None

    nodes: list[Any] = []
    weights: list[Any] = []

    def stages(modules: list[Any], rows: str, prefix: str) -> str:
        """Append the nodes of ``modules`` (Sequentials of Linear and activations) reading ``rows``."""
        flat: list[Any] = []
        for module in modules:
            flat += list(module) if isinstance(module, nn.Sequential) else [module]
        for i, part in enumerate(flat):
            out = f"{prefix}_{i}"
            if isinstance(part, nn.Linear):
                w, b = f"{out}.weight", f"{out}.bias"
                weights.append(numpy_helper.from_array(part.weight.detach().numpy().astype(np.float32), w))
                weights.append(numpy_helper.from_array(part.bias.detach().numpy().astype(np.float32), b))
                nodes.append(helper.make_node("Gemm", [rows, w, b], [out], transB=1))  # rows @ W.T + b, as torch
            elif isinstance(part, nn.Tanh):
                nodes.append(helper.make_node("Tanh", [rows], [out]))
            elif isinstance(part, nn.ReLU):
                nodes.append(helper.make_node("Relu", [rows], [out]))
            else:
                raise TypeError(f"a network layer {type(part).__name__} has no ONNX export here")
            rows = out
        return rows

    features = stages([getattr(net, net.TRUNK)], "observation", "trunk")
    logits = stages([getattr(net, stage) for stage in net.POLICY], features, "policy")
    value_column = stages([getattr(net, stage) for stage in net.VALUE], features, "value")
    weights += [
        numpy_helper.from_array(np.array(MASKED, dtype=np.float32), "masked_logit"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "flat"),
    ]
    nodes += [
        helper.make_node("Cast", ["action_mask"], ["legal"], to=TensorProto.BOOL),
        helper.make_node("Cast", ["action_mask"], ["legal_float"], to=TensorProto.FLOAT),
        helper.make_node("Where", ["legal", logits, "masked_logit"], ["masked_logits"]),
        helper.make_node("Softmax", ["masked_logits"], ["softmax"], axis=-1),
        # exp(-1e8 - max) is already 0 in float32; the product also zeroes a row with no legal action at all
        helper.make_node("Mul", ["softmax", "legal_float"], ["probabilities"]),
        helper.make_node("Reshape", [value_column, "flat"], ["value"]),
    ]
    obs_size, n_actions = net.sizes["obs_size"], net.sizes["n_actions"]
    graph = helper.make_graph(
        nodes,
        "bidbluff_policy",
        [
            helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", obs_size]),
            helper.make_tensor_value_info("action_mask", TensorProto.INT8, ["batch", n_actions]),
        ],
        [
            helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", n_actions]),
            helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch"]),
        ],
        weights,
    )
    model = helper.make_model(graph, producer_name=producer, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    return model


def action_names(env_name: str, env_options: dict[str, Any] | None = None) -> list[str]:
    """A name for every action id: the env's ``action_to_str`` at the start of a game from seat 0 where the id
    means something there, else the codec's ``kind(args)`` (ids whose meaning depends on the position)."""
    options = env_options or {}
    game = envs.game(env_name, **options)
    env = envs.make(env_name, num_players=game.default_players, **options).unwrapped
    env.reset(seed=0)
    names = []
    for action_id in range(game.codec.n):
        try:
            names.append(env.action_to_str(action_id))
        except Exception:  # an id the first position cannot decode: each game raises its own kind
            kind, *args = game.codec.decode(action_id)
            names.append(f"{kind}({', '.join(map(str, args))})" if args else kind)
    return names


def observation_fields(env_name: str, env_options: dict[str, Any] | None = None) -> str | None:
    """The env's observation field table (``Layout.describe()``), where the layout is the observation's."""
    game = envs.game(env_name, **(env_options or {}))
    layout = getattr(game, "layout", None)
    if layout is None:
        codec = importlib.import_module(f"bidbluff.envs.{env_name.rsplit('_v', 1)[0]}.codec")
        layout = getattr(codec, "LAYOUT", None)
    if layout is None or layout.size != game.observation_size:
        return None  # e.g. liars_dice_v0's compact observation: a cut of the table, not the table
    return layout.describe()


def export(checkpoint: str | Path, out: str | Path, env_name: str | None = None) -> Path:
    """Write checkpoint ``checkpoint``'s policy as ``out`` (``.onnx``) and its sidecar ``out.json``; returns
    ``out``.  Both are written atomically; a failure leaves no half-written file."""
    out = Path(out)
    if out.suffix != ".onnx":
        raise ValueError(f"export: the output {out} must end in .onnx (its sidecar goes beside it as .json)")
    net, meta, _ = load_network(checkpoint, env_name)
    model = build_model(net)
    data = model.SerializeToString()
    options = meta.get("env_options") or {}
    zip_path, _ = checkpoint_paths(checkpoint)
    sidecar = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **env_signature(meta["env"], options),
        "env_options": options,
        "num_players": meta.get("num_players"),
        "inputs": {"observation": ["batch", *meta["observation_shape"]], "action_mask": ["batch", meta["action_n"]]},
        "input_dtypes": {"observation": "float32", "action_mask": "int8"},
        "outputs": {"probabilities": ["batch", meta["action_n"]], "value": ["batch"]},
        "opset": OPSET,
        "network": meta.get("network"),
        "source": {"checkpoint": zip_path.name, "zip_sha256": meta.get("zip_sha256"), "steps": meta.get("steps")},
        "action_names": action_names(meta["env"], options),
        "observation_fields": observation_fields(meta["env"], options),
        "onnx_bytes": len(data),
        "onnx_sha256": hashlib.sha256(data).hexdigest(),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, lambda tmp: tmp.write_bytes(data))
    text = json.dumps(sidecar, indent=2, sort_keys=True) + "\n"
    try:
        write_atomic(sidecar_path(out), lambda tmp: tmp.write_text(text))
    except BaseException:
        out.unlink(missing_ok=True)
        raise
    return out
