"""Live ratings at scale: each list's live computation on the monthly-run bench's federation.

    python bench/live_ratings.py [--size ecf|fide] [--repeat 3]

Uses the database of bench/monthly_run.py (``federation_bench_run_SIZE``; loaded by it if
missing): its month just ended, approved and not yet rated, is what the live ratings rate. The
earlier run of that month, if any, is undone first. For each list, in process: the first
computation (every live rating and the whole live list written), then, ``--repeat`` times, one
more event approved (one of the month's events taken back to submitted, then approved, as an
officer would in the admin) and the computation its approval asks for, timed from the start of
the computation to its commit.
"""

import argparse
import os
import time

import databases
import monthly_run
from databases import log


def measure(url, repeat):
    os.environ.update(databases.django_env(url), DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from django.db import connection

    from events.models import Event
    from grading.live.computing import compute_live
    from grading.models import RatingList

    month = monthly_run.month_to_rate()
    log(f"{'list':<14}{'games':>10}{'rated':>9}{'first s':>9}  after one approval, s")
    for rating_list in RatingList.objects.order_by("display_order"):
        started = time.perf_counter()
        live = compute_live(rating_list)
        first = time.perf_counter() - started
        again = []
        events = Event.objects.filter(rating_list=rating_list, start_date__gte=month.first_day(), status="approved")
        for event in events.order_by("pk")[:repeat]:
            with connection.cursor() as cursor:  # taken back, then approved again: one approval
                cursor.execute("UPDATE events_event SET status = 'submitted' WHERE id = %s", [event.pk])
                cursor.execute("UPDATE events_event SET status = 'approved' WHERE id = %s", [event.pk])
            started = time.perf_counter()
            compute_live(rating_list)
            again.append(time.perf_counter() - started)
        log(
            f"{rating_list.code:<14}{live.games:>10,}{live.players_rated:>9,}{first:>9.2f}  "
            + " ".join(f"{seconds:.2f}" for seconds in again)
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=list(monthly_run.SIZES), default="fide")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # internal: measure on this database
    options = parser.parse_args()
    if options.measure:
        measure(options.measure, options.repeat)
        return
    url = monthly_run.prepare(options.size, history=12, reuse=True)
    log(f"{options.size}: live ratings of {monthly_run.month_to_rate()}, in process")
    import subprocess
    import sys

    # A process of its own, as the monthly bench does: Django set up on the bench database.
    subprocess.run([sys.executable, __file__, "--measure", url, "--repeat", str(options.repeat)], check=True)


if __name__ == "__main__":
    main()
