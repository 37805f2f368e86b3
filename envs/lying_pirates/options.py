"""The options a game is set up with, checked, and the hooks they register with the engine.

``ext["options"]`` keeps the setup options (expansion, abilities, variants, merchant_ships); the option
modules keep their data beside them in ``ext`` and register their hooks here, in the order the rules
apply them when two act at the same moment (the expansion, then abilities, then variant cards, then
Merchant Ships).
"""

from __future__ import annotations

from typing import Any

from bidbluff.envs.lying_pirates import captains, cities, merchants, variant_cards
from bidbluff.envs.lying_pirates.captains import ABILITY_MODES
from bidbluff.envs.lying_pirates.cities import EXPANSION
from bidbluff.envs.lying_pirates.content import VARIANT_INDEX, VARIANTS
from bidbluff.envs.lying_pirates.hooks import Hooks


def check_options(expansion: str | None, abilities: str | None, variants: Any, merchant_ships: Any) -> list[str]:
    """The variant card names in table order; a clear ``ValueError`` for an unknown option value."""
    if expansion not in (None, EXPANSION):
        raise ValueError(f"expansion must be None or {EXPANSION!r}, not {expansion!r}")
    if abilities not in (None, *ABILITY_MODES):
        raise ValueError(f"abilities must be None, 'dealt' or 'chosen', not {abilities!r}")
    if not isinstance(merchant_ships, bool):
        raise ValueError(f"merchant_ships must be True or False, not {merchant_ships!r}")
    if isinstance(variants, str) or not all(isinstance(v, str) for v in variants):
        raise ValueError(f"variants must be a list of variant card names, not {variants!r}")
    unknown = [v for v in variants if v not in VARIANT_INDEX]
    if unknown:
        raise ValueError(f"no variant card {unknown}; the cards: {[v.name for v in VARIANTS]}")
    return sorted(set(variants), key=VARIANT_INDEX.__getitem__)


def has_options(options: dict[str, Any]) -> bool:
    """Whether setup ``options`` turn on anything beyond the base game (expansion, abilities, variants, ships)."""
    return bool(
        options.get("expansion") or options.get("abilities") or options.get("variants") or options.get("merchant_ships")
    )


def hooks_for(ext: dict[str, Any] | None) -> Hooks:
    """The engine's hooks for a game whose options' data is ``ext`` (None: the base game's)."""
    hooks = Hooks()
    if ext is None:
        return hooks
    options = ext["options"]
    if options["expansion"]:
        cities.register(hooks)
    if options["abilities"]:
        captains.register(hooks)
    variant_cards.register(hooks, options["variants"])
    if options["merchant_ships"]:
        merchants.register(hooks)
    return hooks
