"""The README and the pages under docs/ as a newcomer reads them.

- Every Python block runs as written (blocks that play whole games with search agents: in the slow suite).
- Every command of a bash block names what exists: a ``bidbluff`` subcommand whose flags parse (as ``--help``
  would check them, not run: most are minutes long), a ``make`` target of the Makefile, a ``python -m``
  module.  The README's quickstart commands also run, in the slow suite, with the small budgets they show.
- Every relative link points to a file that exists, and to a heading of it where it names one.
- Each env's page (docs/envs/<env>.md) is what ``bidbluff.envs.core.docs`` makes from the env's docstring now,
  and the docstring's table agrees with the env's spaces and player counts.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from bidbluff import envs
from bidbluff.cli import build_parser
from bidbluff.envs.core import docs

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Pages other people own: their links are checked, their code blocks are theirs to keep running.
OTHERS = ("docs/rules/", "docs/browser.md", "docs/convergence.md")
CODE_PAGES = [p for p in PAGES if not p.relative_to(ROOT).as_posix().startswith(OTHERS)]
# Pages another change writes: a link to one passes while it is missing, and is checked once it is there.
PENDING = {"docs/browser.md"}  # the browser table's page, made from the README's old section
# Blocks that play whole games with search agents: seconds each, run with the slow suite.
SLOW_MARKERS = ("ismcts", "expert")


@dataclass(frozen=True)
class Block:
    page: str  # the page's path from the repository root
    line: int  # the line of its opening fence
    lang: str
    code: str
    section: str  # the ``## `` heading it is under

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, each with its line and its ``## `` section."""
    out = []
    lines = path.read_text().splitlines()
    section, i = "", 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("## "):
            section = line[3:].strip()
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            code = "\n".join(lines[i + 1 : end]) + "\n"
            out.append(Block(path.relative_to(ROOT).as_posix(), i + 1, fence.group(1), code, section))
            i = end
        i += 1
    return out


def commands(code: str) -> list[str]:
    """The commands of a bash block: continuation lines joined, comments and ``[optional]`` parts cut."""
    joined = re.sub(r"\\\n\s*", " ", code)
    out = []
    for line in joined.splitlines():
        line = re.sub(r"\s#\s.*$|^#.*$", "", line).strip()
        line = re.sub(r"\s+\[[^\]]*\]", "", line)  # " [--opt]", not a JSON list such as '{"dice":[1]}'
        if line:
            out.append(line)
    return out


BLOCKS = [b for page in CODE_PAGES for b in blocks(page)]
PYTHON = [b for b in BLOCKS if b.lang == "python"]
BASH = [(b, c) for b in BLOCKS if b.lang == "bash" for c in commands(b.code)]
QUICKSTART = [b for b in blocks(ROOT / "README.md") if b.lang == "bash" and b.section == "Quickstart"]
PARSER = build_parser()
MAKEFILE = (ROOT / "Makefile").read_text()
MAKE_TARGETS = re.findall(r"^([\w-]+):", MAKEFILE, flags=re.M)


def test_the_docs_have_blocks_to_check() -> None:
    assert PYTHON and BASH and QUICKSTART
    assert {b.page for b in BLOCKS} > {"README.md"}, "the docs pages' blocks are found too"


def test_the_front_page_stays_short() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 320, f"README.md has {lines} lines: move the detail to a page under docs/"


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id) for b in PYTHON])
def test_python_blocks_import_the_package(block: Block) -> None:
    """Not the repository's folders: `import envs` works only where the checkout is on the path."""
    bare = re.findall(r"^\s*(?:import|from)\s+(envs|agents|arena|training|checkpoints)\b", block.code, flags=re.M)
    assert not bare, f"{block.id}: import from bidbluff (`from bidbluff import {bare[0]}`), not the folder"


def slow_if_searching(block: Block) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow] if any(m in block.code for m in SLOW_MARKERS) else []


@pytest.mark.parametrize("block", [pytest.param(b, id=b.id, marks=slow_if_searching(b)) for b in PYTHON])
def test_python_blocks_run_as_written(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(block.code, block.page, "exec"), {"__name__": "__docs__"})


