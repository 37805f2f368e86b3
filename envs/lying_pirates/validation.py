"""A restored Lying Pirates state, checked: ``LyingPiratesState.from_dict`` refuses what the rules cannot reach.

``state_shapes.read_state`` reads the saved fields' types, ranges and sizes; ``check_state`` checks the
built state: the table's captains, the map and the ships on it, the counted things (crew dice and special
dice within the game's, every action card and influence card exactly once, the tiles and town cards
while they are placed), what a captain may know of another's hand, the options' data, then the stack
and the open decision (``stack_rules``), and that the decision has a legal action.

A layout the rules would not deal but that plays (a tile laid twice, a cup's dice set by hand) is
accepted: the rule tests set such positions up.  Every refusal is a ``ValueError`` naming the field by
its path; the checks run when a state is restored, never while a game is played.
"""

from __future__ import annotations

from collections import Counter

from bidbluff.envs.core.validate import Tally, ensure, join
from bidbluff.envs.lying_pirates.betting import MAX_CUP
from bidbluff.envs.lying_pirates.content import (
    ALL_TILES,
    BIG_CUP,
    CAPTAIN_INDEX,
    CARDS,
    INFLUENCE,
    INFLUENCE_DRAW,
    INFLUENCE_KEEP,
    MAP_WATERS,
    TILES,
    TOWNS,
)
from bidbluff.envs.lying_pirates.crew import BOARD, TOTAL_CREW
from bidbluff.envs.lying_pirates.dice import CREW_LIMIT, Die
from bidbluff.envs.lying_pirates.engine import legal_actions
from bidbluff.envs.lying_pirates.frames import (
    CaptainChoice,
    InfluenceSetup,
    MayorReveal,
    SailPhase,
    TownChoosing,
    TownPlacing,
)
from bidbluff.envs.lying_pirates.options import has_options
from bidbluff.envs.lying_pirates.stack_rules import check_stack, distinct, expansion_on, options_of, where
from bidbluff.envs.lying_pirates.state_shapes import VARIANT_NAMES
from bidbluff.envs.lying_pirates.table import GOLD_USED, SILVER_USED, Table


# -- the rules a built state keeps ----------------------------------------------------------------------------
def check_state(state: Table, saved_phase: str | None = None) -> None:
    """Refuse ``state`` unless the rules could have reached it (see the module's docstring); ``saved_phase``
    is the phase a save said it was in, which must be the one its stack is in."""
    _check_table(state)
    _check_map(state)
    _check_crews(state)
    _check_cards(state)
    _check_round(state)
    if state.ext is not None:
        _check_options(state)
    check_stack(state, state.phase if saved_phase is None else saved_phase)
    if state.pending:
        ensure(bool(legal_actions(state)), "pending", f"the open decision {state.pending} has no legal action")


def _check_table(state: Table) -> None:
    n = state.num_players
    ensure(state.captains == n + (n == 2), "captains", f"{n} players sail {n + (n == 2)} captains")
    ensure(
        state.phantom == (n if n == 2 else -1), "phantom", f"the Phantom is captain {n} of a two-player game, else -1"
    )
    if state.ext is not None:
        ensure(has_options(state.ext["options"]), "ext.options", "no option is on: a base game's state has no ext")


def _check_map(state: Table) -> None:
    """Slot 0 is the Base, every other slot a tile of the game.  Once the map is built the layout is free
    (the rule tests lay the tiles they test where they like); while it is being built, every tile lies
    on a slot of its waters or in a player's hand, once, so that each empty slot can still be filled."""
    waters = MAP_WATERS[state.map_name]
    tiles = ALL_TILES if expansion_on(state) else TILES
    ensure(state.slots[0] == 0, "slots[0]", "the first slot holds the Start/End tile")
    placing = state.placing
    placed = Tally()
    for s, t in enumerate(state.slots[1:], 1):
        at = join("slots", s)
        ensure(t >= 0 or placing is not None, at, "an empty slot once the map is built")
        ensure(0 < t < len(tiles) or t == -1, at, f"{t} is not a tile of this game off the Base")
        if placing is not None and t >= 0:
            ensure(tiles[t].water == waters[s], at, f"{tiles[t].name} does not lie in {waters[s]} waters")
            placed.add(at, [t])
    if placing is not None:
        for seat, hand in enumerate(placing.tiles):
            at = join(join(where(state, placing), "tiles"), seat)
            for i, t in enumerate(hand):
                ensure(0 < t < len(tiles), join(at, i), f"{t} is not a tile of this game off the Base")
            placed.add(at, hand)
        placed.conserved(Counter(range(1, len(tiles))), "the tiles", lambda t: tiles[t].name)
    lap = state.lap
    for c in range(state.captains):
        if c != state.phantom:
            ensure(state.progress[c] <= lap, join("progress", c), f"{state.progress[c]} is past a lap of {lap}")
    ensure(len(set(state.finished)) == len(state.finished), "finished", f"{state.finished} names a captain twice")
    for i, c in enumerate(state.finished):
        ensure(state.progress[c] == lap, join("finished", i), f"captain {c} is not back on the Base")


