"""The laboratory's simulator at the ECF's scale: twelve months of one list rated again.

    python bench/simulation.py [--reuse] [--months 12] [--list otb-standard]

A PostgreSQL database of its own (``federation_bench_simulation`` on the server of
BENCH_DATABASE_URL) is loaded with COPY (bench/federation.py): 15,000 players, a take-on and
twelve rated months on each list at 30,000 games a month across them (about 15,000 on OTB
standard, 9,000 rapid, 6,000 online); --reuse keeps one already loaded. Then, in this process,
as ``manage.py simulate`` does: the list's twelve published months rated again under a variant
of its rule set (floors and a 48-month activity window), from the states published before them,
and compared with the published ratings at the end; timed from the start to the comparison
stored. Target: under 30 s. Then the pool health page's figures for the same twelve months
(laboratory/health.py), timed. Target: under 5 s.
"""

import argparse
import datetime
import os
import sys
import time

import databases
import federation
from databases import log

from chess.months import Month

TARGET = 30
HEALTH_TARGET = 5
PLAYERS = 15_000
# A month's players on each list (bench/federation.py LISTS: 15,000, 7,500 and 4,500 members;
# events of 4, 6 and 6 rounds): 30,000 games a month, as the ECF-sized month to rate.
PLAYS = {"otb-standard": 0.5, "otb-rapid": 0.4, "online": 0.45}


def database():
    server = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/").rsplit("/", 1)[0]
    return f"{server}/federation_bench_simulation"


VARIANT = '{"base": "ecf-2024", "floors": true, "activity_window_months": 48}'


def simulate(url, list_code, months):
    os.environ.update(databases.django_env(url), DJANGO_SETTINGS_MODULE="config.settings")
    sys.path.insert(0, str(federation.ROOT))
    import django

    django.setup()
    from grading.models import RatingList, RatingPeriod
    from laboratory.models import Simulation
    from laboratory.rerating import run_simulation
    from laboratory.simulations import do_start_simulation

    rating_list = RatingList.objects.get(code=list_code)
    published = RatingPeriod.objects.published().filter(rating_list=rating_list)
    last = Month.parse(max(published.values_list("month", flat=True)))
    first = last - (months - 1)
    Simulation.objects.all().delete()  # with their rows, deleted by the simulation
    started = time.perf_counter()
    simulation = do_start_simulation(rating_list, first, last, VARIANT, acting_user=None, queue=False)
    run_simulation(simulation.pk, progress=lambda text: log(f"  {time.perf_counter() - started:6.1f} s  {text}"))
    took = time.perf_counter() - started
    simulation.refresh_from_db()
    figures = simulation.summary.get("compared", {})
    log(
        f"{list_code} {first} to {last} under {simulation.rules_name}: {simulation.status}, "
        f"{simulation.summary.get('players', 0):,} players compared, {figures.get('moved', 0):,} move "
        f"(mean absolute {figures.get('mean_absolute')})"
    )
    verdict = "met" if took < TARGET else "MISSED"
    log(f"simulation of {months} months: {took:.1f} s (target {TARGET} s: {verdict})")

    from laboratory.health import pool_health

    started = time.perf_counter()
    health = pool_health(rating_list, first, last)
    took = time.perf_counter() - started
    games = sum(row["games"] for row in health.calibration)
    verdict = "met" if took < HEALTH_TARGET else "MISSED"
    log(
        f"pool health of the same {months} months ({games:,} games calibrated): {took:.1f} s "
        f"(target {HEALTH_TARGET} s: {verdict})"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reuse", action="store_true", help="use the database already loaded")
    parser.add_argument("--months", type=int, default=12)
    parser.add_argument("--list", default="otb-standard")
    options = parser.parse_args()
    url = database()
    if not (options.reuse and databases.count_players(url) == PLAYERS):
        log(f"Loading {PLAYERS:,} players and 12 months at 30,000 games a month into {url.rsplit('/', 1)[1]}")
        databases.create_and_migrate(url)
        last = Month.of(datetime.date.today()) - 1
        federation.load(url, PLAYERS, first=last - 12, last=last, plays=PLAYS)
    simulate(url, options.list, options.months)


if __name__ == "__main__":
    main()
