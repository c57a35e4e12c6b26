"""Manipulations planted in the bench's ordinary year (bench/ordinary_play.py), each kind at three
strengths, blatant, clear and subtle. Their games go through the same monthly rating update as
everyone's: a thrown event lowers the thrower's published rating, a ring's winner rises.

Each case is (kind, strength, rows): rows are the (event, player) pairs whose flag catches it;
a case is caught when a detector flags one of them, or one of its events as an event.
"""

import numpy as np
from ordinary_play import active

# The strengths, by how rare the planted result is in ordinary play: blatant (about 1 in 100
# million or rarer), clear (about 1 in a million), subtle (about 1 in 100,000), and below the
# floor (1 in 1,000 to 10,000: as rare as the luck of some ordinary players in any year, which no
# test can tell from it without flagging them too; measured, and left out of the target).
STRENGTHS = ("blatant", "clear", "subtle", "below the floor")


class Plan:
    """What to play in which month, and the cases planted."""

    def __init__(self):
        self.by_month = {}
        self.cases = []  # [kind, strength, rows (event, player), events]

    def at(self, month, step):
        self.by_month.setdefault(month, []).append(step)

    def run(self, fed, month):
        for step in self.by_month.get(month, []):
            step(fed, month)


def ordinary_adult(fed, month, low, high):
    """An active ordinary adult rated ``low`` to ``high``."""
    rows = active(fed, month)
    rows = rows[(~fed.junior[rows]) & (fed.published[rows] >= low) & (fed.published[rows] <= high)]
    return int(fed.rng.choice(rows))


def accomplices(fed, ratings):
    """Players of their own, as strong as their ratings."""
    return fed.add_players(np.asarray(ratings, float), np.asarray(ratings, np.int64))


def gifts(plan, rng, strength):
    """An ordinary adult given wins (and at most a draw) against players far above them in a
    weekend Swiss, their only games in it, against the field's players (accomplices of the
    ratings wanted where the field has too few)."""
    games, gap, draws = {
        "blatant": (8, (300, 400), 0),
        "clear": (6, (250, 400), 0),
        "subtle": (6, (200, 300), 1),
        "below the floor": (4, (100, 250), 0),
    }[strength]
    month = int(rng.integers(2, 12))
    case = ["gifted wins", strength, [], []]

    def step(fed, month):
        event, field = fed.swisses[month][int(rng.integers(len(fed.swisses[month])))]
        rated = fed.published[field]
        player = ordinary_adult(fed, month, 1300, 2100)  # one who plays only these games in it
        while player in field:
            player = ordinary_adult(fed, month, 1300, 2100)
        low, high = fed.published[player] + gap[0], fed.published[player] + gap[1]
        above = rng.permutation(field[(rated >= low) & (rated <= high)])[:games]
        wanted = fed.published[player] + rng.integers(*gap, games - len(above))
        opponents = np.concatenate((above, accomplices(fed, wanted))).astype(np.int64)
        halves = np.array([1] * draws + [2] * (games - draws))
        fed.record(event, np.full(games, player), opponents, halves, month)
        case[2].append((event, int(fed.player_ids(player))))
        case[3].append(event)

    plan.at(month, step)
    plan.cases.append(case)


