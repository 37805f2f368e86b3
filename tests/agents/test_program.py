"""Any program as an agent (``cmd:`` specs, ``bidbluff.agents.program``): spec lists around quoted commands,
named agents, the protocol's messages, the board from the seat's own view, the reference agents, and every way a
program can break (each a forfeit with a clear reason, and no process left behind)."""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.base import ForfeitError, bind_all, seat_of
from bidbluff.agents.program import VERSION, ProgramAgent
from bidbluff.arena.match import play_game

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "arena" / "programs" / "broken_agent.py"
NODE_AGENT = ROOT / "examples" / "agents" / "random_agent.js"
BASH_AGENT = ROOT / "examples" / "agents" / "first_legal.sh"


def broken(mode: str, pidfile: Path, limits: str = "move=3s,start=10s") -> str:
    return agents.split_specs(f'cmd:"{sys.executable} {BROKEN} {mode} {pidfile}",{limits}')[0]


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent to reap it runs nothing)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def left_running(pidfile: Path, wait: float = 2.0) -> list[int]:
    """The pids of ``pidfile`` still running after ``wait`` seconds at most (a SIGKILL takes a moment to land)."""
    pids = list(map(int, pidfile.read_text().split())) if pidfile.exists() else []
    deadline = time.monotonic() + wait
    while any(map(running, pids)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return [pid for pid in pids if running(pid)]


# -- spec lists -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('cmd:"node my_agent.js",random', ["cmd:'node my_agent.js'", "random"]),
        ("cmd:'node a.js --pair 1,2',move=2s,heuristic", ["cmd:'node a.js --pair 1,2',move=2s", "heuristic"]),
        ('random, cmd:"bash a.sh"*2 ,move=1s', ["random", "cmd:'bash a.sh',move=1s*2"]),
        ("cmd:./agent,ismcts:50,prior=shipped", ["cmd:./agent", "ismcts:50,prior=shipped"]),
        # expert's own setting: a time cap after the simulations stays with the search
        ("ismcts:100,1000ms,prior=shipped,heuristic*3", ["ismcts:100,1000ms,prior=shipped", "heuristic*3"]),
        (r"C:\runs\x.zip,random", [r"C:\runs\x.zip", "random"]),
    ],
)
def test_split_specs_around_quoted_commands(text: str, expected: list[str]) -> None:
    assert agents.split_specs(text) == expected
    for spec in expected:  # every spec splits back to itself
        assert agents.split_specs(spec) == [spec]


def test_expand_specs_repeats_a_program_and_refuses_an_open_quote() -> None:
    assert agents.expand_specs('cmd:"node a.js"*2,random') == ["cmd:'node a.js'", "cmd:'node a.js'", "random"]
    with pytest.raises(ValueError, match="a quote is not closed"):
        agents.split_specs('cmd:"node a.js,random')


def test_program_spec_errors_name_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="move='fast' is not a time limit"):
        agents.make("cmd:'node a.js',move=fast", env_name="liars_dice_v0")
    with pytest.raises(ValueError, match="is not a setting of a program"):
        agents.make("cmd:node a.js,b", env_name="liars_dice_v0")
    with pytest.raises(ValueError, match="write cmd:COMMAND"):
        agents.make("cmd:", env_name="liars_dice_v0")
    with pytest.raises(ValueError, match="needs the env"):
        agents.make("cmd:node a.js")


