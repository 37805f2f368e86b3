"""A whole 3-player campaign, scripted and checked against a hand-made ledger.

The expected numbers below were worked out by hand from the rulings, not by
running the engine.  Seats: Yellow (0), Red (1), Blue (2), 10 doubloons each.
Everyone holds the same nine ranks:

    3 Beggar, 7 Barkeep, 10 French Officer, 14 Brute, 16 Topman, 18 Cook,
    20 Armorer, 21 Merchant, 28 First Mate

Tie-break numbers (Y R B) used below: 28 First Mate 6 1 2 (Blue left of Yellow).

Booty rows (3 per day): d1 chest jewels sabre | d2 goods goods relic |
d3 map map goods | d4 sabre goods map | d5 relic chest jewels | d6 chest map relic

Day 1  Y 7  R 20  B 3.   Ship B3 Y7 R20.
       Day: Blue's Beggar takes 3 from Red (rightmost): R 7, B 13.
       Dusk: R20 sabre (neighbours' dens both empty: no target), Y7 chest, B3 jewels.
       Night: Y Barkeep +1 = 11; R Armorer +1 sabre = 8.          Y 11  R 8  B 13
Day 2  Y 21 R 10  B 7.   Ship B7 R10 Y21.
       Day: R French Officer, 8 < 9: +5 = 13.  Y Merchant: no pair, nothing.
       Dusk: Y21 goods, R10 goods, B7 relic.
       Night: Y +1 = 12; R +1 = 14; B Barkeep +1 = 14.            Y 12  R 14 B 14
Day 3  Y 14 R 28  B 18.  Ship Y14 B18 R28.
       Day: Y Brute throws out R28 (rightmost).
       Dusk: B18 Cook takes map and map, Y14 goods.
       Night: Y +1 = 13; R +1 = 15; B +1 = 15.                    Y 13  R 15 B 15
Day 4  Y 16 R 14  B 21.  Ship R14 Y16 B21.
       Day: R Brute throws out B21 (rightmost).
       Dusk: Y16 sabre -> neighbours R and B; Y throws out Blue's Barkeep 7.
             R14 goods.  The map stays unclaimed on day 4.
       Night: Y +1 = 14; R +1 = 16; B (3 18, no night card) 15.   Y 14  R 16 B 15
Day 5  Y 3  R 21  B 20.  Ship Y3 B20 R21.
       Day: Y Beggar takes 3 from Red: Y 17, R 13.  R Merchant (goods 2,
            sabre 1) must sell the goods pair: +3 = 16.
       Dusk: R21 chest, B20 jewels, Y3 relic.
       Night: Y +1 = 18; R +1 = 17; B Armorer, no sabre: 15.      Y 18  R 17 B 15
Day 6  Y 28 R 16  B 28.  Ship R16 B28 Y28.
       Dusk: Y28 chest, B28 map, R16 relic.
       Night: Y +1 = 19; R +1 = 18; B 15.                         Y 19  R 18 B 15

Campaign end.  Dens: Y 3 7 14 16 21 28 (6), R 10 14 16 20 21 (5), B 3 18 20 28 (4).
  Y: 19 + chest 2 (10) + goods 2 (2) + relic (-3) = 28; First Mate +6 (6 cards);
     Topman 0 (6 > 4)                                        = 34
  R: 18 + chest (5) + relic (-3) + sabre (0) = 20; Topman 0 (5 > 4) = 20
  B: 15 + jewels 2 (6) + relic (-3) + 3 maps (12) = 30;
     First Mate +4 (4 cards)                                  = 34
Score track: 34 20 34.  Hands left: Y 10 18 20, R 3 7 18, B 10 14 16.
"""

from __future__ import annotations

from bidbluff.envs.libertalia.content import BAG, DAYS, START_DOUBLOONS

from .conftest import CHEST, GOODS, JEWELS, MAP, RELIC, SABRE, act, booty_of, make_state, rng

HAND = [3, 7, 10, 14, 16, 18, 20, 21, 28]
ROWS = [
    {"chest": 1, "jewels": 1, "sabre": 1},
    {"goods": 2, "relic": 1},
    {"map": 2, "goods": 1},
    {"sabre": 1, "goods": 1, "map": 1},
    {"relic": 1, "chest": 1, "jewels": 1},
    {"chest": 1, "map": 1, "relic": 1},
]

# (seat that must decide, action) for each day, in the order the engine asks.
SCRIPT = [
    [
        (0, ("play", 7)),
        (1, ("play", 20)),
        (2, ("play", 3)),
        (1, ("booty", SABRE)),
        (0, ("booty", CHEST)),
        (2, ("booty", JEWELS)),
    ],
    [
        (0, ("play", 21)),
        (1, ("play", 10)),
        (2, ("play", 7)),
        (0, ("booty", GOODS)),
        (1, ("booty", GOODS)),
        (2, ("booty", RELIC)),
    ],
    [
        (0, ("play", 14)),
        (1, ("play", 28)),
        (2, ("play", 18)),
        (2, ("booty", MAP)),
        (2, ("booty", MAP)),
        (0, ("booty", GOODS)),
    ],
    [
        (0, ("play", 16)),
        (1, ("play", 14)),
        (2, ("play", 21)),
        (0, ("booty", SABRE)),
        (0, ("sabre", 2, 7)),
        (1, ("booty", GOODS)),
    ],
    [
        (0, ("play", 3)),
        (1, ("play", 21)),
        (2, ("play", 20)),
        (1, ("trade", GOODS, 2)),
        (1, ("booty", CHEST)),
        (2, ("booty", JEWELS)),
        (0, ("booty", RELIC)),
    ],
    [
        (0, ("play", 28)),
        (1, ("play", 16)),
        (2, ("play", 28)),
        (0, ("booty", CHEST)),
        (2, ("booty", MAP)),
        (1, ("booty", RELIC)),
    ],
]

