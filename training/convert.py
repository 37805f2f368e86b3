"""Convert a checkpoint of the old stable-baselines3 format into the ``ActorCritic`` format.

    python -m bidbluff.training.convert OLD.zip NEW.zip

reads ``OLD`` (a ``MaskablePPO`` save and its sidecar, as the batched trainer
wrote them before its network became ``bidbluff.agents.networks.ActorCritic``, and as
``bidbluff train`` writes them) and writes ``NEW`` as a ``torch.save`` state
dict plus the sidecar (see ``bidbluff.agents.policy``).  The sidecar keeps every block
of the old one (the evaluations, the tournaments, the league) and gains the
``network`` block and ``converted_from`` (the old zip's name and SHA-256).
The network plays exactly as before (the same weights, layer for layer); the
Adam state goes along when the old checkpoint had one in use, so a converted
run checkpoint still resumes or fine-tunes as it would have.  ``NEW`` may be
``OLD`` itself (the files are replaced whole).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bidbluff.agents.policy import checkpoint_paths, load_network, save_checkpoint


def convert(source: str | Path, dest: str | Path) -> Path:
    """Write checkpoint ``source`` (either format) at ``dest`` in the ``ActorCritic`` format; returns the zip."""
    net, meta, optimizer = load_network(source)
    old = (
        {}
        if "network" in meta
        else {  # (a new-format source is copied as it is)
            "converted_from": {
                "path": str(checkpoint_paths(source)[0]),
                "zip_sha256": meta["zip_sha256"],
                "format": "stable-baselines3 MaskablePPO",
            }
        }
    )
    keep = optimizer if optimizer is not None and optimizer.get("state") else None
    return save_checkpoint(dest, net, {**meta, **old}, keep)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bidbluff.training.convert",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("source", help="the checkpoint to convert (x.zip, x.json or x)")
    parser.add_argument("dest", help="where to write the converted checkpoint (x.zip; may be the source)")
    args = parser.parse_args(argv)
    try:
        path = convert(args.source, args.dest)
    except ValueError as bad:  # CheckpointError: what is wrong with the source
        parser.exit(2, f"python -m bidbluff.training.convert: error: {bad}\n")
    print(f"converted {args.source} -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