def test_named_agents(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(agents, "NAMED", {})
    agents.register(*agents.parse_registration(f"mine={broken('good', tmp_path / 'pids')}"))
    made = agents.make("mine", env_name="liars_dice_v0", seed=1)
    assert isinstance(made, ProgramAgent) and made.name == "mine" and made.limits["move_s"] == 3.0
    for bad, message in [("random", "is a kind of agent"), ("9lives", "starts with a letter"), ("x", "no spec")]:
        with pytest.raises(ValueError, match=message):
            agents.register(bad, "" if bad == "x" else "random")
    with pytest.raises(ValueError, match="write NAME=SPEC"):
        agents.parse_registration("cmd:node a.js")


# -- the protocol -----------------------------------------------------------------------------------------
def test_messages_and_the_seats_own_board(tmp_path: Path) -> None:
    """hello, game, act lines carry what the docs say; the board is the seat's own view; a move name answers."""
    pidfile = tmp_path / "pids"
    program = agents.make(broken("record", pidfile), env_name="liars_dice_v0", seed=4)
    others = agents.make("random", seed=0)
    env = envs.make("liars_dice_v0", num_players=2)
    rng = np.random.default_rng(0)
    expected_boards = []
    for game in range(2):
        env.reset(seed=game)
        bind_all([program, others], env)
        for name in env.agent_iter():
            observation, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            if name == "player_1":
                state, seat = env.unwrapped.game_state, seat_of(name)
                board = env.unwrapped.game.render(state, seat)
                # nothing the seat cannot know: redrawing the others' hidden dice leaves its board as it is
                assert env.unwrapped.game.render(state.resample_hidden(seat, rng), seat) == board
                expected_boards.append(board)
                env.step(program.act(observation, name))
            else:
                env.step(others.act(observation, name))
    program.close()
    lines = [json.loads(line) for line in (tmp_path / "pids.log").read_text().splitlines()]
    hello, first_game = lines[0], lines[1]
    assert hello["type"] == "hello" and hello["protocol"] == "bidbluff-agent" and hello["version"] == VERSION
    assert hello["env"] == "liars_dice_v0" and hello["seat"] == 1 and hello["num_players"] == 2
    assert hello["action_n"] == envs.game("liars_dice_v0").codec.n and hello["seed"] == 4
    assert first_game == {"type": "game", "game": 1, "seat": 1, "agent": "player_1", "num_players": 2}
    acts = [m for m in lines if m["type"] == "act"]
    assert [m["board"] for m in acts] == expected_boards
    assert [m for m in lines if m["type"] == "game"][1]["game"] == 2
    act = acts[0]
    assert act["legal"] == [i for i, bit in enumerate(act["mask"]) if bit]
    assert len(act["legal_names"]) == len(act["legal"]) and len(act["observation"]) == hello["observation_size"]
    assert program.program_name == "record" and not left_running(pidfile)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_node_reference_agent_plays_whole_games() -> None:
    spec = agents.split_specs(f'cmd:"node {NODE_AGENT}"')[0]
    program = agents.make(spec, env_name="lying_pirates_v0", seed=3)
    try:
        for seed in range(2):
            record = play_game("lying_pirates_v0", [program, agents.make("random", seed=seed)], seed, 2)
            assert record.forfeit is None and not record.truncated and record.steps > 20
        assert program.program_name == "random_agent.js"
    finally:
        program.close()


def test_bash_reference_agent_plays_whole_games() -> None:
    program = agents.make(agents.split_specs(f'cmd:"bash {BASH_AGENT}"')[0], env_name="spytails_v0", seed=0)
    try:
        record = play_game("spytails_v0", [agents.make("random", seed=1), program], 0, 2)
        assert record.forfeit is None and not record.truncated
        assert program.program_name == "first_legal.sh"
    finally:
        program.close()


# -- forfeits ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("hang", r"timed out at its move 3 of game 1: no answer within 2 s"),
        ("hang-child", r"timed out at its move 3 of game 1"),
        ("crash", r"exited with code 3 while at its move 3 .*stderr: \.\.\.broken_agent: crashing on purpose"),
        ("garbage", r"garbage at its move 3 of game 1: 'this is not json' is not JSON"),
        ("illegal", r"illegal move at its move 3 of game 1: \d+ is not one of the legal ids"),
        ("unknown-name", r"'fly to the moon' is not one of the legal moves"),
        ("no-read", r"timed out at its move 3"),
        ("bad-hello", r"speaks bidbluff-agent version 99; bidbluff speaks 1"),
        ("silent", r"timed out answering the hello: no answer within 1 s"),
        # a second answer that comes late is taken for the next move's answer: caught then, or a move later
        ("twice", r"garbage at its move \d+ of game 1: '\{.*\}' was written when no answer was asked|illegal move"),
    ],
)
def test_each_way_to_break_is_a_forfeit_and_leaves_no_process(mode: str, reason: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    # (limits with room for a loaded machine, but for the hello that is never sent)
    limits = "move=2s,start=1s" if mode == "silent" else "move=2s,start=10s"
    program = agents.make(broken(mode, pidfile, limits), env_name="lying_pirates_v0", seed=0)
    start = time.monotonic()
    record = play_game("lying_pirates_v0", [agents.make("random", seed=0), program], 1, 2)
    assert time.monotonic() - start < 15
    assert record.forfeit is not None and record.forfeit["seat"] == 1
    assert record.forfeit["agent"] == program.name
    assert re.search(reason, record.forfeit["reason"]), record.forfeit["reason"]
    assert record.winners() == [0] and record.rewards == [1.0, -1.0] and record.standings() == [1.0, 0.0]
    assert not left_running(pidfile), "a broken program (or its child) was left running"
    program.close()


def test_program_restarts_fresh_after_a_forfeit_and_the_game_limit_counts(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    program = agents.make(broken("crash", pidfile), env_name="lying_pirates_v0", seed=0)
    for game in range(2):  # (the program crashes at its third move: Lying Pirates' games are long enough)
        record = play_game("lying_pirates_v0", [program, agents.make("random", seed=game)], game, 2)
        assert record.forfeit is not None and "exited with code 3" in record.forfeit["reason"]
    assert len(pidfile.read_text().split()) == 2 and not left_running(pidfile)
    slow = agents.make(broken("slow", tmp_path / "slow", "move=1s,game=0.5s"), env_name="lying_pirates_v0", seed=0)
    record = play_game("lying_pirates_v0", [slow, agents.make("random", seed=0)], 0, 2)
    assert record.forfeit is not None, "0.2 s a move cannot last a game of 0.5 s"
    assert re.search(r"timed out .*no answer within 0\.\d+ s|out of time", record.forfeit["reason"])
    assert not left_running(tmp_path / "slow")


def test_close_kills_a_program_that_outstays_its_input(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    program = agents.make(broken("linger", pidfile), env_name="liars_dice_v0", seed=0)
    play_game("liars_dice_v0", [program, agents.make("random", seed=0)], 0, 2)
    assert left_running(pidfile, wait=0)
    program.close()
    assert not left_running(pidfile)
    program = agents.make(broken("linger", pidfile), env_name="liars_dice_v0", seed=0)
    play_game("liars_dice_v0", [program, agents.make("random", seed=0)], 0, 2)
    del program  # dropped without close: the finalizer ends it
    assert not left_running(pidfile)


def test_an_unbound_program_gets_no_board_and_codec_names(tmp_path: Path) -> None:
    program = ProgramAgent([sys.executable, str(BROKEN), "record", str(tmp_path / "p")], "liars_dice_v0")
    env = envs.make("liars_dice_v0", num_players=2)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    try:
        assert observation["action_mask"][program.act(observation, env.agent_selection)]
    finally:
        program.close()
    act = [json.loads(line) for line in (tmp_path / "p.log").read_text().splitlines()][-1]
    assert act["board"] is None and act["legal_names"][0].startswith("bid(")
    with pytest.raises(ForfeitError, match="cannot start"):
        ProgramAgent(["/nonexistent/agent"], "liars_dice_v0").act(observation, env.agent_selection)


def test_where_only_named_programs_may_run_a_bare_command_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``bidbluff serve`` turns this on: a browser request can name a registered program, never bring a command."""
    monkeypatch.setattr(agents, "NAMED", {})
    monkeypatch.setitem(agents._UNNAMED_PROGRAMS, "allowed", True)
    agents.register("mine", broken("good", tmp_path / "pids"))
    agents.named_programs_only()
    with pytest.raises(ValueError, match="a program plays only when it was named at start-up"):
        agents.make(broken("good", tmp_path / "pids"), env_name="liars_dice_v0")
    assert isinstance(agents.make("mine", env_name="liars_dice_v0"), ProgramAgent)
    assert agents.make("random", env_name="liars_dice_v0").name == "random"
