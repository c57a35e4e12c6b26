"""The integrity watch on a generated federation with planted cases (docs/integrity.md, "The
bench: what it assumes and cannot show").

    .venv/bin/python bench/integrity.py [--seed N] [--players N] [--plant N] [--threshold P] [--no-fide]

A year of an ordinary federation (bench/ordinary_play.py) drawn from assumptions that are not
the watch's, so that its figures cannot merely confirm it: players have true strengths their
ratings lag (adults drift, juniors rise 100 to 400 points a year, newcomers join unrated and get
a first rating from their first five games against rated players); ratings are published monthly
by a plain Elo update (logistic curve, K 40 for juniors and players with under 30 games, 20
below 2400, 10 above); a game is decided by the true strengths, the day's form (a normal of 70
points) and white's 35 points, with draws between equals at the published rates (15% at 1400,
35% at 2200, 52% at 2600) falling with the gap; weekend Swisses, club nights (the same pairs
again and again), league matches, round robins and matches.

Planted in it (bench/planted_cases.py), each kind at four strengths (blatant, clear, subtle,
and below the floor: as rare as ordinary luck, outside the target): gifted wins (4 to 8 against
players of a weekend Swiss 100 to 400 above), one-sided meetings (5 to 12, at club nights or in
a match), sandbagging (4 to 7 games thrown to players 200 to 400 below, then a rebound within
three months), closed newcomers (a host who beats them all, or accomplices who lose to them so
that their first ratings are made inside) and rings (one winner, or all but two feeders rising).

A case is caught when the watch (grading.integrity.detectors.watch, ``flagged_rows`` and
``flagged_events`` only) flags one of its players in one of its events, or one of its events.
Prints the share caught per kind and strength and overall (target at least 90 per cent), the
share of ordinary events (those with no planted game) in which a player of no case was flagged
(target at most 1 per cent) and of ordinary juniors flagged (target at most 1 per cent); then
the time to score a FIDE-sized month (1,000,000 games, every detector; target under 10 s), and
the last month of a FIDE-sized year read against the whole year (12,000,000 games), as the
monthly scan does.

    .venv/bin/python bench/integrity.py --database ecf|fide [--reuse]

scans instead the month to rate of the monthly run's bench federation (bench/monthly_run.py, its
database made or, with --reuse, reused, with twelve months of history) as the nightly scan
does, list by list (grading.integrity.scanning.scan_month: the window read from the database,
every detector, the flags stored), and prints each list's time.
"""

import argparse
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from ordinary_play import PLANTED, Federation, ordinary_month  # noqa: E402
from planted_cases import STRENGTHS, plan_cases  # noqa: E402

from grading.integrity.detectors.improbable import IMPROBABLE, RatedGames  # noqa: E402
from grading.integrity.detectors.watch import Events, watch  # noqa: E402

MONTHS = 12
EVENT_SIZE, ROUNDS = 40, 8


def circle_round(fields, round_):
    """Round ``round_`` of the circle method, of one field or of each row of fields: the first
    player stays, the others turn; nobody meets the same opponent twice, as in a Swiss."""
    turned = np.concatenate((fields[..., :1], np.roll(fields[..., 1:], round_, axis=-1)), axis=-1)
    half = fields.shape[-1] // 2
    return turned[..., :half], turned[..., half:][..., ::-1]