# Doubloons after each night (the ledger's right-hand column).
AFTER_NIGHT = [[11, 8, 13], [12, 14, 14], [13, 15, 15], [14, 16, 15], [18, 17, 15]]
DENS_AFTER = [
    [[7], [20], [3]],
    [[7, 21], [10, 20], [3, 7]],
    [[7, 14, 21], [10, 20], [3, 7, 18]],
    [[7, 14, 16, 21], [10, 14, 20], [3, 18]],
    [[3, 7, 14, 16, 21], [10, 14, 20, 21], [3, 18, 20]],
]
BOOTY_AFTER = [
    [{"chest": 1}, {"sabre": 1}, {"jewels": 1}],
    [{"chest": 1, "goods": 1}, {"sabre": 1, "goods": 1}, {"jewels": 1, "relic": 1}],
    [{"chest": 1, "goods": 2}, {"sabre": 1, "goods": 1}, {"jewels": 1, "relic": 1, "map": 2}],
    [{"chest": 1, "goods": 2, "sabre": 1}, {"sabre": 1, "goods": 2}, {"jewels": 1, "relic": 1, "map": 2}],
    [
        {"chest": 1, "goods": 2, "sabre": 1, "relic": 1},
        {"sabre": 1, "chest": 1},
        {"jewels": 2, "relic": 1, "map": 2},
    ],
]
DISCARDS_AFTER = [
    [[], [], []],
    [[], [], []],
    [[], [28], []],
    [[], [28], [21, 7]],
    [[], [28], [21, 7]],
]


def scripted_start():
    return make_state(hands=[HAND, HAND, HAND], booty_days=ROWS)


def run_day(state, day):
    for seat, action in SCRIPT[day]:
        assert state.pending == [action[0], seat], f"day {day + 1}: expected {seat} to {action}, got {state.pending}"
        act(state, action, seed=day)


def test_scripted_campaign_day_by_day():
    s = scripted_start()
    undealt_before = list(s.undealt)
    assert len(undealt_before) == 21
    for day in range(5):
        run_day(s, day)
        assert s.day == day + 1
        assert s.doubloons == AFTER_NIGHT[day], f"after night {day + 1}"
        assert s.dens == DENS_AFTER[day], f"after night {day + 1}"
        assert [booty_of(s, p) for p in range(3)] == BOOTY_AFTER[day], f"after night {day + 1}"
        assert [sorted(d) for d in s.discards] == [sorted(d) for d in DISCARDS_AFTER[day]]
    # Day 4's map was never claimed and stays on its space.
    assert s.booty_days[3] == [0, 0, 0, 1, 0, 0, 0]
    assert s.hands == [[10, 18, 20, 28], [3, 7, 16, 18], [10, 14, 16, 28]]

    run_day(s, 5)
    assert s.campaign_totals == [[34, 20, 34]]
    assert s.score == [34, 20, 34]

    # -- the deal for campaign 2 ----------------------------------------------------------
    assert s.campaign == 1 and s.day == 0 and s.pending == ["play", 0]
    dealt = sorted(set(undealt_before) - set(s.undealt))
    assert len(dealt) == 6 and len(s.undealt) == 15
    assert set(s.undealt) <= set(undealt_before)
    assert s.hands == [
        sorted([10, 18, 20, *dealt]),
        sorted([3, 7, 18, *dealt]),
        sorted([10, 14, 16, *dealt]),
    ]
    assert s.doubloons == [START_DOUBLOONS] * 3
    assert s.dens == [[], [], []]
    assert s.discards == [[], [], []]
    assert s.den_booty == [[0] * 7] * 3
    assert len(s.booty_days) == DAYS and all(sum(row) == 3 for row in s.booty_days)
    laid_out = [sum(row[t] for row in s.booty_days) for t in range(7)]
    assert [b + lay for b, lay in zip(s.bag, laid_out, strict=True)] == list(BAG)
    assert s.ship == [] and s.chosen == [0, 0, 0]


def test_scripted_campaign_is_independent_of_the_rng():
    # No Spanish Spy in the script: chance only enters at the campaign-2 deal.
    finals = []
    for seed in (3, 11):
        s = scripted_start()
        for day in range(DAYS):
            for seat, action in SCRIPT[day]:
                assert s.pending == [action[0], seat]
                s.apply(action, rng(seed))
        finals.append((s.campaign_totals, s.score))
    assert finals[0] == finals[1] == ([[34, 20, 34]], [34, 20, 34])
