"""The integrity watch's signals on a generated federation with planted cases (docs/integrity.md).

    .venv/bin/python bench/integrity.py [--seed N] [--players N] [--plant N]

A year of ordinary events (Swisses of 40 players and 8 rounds, results drawn from the players'
true strengths, which stray from their ratings: everyone's by chance, juniors' upwards), among
them planted cases of each kind, varied in size and strength, some subtle:

- improbable results: a player given 4 to 8 wins (or most of them) against players 100 to 300
  above;
- repeated pairings: two players meeting in 4 to 8 events, one winning 80 to 100 per cent;
- sandbagging: 3 to 6 losses to players 200 to 400 below, then, 1 to 3 months on at a rating
  100 to 250 lower, 4 to 7 games won against players near the old rating;
- closed pools: 3 to 8 players in monthly round robins of their own for 6 to 12 months, their
  ratings rising 15 to 40 a month, each round robin an isolated event.

Prints, per kind, the share of planted cases flagged (target at least 90 per cent) and the share
of ordinary events in which an ordinary player was flagged by any signal (target at most 2 per
cent), then the time to score a FIDE-sized month (1,000,000 games, every signal over it; target
under 10 s), and the time to score the last month of a FIDE-sized year read against the whole
year (12,000,000 games), as the monthly scan does.

    .venv/bin/python bench/integrity.py --database ecf|fide [--reuse]

scans instead the month to rate of the monthly run's bench federation (bench/monthly_run.py, its
database made or, with --reuse, reused, with twelve months of history) as the nightly scan
does, list by list (grading.integrity.scanning.scan_month: the window read from the database,
every signal, the flags stored), and prints each list's time.
"""

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from grading.integrity.signals.improbable import RatedGames, expected_score  # noqa: E402
from grading.integrity.signals.watch import Events, watch  # noqa: E402

MONTHS = 12
PLANTED = 10**6  # planted players' ids start here
EVENT_SIZE, ROUNDS = 40, 8


class Year:
    """Games as growing lists of columns, with each game's month and each event's month."""

    def __init__(self):
        self.columns = [[] for _ in range(7)]  # event, white, black, white rating, black rating, halves, month
        self.next_event = 0
        self.event_month = {}

    def event(self, month):
        self.next_event += 1
        self.event_month[self.next_event] = month
        return self.next_event

    def add(self, event, white, black, white_rating, black_rating, halves):
        month = self.event_month[event]
        for column, values in zip(self.columns, (event, white, black, white_rating, black_rating, halves, month)):
            column.append(np.broadcast_to(np.asarray(values, dtype=np.int64), np.shape(np.atleast_1d(white))).copy())

    def games(self):
        joined = [np.concatenate(column) for column in self.columns]
        return RatedGames(*joined[:6]), joined[6]


def circle_round(fields, round_):
    """Round ``round_`` of the circle method, of one field or of each row of fields: the first
    player stays, the others turn; nobody meets the same opponent twice, as in a Swiss."""
    turned = np.concatenate((fields[..., :1], np.roll(fields[..., 1:], round_, axis=-1)), axis=-1)
    half = fields.shape[-1] // 2
    return turned[..., :half], turned[..., half:][..., ::-1]


def drawn_halves(rng, strength_difference):
    """Half points of games whose true expected score is the table's for the true difference."""
    return rng.binomial(2, expected_score(strength_difference, 0))


