"""The Spytails heuristic's rules of play, each on a position built by hand, and the outside-style lowball player."""

from __future__ import annotations

import numpy as np
import pytest

from bidbluff import agents, envs
from bidbluff.agents.heuristic import spytails as sp
from bidbluff.agents.outsiders import SpytailsLowball
from bidbluff.envs.spytails import codec
from bidbluff.envs.spytails.content import ALPHA_STRIKE, GHOST_MOVE, INTIMIDATION, card
from bidbluff.envs.spytails.rules import SpytailsState

OFF = codec.CODEC.offset
STALK, CODEBREAKING, SURVEILLANCE = 0, 1, 2


def observe(state: SpytailsState, seat: int) -> dict[str, np.ndarray]:
    mask = np.zeros(codec.CODEC.n, dtype=np.int8)
    mask[codec.legal_ids(state)] = 1
    return {"observation": codec.encode(state, seat), "action_mask": mask}


PLAIN_ROW = [4, 5, 6]  # missions that pay for no count, and no event: the round's rules are the basic ones


def plain_row(state: SpytailsState) -> None:
    for c in PLAIN_ROW:
        if c in state.row_deck:
            state.row_deck.remove(c)
    state.row_deck += [c for c in state.row if c not in PLAIN_ROW]
    state.row = list(PLAIN_ROW)


def give(state: SpytailsState, seat: int, hand: list[int]) -> None:
    """``seat`` holds ``hand``: its cards go back to its deck, the special ones come from the special deck."""
    state.decks[seat] += state.hands[seat]
    for c in hand:
        pile = state.decks[seat] if c in state.decks[seat] else state.special_deck
        pile.remove(c)
    state.hands[seat] = sorted(hand)


def at_bid(hand: list[int], seed: int = 3) -> tuple[SpytailsState, int]:
    env = envs.make("spytails_v0", raw=True, num_players=4)
    env.reset(seed=seed)
    state = env.game_state
    assert state.pending[0] == "bid"
    seat = state.pending[1]
    give(state, seat, hand)
    plain_row(state)
    return state, seat


def at_play(hand: list[int], trick: list[int], bid: int, won: int, others_need: int, seed: int = 3):
    """The first operation, seat to play after the cards ``trick`` (led by the start player), having won
    ``won`` of its forecast ``bid``; every other seat still wants ``others_need`` operations."""
    env = envs.make("spytails_v0", raw=True, num_players=4)
    env.reset(seed=seed)
    while env.game_state.pending[0] != "play":
        kind = env.game_state.pending[0]
        env.step({"bid": OFF["bid"] + others_need, "stake": OFF["stake"], "revise": OFF["keep_forecast"]}[kind])
    state = env.game_state
    leader = state.leader
    seat = (leader + len(trick)) % 4
    state.trick = [[(leader + i) % 4, c, 0, 0] for i, c in enumerate(trick)]
    give(state, seat, hand)
    state.bids[seat], state.won[seat] = bid, won
    state.pending = ["play", seat]
    plain_row(state)
    return state, seat


def test_hit_chances_count_forced_and_possible_wins():
    sure, never, either = (1.0, 1.0), (0.0, 0.0), (1.0, 0.0)
    assert sp.hit_chances([sure, sure, *[never] * 5], tools=0) == pytest.approx([0, 0, 1, 0, 0, 0])
    # each win it has to go and take may come off
    v = sp.VOLUNTARY_HIT
    assert sp.hit_chances([either] * 3 + [never] * 4, tools=0) == pytest.approx([1, v, v**2, v**3, 0, 0])
    # a ducking tool relieves a sure winner of part of its forced win
    relieved = sp.hit_chances([sure, *[never] * 6], tools=1)
    t = sp.TOOL_RELIEF
    assert relieved == pytest.approx([t, (1 - t) + t * v, 0, 0, 0, 0])


def test_the_forecast_is_the_likeliest_count():
    low = [card(s, r) for s, r in [(STALK, 4), (STALK, 5), (CODEBREAKING, 4), (CODEBREAKING, 5), (SURVEILLANCE, 4)]]
    agent = sp.SpytailsHeuristic(seed=0)
    state, seat = at_bid([*low, card(SURVEILLANCE, 5), card(STALK, 6)])
    obs = observe(state, seat)
    assert agent.act(obs, f"player_{seat}") == OFF["bid"] + 0
    assert int(np.argmax(agent.forecast(obs["observation"]))) == 0
    # three Alpha Strikes win whatever happens: three operations
    state, seat = at_bid([ALPHA_STRIKE] * 3 + low[:4])
    obs = observe(state, seat)
    hit = agent.forecast(obs["observation"])
    assert agent.act(obs, f"player_{seat}") == OFF["bid"] + 3
    assert hit[3] == max(hit) and hit[3] > 0.5


def test_the_stake_follows_the_chance_of_a_hit(monkeypatch):
    agent = sp.SpytailsHeuristic(seed=0)
    state, seat = at_bid([card(STALK, r) for r in range(4, 11)])
    state.bids[seat] = 1
    state.pending = ["stake", seat]
    obs = observe(state, seat)

    def stake_at(chance: float) -> int:
        monkeypatch.setattr(agent, "forecast", lambda _obs: np.full(6, chance))
        return agent.act(obs, f"player_{seat}") - OFF["stake"] + 1

    assert stake_at(0.4) == 1
    assert 1 < stake_at(0.7) < stake_at(0.9) <= 9  # Kelly's fraction of 10, keeping 1 back