def _check_crews(state: Table) -> None:
    crews = state.crews
    ensure(
        sum(crews.crew) + crews.bag <= TOTAL_CREW,
        "crews.bag",
        f"{crews.bag} in the bag and {sum(crews.crew)} in the crews, more than the game's {TOTAL_CREW} crew dice",
    )
    options = options_of(state)
    ensure(len(set(crews.out)) == len(crews.out), "crews.out", f"{crews.out} names a captain twice")
    ensure(not crews.out or crews.mortal, "crews.out", 'only "Instant Death" sinks captains')
    for d, holder in crews.holder.items():
        ensure(
            holder == BOARD or holder not in crews.out,
            join("crews.holder", str(d)),
            f"captain {holder} is sunk and holds no die",
        )
    for c in range(state.captains):
        at = join("crews.crew", c)
        if c in crews.out:
            ensure(crews.crew[c] == 0, at, f"sunk captain {c} has no crew")
        else:
            ensure(crews.crew[c] >= 1, at, f"captain {c} keeps a crew die")
        ensure(crews.crew[c] <= crews.limit(c), at, f"captain {c}'s crew is more than its limit {crews.limit(c)}")
        ensure(crews.dice(c) <= MAX_CUP, at, f"captain {c}'s dice are more than a cup holds ({MAX_CUP})")
    abilities = options["abilities"]
    if not abilities and "Instant Death" not in options["variants"]:
        return  # the crews' option fields are absent (``_crews``)
    coasters = state.ext["captain"]
    want = [BIG_CUP if coasters[c] == CAPTAIN_INDEX["big_cup"] else CREW_LIMIT for c in range(state.captains)]
    ensure(
        crews.limits == (want if abilities else None),
        "crews.limits",
        f"{crews.limits} are not the limits the captain coasters give ({want if abilities else None})",
    )
    spare = [c for c in range(state.captains) if coasters[c] == CAPTAIN_INDEX["cursed_spare"]]
    ensure(crews.cursed_spare == spare, "crews.cursed_spare", f"{crews.cursed_spare} are not the coasters' {spare}")
    ensure(
        crews.mortal == ("Instant Death" in options["variants"]), "crews.mortal", 'sinking is "Instant Death"\'s rule'
    )


def _check_cards(state: Table) -> None:
    cards = Tally()
    cards.add("deck", state.deck)
    cards.add("discard", state.discard)
    cards.add("phantom_pile", state.phantom_pile)
    for c, hand in enumerate(state.hands):
        ensure(hand == sorted(hand), join("hands", c), "a hand is kept sorted")
        cards.add(join("hands", c), hand)
    drawn = state.drawn("card")
    if drawn is not None:
        cards.add(join(where(state, drawn), "cards"), drawn.cards)
    cards.conserved(
        Counter({k: card.count for k, card in enumerate(CARDS)}), "the action cards", lambda k: CARDS[k].name
    )
    if state.phantom < 0:
        ensure(not state.phantom_pile, "phantom_pile", "only the Phantom has a pile")
    else:
        ensure(not state.hands[state.phantom], join("hands", state.phantom), "the Phantom plays its pile, not a hand")
    for o, rows in enumerate(state.known):
        for h, row in enumerate(rows):
            for k, n in enumerate(row):
                ensure(
                    n == 0 or (h != o and n <= state.hands[h].count(k)),
                    f"known[{o}][{h}][{k}]",
                    f"{n} known {CARDS[k].name} where captain {h} holds {state.hands[h].count(k)}",
                )
    metals = set()
    for i, (c, k) in enumerate(state.played):
        if c == state.phantom:
            continue
        metal = CARDS[k].metal
        ensure(
            (c, metal) not in metals and state.used[c][GOLD_USED if metal == "gold" else SILVER_USED],
            join("played", i),
            f"captain {c} plays one {metal} card a round",
        )
        metals.add((c, metal))


def _check_round(state: Table) -> None:
    for name in ("excluded", "next_excluded"):
        seats = getattr(state, name)
        distinct(seats, name)
        ensure(
            state.phase == "over" or any(p not in seats for p in state.players()),
            name,
            "a player afloat bets in the Betting phase",
        )
    bottom = state.stack[0] if state.stack else None
    if state.phase != "over" and type(bottom) is SailPhase:
        ensure(bool(state.result), "result", "the Sail phase sails the Betting phase's winner and survivors")
    if state.phase != "over" and state.find(MayorReveal) is not None:
        ensure(state.reveal is not None, "reveal", "the Mayor die is read from the last reveal")
    if state.result:
        r = state.result
        seats = [r["winner"], *r["losers"], *r["survivors"]]
        ensure(len(set(seats)) == len(seats), "result", f"{seats} names a captain twice")
    if state.reveal is not None:
        for seat, cup in state.reveal["cups"].items():
            at = join("reveal.cups", seat)
            ensure(int(seat) < state.captains, at, f"no captain {seat}")
            for i, (kind, _) in enumerate(cup):
                ensure(kind in state.crews.holder or kind == Die.CREW, join(join(at, i), "kind"), "a die of this game")
    if state.pt is not None:
        ensure(state.pt.roller == state.resolver, "pt.roller", "the Pirate or Treasure die is the resolver's")
    if state.phase == "over":
        ensure(not state.pending, "pending", "the game is over")
        return
    ensure(not state.winners, "winners", "the game is not over")
    ensure(bool(state.pending), "pending", "the game goes on: a decision is open")
    alive = [p for p in range(state.num_players) if p not in state.crews.out]
    ensure(len(alive) >= 2, "crews.out", "the game ends when one player is left")


