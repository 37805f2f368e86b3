"""Each env's documentation page, generated from its module docstring so that the two cannot drift.

The env modules (``bidbluff.envs.<game>.env``) open with a docstring in PettingZoo classic's form: a table
(import, agents, action and observation shapes), a paragraph on the game, then Observation Space, Action
Space, Rewards, Version History.  ``env_page(name)`` turns that docstring into ``docs/envs/<name>.md``: the
text as it is, plain mentions of a rules page made links, and a last line naming the source and the rules.

    python -m bidbluff.envs.core.docs            # rewrite docs/envs/*.md (run from the repository root)
    python -m bidbluff.envs.core.docs --check    # exit 1, naming the stale pages, if any differs

``tests/test_docs.py`` fails when a committed page is not what ``env_page`` makes now.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from pathlib import Path

from bidbluff import envs

# The rules page of each env, under docs/rules/ (Liar's dice is Lying Pirates' Betting phase).
RULES = {
    "libertalia_v0": "libertalia.md",
    "liars_dice_v0": "lying_pirates.md",
    "lying_pirates_v0": "lying_pirates.md",
    "spytails_v0": "spytails.md",
}
# A rules page named in plain text (not in backticks or a link already): made a link relative to docs/envs/.
RULES_MENTION = re.compile(r"(?<![`\[/])docs/rules/(\w+)\.md")
COMMAND = "python -m bidbluff.envs.core.docs"


def env_module(env_name: str) -> str:
    """The module whose docstring documents ``env_name``: the one defining its ``raw_env``."""
    return envs.load(env_name).raw_env.__module__


def source_path(module: str) -> str:
    """The repository path of a ``bidbluff.envs...`` module (``envs/libertalia/env.py``)."""
    return module.removeprefix("bidbluff.").replace(".", "/") + ".py"


def env_page(env_name: str) -> str:
    """The Markdown page of ``env_name`` (``docs/envs/<env_name>.md``), made from its env module's docstring."""
    module = env_module(env_name)
    doc = importlib.import_module(module).__doc__
    if not doc or not doc.strip():
        raise ValueError(f"{module} has no docstring to make {env_name}'s page from")
    body = RULES_MENTION.sub(r"[docs/rules/\1.md](../rules/\1.md)", inspect.cleandoc(doc))
    source = source_path(module)
    rules = RULES[env_name]
    return (
        f"<!-- Generated from the docstring of {module} by `{COMMAND}`: edit the docstring, then run that. -->\n\n"
        f"{body}\n\n"
        f"---\n\n"
        f"Source: [`{source}`](../../{source}) · Rules as implemented: [docs/rules/{rules}](../rules/{rules})"
        f" · All envs: [README](../../README.md#the-games)\n"
    )


def write_pages(out: Path) -> list[Path]:
    """Write every env's page under ``out``; return the pages that changed."""
    out.mkdir(parents=True, exist_ok=True)
    changed = []
    for name in envs.ENVS:
        path = out / f"{name}.md"
        text = env_page(name)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            changed.append(path)
    return changed


def stale_pages(out: Path) -> list[Path]:
    """The pages under ``out`` that are missing or differ from what ``env_page`` makes now."""
    return [
        out / f"{name}.md"
        for name in envs.ENVS
        if not (out / f"{name}.md").exists() or (out / f"{name}.md").read_text() != env_page(name)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description="Write docs/envs/<env>.md from each env's docstring.")
    parser.add_argument("--out", type=Path, default=Path("docs/envs"), help="where the pages go (default docs/envs)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is missing or stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_pages(args.out)
        for path in stale:
            print(f"stale: {path} (run `{COMMAND}`)")
        return 1 if stale else 0
    for path in write_pages(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
