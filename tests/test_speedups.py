"""The compiled observation kernels (``envs/core/_speedups.c``) against the pure-Python encoders they stand in
for: the same bytes on random states of every env and option table, for every seat, and the same masks."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.envs.core import speedups
from bidbluff.envs.core.fields import Block, Field, Layout

MAX_STEPS = 20_000


def test_the_kernels_are_built():
    """A checkout or install whose C build failed runs the envs on the pure-Python path (same observations,
    slower): this test makes that visible instead of silent."""
    assert speedups.kernels is not None, (
        f"bidbluff.envs.core._speedups is not built ({speedups.missing}): reinstall with a C compiler and "
        "Python's headers present (pip install -e .)"
    )


def observed(env) -> list[tuple[bytes, bytes]]:
    """Every seat's observation and mask, as bytes."""
    return [(o["observation"].tobytes(), o["action_mask"].tobytes()) for o in map(env.observe, env.possible_agents)]


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def test_compiled_observations_equal_python_ones(env_name, num_players, env_options, monkeypatch):
    monkeypatch.setattr(speedups, "active", speedups.kernels)  # compiled, even under BIDBLUFF_PURE_PYTHON=1
    rng = np.random.default_rng(num_players)
    env = envs.make(env_name, raw=True, num_players=num_players, **env_options)
    compared = 0
    for game in range(2 if num_players <= 3 else 1):
        env.reset(seed=1000 + game)
        for name in env.agent_iter(MAX_STEPS):
            if rng.random() < 0.5 or env.terminations[name] or env.truncations[name]:  # every other state, all seats
                fast = observed(env)
                with speedups.python_path():
                    reference = observed(env)
                assert fast == reference, f"{env_name} {num_players}p {env_options}: step {compared}"
                compared += 1
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert compared > 0


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def test_kernels_keep_numpys_edges(monkeypatch):
    """Values rounded to float32 as numpy casts them, counts summed, scales divided, clipping at 1, negative
    positions counted from the end, and a position outside the vector refused, on both paths."""
    monkeypatch.setattr(speedups, "active", speedups.kernels)
    layout = Layout(
        Block("seat", (Field("gold", 3, scale=80), Field("flag")), count=2),
        Block("shared", (Field("count", 4, scale=3), Field("share", scale=7))),
    )
    gold, flag, count, share = (layout.offset(f) for f in ("gold", "flag", "count", "share"))
    counted = [flag, count, count, count + 1, count + 1, count + 1, count + 1, np.int64(count + 2)]
    at, values = [gold, gold + 1, gold + 2, share, 4 + gold], [37, 0.1, 1e9, 1 / 3, -5]
    fast = layout.encode(counted, at, values)
    assert fast.tobytes() == layout.encode_python(counted, at, values).tobytes()
    for bad in ([layout.size], [-1]):
        with pytest.raises(ValueError):
            layout.encode(bad, [], [])
        with pytest.raises(ValueError):
            layout.encode_python(bad, [], [])
    kernels = speedups.kernels
    for ones, at, values in (([3, -1, 7], [0, 5, 5, -2], [0.3, 7.0, 0.7, 2]), ([], [9], [np.float32(0.1)])):
        out = np.zeros(10, np.float32)
        kernels.clipped(out, ones, at, values)
        reference = np.zeros(10, np.float32)
        reference[np.array(at, np.intp)] = values
        np.minimum(reference, 1.0, out=reference)
        reference[np.array(ones, np.intp)] = 1.0
        assert out.tobytes() == reference.tobytes()
    with pytest.raises(IndexError):
        kernels.clipped(np.zeros(10, np.float32), [10], [], [])
    with pytest.raises(IndexError):
        kernels.clipped(np.zeros(10, np.float32), [], [-11], [1.0])
    with pytest.raises(TypeError):
        kernels.clipped(np.zeros(10, np.float64), [], [], [])
    with pytest.raises(ValueError):
        kernels.piles(np.zeros(10, np.float32), 0.5, [[1]], [0, 1], [], [], [])


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def test_bounded_draws_are_numpys():
    """``bounded`` gives ``Generator.integers``' numbers from the same outputs and leaves the generator where
    numpy leaves it (odd counts included: PCG64 hands out a 64-bit output as two 32-bit halves)."""
    kernels = speedups.kernels
    for seed in range(300):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        for step in range(4):
            high = (6, 2, 7, 1000, 2**31 + 5, 2**32)[(seed + step) % 6]
            count = (seed + step) % 4
            assert kernels.bounded(ours.bit_generator, high, count) == [
                int(numpys.integers(high)) for _ in range(count)
            ]
            assert ours.bit_generator.state == numpys.bit_generator.state
            assert ours.random() == numpys.random()
    for high, count in ((1, 1), (2**32 + 1, 1), (6, -1)):
        with pytest.raises(ValueError):
            kernels.bounded(np.random.default_rng(0).bit_generator, high, count)
    with pytest.raises(AttributeError):
        kernels.bounded(object(), 6, 1)


