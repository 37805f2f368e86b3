"""Saved states of format 0 (before the stack of frames) converted to today's format.

Format 0 kept the work in progress as plain dicts (``window``, ``effect``, ``battle``, ``reroll``,
``catchup``, ``final``, ``draft``, ``placing``; the options' ``playing``, ``cargo``, ``drawn`` and
``encounter`` in ``ext``), each naming with ``"then"`` the stage to resume when its work was done, and
``stage`` naming the step.  Following ``stage`` and the ``"then"`` names down gives today's stack,
bottom first.  ``tests/lying_pirates/test_saved_games.py`` loads states and records saved by that engine.
"""

from __future__ import annotations

from typing import Any

OLD_RECORDS = ("stage", "battle", "reroll", "effect", "window", "catchup", "final", "draft", "placing")
OLD_EXT_RECORDS = ("playing", "cargo", "drawn", "encounter")


def upgrade(old: dict[str, Any]) -> dict[str, Any]:
    data = {k: v for k, v in old.items() if k not in OLD_RECORDS}
    data["format"] = 1
    ext = old.get("ext")
    if ext is not None:
        data["ext"] = {k: v for k, v in ext.items() if k not in OLD_EXT_RECORDS}
    stage = old["stage"]
    data["stack"] = _left_over(old) if stage == "over" else _stack(old, stage)
    return data


def _frame(stage: str, **fields: Any) -> dict[str, Any]:
    return {"stage": stage, "outcome": -1, **fields}


def _ext(old: dict[str, Any]) -> dict[str, Any]:
    return old.get("ext") or {}


def _stack(old: dict[str, Any], stage: str) -> list[dict[str, Any]]:
    """The frames that were at work when the engine was at ``stage`` (bottom first)."""
    if stage in ("betting", "bet"):
        return [_frame(stage)]
    if stage == "end_of_sail" and _ext(old).get("encounter"):  # the Merchant met: that step's stage was this
        return _stack(old, "encounter")
    if stage in ("sail", "sail_window", "move", "battle_won", "tile", "tile_effect", "end_of_sail"):
        return [_frame(stage)]
    if stage in ("mayor_reveal", "bomb", "bomb_battle"):
        return [_frame("sail"), _frame(stage)]
    if stage in ("action", "action_window"):
        return [_frame(stage)]
    if stage == "catchup":
        c = old["catchup"] or {"group": None, "asked": [], "accepted": []}
        return [_frame("catchup", group=c["group"], asked=c["asked"], accepted=c["accepted"])]
    if stage == "encounter":
        enc = _ext(old).get("encounter")
        if enc is None:  # the tile's effect is over and the encounter still to come
            return [_frame("after_tile")]
        return [_frame("end_of_sail"), _frame("encounter", ship=enc["ship"], roll=enc["roll"])]
    if stage in ("raid_result", "navy_result"):
        enc = _ext(old)["encounter"]
        return [_frame("end_of_sail"), _frame(stage, ship=enc["ship"], roll=enc["roll"])]
    if stage in ("final_start", "final_buy", "final_roll", "final_resolve"):
        return [_final(old, stage)]
    if stage in ("final_window", "final_after_card"):
        f = old["final"]
        window = _frame("final_window", kind="final", order=f["order"], turn=f["turn"], passes=f["passes"])
        return [_final(old, "final_resolve"), window, *([_frame(stage)] if stage == "final_after_card" else [])]
    if stage == "window":
        w = old["window"]
        below = [_frame("move")] if w["then"] == "move" else [_frame("catchup", group=None, asked=[], accepted=[])]
        return [*below, _frame("window", kind=w["kind"], order=w["order"], turn=w["turn"], passes=w["passes"])]
    if stage == "reroll":
        r = old["reroll"]
        return [*_stack(old, r["then"]), _frame("reroll", queue=r["queue"], die=r["die"])]
    if stage in ("battle_roll", "battle_resolve"):
        b = old["battle"]
        battle = _frame(stage, rolling=b["rolling"], looking_for=b["looking_for"], rolls=b["rolls"], result=b["result"])
        return [*_stack(old, b["then"]), battle]
    if stage in ("effect", "phantom_target", "effect_battle"):
        return _effect(old, "after_battle" if stage == "effect_battle" else stage)
    if stage == "influence":
        p = _ext(old)["playing"]
        return [*_stack(old, "window"), _frame("influence", seat=p["seat"], card=p["card"], town=p["town"])]
    if stage == "keep_one":
        d = _ext(old)["drawn"]
        below = _stack(old, "window") if d["then"] == "window" else [_frame("end_of_sail")]
        return [*below, _frame("keep_one", seat=d["seat"], what=d["what"], cards=d["cards"])]
    if stage == "cargo":
        c = _ext(old)["cargo"]
        below = {
            "effect": lambda: _stack(old, "effect"),
            "window": lambda: _stack(old, "window"),
            "sail": lambda: [_frame("sail")],
        }[c["then"]]()
        return [*below, _frame("cargo", queue=c["queue"])]
    if stage in ("captain", "place", "town_place", "town_choose", "influence_setup", "draft"):
        return _setup(old)
    raise ValueError(f"Lying Pirates state of format 0 at an unknown stage {stage!r}")