def fide_months(rng, months=1):
    """``months`` months of FIDE's size: 300,000 players, each month 6,250 Swisses of 40 and 8
    rounds (1,000,000 games), nobody in two events of a month. Returns the games, each game's
    month and each event's month (by event id)."""
    players, events, rounds = 300_000, 6_250, ROUNDS
    rating = np.clip(rng.normal(1800, 250, players), 1000, 2700).astype(np.int64)
    columns = []
    for month in range(months):
        fields = rng.permutation(players)[: events * EVENT_SIZE].reshape(events, EVENT_SIZE)
        event = np.arange(events) + month * events + 1
        for round_ in range(rounds):
            white, black = (side.ravel() for side in circle_round(fields, round_))
            halves = drawn_halves(rng, rating[white] - rating[black])
            columns.append(
                (np.repeat(event, EVENT_SIZE // 2), white, black, rating[white], rating[black], halves, month)
            )
    joined = [np.concatenate([np.broadcast_to(c[i], c[0].shape) for c in columns]) for i in range(7)]
    event_month = np.concatenate(([0], np.repeat(np.arange(months), events)))
    return RatedGames(*[column.astype(np.int64) for column in joined[:6]]), joined[6].astype(np.int64), event_month


def ordinary_year(rng, players, year):
    rating = np.clip(rng.normal(1800, 250, players), 1000, 2700).astype(np.int64)
    junior = rng.random(players) < 0.15
    stray = rng.normal(0, 60, players) + junior * rng.uniform(0, 250, players)
    events_a_month = players // EVENT_SIZE // 4  # a quarter of the players play each month
    ordinary = []
    for month in range(MONTHS):
        for _ in range(events_a_month):
            event = year.event(month)
            ordinary.append(event)
            field = rng.choice(players, EVENT_SIZE, replace=False)
            for round_ in range(ROUNDS):
                white, black = circle_round(field, round_)
                truth = (rating[white] + stray[white]) - (rating[black] + stray[black])
                year.add(event, white, black, rating[white], rating[black], drawn_halves(rng, truth.astype(np.int64)))
        rating = rating + (junior * 15).astype(np.int64)  # juniors' ratings follow their strength
    return np.array(ordinary)


def plant(rng, year, ordinary, count, first_id):
    """Planted cases of each kind, each with what finding it means; players of their own ids."""
    planted = {"improbable": [], "pairings": [], "sandbagging": [], "pools": []}
    new = iter(range(first_id, first_id + 10**7))
    for _ in range(count):
        # Improbable results: a player given wins in an ordinary event.
        event, player, base = rng.choice(ordinary), next(new), int(rng.integers(1300, 2200))
        games = int(rng.integers(4, 9))
        above = rng.integers(100, 301, games)
        halves = np.where(rng.random(games) < rng.uniform(0.75, 1.0), 2, 1)
        year.add(event, np.full(games, player), [next(new) for _ in range(games)], base, base + above, halves)
        planted["improbable"].append((event, player))
        # Repeated pairings: two players meeting in several events, one winning.
        a, b, base = next(new), next(new), int(rng.integers(1400, 2200))
        meetings = int(rng.integers(4, 9))
        wins = rng.random(meetings) < rng.uniform(0.8, 1.0)
        for event, won in zip(rng.choice(ordinary, meetings, replace=False), wins):
            year.add(event, a, b, base, base + int(rng.integers(-100, 101)), 2 if won else 1)
        planted["pairings"].append((a, b))
        # Sandbagging: losses to much weaker players, then wins at the lowered rating.
        player, old = next(new), int(rng.integers(1700, 2400))
        month = int(rng.integers(0, MONTHS - 3))
        drop = year.event(month)
        losses = int(rng.integers(3, 7))
        year.add(
            drop,
            np.full(losses, player),
            [next(new) for _ in range(losses)],
            old,
            old - rng.integers(200, 401, losses),
            0,
        )
        rebound = year.event(month + int(rng.integers(1, 4)))
        lowered, wins = old - int(rng.integers(100, 251)), int(rng.integers(4, 8))
        opponents = old - rng.integers(-50, 101, wins)
        year.add(rebound, np.full(wins, player), [next(new) for _ in range(wins)], lowered, opponents, 2)
        planted["sandbagging"].append((player, drop, rebound))
        # A closed pool: round robins of their own, rising month after month.
        size, months = int(rng.integers(3, 9)), int(rng.integers(6, 13))
        members, start = [next(new) for _ in range(size)], int(rng.integers(1300, 2000))
        climb = int(rng.integers(15, 41))
        events = []
        for month in range(months):
            event = year.event(month)
            events.append(event)
            for i in range(size):
                for j in range(i + 1, size):
                    year.add(
                        event,
                        members[i],
                        members[j],
                        start + climb * month,
                        start + climb * month,
                        int(rng.integers(0, 3)),
                    )
        planted["pools"].append((members, events))
    return planted


def found(planted, scores, pairs, sandbags, pools, events):
    improbable = set(zip(scores.event[scores.flagged()].tolist(), scores.player[scores.flagged()].tolist()))
    flagged_pairs = {
        frozenset(pair) for pair in zip(pairs.first[pairs.flagged()].tolist(), pairs.second[pairs.flagged()].tolist())
    }
    sandbagged = set(zip(sandbags.player.tolist(), sandbags.drop_event.tolist(), sandbags.rebound_event.tolist()))
    in_pool = set(np.repeat(pools.flagged(), np.diff(np.append(pools.start, len(pools.members)))).nonzero()[0].tolist())
    pooled = set(pools.members[sorted(in_pool)].tolist())
    isolated = set(events.event[events.isolated].tolist())
    return {
        "improbable results": np.mean([case in improbable for case in planted["improbable"]]),
        "repeated pairings": np.mean([frozenset(pair) in flagged_pairs for pair in planted["pairings"]]),
        "sandbagging": np.mean([case in sandbagged for case in planted["sandbagging"]]),
        "closed pools": np.mean(
            [sum(m in pooled for m in members) * 2 > len(members) for members, _ in planted["pools"]]
        ),
        "isolated events": np.mean([np.mean([e in isolated for e in events_]) for _, events_ in planted["pools"]]),
    }


def score(games, month, event_month):
    """Every signal, as the monthly scan runs them (grading.integrity.signals.watch)."""
    events = Events(id=np.arange(len(event_month)), month=event_month, arbiter=np.zeros(len(event_month), np.int64))
    found = watch(games, month, events)
    return found.scores, found.pairings, found.sandbagging, found.pools, found.events


def false_alarms(games, scores, pairs, sandbags, events) -> set:
    """The events in which a signal flagged an ordinary player (planted players have ids of
    PLANTED and above)."""
    alarms = set(scores.event[scores.flagged() & (scores.player < PLANTED)].tolist())
    ordinary_pairs = pairs.flagged() & (pairs.first < PLANTED) & (pairs.second < PLANTED)
    for a, b in zip(pairs.first[ordinary_pairs].tolist(), pairs.second[ordinary_pairs].tolist()):
        met = ((games.white == a) & (games.black == b)) | ((games.white == b) & (games.black == a))
        alarms |= set(games.event[met].tolist())
    ordinary_sandbags = sandbags.player < PLANTED
    alarms |= set(sandbags.drop_event[ordinary_sandbags].tolist()) | set(
        sandbags.rebound_event[ordinary_sandbags].tolist()
    )
    alarms |= set(events.event[events.flagged()].tolist())
    return alarms


def timed(games, month, event_month, scope=None) -> float:
    """Seconds to run every signal, as a scan does (with ``scope``, the events a month's scan asks about)."""
    events = Events(id=np.arange(len(event_month)), month=event_month, arbiter=np.zeros(len(event_month), np.int64))
    started = time.perf_counter()
    watch(games, month, events, scope)
    return time.perf_counter() - started


def scan_database(size: str, reuse: bool):
    """The month to rate of the monthly run's bench federation of ``size``, scanned in a process
    of its own with Django on that database."""
    import subprocess

    import databases
    import monthly_run

    url = monthly_run.prepare(size, 12, reuse)
    databases.warm(url)
    child = subprocess.run(
        [sys.executable, __file__, "--scan", url], env=databases.django_env(url), capture_output=True, text=True
    )
    sys.stdout.write(child.stdout)
    if child.returncode:
        sys.stderr.write(child.stderr)
        raise SystemExit(child.returncode)


def scan_in_process():
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    import monthly_run

    from grading.integrity.scanning import scan_month
    from grading.models import RatingList

    month = monthly_run.month_to_rate()
    for rating_list in RatingList.objects.order_by("display_order", "code"):
        started = time.perf_counter()
        scan = scan_month(rating_list, month)
        print(
            f"  {rating_list.code} {month}: {scan.games:,} games of {scan.events:,} events, read with the 11 months "
            f"before, scanned in {time.perf_counter() - started:.1f} s, {scan.flags} findings"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=60_000)
    parser.add_argument("--plant", type=int, default=100, help="planted cases of each kind")
    parser.add_argument("--database", choices=["ecf", "fide"], help="scan the monthly run's bench federation")
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--scan", help=argparse.SUPPRESS)  # the child of --database: its database's URL
    arguments = parser.parse_args()
    if arguments.scan:
        return scan_in_process()
    if arguments.database:
        return scan_database(arguments.database, arguments.reuse)
    rng = np.random.default_rng(arguments.seed)
    year = Year()
    ordinary = ordinary_year(rng, arguments.players, year)
    planted = plant(rng, year, ordinary, arguments.plant, first_id=PLANTED)
    games, month = year.games()
    event_month = np.zeros(year.next_event + 1, dtype=np.int64)
    for event, at in year.event_month.items():
        event_month[event] = at
    started = time.perf_counter()
    scores, pairs, sandbags, pools, events = score(games, month, event_month)
    took = time.perf_counter() - started
    print(
        f"a year of {len(games.event):,} games, {len(ordinary):,} ordinary events, "
        f"{arguments.plant} planted cases of each kind: scored in {took:.1f} s"
    )
    for kind, share in found(planted, scores, pairs, sandbags, pools, events).items():
        print(f"  {kind:20} {100 * share:5.1f} % of planted cases flagged (target at least 90 %)")
    false = false_alarms(games, scores, pairs, sandbags, events)
    share = len(false & set(ordinary.tolist())) / len(ordinary)
    print(f"  ordinary events with an ordinary player flagged: {100 * share:.2f} % (target at most 2 %)")
    games, month, event_month = fide_months(rng)
    print(
        f"a FIDE-sized month of {len(games.event):,} games scored in {timed(games, month, event_month):.1f} s "
        "(target under 10 s)"
    )
    del games
    games, month, event_month = fide_months(rng, MONTHS)
    last = np.flatnonzero(event_month == MONTHS - 1)
    print(
        f"the last of a FIDE-sized year's months scored as the monthly scan does, read against the year's "
        f"{len(games.event):,} games: {timed(games, month, event_month, last):.1f} s"
    )


if __name__ == "__main__":
    main()
