"""Captain abilities (``abilities="dealt"`` or ``"chosen"``): a coaster per captain, each bending one rule.

Its data in ``state.ext``: ``captain`` (each captain's coaster, an index into ``CAPTAINS``; -1: none, the
Phantom's), ``captain_order`` (with "chosen": the players still to choose, in turn order) and
``sabotaged`` (the Saboteur used her once-per-game ability).  Every ability is a stand-in
(``docs/rules/lying_pirates.md``).
"""

from __future__ import annotations

import numpy as np

from bidbluff.envs.core.codec import Action
from bidbluff.envs.lying_pirates.content import BIG_CUP, CAPTAIN_INDEX, CAPTAINS, CARD_COST, SABOTAGE_COST
from bidbluff.envs.lying_pirates.dice import CREW_LIMIT
from bidbluff.envs.lying_pirates.effects import start_effect
from bidbluff.envs.lying_pirates.frames import CaptainChoice
from bidbluff.envs.lying_pirates.hooks import Hooks
from bidbluff.envs.lying_pirates.stages import ASK, done, stage
from bidbluff.envs.lying_pirates.table import Table

ABILITY_MODES = ("dealt", "chosen")
SABOTAGE = (("hit_crew", 1),)  # the Saboteur's effect on the captain she picks


def new_coasters(state: Table, rng: np.random.Generator, abilities: str | None) -> dict[str, list]:
    c, n = state.captains, state.num_players
    coasters: dict[str, list] = {"captain": [-1] * c, "captain_order": [], "sabotaged": [False] * c}
    if abilities == "dealt":
        dealt = rng.permutation(len(CAPTAINS))
        coasters["captain"][:n] = [int(a) for a in dealt[:n]]
    elif abilities == "chosen":
        coasters["captain_order"] = [(state.token + i) % n for i in range(n)]
    return coasters


def has(state: Table, c: int, ability: str) -> bool:
    return state.ext["captain"][c] == CAPTAIN_INDEX[ability]


def apply_abilities(state: Table) -> None:
    """Abilities that change the crew rules live in ``Crews``."""
    crews = state.crews
    crews.limits = [BIG_CUP if has(state, c, "big_cup") else CREW_LIMIT for c in range(state.captains)]
    crews.cursed_spare = [c for c in range(state.captains) if has(state, c, "cursed_spare")]


def _asks_captain(state: Table, frame: CaptainChoice) -> tuple[str, int] | None:
    order = state.ext["captain_order"]
    return ("captain", order[0]) if order else None


@stage(CaptainChoice, asks=_asks_captain)
def captain(state: Table, frame: CaptainChoice, rng: np.random.Generator) -> bool | None:
    if state.ext["captain_order"]:
        return ASK
    done(state)
    return None


@captain.legal("captain")
def legal_captain(state: Table, frame: CaptainChoice, seat: int) -> list[Action]:
    taken = set(state.ext["captain"])
    return [("captain", a) for a in range(len(CAPTAINS)) if a not in taken]


@captain.on("captain")
def on_captain(state: Table, frame: CaptainChoice, seat: int, action: Action, rng: np.random.Generator) -> None:
    state.ext["captain"][seat] = action[1]
    state.ext["captain_order"].pop(0)
    apply_abilities(state)
    state.say(f"C{seat} is {CAPTAINS[action[1]].name}")


# -- the abilities, as hooks -----------------------------------------------------------------------------
def _betting_bonus(state: Table) -> None:
    winner = state.result["winner"]
    if has(state, winner, "betting_bonus"):
        state.coins[winner] += 1


def _free_sail_reroll(state: Table, c: int, die: str) -> bool:
    return die == "sail" and has(state, c, "free_sail_reroll")


def _card_cost(state: Table, c: int) -> int:
    return 1 if has(state, c, "cheap_cards") else CARD_COST


def _crew_bonus(state: Table, c: int) -> int:
    return 1 if has(state, c, "extra_recruit") else 0


def _can_sabotage(state: Table, c: int) -> bool:
    return (
        has(state, c, "sabotage")
        and not state.ext["sabotaged"][c]
        and state.coins[c] >= SABOTAGE_COST
        and any(not state.on_base(t) for t in state.alive_captains() if t != c)
    )


def _sabotage_action(state: Table, c: int) -> list[Action]:
    return [("ability",)] if _can_sabotage(state, c) else []


def _sabotage(state: Table, c: int, action: Action, rng: np.random.Generator) -> None:
    state.ext["sabotaged"][c] = True
    state.coins[c] -= SABOTAGE_COST
    state.say(f"C{c} sabotages")
    start_effect(state, c, SABOTAGE, "ability")


def _brawler_tiebreak(state: Table, tied: list[int], looking_for: str) -> list[int]:
    """Brawler Bess in a tie: she wins it (a battle for a winner) or is spared (for a loser)."""
    bess = [c for c in tied if has(state, c, "wins_ties")]
    if not bess or len(tied) < 2:
        return tied
    return bess if looking_for == "winner" else [c for c in tied if c not in bess]


def register(hooks: Hooks) -> None:
    hooks.sail_start.append(_betting_bonus)
    hooks.free_reroll.append(_free_sail_reroll)
    hooks.card_cost = _card_cost
    hooks.crew_bonus = _crew_bonus
    hooks.window_actions.append(_sabotage_action)
    hooks.window_acts["ability"] = _sabotage
    hooks.battle_tiebreak.append(_brawler_tiebreak)
