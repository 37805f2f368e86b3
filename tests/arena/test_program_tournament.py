"""Programs at the table: tournaments, matches and terminal games with program agents, forfeits counted and shown
(a loss for the program, the tournament goes on), named agents on the command line, no process left behind."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from bidbluff import agents
from bidbluff.arena.play import play
from bidbluff.arena.tournament import run_tournament
from bidbluff.cli import main

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "arena" / "programs" / "broken_agent.py"
EXAMPLES = ROOT / "examples" / "agents"


def program(mode: str, limits: str = "move=3s,start=10s") -> str:
    return f"cmd:'{sys.executable} {BROKEN} {mode}',{limits}"


def children(wait: float = 2.0) -> list[int]:
    """This process's children still running after ``wait`` seconds at most (zombies not counted)."""

    def alive() -> list[int]:
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[1]) == os.getpid() and fields[0] not in ("Z", "X"):
                found.append(int(stat.parent.name))
        return found

    deadline = time.monotonic() + wait
    while alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    return alive()


@pytest.fixture(autouse=True)
def fresh_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agents, "NAMED", {})


def test_tournament_counts_a_forfeit_as_a_loss_and_goes_on() -> None:
    result = run_tournament(
        "liars_dice_v0", [program("good"), program("crash"), "random"], games=6, num_players=3, env_options={"dice": 5}
    )
    assert result.games == 6 and children() == []
    rows = {row["spec"]: row for row in result.rows()}
    crashed = rows[program("crash")]
    assert crashed["forfeits"] >= 1 and rows[program("good")]["forfeits"] == 0
    assert all("exited with code 3" in f["reason"] for f in result.forfeits)
    assert {f["entry"] for f in result.forfeits} == {program("crash")}
    assert len(result.forfeits) == crashed["forfeits"] and result.truncated == 0
    assert result.to_dict()["forfeits"] == result.forfeits


def test_cli_tournament_with_named_programs_prints_and_writes_forfeits(capsys, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    argv = ["tournament", "liars_dice_v0", "--agent", f"mine={program('good')}", "--agent"]
    argv += [f"bad={program('garbage')}", "--agents", "mine,bad", "--games", "2", "--option", "dice=5"]
    assert main([*argv, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert {row["entry"] for row in data["entries"]} == {"mine", "bad"}
    assert data["forfeits"] and all(f["entry"] == "bad" for f in data["forfeits"])
    assert "forfeit: game" in text and "bad: garbage at its move" in text and "is not JSON" in text
    assert "a loss for the entry that forfeited" in text
    assert children() == []


def test_cli_match_and_play_with_a_program(capsys) -> None:
    argv = ["match", "--env", "liars_dice_v0", "--agent", f"bad={program('illegal')}", "--agents", "bad,random"]
    assert main([*argv, "--games", "2", "--option", "dice=5"]) == 0
    assert "forfeit: game" in capsys.readouterr().out
    out = io.StringIO()

    class FirstMove(io.StringIO):
        def readline(self, size: int = -1) -> str:
            return "#1\n"

    record = play("lying_pirates_v0", seat=0, opponents=[program("crash")], num_players=2, seed=1, input=FirstMove(),
                  output=out, width=120)  # fmt: skip
    text = " ".join(out.getvalue().split())  # the terminal wraps long lines where a path's length puts them
    assert record is not None and record["truncated"]
    assert "forfeits: the program exited with code 3" in text and "You win!" in text
    assert children() == []


def test_cli_refuses_a_bad_registration(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "liars_dice_v0", "--agent", "random=cmd:x", "--agents", "random"])
    assert "is a kind of agent" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_reference_and_broken_programs_in_one_tournament(tmp_path: Path) -> None:
    """Node.js and bash reference agents, programs that hang (and leave a child), crash and answer garbage, and
    a random agent: every game is played or forfeited, only the broken ones forfeit, nothing is left running."""
    out = tmp_path / "result.json"
    argv = ["tournament", "lying_pirates_v0", "--players", "4", "--games", "48", "--quiet", "--json", str(out)]
    argv += ["--agent", f"node=cmd:'node {EXAMPLES / 'random_agent.js'}'"]
    argv += ["--agent", f"bash=cmd:'bash {EXAMPLES / 'first_legal.sh'}'"]
    argv += ["--agent", f"hang-child={program('hang-child', 'move=1s,start=10s')}"]
    for mode in ("crash", "garbage"):
        argv += ["--agent", f"{mode}={program(mode)}"]
    assert main([*argv, "--agents", "node,bash,hang-child,crash,garbage,random"]) == 0
    data = json.loads(out.read_text())
    rows = {row["entry"]: row for row in data["entries"]}
    assert data["games"] == 48 and sum(row["games"] for row in rows.values()) == 48 * 4
    for name in ("node", "bash", "random"):
        assert rows[name]["forfeits"] == 0 and rows[name]["games"] > 0
    for name in ("hang-child", "crash", "garbage"):
        assert rows[name]["forfeits"] > 0
    reasons = {f["entry"]: f["reason"] for f in data["forfeits"]}
    assert "timed out" in reasons["hang-child"] and "exited with code 3" in reasons["crash"]
    assert "is not JSON" in reasons["garbage"]
    assert children() == []


@pytest.mark.slow
def test_exploitability_of_a_program() -> None:
    """A program sits at ``bidbluff exploitability``: its policy is tabulated from observations (board null)."""
    from bidbluff.training.exploitability import report

    agents.register("first", f"cmd:'bash {EXAMPLES / 'first_legal.sh'}',move=5s")
    record = report("first", samples=1)
    assert record["agent"] == "first" and record["exploitability"] > 0.5
    assert children() == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("java") is None, reason="Java is not installed")
def test_java_reference_agent_in_a_tournament(tmp_path: Path) -> None:
    """Java runs the single source file as it is (a second or two to compile at each start)."""
    out = tmp_path / "result.json"
    argv = ["tournament", "liars_dice_v0", "--agent", f"java=cmd:'java {EXAMPLES / 'RandomAgent.java'}'"]
    assert main([*argv, "--agents", "java,random", "--games", "4", "--option", "dice=2", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["games"] == 4 and data["forfeits"] == [] and children() == []
