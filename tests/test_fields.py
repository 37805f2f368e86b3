"""Observation fields with their scale: the layout, its named views, and each game's encoder against them."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from bidbluff import envs
from bidbluff.envs.core.fields import Block, Field, Layout, hot

LAYOUT = Layout(
    Block("seat", (Field("present"), Field("gold", scale=80), Field("cards", 3, scale=3)), count=4),
    Block("shared", (Field("day", 6, help="one-hot"), Field("bag", (2, 3), scale=6), Field("dusk"))),
)


def test_fields_lie_end_to_end_with_the_seat_block_repeated():
    assert LAYOUT.blocks["seat"].size == 5 and LAYOUT.blocks["shared"].size == 13
    assert LAYOUT.size == 4 * 5 + 13
    assert LAYOUT.start == {"seat": 0, "shared": 20}
    assert [LAYOUT.offset(n) for n in ("present", "gold", "cards", "day", "bag", "dusk")] == [0, 1, 2, 20, 26, 32]
    assert LAYOUT.scale("gold") == 80 and LAYOUT.field("bag").width == 6


def test_views_are_numpy_views_of_the_observation_in_the_fields_shapes():
    obs = np.arange(LAYOUT.size, dtype=np.float32)
    view = LAYOUT.view(obs)
    assert view.present.tolist() == [0, 5, 10, 15]  # one value per seat
    assert view.gold.tolist() == [1, 6, 11, 16]
    assert view.cards.shape == (4, 3) and view.cards[1].tolist() == [7, 8, 9]
    assert view.day.tolist() == list(range(20, 26))
    assert view.bag.shape == (2, 3) and view.bag[1].tolist() == [29, 30, 31]
    assert view.dusk.shape == () and float(view.dusk) == 32
    for name in ("present", "gold", "cards", "day", "bag", "dusk"):
        assert np.shares_memory(getattr(view, name), obs), f"{name} is a copy"
    view.gold[2] = 0.5  # writes go to the observation itself
    assert obs[LAYOUT.offset("gold") + 2 * 5] == 0.5


def test_views_decode_with_the_declared_scale():
    obs = np.zeros(LAYOUT.size, dtype=np.float32)
    obs[LAYOUT.offset("gold") + 5] = 37 / 80  # seat 1
    obs[LAYOUT.offset("cards") : LAYOUT.offset("cards") + 3] = [0, 1 / 3, 2 / 3]
    obs[LAYOUT.offset("bag") + 4] = 5 / 6
    obs[LAYOUT.offset("day") + 3] = 1.0
    view = LAYOUT.view(obs)
    assert view.decoded("gold")[1] == pytest.approx(37)
    assert view.counts("gold").tolist() == [0, 37, 0, 0]
    assert view.counts("cards")[0].tolist() == [0, 1, 2]
    assert view.counts("bag").tolist() == [[0, 0, 0], [0, 5, 0]]
    assert view.index("day") == 3
    assert view.index("cards").tolist() == [2, -1, -1, -1]  # argmax where any bit is set
    assert hot(view.cards[0]) == 2 and hot(view.cards[1]) == -1  # one row of a per-seat field
    assert isinstance(view.counts("dusk"), int) and isinstance(view.decoded("dusk"), float)


def test_views_work_on_a_batch_with_the_batch_axes_first():
    batch = np.arange(3 * LAYOUT.size, dtype=np.float32).reshape(3, LAYOUT.size)
    view = LAYOUT.view(batch)
    assert view.cards.shape == (3, 4, 3) and view.dusk.shape == (3,) and view.bag.shape == (3, 2, 3)
    assert view.gold[2].tolist() == LAYOUT.view(batch[2]).gold.tolist()
    assert np.shares_memory(view.cards, batch)
    assert view.index("day").tolist() == [5, 5, 5]


def test_bad_declarations_and_observations_get_clear_errors():
    with pytest.raises(ValueError, match="twice"):
        Block("b", (Field("a"), Field("a")))
    with pytest.raises(ValueError, match="two blocks"):
        Layout(Block("b", (Field("a"),)), Block("c", (Field("a"),)))
    with pytest.raises(ValueError, match="share a name"):
        Layout(Block("b", (Field("a"),)), Block("b", (Field("c"),)))
    with pytest.raises(ValueError, match="identifier"):
        Field("not a name")
    with pytest.raises(ValueError, match="holds no value"):
        Field("a", (3, 0))
    with pytest.raises(ValueError, match="positive"):
        Field("a", scale=0)
    with pytest.raises(ValueError, match="taken by the view"):
        Layout(Block("b", (Field("counts"),)))
    with pytest.raises(ValueError, match="at least 1"):
        Block("b", (Field("a"),), count=0)
    with pytest.raises(ValueError, match="no observation field 'nope'"):
        LAYOUT.offset("nope")
    with pytest.raises(AttributeError, match="nope"):
        _ = LAYOUT.view(np.zeros(LAYOUT.size)).nope
    with pytest.raises(ValueError, match=f"has {LAYOUT.size} values"):
        LAYOUT.view(np.zeros(LAYOUT.size + 1))


def test_encode_sums_each_position_divides_by_its_scale_and_clips():
    counted = [0, 0, LAYOUT.offset("cards") + 1, LAYOUT.offset("cards") + 1, LAYOUT.offset("day") + 2]
    obs = LAYOUT.encode(counted, [LAYOUT.offset("gold") + 5, LAYOUT.offset("dusk")], [37, 0.25])
    assert obs.dtype == np.float32 and obs.shape == (LAYOUT.size,)
    view = LAYOUT.view(obs)
    assert view.present[0] == 1, "a flag counted twice is still 1"
    assert view.cards[0].tolist() == [0, np.float32(2 / 3), 0]  # two items of scale 3
    assert view.gold[1] == np.float32(37 / 80) and view.index("day") == 2 and view.dusk == 0.25
    assert LAYOUT.encode([], [LAYOUT.offset("gold")], [500]).max() == 1, "clipped at 1"
    assert np.count_nonzero(obs) == 5


def test_describe_lists_every_block_and_field_with_its_encoding():
    text = LAYOUT.describe()
    assert "| 0 | **seat** x 4 | 5 | | copy k at 0 + k x 5 |" in text
    assert "| 1 | gold | 1 | min(value / 80, 1) |  |" in text
    assert "| 26 | bag | 2x3 | min(value / 6, 1) |  |" in text
    assert "| 20 | day | 6 | 0 or 1 | one-hot |" in text


# -- the games ----------------------------------------------------------------------------------------
GAMES = ("libertalia", "spytails", "liars_dice", "lying_pirates")


@pytest.mark.parametrize("game", GAMES)
def test_env_docstring_carries_the_codec_layout_table(game):
    layout = importlib.import_module(f"bidbluff.envs.{game}.codec").LAYOUT
    doc = importlib.import_module(f"bidbluff.envs.{game}.env").__doc__
    assert layout.describe() in doc, f"paste envs.{game}.codec.LAYOUT.describe() into envs/{game}/env.py"
    assert envs.game(f"{game}_v0").observation_size == layout.size


def test_lying_pirates_docstring_carries_the_options_layout_too():
    from bidbluff.envs.lying_pirates import codec
    from bidbluff.envs.lying_pirates import env as lp_env

    assert codec.FULL_LAYOUT.describe() in lp_env.__doc__
    assert codec.FULL_LAYOUT.describe().startswith(codec.LAYOUT.describe()), "the base layout stays in front"
    for options in ({"expansion": "cities_of_greed"}, {"merchant_ships": True}, {"variants": ["Bounty"]}):
        game = envs.game("lying_pirates_v0", **options)
        assert game.layout is codec.FULL_LAYOUT and game.observation_size == codec.FULL_LAYOUT.size
    assert envs.game("lying_pirates_v0", map="extended", draft=True).layout is codec.LAYOUT


def decision_states(game_name: str, num_players: int, games: int, **options):
    """Every state of ``games`` seeded random games (the game's default options)."""
    game = envs.game(game_name, **options)
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_state(num_players, rng, **game.options())
        while not state.is_terminal():
            yield game, state
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))], rng)


