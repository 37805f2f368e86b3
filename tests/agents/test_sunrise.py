"""belief=prior in Libertalia: the face-down sunrise cards drawn from a policy at the position each seat chose
from, and which policy each seat plays read from its cards once turned over."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.base import bind_all
from bidbluff.agents.evaluators import HeuristicPrior, load_network
from bidbluff.agents.ismcts import ISMCTSAgent
from bidbluff.agents.sunrise import SunriseBelief, pick_position
from bidbluff.envs.libertalia.content import DAYS
from bidbluff.envs.libertalia.rules import SUNRISE

GAME = "libertalia_v0"


def table(spec: str, seed: int, players: int = 4):
    env = envs.make(GAME, raw=True, num_players=players)
    env.reset(seed=seed)
    return env, [agents.make(spec, env_name=GAME, seed=seed + i) for i in range(players)]


def step(env, players) -> tuple[int, np.ndarray]:
    name = env.agent_selection
    seat = int(name.rsplit("_", 1)[1])
    observation = env.observe(name)
    env.step(players[seat].act(observation, name))
    return seat, observation["observation"]


@pytest.mark.parametrize("seed", [0, 1])
def test_pick_position_is_the_position_each_seat_chose_from(seed):
    env, players = table("heuristic", seed)
    sunrises = 0
    while sunrises < 6 and not all(env.terminations.values()):
        if env.game_state.phase != SUNRISE:
            step(env, players)
            continue
        moments, seen = [], {}  # each pending seat's state, and each seat's own observation at its pick
        while env.game_state.phase == SUNRISE and not all(env.terminations.values()):
            moments.append(env.game_state.clone())
            seat, observation = step(env, players)
            seen[seat] = observation
        for state in moments:
            for seat, observation in seen.items():
                if seat != state.current_player():
                    assert np.array_equal(env.game.encode(pick_position(state, seat), seat), observation)
        sunrises += 1
    assert sunrises == 6


def believe(spec: str, seed: int, models, sunrises: int = 4) -> tuple[SunriseBelief, list]:
    """A table of ``spec`` read by seat 0's belief at each of its decisions; and, at the last seat's picks, the
    real cards the seats before it put down with the cards the belief drew for them."""
    env, players = table(spec, seed)
    belief = SunriseBelief(env.game, models)
    rng = np.random.default_rng(seed)
    draws = []
    while belief_sunrises(env) < sunrises:
        state = env.game_state
        if state.current_player() == 0:
            belief.update(state.resample_hidden(0, rng), 0)
        if state.phase == SUNRISE and state.current_player() == 3:
            mine = SunriseBelief(env.game, models[-1:])
            mine.update(state.resample_hidden(3, rng), 3)
            drawn = [mine.draw(state.resample_hidden(3, rng), 3, rng)[0].chosen[:3] for _ in range(20)]
            uniform = [state.resample_hidden(3, rng).chosen[:3] for _ in range(20)]
            draws.append((state.chosen[:3], drawn, uniform))
        step(env, players)
    return belief, draws


def belief_sunrises(env) -> int:
    state = env.game_state
    return state.campaign * DAYS + state.day


def both_models() -> list:
    """The two policies a seat may play: the shipped network (index 0) and the heuristic (index 1)."""
    return [load_network("shipped", GAME), HeuristicPrior(GAME, envs.game(GAME).codec.n, seed=0)]


def test_a_table_of_heuristics_is_told_from_its_cards_and_its_face_down_cards_drawn():
    belief, draws = believe("heuristic", 3, both_models())
    for seat in (1, 2, 3):
        assert belief.posterior(seat)[1] > 0.99
        assert belief.evidence[seat][1] > belief.evidence[seat][0] + 5
    # the heuristic is deterministic at sunrise: the draw puts down the cards it really put down, the uniform
    # draw of resample_hidden does not
    assert draws
    matched = np.mean([d == real for real, drawn, _ in draws for d in drawn])
    uniform = np.mean([u == real for real, _, uniform in draws for u in uniform])
    assert matched > 0.9 > uniform


def test_a_table_of_networks_is_told_from_its_cards():
    belief, _ = believe("shipped", 4, both_models())
    for seat in (1, 2, 3):
        assert belief.posterior(seat)[0] > 0.99
    belief.reset()
    assert belief.evidence == {} and belief.waiting is None


def test_the_search_reads_the_cards_of_each_table_and_forgets_them_at_a_new_game():
    search = ISMCTSAgent(
        simulations=8, prior="shipped", rollout="shipped", others="prior+heuristic", belief="prior", seed=0
    )
    env, players = table("heuristic", 5)
    networks, others = table("shipped", 7)
    players[0] = others[0] = search
    bind_all(players, env)
    bind_all(others, networks)
    while belief_sunrises(env) < 3 or belief_sunrises(networks) < 3:  # one agent at two tables, turn about
        for board, seated in ((env, players), (networks, others)):
            if belief_sunrises(board) < 3:
                if seated[board.game_state.current_player()] is search:
                    search.bind(board)
                step(board, seated)
    read, other = search.sunrises[env.unwrapped], search.sunrises[networks.unwrapped]
    assert all(read.evidence[seat][1] > read.evidence[seat][0] for seat in (1, 2, 3))  # heuristics there
    assert all(other.evidence[seat][0] > other.evidence[seat][1] for seat in (1, 2, 3))  # networks here
    env.reset(seed=6)
    bind_all(players, env)
    assert env.unwrapped not in search.sunrises and networks.unwrapped in search.sunrises


def test_beliefs_are_refused_where_they_read_nothing():
    env = envs.make(GAME, raw=True, num_players=3)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="belief=bayes is written for liars_dice_v0"):
        ISMCTSAgent(simulations=4, prior="shipped", belief="bayes").bind(env)
    spy = envs.make("spytails_v0", raw=True, num_players=3)
    spy.reset(seed=0)
    with pytest.raises(ValueError, match="belief=prior is written for liars_dice_v0, libertalia_v0"):
        ISMCTSAgent(simulations=4, prior="shipped", belief="prior").bind(spy)
