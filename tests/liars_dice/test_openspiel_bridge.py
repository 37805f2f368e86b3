"""The OpenSpiel bridge of liars_dice_v0: OpenSpiel's own game checks, and the classic preset against
OpenSpiel's C++ liars_dice."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from bidbluff import envs  # noqa: E402
from bidbluff.envs.liars_dice import codec, infoset  # noqa: E402
from bidbluff.envs.liars_dice import openspiel as bridge  # noqa: E402

ALL_SPECIALS = ("pirate king", "mermaid", "cursed", "ghost")
SETTINGS = [
    (2, 1, "lying_pirates", ()),
    (2, 1, "classic", ()),
    (3, 2, "lying_pirates", ALL_SPECIALS),
    (4, 1, "classic", ("mermaid",)),
    (6, 1, "lying_pirates", ("ghost", "cursed")),
]


def play_randomly(game, rng):
    """The states of one random game (chance by its odds), root to terminal."""
    state = game.new_initial_state()
    states = [state]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = outcomes[rng.choice(len(outcomes), p=probs)]
        else:
            action = rng.choice(state.legal_actions())
        state = state.child(action)
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "dice", "preset", "specials"), SETTINGS)
def test_openspiels_random_simulation_checks(players, dice, preset, specials):
    game = bridge.load(players, dice, preset, specials)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize(("players", "dice", "preset", "specials"), SETTINGS)
def test_states_serialize_and_come_back(players, dice, preset, specials):
    game = bridge.load(players, dice, preset, specials)
    for state in play_randomly(game, np.random.default_rng(players))[::2]:
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and state2.history() == state.history()
        assert str(state2) == str(state) and state2.returns() == state.returns()
        for p in range(players):
            assert state2.information_state_string(p) == state.information_state_string(p)


@pytest.mark.parametrize(("players", "dice", "preset", "specials"), SETTINGS)
def test_the_information_state_is_the_env_observation(players, dice, preset, specials):
    """Tensor = the env's observation of the same position; legal actions = the env's mask; the observation
    alone gives back the information state's name."""
    game = bridge.load(players, dice, preset, specials)
    env = envs.make("liars_dice_v0", num_players=players, dice=dice, preset=preset, specials=specials)
    for state in play_randomly(game, np.random.default_rng(7)):
        if state.is_chance_node() or state.is_terminal():
            continue
        env.reset(options={"state": state.engine.to_dict()})
        p = state.current_player()
        seen = env.observe(f"player_{p}")
        assert np.array_equal(state.information_state_tensor(p), seen["observation"])
        mask = np.zeros(codec.CODEC.n, dtype=np.int8)
        mask[[game.setting.env_action(a) for a in state.legal_actions()]] = 1
        assert np.array_equal(mask, seen["action_mask"])
        assert infoset.from_observation(seen["observation"]) == state.information_state_string(p)
        for other in range(players):
            assert infoset.from_observation(
                env.observe(f"player_{other}")["observation"], other
            ) == state.information_state_string(other)


def test_observation_types():
    game = bridge.load(3, 1, "lying_pirates", ("mermaid",))
    state = play_randomly(game, np.random.default_rng(3))[-2]  # the last decision
    views = {
        "own": pyspiel.IIGObservationType(perfect_recall=True),
        "none": pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE),
        "all": pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
        "private": pyspiel.IIGObservationType(perfect_recall=False, public_info=False),
    }
    observers = {name: game.make_py_observer(view) for name, view in views.items()}
    for observer in observers.values():
        observer.set_from(state, 1)
    assert set(observers["own"].dict) == {"dice", "table", "bets"}
    assert observers["own"].tensor.size == codec.OBSERVATION_SIZE
    assert observers["none"].tensor.size == codec.OBSERVATION_SIZE - codec.OWN
    assert observers["all"].dict["dice"].shape == (3, codec.OWN)
    assert np.array_equal(observers["all"].dict["dice"][0], observers["own"].dict["dice"])
    assert observers["private"].tensor.size == codec.OWN
    assert "own" not in observers["none"].string_from(state, 1)
    assert observers["all"].string_from(state, 1).count("own") == 3
    assert "bets" not in observers["private"].string_from(state, 1)
    # without perfect recall the last bet stays, the earlier ones go
    last = state.engine.round.bids[-1]
    assert game.make_py_observer().string_from(state, 1).endswith(f"bets P{last[0]}:{last[1]}x{last[2]}")


def test_the_deal_is_explicit_chance():
    game = bridge.load(2, 2, "lying_pirates", ("pirate king",))
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # who gets the Pirate King
    state.apply_action(1)
    cups = state.chance_outcomes()  # two crew dice as one sorted roll: 21 cups, 1/36 or 2/36 each
    assert len(cups) == 21 and sum(p for _, p in cups) == pytest.approx(1.0)
    assert sorted({round(p * 36) for _, p in cups}) == [1, 2]
    state.apply_action(0)
    state.apply_action(0)
    assert state.chance_outcomes() == [(1, 0.5), (6, 0.5)]  # the Pirate King's faces
    state.apply_action(6)
    assert state.engine.round.cups == {0: [[0, 1], [0, 1]], 1: [[0, 1], [0, 1], [1, 6]]}
    assert state.current_player() == 0
    assert state.information_state_string(1) == "P1 | own 1 1 Pirate King=6 | specials Pirate King@P1 | bets -"