def test_at_its_forecast_it_ducks_with_its_most_dangerous_loser():
    hand = [card(STALK, 4), card(STALK, 8), card(CODEBREAKING, 10)]
    state, seat = at_play(hand, [card(STALK, 9)], bid=1, won=1, others_need=1)
    assert sp.SpytailsHeuristic(seed=0).act(observe(state, seat), "x") == OFF["play"] + card(STALK, 8)
    # still short of it, last to play, it wins with its cheapest winner
    hand = [card(STALK, 10), card(STALK, 8), card(STALK, 4)]
    state, seat = at_play(hand, [card(STALK, 7)] * 3, bid=1, won=0, others_need=1)
    assert sp.SpytailsHeuristic(seed=0).act(observe(state, seat), "x") == OFF["play"] + card(STALK, 8)


def test_when_every_card_would_win_it_uses_the_ghost_token():
    hand = [card(STALK, 10), card(STALK, 9)]
    state, seat = at_play(hand, [card(STALK, 4)] * 3, bid=0, won=0, others_need=0)
    obs = observe(state, seat)
    assert obs["action_mask"][OFF["ghost"]]
    assert sp.SpytailsHeuristic(seed=0).act(obs, "x") == OFF["ghost"]
    state.ghost_used[seat] = True  # without the token: the most dangerous card goes on the lost cause
    assert sp.SpytailsHeuristic(seed=0).act(observe(state, seat), "x") == OFF["play"] + card(STALK, 10)


def test_leading_at_its_forecast_it_leads_what_others_will_top():
    # no one wants an operation, but whoever holds Stalk must top a 4: the Ghost Move is kept for later
    state, seat = at_play([card(STALK, 4), card(STALK, 10), GHOST_MOVE], [], bid=0, won=0, others_need=0)
    assert sp.SpytailsHeuristic(seed=0).act(observe(state, seat), "x") == OFF["play"] + card(STALK, 4)
    # two 10s: nothing tops them but a trump from a void hand, so the Ghost Move goes now
    hand = [card(STALK, 10), card(CODEBREAKING, 10), GHOST_MOVE]
    state, seat = at_play(hand, [], bid=0, won=0, others_need=0)
    assert sp.SpytailsHeuristic(seed=0).act(observe(state, seat), "x") == OFF["play"] + GHOST_MOVE


def test_lowball_forecasts_its_sure_winners_and_ducks():
    low = [card(STALK, 4), card(STALK, 5), card(CODEBREAKING, 4), card(CODEBREAKING, 5), card(SURVEILLANCE, 4)]
    state, seat = at_bid([*low, card(SURVEILLANCE, 10), card(STALK, 10)])
    assert SpytailsLowball(seed=0).act(observe(state, seat), "x") == OFF["bid"] + 0
    state, seat = at_bid([*low, ALPHA_STRIKE, card(INTIMIDATION, 13)])
    assert SpytailsLowball(seed=0).act(observe(state, seat), "x") == OFF["bid"] + 2
    hand = [card(STALK, 4), card(STALK, 8), card(STALK, 10)]
    state, seat = at_play(hand, [card(STALK, 9)], bid=0, won=0, others_need=1)
    assert SpytailsLowball(seed=0).act(observe(state, seat), "x") == OFF["play"] + card(STALK, 8)


def test_the_first_heuristic_stays_loadable():
    old = agents.make("heuristic@2026-11", env_name="spytails_v0", seed=0)
    assert old.name == "heuristic@2026-11" and type(old).__name__ == "FirstSpytailsHeuristic"
    assert type(agents.make("heuristic", env_name="spytails_v0", seed=0)) is sp.SpytailsHeuristic
    with pytest.raises(ValueError, match="heuristic@2026-11"):
        agents.make("heuristic@2026-11", env_name="liars_dice_v0")


def test_a_player_class_missing_a_decision_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match="_<decision> for the decisions \\['character'\\]"):

        class NoCharacter(sp.SpytailsReader):  # every decision but the character pick
            _bid = _stake = _revise = _play = _regroup = sp.SpytailsHeuristic._bid
            _echo_take = _echo_give = _reinforce = _remove = sp.SpytailsHeuristic._bid


def test_a_player_class_without_a_card_value_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match="NoValue has no card_value"):

        class NoValue(sp.SpytailsReader):  # every decision, the card trades from the reader
            _character = _bid = _stake = _revise = _play = sp.SpytailsHeuristic._bid


@pytest.mark.parametrize(
    ("player", "take_top_under", "remove_under"),
    [(sp.SpytailsHeuristic, 5.0, 3.0), (SpytailsLowball, 12.0, 6.0)],
)
def test_the_card_trades_rank_cards_by_the_players_own_value(player, take_top_under, remove_under) -> None:
    agent = player(seed=0)
    value = agent.card_value
    cards = list(range(sp.NUM_CARDS))
    top, bottom = max(map(value, cards)), min(map(value, cards))
    assert bottom < remove_under <= top and bottom < take_top_under <= top

    def pick(decision: str, among: list[int], extra: str | None = None) -> int | str:
        """The card a decision picks among ``among``, or the name of the extra move it makes instead."""
        legal = [OFF[decision] + c for c in among] + ([OFF[extra]] if extra else [])
        method = {"take": "_reinforce", "discard": "_regroup"}.get(decision, f"_{decision}")
        chosen = getattr(agent, method)(None, legal)
        return extra if extra and chosen == OFF[extra] else chosen - OFF[decision]

    assert value(pick("remove", cards, "remove_none")) == bottom
    assert pick("remove", [c for c in cards if value(c) >= remove_under], "remove_none") == "remove_none"
    assert value(pick("take", cards, "take_top")) == top
    assert pick("take", [c for c in cards if value(c) < take_top_under], "take_top") == "take_top"
    assert value(pick("echo_take", cards)) == top
    assert value(pick("echo_give", cards)) == bottom
    assert value(pick("discard", cards)) == bottom