def _check_options(state: Table) -> None:
    x, o = state.ext, state.ext["options"]
    n, c = state.num_players, state.captains
    order = [VARIANT_NAMES.index(v) for v in o["variants"]]
    ensure(order == sorted(set(order)), "ext.options.variants", "each variant card once, in the cards' order")
    coasters = x["captain"]
    dealt = [a for a in coasters if a >= 0]
    ensure(len(set(dealt)) == len(dealt), "ext.captain", f"{coasters} deals a coaster twice")
    for s in range(c):
        at = join("ext.captain", s)
        if not o["abilities"] or s == state.phantom:
            ensure(coasters[s] == -1, at, "no coaster without abilities, nor for the Phantom")
        elif s in x["captain_order"]:
            ensure(coasters[s] == -1, at, "a player still to choose has no coaster yet")
        ensure(
            not x["sabotaged"][s] or coasters[s] == CAPTAIN_INDEX["sabotage"],
            join("ext.sabotaged", s),
            "only the Saboteur sabotages",
        )
    distinct(x["captain_order"], "ext.captain_order")
    ensure(
        not x["captain_order"] or (o["abilities"] == "chosen" and state.find(CaptainChoice) is not None),
        "ext.captain_order",
        'players choose coasters only while the "chosen" coasters are being chosen',
    )
    ships = (x["merchant"], x["navy"])
    if o["merchant_ships"]:
        ensure(
            0 not in ships and ships[0] != ships[1] and -1 not in ships,
            "ext.navy",
            f"the Merchant and the Navy ship lie on two slots off the Base, not {ships}",
        )
    else:
        ensure(ships == (-1, -1), "ext.merchant", "no ships without Merchant Ships")
    if o["expansion"]:
        _check_cities(state, n, c)


def _check_cities(state: Table, n: int, c: int) -> None:
    x = state.ext
    towns = x["towns"]
    ensure(towns[0] == -1, "ext.towns[0]", "no town lies under the Base")
    for s, t in enumerate(towns[1:], 1):
        ensure(t >= 0 or state.find(TownPlacing) is not None, join("ext.towns", s), "a slot without its town")
    for seat, cards in enumerate(x["town_cards"]):
        ensure(cards == sorted(set(cards)), join("ext.town_cards", seat), "each town card once, in order")
    if state.find(TownPlacing) is not None:  # while towns are placed, each captain's seven cards are all there
        for t in range(len(TOWNS)):
            held = sum(t in cards for cards in x["town_cards"])
            ensure(
                towns.count(t) + held == c,
                "ext.towns",
                f"{TOWNS[t]}: {towns.count(t)} placed and {held} in hand, not one card of each captain ({c})",
            )
    ensure(sorted(x["town_order"]) == list(range(n)), "ext.town_order", "every player once")
    designated = x["designated"]
    chosen = [t for t in designated if t >= 0]
    ensure(len(set(chosen)) == len(chosen), "ext.designated", "one captain per town")
    for s in range(c):
        at = join("ext.designated", s)
        if s == state.phantom:
            ensure(designated[s] == -1, at, "the Phantom has no town")
        else:
            ensure(designated[s] >= 0 or state.find(TownChoosing) is not None, at, "every player has a town")
    hands = x["influence"]
    cards = Tally()
    for s, hand in enumerate(hands):
        ensure(hand == sorted(hand), join("ext.influence", s), "a hand is kept sorted")
        cards.add(join("ext.influence", s), hand)
    cards.add("ext.influence_deck", x["influence_deck"])
    cards.add("ext.influence_discard", x["influence_discard"])
    drawn = state.drawn("influence")
    if drawn is not None:
        cards.add(join(where(state, drawn), "cards"), drawn.cards)
    cards.conserved(
        Counter({k: card.count for k, card in enumerate(INFLUENCE)}), "the influence cards", lambda k: INFLUENCE[k].name
    )
    if state.phantom >= 0:
        ensure(not hands[state.phantom], join("ext.influence", state.phantom), "the Phantom has no influence cards")
    queue = x["influence_setup"]
    distinct(queue, "ext.influence_setup")
    if state.find(InfluenceSetup) is None:
        ensure(not queue, "ext.influence_setup", "the first influence cards were given back")
    else:
        for p in range(n):
            want = INFLUENCE_DRAW if p in queue else INFLUENCE_KEEP
            ensure(len(hands[p]) == want, join("ext.influence", p), f"{want} influence cards during the setup")