def pairs(plan, rng, strength):
    """Two club mates within 80 points meeting again and again, one winning: two games a month at
    their club's nights (in its event of the month), or in one match.

    Their strengths on the scale of every kind (how rare the run is in ordinary play): between
    equals at club level (draws 20%) a game is won 40% of the time, so 20 straight wins are
    0.4^20 = 1 in 91 million (blatant); 16 wins and a draw in 17, 0.4^17 + 17 x 0.4^16 x 0.2 =
    1 in 610,000 (clear); 13 wins and a draw in 14, 0.4^14 + 14 x 0.4^13 x 0.2 = 1 in 46,000
    (subtle); 9 wins, 0.4^9 = 1 in 3,800 (below the floor)."""
    meetings, draws = {"blatant": (20, 0), "clear": (17, 1), "subtle": (14, 1), "below the floor": (9, 0)}[strength]
    match = rng.random() < 0.4
    first = int(rng.integers(0, 12 - (1 if match else (meetings + 1) // 2) + 1))
    case = ["one-sided meetings, " + ("a match" if match else "club nights"), strength, [], []]
    chosen = {}

    def pick(fed, month):
        rows = active(fed, month)
        rows = rows[(fed.club[rows] >= 0) & (fed.published[rows] > 1200)]
        a = int(fed.rng.choice(rows))
        mates = rows[
            (fed.club[rows] == fed.club[a]) & (rows != a) & (np.abs(fed.published[rows] - fed.published[a]) < 80)
        ]
        b = (
            int(fed.rng.choice(mates))
            if len(mates)
            else int(fed.rng.choice(rows[np.abs(fed.published[rows] - fed.published[a]) < 80]))
        )
        chosen["pair"] = (a, b)

    def meet(count):
        def step(fed, month):
            if "pair" not in chosen:
                pick(fed, month)
            a, b = chosen["pair"]
            club = (month, int(fed.club[a]))
            event = fed.new_event(month) if match or club not in fed.club_events else fed.club_events[club]
            fed.won_by(event, a, b)  # what the ladder paired them for is arranged too
            halves = np.full(count, 2)
            if draws and not case[3]:
                halves[0] = 1  # the first meeting drawn
            white = np.array([a, b] * count)[:count]
            black = np.array([b, a] * count)[:count]
            fed.record(event, white, black, np.where(white == a, halves, 2 - halves), month)
            case[2].extend([(event, int(fed.player_ids(a))), (event, int(fed.player_ids(b)))])
            case[3].append(event)

        return step

    if match:
        plan.at(first, meet(meetings))
    else:  # two meetings a month (one in the last, for an odd number)
        for n, month in enumerate(range(first, first + (meetings + 1) // 2)):
            plan.at(month, meet(min(2, meetings - 2 * n)))
    plan.cases.append(case)


def sandbagging(plan, rng, strength):
    """An ordinary adult throws games to much weaker players, then, at the lowered rating, beats
    players of their old rating within three months."""
    losses, wins, gap = {
        "blatant": (7, 6, (250, 400)),
        "clear": (6, 5, (200, 350)),
        "subtle": (5, 4, (200, 300)),
        "below the floor": (4, 3, (200, 300)),
    }[strength]
    month = int(rng.integers(1, 9))
    later = month + int(rng.integers(1, 4))
    case = ["sandbagging", strength, [], []]
    chosen = {}

    def drop(fed, month):
        player = ordinary_adult(fed, month, 1700, 2300)
        chosen["player"], chosen["old"] = player, int(fed.published[player])
        opponents = accomplices(fed, fed.published[player] - rng.integers(*gap, losses))
        event = fed.new_event(month)
        fed.record(event, np.full(losses, player), opponents, 0, month)
        case[2].append((event, int(fed.player_ids(player))))
        case[3].append(event)

    def rebound(fed, month):
        player = chosen["player"]
        opponents = accomplices(fed, chosen["old"] + rng.integers(-50, 51, wins))
        event = fed.new_event(month)
        halves = np.array([1] + [2] * (wins - 1)) if strength in ("subtle", "below the floor") else np.full(wins, 2)
        fed.record(event, np.full(wins, player), opponents, halves, month)
        case[2].append((event, int(fed.player_ids(player))))
        case[3].append(event)

    plan.at(month, drop)
    plan.at(min(later, 11), rebound)
    plan.cases.append(case)


def round_robin(fed, event, players, month):
    """Every pair of ``players`` (rows) plays once, at their true strengths."""
    for i in range(len(players) - 1):
        fed.played(event, np.full(len(players) - i - 1, players[i]), players[i + 1 :], month)


def newcomers(plan, rng, strength):
    """Newcomers who meet only each other and rated players in a round robin of their own: half
    the cases a rated host who beats them all, half five rated accomplices who lose to them, so
    that their first ratings (five games against rated players) are made inside the event. The
    next month they play each other again, at the first ratings it gave them if it gave any."""
    size, given = {"blatant": (8, 0), "clear": (6, 0), "subtle": (5, 1), "below the floor": (4, 1)}[strength]
    month = int(rng.integers(1, 11))
    inside = rng.random() < 0.5
    case = ["closed newcomers, " + ("rated inside" if inside else "a host"), strength, [], []]
    chosen = {}

    def first(fed, month):
        group = fed.add_players(rng.normal(1200, 150, size), np.zeros(size, np.int64))
        chosen["group"] = group
        event = fed.new_event(month)
        round_robin(fed, event, group, month)
        if inside:  # the accomplices lose to each newcomer but ``given`` of them, who draw
            rated = accomplices(fed, np.rint(rng.uniform(1400, 1800) + rng.normal(0, 50, 5)))
            round_robin(fed, event, rated, month)
            for newcomer in group:
                halves = np.full(5, 2)
                halves[:given] = 1
                fed.record(event, np.full(5, newcomer), rated, halves, month)
        else:  # the host beats them all but ``given`` of them, who draw
            rated = np.array([ordinary_adult(fed, month, 1600, 2200)])
            halves = np.full(size, 2)
            halves[:given] = 1
            fed.record(event, np.full(size, rated[0]), group, halves, month)
        case[2].extend((event, int(pid)) for pid in fed.player_ids(np.append(group, rated)))
        case[3].append(event)

    def again(fed, month):
        event = fed.new_event(month)
        round_robin(fed, event, chosen["group"], month)
        case[3].append(event)

    plan.at(month, first)
    plan.at(month + 1, again)
    plan.cases.append(case)


def rings(plan, rng, strength):
    """Players who meet mostly each other month after month, each also playing two ordinary games
    a month in an open event. Half the rings have one winner, who wins every game among them while
    the others draw among themselves; in the other half all but two rise: the two (feeders) lose
    every game among them, the others draw among themselves."""
    months = {"blatant": 8, "clear": 6, "subtle": 4, "below the floor": 3}[strength]
    size = int(rng.integers(4, 9))
    feeders = 2 if rng.random() < 0.5 else 0
    start = int(rng.integers(0, 12 - months + 1))
    case = ["rings, " + ("all but feeders rise" if feeders else "one winner"), strength, [], []]
    chosen = {}

    def step(fed, month):
        if "ring" not in chosen:
            base = rng.uniform(1400, 1900)
            chosen["ring"] = accomplices(fed, np.rint(base + rng.normal(0, 40, size)))
        ring = chosen["ring"]
        event = fed.new_event(month)
        for i in range(size):
            for j in range(i + 1, size):
                if feeders:
                    halves = 0 if i >= size - feeders else 2 if j >= size - feeders else 1
                else:
                    halves = 2 if i == 0 else 1
                fed.record(event, ring[i : i + 1], ring[j : j + 1], halves, month)
        manipulated = ring[: size - feeders] if feeders else ring[:1]
        case[2].extend((event, int(pid)) for pid in fed.player_ids(manipulated))
        case[3].append(event)
        # Two ordinary games each, against players of their rating, at their true strength.
        outside = fed.new_event(month)
        rows = active(fed, month)
        for member in ring:
            near = rows[np.abs(fed.published[rows] - fed.published[member]) < 100]
            opponents = fed.rng.choice(near, 2)
            fed.played(outside, np.full(2, member), opponents, month)

    for month in range(start, start + months):
        plan.at(month, step)
    plan.cases.append(case)


KINDS = [gifts, pairs, sandbagging, newcomers, rings]


def plan_cases(rng, per_kind: int) -> Plan:
    """``per_kind`` cases of each kind, a quarter at each strength."""
    plan = Plan()
    for kind in KINDS:
        for n in range(per_kind):
            kind(plan, rng, STRENGTHS[n % len(STRENGTHS)])
    return plan
