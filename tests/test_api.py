"""Generic tests every registered env gets for free, at every player count.

PettingZoo's own ``api_test`` and ``seed_test``; random play to the end with
the mask invariants checked at every step; determinism; save/restore of any
position; and no-leak: an observation is a function of the seat's information
set only, checked against ``resample_hidden``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bidbluff import envs
from bidbluff.envs.core.game import TERMINAL, play_randomly

MAX_STEPS = 5000  # far beyond any real game; a game that does not end within it is a bug


def make_raw(env_name: str, num_players: int, options: dict, **kw):
    return envs.load(env_name).raw_env(num_players=num_players, **options, **kw)


def random_game(env, rng: np.random.Generator, check=None) -> list[int]:
    """Play ``env`` (already reset) to the end with uniform legal actions; return the actions."""
    actions = []
    for agent in env.agent_iter(MAX_STEPS):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if check:
            check(env, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.filterwarnings("ignore:.*ignoring unknown reset options")  # api_test passes {"options": 1}
def _agents_over_games(env, games: int):
    """``agent_iter`` over several seeded games in a row."""
    for seed in range(games):
        env.reset(seed=seed)
        yield from env.agent_iter(MAX_STEPS)


@pytest.mark.filterwarnings("ignore:.*ignoring unknown reset options")  # api_test passes {"options": 1}
def test_pettingzoo_api(env_name, num_players, env_options):
    env = envs.make(env_name, num_players=num_players, **env_options)
    api_test(env, num_cycles=300)


def test_pettingzoo_seed(env_name, num_players, env_options):
    module = envs.load(env_name)
    seed_test(lambda: module.env(num_players=num_players, **env_options), num_cycles=300)


def test_random_play_keeps_mask_invariants(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options)
    space = env.observation_space(env.possible_agents[0])
    rng = np.random.default_rng(num_players)

    def check(env, agent, obs):
        assert obs["action_mask"].any(), f"{agent} must act with an empty mask"
        assert space.contains(obs), "observation outside its space"
        assert np.array_equal(env.action_masks(), obs["action_mask"])
        assert sorted(np.flatnonzero(obs["action_mask"])) == env.legal_action_ids()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), f"{other} has legal actions off its turn"

    for game in range(3):
        env.reset(seed=game)
        random_game(env, rng, check)
        state = env.game_state
        assert state.current_player() == TERMINAL
        assert not env.agents, "every agent must be done at the end"
        assert len(state.scores()) == num_players


def test_every_game_ends_with_zero_sum_rewards(env_name, num_players, env_options):
    for mode in ("win", "rank", "score"):
        env = make_raw(env_name, num_players, env_options, reward_mode=mode)
        env.reset(seed=7)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        rng = np.random.default_rng(7)
        for agent in env.agent_iter(MAX_STEPS):
            obs, reward, termination, truncation, info = env.last()
            totals[agent] += reward
            if termination or truncation:
                assert info["scores"] == env.game_state.scores()
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not env.agents, "every agent must be done at the end"
        if env.game.is_zero_sum(num_players):
            assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)
        if mode == "win":
            scores = env.game_state.scores()
            best = [a for a, s in zip(env.possible_agents, scores, strict=True) if s == max(scores)]
            assert all(totals[a] > 0 for a in best) or len(best) == num_players


def test_same_seed_and_actions_give_the_same_game(env_name, num_players, env_options):
    def trajectory(seed: int, actions: list[int] | None):
        env = make_raw(env_name, num_players, env_options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        record, taken = [], []
        for agent in env.agent_iter(MAX_STEPS):
            obs, reward, termination, truncation, _ = env.last()
            record.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            if termination or truncation:
                env.step(None)
                continue
            action = actions[len(taken)] if actions else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            taken.append(action)
            env.step(action)
        return record, taken, env.game_state.to_dict()

    first, actions, end = trajectory(11, None)
    second, _, end_again = trajectory(11, actions)
    assert first == second
    assert end == end_again
    other, _, _ = trajectory(12, None)
    assert other != first, "a different seed should change the game"


def test_state_round_trips_at_random_points(env_name, num_players, env_options):
    module = envs.load(env_name)
    state_class = module.raw_env.game.state_class
    env = make_raw(env_name, num_players, env_options)
    rng = np.random.default_rng(3)
    checked = 0
    for agent in _agents_over_games(env, games=12):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if rng.random() < 0.3:
            state = env.game_state
            data = json.loads(json.dumps(state.to_dict()))
            restored = state_class.from_dict(data)
            assert restored == state
            assert restored.to_dict() == state.to_dict()
            clone = state.clone()
            assert clone == state and clone is not state
            # A restored position plays on exactly like the original.
            twin = make_raw(env_name, num_players, env_options)
            twin.reset(seed=99, options={"state": data})
            assert twin.agent_selection == agent
            for seat_agent in env.possible_agents:
                mine, theirs = env.observe(seat_agent), twin.observe(seat_agent)
                assert np.array_equal(mine["observation"], theirs["observation"])
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 3


def test_finished_games_refuse_actions_and_restores(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=2)
    random_game(env, np.random.default_rng(2))
    final = env.game_state.to_dict()
    with pytest.raises(ValueError, match="over"):
        env.action_to_str(0)
    live = make_raw(env_name, num_players, env_options)
    live.reset(seed=4)
    before = live.game_state.to_dict()
    with pytest.raises(ValueError, match="over"):
        live.reset(options={"state": final})
    assert live.game_state.to_dict() == before, "a refused restore must leave the env as it was"


def test_clone_is_an_independent_equal_copy(env_name, num_players, env_options):
    """At positions all through a game: the clone equals the state, plays on exactly as the state would, and
    playing it leaves the state untouched (games override ``clone`` with copies that skip validation)."""
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=5)
    state = env.game_state
    rng = np.random.default_rng(0)
    compared = 0
    while not state.is_terminal() and compared < 25:
        before = state.to_dict()
        clone = state.clone()
        assert clone is not state and clone.to_dict() == before
        twin = type(state).from_dict(before)
        for _ in range(15):
            if clone.is_terminal():
                break
            legal = clone.legal_actions()
            assert legal == twin.legal_actions()
            pick, seed = legal[rng.integers(len(legal))], int(rng.integers(2**31))
            clone.apply(pick, np.random.default_rng(seed))
            twin.apply(pick, np.random.default_rng(seed))
            assert clone.to_dict() == twin.to_dict()
        assert state.to_dict() == before
        compared += 1
        for _ in range(rng.integers(1, 10)):  # a few decisions on: positions all through the game
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))], rng)
    assert compared >= 1


def test_observation_depends_only_on_the_information_set(env_name, num_players, env_options):
    """no-leak: resampling what a seat cannot see never changes its observation,
    and the resample really does change hidden information somewhere."""
    module = envs.load(env_name)
    game = module.raw_env.game
    rng = np.random.default_rng(num_players)
    changed = 0
    for seed in range(3):
        env = make_raw(env_name, num_players, env_options)
        env.reset(seed=seed)
        for _agent in env.agent_iter(MAX_STEPS):
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            state = env.game_state
            for seat in range(num_players):
                sample = state.resample_hidden(seat, rng)
                assert np.array_equal(game.encode(state, seat), game.encode(sample, seat)), (
                    f"seat {seat}'s observation changed when only hidden information changed"
                )
                assert sample.current_player() == state.current_player()
                # what is redrawn depends on the seat's information and the generator only
                again = [s.resample_hidden(seat, np.random.default_rng(5)).to_dict() for s in (state, sample)]
                assert again[0] == again[1], f"seat {seat}'s resample depends on what it cannot see"
                if seat == state.current_player():
                    assert sorted(sample.legal_actions()) == sorted(state.legal_actions())
                changed += sample.to_dict() != state.to_dict()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert changed > 0, "resample_hidden never changed anything: nothing is hidden?"


def test_resampled_states_play_to_the_end(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=21)
    rng = np.random.default_rng(21)
    state = env.game_state
    for _ in range(40):
        legal = state.legal_actions()
        before = state.clone()
        state.apply(legal[rng.integers(len(legal))], rng)
        if state.is_terminal():
            state = before  # stay inside the game: resample a live position
            break
    sample = state.resample_hidden(0, rng)
    type(sample).from_dict(sample.to_dict())  # still a valid position
    play_randomly(sample, rng, MAX_STEPS)
    assert sample.is_terminal()


def test_illegal_action_names_the_legal_ones(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=0)
    mask = env.action_masks()
    illegal = int(np.flatnonzero(mask == 0)[0])
    legal = env.legal_action_ids()
    before = env.game_state.to_dict()
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    assert env.action_to_str(legal[0]) in str(err.value)
    assert env.game_state.to_dict() == before, "a refused action must change nothing"
    with pytest.raises(ValueError):
        env.step(None)
    with pytest.raises(ValueError, match="legal"):
        env.step(float(legal[0]) + 0.5)  # not an integer: never silently rounded
    with pytest.raises(ValueError, match="legal"):
        env.step("abc")
    assert env.game_state.to_dict() == before

    env = make_raw(env_name, num_players, env_options, illegal_action="terminate")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert sum(env.rewards.values()) == -1.0
    assert not env.action_masks().any(), "nothing is legal once the game ended"


def test_actions_speak_in_words(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options, render_mode="ansi")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        if env.terminations[env.agent_selection]:
            break
        words = [env.action_to_str(i) for i in env.legal_action_ids()]
        assert len(set(words)) == len(words), "two legal actions print the same"
        for i, text in zip(env.legal_action_ids(), words, strict=True):
            assert env.str_to_action(text) == i
            assert env.str_to_action(f"  {text.upper()} ") == i
        with pytest.raises(ValueError, match="legal"):
            env.str_to_action("no such move")
        board = env.render()
        assert isinstance(board, str) and board
        env.step(int(rng.choice(env.legal_action_ids())))


def test_bad_options_are_refused_clearly(env_name, num_players, env_options):
    module = envs.load(env_name)
    game = module.raw_env.game
    with pytest.raises(ValueError, match="players"):
        module.raw_env(num_players=game.max_players + 1)
    with pytest.raises(ValueError, match="reward_mode"):
        module.raw_env(num_players=num_players, reward_mode="money")
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=0)
    data = env.game_state.to_dict()
    other = game.min_players if num_players != game.min_players else game.max_players
    with pytest.raises(ValueError, match="players"):
        make_raw(env_name, other, {}).reset(options={"state": data})
    with pytest.warns(UserWarning, match="unknown reset options"):
        make_raw(env_name, num_players, env_options).reset(seed=0, options={"colour": "red"})
    with pytest.raises(ValueError, match="no option colour"):
        module.raw_env(num_players=num_players, colour="red")
    with pytest.raises(ValueError, match="render_view"):
        module.raw_env(num_players=num_players, render_view=num_players)
    broken = dict(data)
    broken.pop(next(k for k in data if k not in ("game", "num_players")))
    with pytest.raises(ValueError):
        make_raw(env_name, num_players, env_options).reset(options={"state": broken})


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_many_random_games(env_name, num_players, env_options, chunk):
    """2,000 random games per player count (four chunks of 500), straight on the engine."""
    game = make_raw(env_name, num_players, env_options).game
    for g in range(500):
        seed = chunk * 500 + g
        rng = np.random.default_rng(seed)
        state = game.new_state(num_players, rng)
        play_randomly(state, rng, MAX_STEPS)
        assert state.is_terminal(), f"seed {seed}: game did not end"
        if g % 50 == 0:
            type(state).from_dict(state.to_dict())


def test_actions_are_integers_never_bools(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=0)
    before = env.game_state.to_dict()
    for not_an_id in (True, False, np.bool_(True), 1.0, "1", [1]):
        with pytest.raises(ValueError, match=r"not an action id\) now; legal"):
            env.step(not_an_id)
    assert env.game_state.to_dict() == before
    env.step(np.int64(env.legal_action_ids()[0]))  # numpy's integers are ids
    with pytest.raises(ValueError, match="is not an action id"):
        env.action_to_str(True)
    with pytest.raises(ValueError, match=f"action id {env.game.codec.n} is outside this table's actions"):
        env.action_to_str(env.game.codec.n)


def test_the_raw_env_after_the_end_answers_clearly(env_name, num_players, env_options):
    env = make_raw(env_name, num_players, env_options)
    env.reset(seed=3)
    random_game(env, np.random.default_rng(3))
    assert not env.agents
    for agent in env.possible_agents:  # observations stay readable, with nothing to do
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs) and not obs["action_mask"].any()
    with pytest.raises(ValueError, match="every agent has stepped out"):
        env.last()
    final = env.game_state.to_dict()
    env.step(0)  # PettingZoo's documented answer: a logged warning, and nothing happens
    assert env.game_state.to_dict() == final and not env.agents
    with pytest.raises(ValueError, match="'player_9' is not an agent of this table"):
        env.observe("player_9")
    wrapped = envs.make(env_name, num_players=num_players, **env_options)
    with pytest.raises(AttributeError, match="before reset"):
        _ = wrapped.agent_selection


def test_a_game_that_never_ends_is_stopped(env_name, num_players, env_options):
    from bidbluff.envs.core.game import EngineLoopError

    env = make_raw(env_name, num_players, env_options)
    env.game.max_decisions = 3
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.legal_action_ids()[0])
    if not env.game_state.is_terminal():
        with pytest.raises(EngineLoopError, match=r"passed 3 decisions without ending; the state: \{"):
            env.step(env.legal_action_ids()[0])
