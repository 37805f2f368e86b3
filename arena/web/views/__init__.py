"""Per-game boards for the browser: what one seat may see of a position, as JSON, and what it may click.

Each game's module declares

- ``TITLE``;
- ``OPTIONS``: the setup form (``Option`` rows; the game itself checks the values);
- ``HIDDEN_KINDS``: action kinds another seat may be unable to tell apart, with the words the log uses
  for them (everything else is public: bids, "Liar!", "exactly", cards put on the table);
- ``GLOSSARY``: rules text of the cards, tiles, characters and dice, for the hover tooltips;
- ``board(state, seat)``: the position as ``seat`` sees it (``None``: everything, once the game is over);
- ``target(action, seat)``: the board element (``data-key``) an engine action is taken on, or None;
- ``words(kind, text)``: a move as the log says it (public calls: "calls Liar!");
- ``notes(state, seat, moves)``: lines that say why a move the rules cap or forbid is not offered;
- ``breakdown(history)``: at the end, how each seat's score came about (rows for the result panel).

A board is built from what ``seat`` knows, as the game's own text render with that seat is: the web
tests check that it does not change when everything the seat cannot see is redrawn
(``state.resample_hidden``).
"""

from __future__ import annotations

import re
from types import ModuleType

from bidbluff.arena.web.views import liars_dice, libertalia, lying_pirates, spytails

VIEWS: dict[str, ModuleType] = {
    "libertalia_v0": libertalia,
    "liars_dice_v0": liars_dice,
    "lying_pirates_v0": lying_pirates,
    "spytails_v0": spytails,
}


def view_of(env_name: str) -> ModuleType:
    """The board module of a registered env."""
    try:
        return VIEWS[env_name]
    except KeyError:
        raise ValueError(f"no board for env {env_name!r}; boards: {', '.join(VIEWS)}") from None


_LIST = re.compile(r"\[([^\[\]]*)\]")
_CAPTAIN = re.compile(r"\bC(\d)\b")


def plain(text: str) -> str:
    """Engine and action texts in the page's words: seats are P0, P1, ... everywhere (Lying Pirates' engine
    says C1), and no Python list shows through (``[1, 2]`` -> ``1, 2``; ``[]`` -> ``none``)."""
    text = _CAPTAIN.sub(r"P\1", text)
    return _LIST.sub(lambda m: m.group(1).replace("'", "") or "none", text)