def _python(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != speedups.ENV_VAR} | env
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True)


def test_the_environment_variable_selects_the_python_path():
    probe = "from bidbluff.envs.core import speedups; print(speedups.compiled())"
    assert _python(probe, **{speedups.ENV_VAR: "1"}).stdout.strip() == "False"
    if speedups.kernels is not None:
        assert _python(probe).stdout.strip() == "True"


def test_without_the_built_module_the_envs_warn_and_run_in_python():
    code = (
        "import sys; sys.modules['bidbluff.envs.core._speedups'] = None\n"  # as if it had not been built
        "from bidbluff.envs import libertalia_v0\n"
        "from bidbluff.envs.core import speedups\n"
        "env = libertalia_v0.env(); env.reset(seed=0)\n"
        "print(speedups.compiled(), env.last()[0]['observation'].shape)\n"
    )
    run = _python(code)
    assert run.stdout.split() == ["False", "(1334,)"]
    assert "not built" in run.stderr and "RuntimeWarning" in run.stderr
    assert "not built" not in _python(code, **{speedups.ENV_VAR: "1"}).stderr, "the variable silences the warning"


def _lying_pirates_states(num_players: int, seed: int, **options):
    """Every state of one random game of Lying Pirates (the live table, yielded before each step)."""
    env = envs.make("lying_pirates_v0", raw=True, num_players=num_players, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in env.agent_iter(MAX_STEPS):
        yield env.unwrapped.game_state
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def _same_on_both_paths(module, state, seat: int = 1) -> type[Exception] | None:
    """``module.encode`` (the kernel) writes the bytes ``module.encode_python`` does, or raises the error type
    the reference raises (returned)."""
    with speedups.python_path():
        try:
            reference = module.encode_python(state, seat).tobytes()
        except Exception as error:  # the reference's error is what the kernel must raise
            with pytest.raises(type(error)):
                module.encode(state, seat)
            return type(error)
    assert module.encode(state, seat).tobytes() == reference
    return None


def test_the_lying_pirates_kernel_gathers_every_field_as_python_does(monkeypatch):
    """``_speedups.lying_pirates`` against ``encoder.encode_python``, every seat at every state of random games
    of every table size, the draft and the collaborative map, and two option tables (the options' part comes in
    from Python); and every field of the base layout set at least once, so no branch of the kernel goes
    unchecked."""
    from bidbluff.envs.lying_pirates import encoder
    from bidbluff.envs.lying_pirates.observation import LAYOUT

    monkeypatch.setattr(speedups, "active", speedups.kernels)
    tables = [(n, seed, {}) for n in range(2, 7) for seed in range(3)]
    tables += [(3, 0, {"map": "extended", "map_setup": "collaborative", "draft": True})]
    tables += [(2, 1, {"map_setup": "collaborative", "draft": True})]
    tables += [(4, 0, {"expansion": "cities_of_greed", "abilities": "chosen"}), (3, 0, {"merchant_ships": True})]
    seen = np.zeros(LAYOUT.size, bool)
    for n, seed, options in tables:
        for state in _lying_pirates_states(n, seed, **options):
            for seat in range(state.num_players):
                fast = encoder.encode(state, seat)
                with speedups.python_path():
                    reference = encoder.encode_python(state, seat)
                assert fast.tobytes() == reference.tobytes(), f"{n}p {options} seed {seed} seat {seat}"
                seen |= fast[: LAYOUT.size] != 0
    view = LAYOUT.view(seen.astype(np.float32))
    never = [f.name for block in LAYOUT.blocks.values() for f in block.fields if not getattr(view, f.name).any()]
    assert never == []


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def test_the_lying_pirates_kernel_keeps_the_references_edges(monkeypatch):
    """Hand-made tables the random games rarely reach, and bad ones: the same bytes, or the same error, on
    both paths; the options' values written after every count; bad arguments refused."""
    import copy

    from bidbluff.envs.lying_pirates import encoder
    from bidbluff.envs.lying_pirates.dice import Die
    from bidbluff.envs.lying_pirates.frames import TileRoll
    from bidbluff.envs.lying_pirates.observation import LAYOUT

    monkeypatch.setattr(speedups, "active", speedups.kernels)
    states = list(_lying_pirates_states(4, 7))
    middle = states[len(states) // 2]

    def both(state, seat=1):
        return _same_on_both_paths(encoder, state, seat)

    edits = {
        "no token, counterclockwise, a sail die, a Pirate / Treasure roll": dict(
            token=-1, direction=-1, sail_die=2, pt=TileRoll("T", "X", 1)
        ),
        "a result with a negative winner (Python's indexing)": dict(result={"winner": -1, "losers": [0, 2]}),
        "coins and a round that are not whole": dict(coins=[2.5, 0.1, 1e9, -3], round_no=7.25),
        "every captain home": dict(progress=[len(middle.slots) + k for k in range(4)]),
        "a reveal with the Mayor die (not in the base fields) and a special die": dict(
            reveal={"cups": {"0": [[int(Die.MAYOR), 2], [0, 6]], "3": [[int(Die.GHOST), 1], [0, 1]]}}
        ),
        "known cards of the others": dict(known=[[[0] * 21, [1, 0, 2] + [0] * 18, [0] * 21, [0] * 20 + [5]]] * 4),
        "used cards in the last seat only": dict(used=[[False] * 3, [False] * 3, [False] * 3, [True, False, True]]),
    }
    for why, edit in edits.items():
        state = copy.deepcopy(middle)
        for name, value in edit.items():
            setattr(state, name, value)
        assert both(state) is None, why
    bad = {
        "a reveal keyed by a seat not at the table": dict(reveal={"cups": {"4": [[0, 1]]}}),
        "a reveal keyed by an int": dict(reveal={"cups": {0: [[0, 1]]}}),
        "a Pirate / Treasure die that does not exist": dict(pt=TileRoll("Q", "X", 1)),
        "a winner not at the table": dict(result={"winner": 9, "losers": []}),
        "no map": dict(slots=[]),
    }
    for why, edit in bad.items():
        state = copy.deepcopy(middle)
        for name, value in edit.items():
            setattr(state, name, value)
        assert both(state) is not None, why
    assert both(middle, seat=4) is KeyError  # no such seat at a table of 4
    # the options' part: counts first, then every value in order, as Layout.encode
    kernels, state = speedups.kernels, middle
    counted, at, values = [0, 0, LAYOUT.size - 1], [5, 5, -1], [0.5, 7, 0.25]
    out = np.zeros(LAYOUT.size, np.float32)
    kernels.lying_pirates(out, LAYOUT.value_scales, state, 1, counted, at, values)
    gathered: tuple[list, list, list] = ([], [], [])
    encoder._gather(state, 1, {type(f): f for f in state.stack}, *gathered)
    with speedups.python_path():
        reference = LAYOUT.encode(gathered[0] + counted, gathered[1] + at, gathered[2] + values)
    assert out.tobytes() == reference.tobytes()
    for args in (
        (np.zeros(LAYOUT.size, np.float64), LAYOUT.value_scales, state, 1, (), (), ()),
        (np.zeros(LAYOUT.size - 1, np.float32), LAYOUT.value_scales, state, 1, (), (), ()),
        (np.zeros(LAYOUT.size, np.float32), LAYOUT.value_scales, state, 1, [LAYOUT.size], (), ()),
        (np.zeros(LAYOUT.size, np.float32), LAYOUT.value_scales, state, 1, (), [1, 2], [0.5]),
    ):
        with pytest.raises((TypeError, ValueError)):
            kernels.lying_pirates(*args)


def _spytails_states(num_players: int, seed: int, **options):
    """Every state of one random game of Spytails (the live state, yielded before each step)."""
    env = envs.make("spytails_v0", raw=True, num_players=num_players, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in env.agent_iter(MAX_STEPS):
        yield env.unwrapped.game_state
        obs, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# every option table: the two forecast modes and both ways to get characters at each table size, and the
# partnership (four players only) with each
_SPYTAILS_TABLES = [
    (n, {"forecast_mode": forecast, "characters": characters})
    for n in range(2, 5)
    for forecast in ("sequential", "simultaneous")
    for characters in ("dealt", "chosen")
] + [
    (4, {"mode": "partnership", "forecast_mode": f, "characters": c})
    for f, c in (("sequential", "dealt"), ("simultaneous", "chosen"))
]


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def test_the_spytails_kernel_gathers_every_field_as_python_does(monkeypatch):
    """``_speedups.spytails`` against ``codec.encode_python`` (the Python ``_gather``), every seat at every state
    of random games of every table size and option table; and every field of the layout set at least once, so no
    branch of the kernel goes unchecked."""
    from bidbluff.envs.spytails import codec

    monkeypatch.setattr(speedups, "active", speedups.kernels)
    layout = codec.LAYOUT
    seen = np.zeros(layout.size, bool)
    for n, options in _SPYTAILS_TABLES:
        for state in _spytails_states(n, n, **options):
            for seat in range(state.num_players):
                fast = codec.encode(state, seat)
                with speedups.python_path():
                    reference = codec.encode_python(state, seat)
                assert fast.tobytes() == reference.tobytes(), f"{n}p {options} seat {seat}"
                seen |= fast != 0
    view = layout.view(seen.astype(np.float32))
    never = [f.name for block in layout.blocks.values() for f in block.fields if not getattr(view, f.name).any()]
    assert never == []


@pytest.mark.skipif(speedups.kernels is None, reason="the compiled kernels are not built")
def test_the_spytails_kernel_keeps_the_references_edges(monkeypatch):
    """Hand-made states the random games rarely reach, and bad ones: the same bytes, or the same error, on both
    paths; bad arguments refused."""
    import copy

    from bidbluff.envs.spytails import codec
    from bidbluff.envs.spytails.rules import DEBRIEFING, OPERATIONS_PHASE, REINFORCE

    monkeypatch.setattr(speedups, "active", speedups.kernels)
    operating = hidden = None  # the live state changes at every step: each kept is a copy
    for state in _spytails_states(4, 11, forecast_mode="simultaneous"):
        if hidden is None and not state.revealed and any(k >= 0 for k in state.stakes):
            hidden = copy.deepcopy(state)
        if operating is None and state.phase == OPERATIONS_PHASE and len(state.trick) >= 2:
            operating = copy.deepcopy(state)
    assert operating is not None and hidden is not None

    def both(state, seat=1):
        return _same_on_both_paths(codec, state, seat)

    def edited(state, **edit):
        state = copy.deepcopy(state)
        for name, value in edit.items():
            setattr(state, name, value)
        return state

    cards = [0, 0, 0, 0, 12, 52, 54]  # four copies: a count clipped at 1
    plays = [[0, 52, False, False], [1, 12, True, False], [2, -1, False, False], [3, 5, False, True]]
    good = {
        "a stake hidden (counted back into the influence) and one shown": (hidden, {}),
        "a mimicked first card: intimidation led, every operation flag": (
            operating,
            dict(trick=[[3, 5, False, True], [0, 52, False, False], [1, 12, True, False], [2, -1, False, False]]),
        ),
        "only specials and a ghost: no led suit": (operating, dict(trick=[[0, 52, False, False], [1, -1, 0, 0]])),
        "an ace played low as the first suited card": (operating, dict(trick=plays[1:3])),
        "negative seats (Python's indexing from the end)": (
            operating,
            dict(trick=[[-1, 7, False, False]], start=-2, leader=-3, round_ops=[[0, [[-4, 3, False, False]]]]),
        ),
        "four copies of a card in every pile": (
            operating,
            dict(
                hands=[list(cards)] * 4,
                decks=[list(cards)] * 4,
                discards=[list(cards)] * 4,
                known=[cards] * 4,
                pool=[cards] * 4,
                display=list(cards),
            ),
        ),
        "influence and leverage above their scales, clipped": (
            operating,
            dict(influence=[90, 0, 41, 7], leverage=[9, 0, 1, 2]),
        ),
        "coins that are not whole": (hidden, dict(influence=[2.5, 0.1, 1e9, 3], leverage_supply=2.75)),
        "the last round, an extra one past the table's rounds": (operating, dict(round=9, last_round=9)),
        "a reinforcement turn past the table's": (
            operating,
            dict(phase=DEBRIEFING, debrief_step=REINFORCE, reinforce_turn=8),
        ),
        "a reinforcement turn": (operating, dict(phase=DEBRIEFING, debrief_step=REINFORCE, reinforce_turn=5)),
        "armed Mirage, partnership": (operating, dict(armed="mirage", mode="partnership", teams=[1, 0, 0, 1])),
        "a regroup selection of the observer": (operating, dict(pending=["regroup", 1], selection=[3, 3, 9])),
        "a regroup selection of another seat (not shown)": (
            operating,
            dict(pending=["regroup", 2], selection=[3, 3, 9]),
        ),
        "an operation past the round's (no operation or led suit)": (operating, dict(operation=7)),
        "voids in every suit": (operating, dict(voids=[[0, 1, 2, 3], [], [3], [0, 2]])),
    }
    for why, (state, edit) in good.items():
        assert both(edited(state, **edit)) is None, why
        for seat in range(4):
            assert both(edited(state, **edit), seat) is None, f"{why}, seat {seat}"
    for known in (0, 1, 3, 40, -1, -2):
        assert both(edited(operating, special_known=known)) is None, f"special_known {known}"
    bad = {
        "a card past a byte": dict(display=[300]),
        "a negative card in a pile": dict(hands=[[-2]] * 4, known=[[-2]] * 4),
        "a card past the vector": dict(display=[255] * 2, special_deck=[]),
        "a seat not at the table in the trick": dict(trick=[[4, 3, False, False]]),
        "a play that does not unpack to four": dict(trick=[[0, 3, False]]),
        "an operation that does not unpack to two": dict(round_ops=[[0]]),
        "a card past the suits in the trick (the led suit)": dict(trick=[[0, 60, False, False]]),
        "a per-seat list one short (zip strict)": dict(won=[0, 0, 0]),
        "an unknown decision": dict(pending=["dance", 0]),
        "an unknown armed power": dict(armed="echo"),
        "a one-hot past the vector": dict(row=[0, 0, 10_000]),
        "a start not at the table": dict(start=4),
        "no such attribute's type": dict(hands=None),
    }
    for why, edit in bad.items():
        assert both(edited(operating, **edit)) is not None, why
    assert both(operating, seat=4) is KeyError  # no such seat at a table of 4
    assert both(operating, seat=-1) is KeyError
    kernels = speedups.kernels
    for args in (
        (np.zeros(codec.OBSERVATION_SIZE, np.float64), codec._COPY, operating, 0),
        (np.zeros(codec.OBSERVATION_SIZE - 1, np.float32), codec._COPY, operating, 0),
        (np.zeros(codec.OBSERVATION_SIZE, np.float32), codec._COPY, operating),
        (np.zeros(codec.OBSERVATION_SIZE, np.float32), codec._COPY, object(), 0),
    ):
        with pytest.raises((TypeError, ValueError, AttributeError)):
            kernels.spytails(*args)


@pytest.mark.parametrize(
    ("layout", "args", "error", "message"),
    [
        ("liars_dice_layout", ([0] * 12, [1.0] * 4, [], []), ValueError, "13 ints expected"),
        ("liars_dice_layout", ([0] * 13, 4.0, [], []), TypeError, "scales must be a sequence"),
        ("libertalia_layout", ([0] * 18, [1.0] * 5), ValueError, "6 scales expected"),
        ("libertalia_layout", ([0] * 17 + ["x"], [1.0] * 6), TypeError, "integer"),
    ],
)
def test_a_layout_of_the_wrong_shape_is_refused_and_changes_nothing(layout, args, error, message):
    kernels = speedups.active
    if kernels is None:
        pytest.skip("the kernels are not built")
    with pytest.raises(error, match=message):
        getattr(kernels, layout)(*args)
    for name in ("liars_dice_v0", "libertalia_v0"):  # the layouts they were given still encode as Python does
        env = envs.make(name)
        env.reset(seed=3)
        compiled = env.observe(env.agent_selection)["observation"]
        with speedups.python_path():
            assert np.array_equal(compiled, env.observe(env.agent_selection)["observation"]), name