def test_utility_and_sizes():
    two = bridge.load(2, 1, "lying_pirates")
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert two.num_distinct_actions() == 2 * 6 * 2 + 1  # bids, exacts, liar over 2 dice
    assert bridge.load(4, 1, "classic").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert bridge.load(3, 1, "lying_pirates").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    classic = bridge.load(2, 1, "classic")
    cc = pyspiel.load_game("liars_dice")
    for facts in ("num_distinct_actions", "max_chance_outcomes", "max_game_length", "num_players"):
        assert getattr(classic, facts)() == getattr(cc, facts)(), facts


@pytest.mark.parametrize(("players", "dice", "preset", "specials"), SETTINGS)
def test_the_types_short_name_loads_the_same_setting(players, dice, preset, specials):
    """``pyspiel.load_game(game.get_type().short_name)`` (how Shimmy's wrapper rebuilds a game on reset) builds
    the same setting; the game's string keeps the one registered name."""
    game = bridge.load(players, dice, preset, specials)
    name = game.get_type().short_name
    assert name == bridge.setting_name(players, dice, preset, specials)
    assert (name == bridge.GAME_NAME) == ((players, dice, preset, specials) == (2, 1, "lying_pirates", ()))
    again = pyspiel.load_game(name)
    assert str(again) == str(game) and str(game).startswith(f"{bridge.GAME_NAME}(")
    assert again.get_type().short_name == name and again.get_type().utility == game.get_type().utility
    assert again.num_players() == players and again.setting == game.setting
    assert pyspiel.load_game(name, {"dice": 1}).setting.dice == 1  # the setting's values are only defaults


@pytest.mark.parametrize(("players", "dice", "preset", "specials"), SETTINGS)
def test_games_pickle_and_come_back(players, dice, preset, specials):
    import copy
    import pickle

    game = bridge.load(players, dice, preset, specials)
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert isinstance(again, bridge.LiarsDiceGame) and str(again) == str(game) and again.setting == game.setting
        assert again.get_type().short_name == game.get_type().short_name
        assert again.new_initial_state().chance_outcomes() == game.new_initial_state().chance_outcomes()


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ("players=7", "players must be 2..6"),
        ("dice=0", "dice must be 1..5"),
        ("preset=bluff", "preset 'bluff'"),
        ("specials=mermaid+kraken", "specials must be distinct names"),
        ("specials=ghost+ghost", "specials must be distinct names"),
    ],
)
def test_bad_parameters_are_refused(params, said):
    with pytest.raises(ValueError, match=said):
        pyspiel.load_game(f"{bridge.GAME_NAME}({params})")


def lockstep(ours, theirs, counts: dict) -> None:
    """Walk both trees together: same player, legal actions, chance odds and returns at every history."""
    counts["histories"] += 1
    assert ours.current_player() == theirs.current_player()
    if ours.is_terminal():
        assert ours.returns() == theirs.returns()
        return
    if ours.is_chance_node():
        actions, odds = zip(*ours.chance_outcomes(), strict=True)
        their_actions, their_odds = zip(*theirs.chance_outcomes(), strict=True)
        assert actions == their_actions and odds == pytest.approx(their_odds)
    else:
        assert ours.legal_actions() == theirs.legal_actions()
        counts["infostates"].add((ours.current_player(), ours.information_state_string()))
        counts["theirs"].add((theirs.current_player(), theirs.information_state_string()))
    for action in ours.legal_actions():
        lockstep(ours.child(action), theirs.child(action), counts)


def classic_pair():
    return bridge.load(2, 1, "classic").new_initial_state(), pyspiel.load_game("liars_dice").new_initial_state()


@pytest.mark.parametrize("dice", [(0, 0), (2, 5), (5, 5)])
def test_classic_is_openspiels_liars_dice_for_some_rolls(dice):
    ours, theirs = classic_pair()
    for roll in dice:
        ours, theirs = ours.child(roll), theirs.child(roll)
    counts = {"histories": 0, "infostates": set(), "theirs": set()}
    lockstep(ours, theirs, counts)
    assert len(counts["infostates"]) == len(counts["theirs"]) == 2**12  # every rising run of the 12 bets


@pytest.mark.slow
def test_classic_is_openspiels_liars_dice():
    counts = {"histories": 0, "infostates": set(), "theirs": set()}
    lockstep(*classic_pair(), counts)
    assert counts["histories"] == 294_883
    assert len(counts["infostates"]) == len(counts["theirs"]) == 24_576


def test_openspiels_sampling_solvers_run_on_any_table():
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = bridge.load(3, 1, "lying_pirates", ("mermaid",))
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(50):
        solver.iteration()
    state = play_randomly(game, np.random.default_rng(0))[-2]
    probs = solver.average_policy().action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)