SHELL = ("source", ".", "python3", "tensorboard", "cd", "ray", "mkdir", "cp", "for", "git")  # other tools' commands


@pytest.mark.parametrize("command", [pytest.param(c, id=f"{b.id}:{c[:40]}") for b, c in BASH])
def test_bash_commands_name_what_exists(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    words = shlex.split(command)
    while "=" in words[0]:  # VAR=value command ...: the command
        words = words[1:]
    first = words[0]
    if first.endswith("bidbluff") and ("--help" in words or "-h" in words):
        with pytest.raises(SystemExit) as done:  # the help is printed, then argparse exits 0
            PARSER.parse_args(words[1:])
        assert done.value.code == 0, f"{command}: {capsys.readouterr().err}"
    elif first.endswith("bidbluff"):
        PARSER.parse_args(words[1:])  # argparse exits on an unknown subcommand or flag
    elif first == "make":
        assert all(t in MAKE_TARGETS for t in words[1:]), f"{command}: the Makefile has {MAKE_TARGETS}"
    elif first.endswith("python") and words[1] == "-m":
        assert importlib.util.find_spec(words[2]) is not None, f"{command}: no module {words[2]}"
    elif first.endswith("python") and words[1].endswith(".py"):
        assert (ROOT / words[1]).is_file(), f"{command}: no script {words[1]}"
    elif Path(first).name in SHELL or Path(first).name in ("pip", "pytest"):
        pass  # the shell's and other tools' own commands
    else:
        pytest.fail(f"command not checked: {command}")


# --- the quickstart runs ------------------------------------------------------------------------------------


def make_recipe(target: str) -> list[str]:
    """The ``bidbluff`` command a make target runs (its recipe's last ``$(BIN)/bidbluff`` line; the
    recipe's install steps are setup, done already in the environment the tests run in)."""
    recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", MAKEFILE, flags=re.M)
    assert recipe, f"no recipe for make {target}"
    lines = [line.strip() for line in recipe.group(1).splitlines() if "$(BIN)/bidbluff" in line]
    assert lines, f"make {target} runs no bidbluff command"
    game = re.search(r"^GAME \?= (\S+)", MAKEFILE, flags=re.M)
    line = lines[-1].replace("$(BIN)/bidbluff", "bidbluff").replace("$(GAME)", game.group(1) if game else "")
    return shlex.split(line)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_once(words: list[str], cwd: Path) -> None:
    """Start the browser table, fetch its page, stop it."""
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        pytest.skip("the browser table needs the web extra: pip install -e '.[web]'")
    port = free_port()
    server = subprocess.Popen([*words, "--port", str(port)], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    assert page.status == 200 and b"<html" in page.read().lower()
                    return
            except OSError:
                assert server.poll() is None, f"bidbluff serve exited: {server.communicate()[0].decode()[-2000:]}"
                assert time.monotonic() < deadline, "bidbluff serve did not answer in 60 s"
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)


def run_command(command: str, cwd: Path) -> None:
    words = shlex.split(command)
    if words[0] == "make":
        words = make_recipe(words[1])
    assert words[0] == "bidbluff", f"the quickstart runs bidbluff and make commands, not {command}"
    words[0] = str(BIN / "bidbluff")
    if words[1] == "serve":
        serve_once(words, cwd)
        return
    # `play` reads moves from its input: `quit` leaves at the first one, with 130 (as Ctrl-C does)
    done = subprocess.run(words, cwd=cwd, input="quit\n", capture_output=True, text=True, timeout=600)
    left = words[1] == "play" and done.returncode == 130 and "You left the game" in done.stdout
    assert done.returncode == 0 or left, f"{command} exited {done.returncode}:\n{(done.stdout + done.stderr)[-3000:]}"


@pytest.mark.slow
@pytest.mark.parametrize("block", [pytest.param(b, id=b.id) for b in QUICKSTART])
def test_quickstart_commands_run(block: Block, tmp_path: Path) -> None:
    for command in commands(block.code):
        run_command(command, tmp_path)


# --- links --------------------------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor on a page (repeats get GitHub's -1, -2 ...); code blocks are not headings."""
    seen: dict[str, int] = {}
    in_code = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (heading := re.match(r"^#{1,6} (.+)$", line)):
            base = slug(heading.group(1))
            seen[base] = seen.get(base, -1) + 1
            if seen[base]:
                seen[f"{base}-{seen[base]}"] = 0
    return set(seen)


def links(path: Path) -> list[str]:
    """The relative link targets of a page (code blocks and spans left out)."""
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    targets = re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text)
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("page", [pytest.param(p, id=p.relative_to(ROOT).as_posix()) for p in PAGES])
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        name = dest.relative_to(ROOT).as_posix() if dest.is_relative_to(ROOT) else str(dest)
        if not dest.exists():
            if name not in PENDING:
                broken.append(f"{target}: no file {name}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading #{anchor} in {name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


# --- the env pages ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_env_pages_are_made_from_the_docstrings(env_name: str) -> None:
    page = ROOT / "docs" / "envs" / f"{env_name}.md"
    assert page.exists(), f"no {page.relative_to(ROOT)}: run `{docs.COMMAND}`"
    assert page.read_text() == docs.env_page(env_name), (
        f"{page.relative_to(ROOT)} is not what {docs.env_module(env_name)}'s docstring makes now: "
        f"run `{docs.COMMAND}` and commit the page"
    )


def docstring_table(env_name: str) -> dict[str, str]:
    """The rows of the table that opens an env's docstring (a repeated key keeps its first row)."""
    rows: dict[str, str] = {}
    for line in docs.env_page(env_name).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 2 and not set(cells[0]) <= set("-: "):
            rows.setdefault(cells[0], cells[1])
    return rows


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_env_docstring_tables_match_the_envs(env_name: str) -> None:
    rows = docstring_table(env_name)
    env = envs.make(env_name)
    env.reset(seed=0)
    agent = env.agents[0]
    action = re.match(r"Discrete\((\d+)\)", rows["Action Shape"])
    observation = re.match(r"\((\d+),\)", rows["Observation Shape"])
    assert action and int(action.group(1)) == env.action_space(agent).n, rows["Action Shape"]
    assert observation and (int(observation.group(1)),) == env.observation_space(agent)["observation"].shape
    game = envs.game(env_name)
    agents_rows = " ".join(line for line in docs.env_page(env_name).splitlines() if line.startswith("| Agents "))
    counts = re.search(r"(\d)-(\d) \(`num_players`, default (\d)\)", agents_rows)
    assert counts, f"{env_name}: no 'N-M (`num_players`, default K)' row"
    assert tuple(map(int, counts.groups())) == (game.min_players, game.max_players, game.default_players)


@pytest.mark.parametrize("env_name", envs.ENVS)
def test_env_docstring_import_rows_run(env_name: str, tmp_path: Path) -> None:
    statement = re.search(r"`([^`]+)`", docstring_table(env_name)["Import"])
    assert statement, f"{env_name}: the Import row has no statement"
    # in a fresh interpreter outside the repository, as an installed package is imported (the tests' own
    # path has the repository's folders on it, where `import envs` would work by accident)
    done = subprocess.run([sys.executable, "-c", statement.group(1)], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, f"{statement.group(1)}: {done.stderr[-1000:]}"


def test_the_generator_writes_and_checks_the_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert docs.main(["--check", "--out", str(tmp_path)]) == 1  # none there yet: every page is stale
    assert "python -m bidbluff.envs.core.docs" in capsys.readouterr().out
    assert docs.main(["--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{name}.md" for name in envs.ENVS)
    assert docs.main(["--check", "--out", str(tmp_path)]) == 0
    (tmp_path / "spytails_v0.md").write_text("edited by hand\n")
    assert docs.main(["--check", "--out", str(tmp_path)]) == 1
    assert "spytails_v0.md" in capsys.readouterr().out