def drawn_halves(rng, white_rating, black_rating):
    """Half points of games between players as strong as their ratings (the timing needs games,
    not realism)."""
    return rng.binomial(2, 1 / (1 + 10 ** ((black_rating - white_rating) / 400)))


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
            halves = drawn_halves(rng, rating[white], rating[black])
            columns.append(
                (np.repeat(event, EVENT_SIZE // 2), white, black, rating[white], rating[black], halves, month)
            )
    joined = [np.concatenate([np.broadcast_to(c[i], c[0].shape) for c in columns]) for i in range(7)]
    event_month = np.concatenate(([0], np.repeat(np.arange(months), events)))
    return RatedGames(*[column.astype(np.int64) for column in joined[:6]]), joined[6].astype(np.int64), event_month


def planted_year(rng, players: int, per_kind: int):
    """The ordinary year (bench/ordinary_play.py) with the planted cases (bench/planted_cases.py)
    played in it, month by month, ratings published at each month's end."""
    fed = Federation(rng, players)
    plan = plan_cases(rng, per_kind)
    for month in range(MONTHS):
        ordinary_month(fed, month)
        plan.run(fed, month)
        fed.publish(month)
    event, white, black, white_rating, black_rating, halves, month = fed.games()
    games = RatedGames(event, white, black, white_rating, black_rating, halves)
    return fed, plan, games, month, np.array(fed.event_month)


def measured(fed, plan, games, month, event_month, threshold):
    """Every detector over the year as a month's scan runs them, and what they caught and flagged."""
    events = Events(id=np.arange(len(event_month)), month=event_month, arbiter=np.zeros(len(event_month), np.int64))
    juniors = np.flatnonzero(fed.junior[: fed.ordinary_count])
    started = time.perf_counter()
    found = watch(games, month, events, juniors=juniors, threshold=threshold)
    took = time.perf_counter() - started
    row_event, row_player = found.flagged_rows()
    rows = set(zip(row_event.tolist(), row_player.tolist()))
    flagged_events = set(found.flagged_events().tolist())
    caught = {}
    for kind, strength, case_rows, case_events in plan.cases:
        hit = any(row in rows for row in case_rows) or any(event in flagged_events for event in case_events)
        caught.setdefault(kind, {}).setdefault(strength, []).append(hit)
    planted_events = {event for case in plan.cases for event in case[3]}
    ordinary_events = set(games.event.tolist()) - planted_events
    # A planted case's players (ordinary ones among them) flagged in their other events are
    # caught, not false: an ordinary event is flagged by an ordinary player of no case.
    in_cases = {player for case in plan.cases for _, player in case[2]}
    ordinary_flagged = {
        event for event, player in rows if player < PLANTED and player not in in_cases and event in ordinary_events
    }
    ordinary_flagged |= (flagged_events - {event for event, player in rows if player in in_cases}) & ordinary_events
    juniors_flagged = {player for _, player in rows if player < PLANTED and fed.junior[player]} - in_cases
    playing_juniors = set(np.concatenate((games.white, games.black)).tolist()) & set(juniors.tolist())
    return (
        took,
        caught,
        len(ordinary_flagged) / len(ordinary_events),
        len(juniors_flagged) / max(len(playing_juniors), 1),
    )


def timed(games, month, event_month, scope=None) -> float:
    """Seconds to run every detector, as a scan does (with ``scope``, the events a month's scan asks about)."""
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
    parser.add_argument("--plant", type=int, default=80, help="planted cases of each kind, a quarter at each strength")
    parser.add_argument("--threshold", type=float, default=IMPROBABLE, help="the chance at which a score is flagged")
    parser.add_argument("--no-fide", action="store_true", help="skip the FIDE-sized timings")
    parser.add_argument("--database", choices=["ecf", "fide"], help="scan the monthly run's bench federation")
    parser.add_argument("--reuse", action="store_true")
    parser.add_argument("--scan", help=argparse.SUPPRESS)  # the child of --database: its database's URL
    arguments = parser.parse_args()
    if arguments.scan:
        return scan_in_process()
    if arguments.database:
        return scan_database(arguments.database, arguments.reuse)
    rng = np.random.default_rng(arguments.seed)
    started = time.perf_counter()
    fed, plan, games, month, event_month = planted_year(rng, arguments.players, arguments.plant)
    made = time.perf_counter() - started
    took, caught, events_share, juniors_share = measured(fed, plan, games, month, event_month, arguments.threshold)
    print(
        f"a year of {len(games.event):,} games in {len(event_month) - 1:,} events among {fed.ordinary_count:,} "
        f"players (made in {made:.0f} s), {arguments.plant} planted cases of each kind: "
        f"every detector in {took:.1f} s, "
        f"at a threshold of 1 in {round(1 / arguments.threshold):,}"
    )
    every, floor = [], []
    for kind, by_strength in caught.items():
        shares = ", ".join(f"{strength} {100 * np.mean(by_strength[strength]):.0f} %" for strength in STRENGTHS)
        every += [hit for strength in STRENGTHS[:-1] for hit in by_strength[strength]]
        floor += by_strength[STRENGTHS[-1]]
        print(f"  {kind:34} {shares}")
    print(f"  every planted case from blatant to subtle: {100 * np.mean(every):.1f} % caught (target at least 90 %)")
    print(f"  below the floor: {100 * np.mean(floor):.1f} % caught (no target: as rare as ordinary luck)")
    print(f"  every planted case, the floor's too: {100 * np.mean(every + floor):.1f} % caught")
    print(f"  ordinary events flagged: {100 * events_share:.2f} % (target at most 1 %)")
    print(f"  ordinary juniors flagged: {100 * juniors_share:.2f} % (target at most 1 %)")
    if arguments.no_fide:
        return
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