def _final(old: dict[str, Any], stage: str) -> dict[str, Any]:
    f = old["final"]
    if f is None:
        return _frame(stage)
    return _frame(
        stage,
        crew=f["crew"],
        rolling=f["rolling"],
        battles=f["battles"],
        buying=f["buying"],
        rolls=f["rolls"],
        used=f["used"],
    )


def _effect(old: dict[str, Any], stage: str) -> list[dict[str, Any]]:
    then = old["effect"]["then"]
    if then in ("end_of_sail", "encounter"):
        below = [_frame("after_tile")]
    elif then == "action_window":
        below = [_frame("action_window")]
    else:
        below = _stack(old, then)
    return [*below, _effect_frame(old, stage)]


def _effect_frame(old: dict[str, Any], stage: str) -> dict[str, Any]:
    e = old["effect"]
    return _frame(
        stage,
        actor=e["actor"],
        effects=e["effects"],
        source=e["source"],
        card=e["card"],
        index=e["index"],
        target=e["target"],
        reacted=bool(e.get("reacted")),
        after_battle=e.get("after_battle"),
    )


def _setup(old: dict[str, Any]) -> list[dict[str, Any]]:
    """The setup steps still to take, the first on top, over the first Betting phase."""
    frames = [_frame("betting")]
    if old["draft"] is not None:
        frames.append(_frame("draft", round=old["draft"]["round"], picked=old["draft"]["picked"]))
    x = _ext(old)
    if x.get("towns") is not None:
        if x["influence_setup"]:
            frames.append(_frame("influence_setup"))
        if any(x["designated"][p] < 0 for p in range(old["num_players"])):
            frames.append(_frame("town_choose"))
        if any(t < 0 for s, t in enumerate(x["towns"]) if s > 0):
            frames.append(_frame("town_place"))
    p = old["placing"]
    if p is not None and -1 in old["slots"]:
        frames.append(_frame("place", tiles=p["tiles"], order=p["order"], turn=p["turn"]))
    if x.get("captain_order"):
        frames.append(_frame("captain"))
    return frames


def _left_over(old: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game: the work that was in progress when it ended (the last observation shows it)."""
    frames = []
    if old["final"] is not None:
        frames.append(_final(old, "final_resolve"))
    if old["battle"] is not None:
        b = old["battle"]
        frames.append(
            _frame(
                "battle_resolve",
                rolling=b["rolling"],
                looking_for=b["looking_for"],
                rolls=b["rolls"],
                result=b["result"],
            )
        )
    if old["effect"] is not None:
        frames.append(_effect_frame(old, "effect"))
    if old["reroll"] is not None:
        frames.append(_frame("reroll", queue=old["reroll"]["queue"], die=old["reroll"]["die"]))
    x = _ext(old)
    if x.get("encounter"):
        frames.append(_frame("encounter", ship=x["encounter"]["ship"], roll=x["encounter"]["roll"]))
    if x.get("cargo"):
        frames.append(_frame("cargo", queue=x["cargo"]["queue"]))
    if x.get("playing"):
        p = x["playing"]
        frames.append(_frame("influence", seat=p["seat"], card=p["card"], town=p["town"]))
    if x.get("drawn"):
        d = x["drawn"]
        frames.append(_frame("keep_one", seat=d["seat"], what=d["what"], cards=d["cards"]))
    return frames