def clipped(values, scale: float) -> list[int]:
    return [min(v, scale) for v in values]


def decodes(view, name: str, expected, seats: int | None = None) -> bool:
    """``view.decoded(name)`` (the first ``seats`` copies) is ``expected`` to float32 precision: an encoder
    that scaled with another number than the layout's would miss by far more."""
    got = view.decoded(name)
    return np.allclose(got if seats is None else got[:seats], expected, rtol=1e-6, atol=1e-6)


def test_libertalia_views_read_back_the_state():
    from bidbluff.envs.libertalia.codec import LAYOUT as LIB

    for game, state in decision_states("libertalia_v0", 4, 2):
        n = state.num_players
        for seat in range(n):
            view = LIB.view(game.encode(state, seat))
            order = [(seat + rel) % n for rel in range(n)]
            assert int(view.present.sum()) == n
            assert decodes(view, "doubloons", clipped([state.doubloons[s] for s in order], 80), n)
            assert decodes(view, "score", clipped([state.score[s] for s in order], 300), n)
            assert decodes(view, "den_booty", [clipped(state.den_booty[s], 8) for s in order], n)
            assert decodes(view, "booty_days", [clipped(row, 6) for row in state.booty_days])
            assert decodes(view, "bag", clipped(state.bag, 10))
            assert view.index("colour")[:n].tolist() == order


def test_spytails_views_read_back_the_state():
    from bidbluff.envs.spytails.codec import LAYOUT as SPY

    for game, state in decision_states("spytails_v0", 3, 1):
        n = state.num_players
        for seat in range(n):
            view = SPY.view(game.encode(state, seat))
            order = [(seat + rel) % n for rel in range(n)]
            hand = np.bincount(state.hands[seat], minlength=len(view.hand[0]))
            assert decodes(view, "hand", np.minimum(hand, 3), 1)
            assert decodes(view, "leverage", clipped([state.leverage[s] for s in order], 6), n)
            assert decodes(view, "hand_size", clipped([len(state.hands[s]) for s in order], 16), n)
            assert decodes(view, "deck_size", clipped([len(state.decks[s]) for s in order], 40), n)
            assert decodes(view, "leverage_supply", min(state.leverage_supply, 6))
            if state.influence[seat] <= 40:
                assert decodes(view, "influence", state.influence[seat], 1)


def test_liars_dice_views_read_back_the_state():
    from bidbluff.envs.liars_dice.codec import LAYOUT as LD

    specials = ("pirate king", "mermaid", "cursed", "ghost")
    for game, state in decision_states("liars_dice_v0", 4, 30, dice=3, specials=specials):
        betting = state.round
        for seat in range(state.num_players):
            view = LD.view(game.encode(state, seat))
            cups = [betting.cups.get((seat + rel) % state.num_players, ()) for rel in range(state.num_players)]
            assert decodes(view, "dice", [len(cup) for cup in cups], state.num_players)
            crew = np.bincount([f - 1 for k, f in betting.cups[seat] if k == 0], minlength=6)
            assert decodes(view, "crew", crew)
            assert decodes(view, "dice_in_play", betting.dice_in_play)
            if betting.bids:
                _, q, f = betting.bids[-1]
                assert decodes(view, "last_quantity", q) and view.index("last_face") + 1 == f
