"""Time the take-on of a federation: players, then their ratings, from CSV files.

    DATABASE_URL=postgres://... python bench/takeon.py [--players 10000]

It runs against the database DATABASE_URL names (SQLite by default) and creates a throwaway
database for the run (the test database machinery), so no real data is touched.
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")


def players_csv(count):
    lines = ["code,name,birth_date,sex,title,fide_id,club_code,club_name"]
    for n in range(count):
        born = f"{1940 + n % 70}-{1 + n % 12:02d}-{1 + n % 28:02d}"
        lines.append(
            f'{100000 + n:06d}A,"Surname{n}, Forename",{born},{"MF"[n % 2]},,{400000 + n},C{n % 200:03d},Club {n % 200}'
        )
    return ("\n".join(lines) + "\n").encode()


def ratings_csv(count):
    lines = ["code,rating,type,games,opponents_total,points,last_played"]
    for n in range(count):
        games = 5 + n % 300
        lines.append(
            f"{100000 + n:06d}A,{1000 + n % 1500},{'full' if games >= 10 else 'partial'},"
            f"{games},{games * 1600},{games / 2},2026-{1 + n % 9:02d}"
        )
    return ("\n".join(lines) + "\n").encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10_000)
    count = parser.parse_args().players

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from chess.months import Month
    from grading.models import RatingList
    from grading.takeon import do_import_ratings
    from players.services import import_players

    names = setup_databases(verbosity=0, interactive=False)
    try:
        people, ratings = players_csv(count), ratings_csv(count)
        for attempt in ("first import", "re-import (all updates)"):
            started = time.perf_counter()
            summary = import_players(people)
            print(
                f"import_players, {attempt}: {count} players in {time.perf_counter() - started:.2f} s "
                f"({summary.created} created, {summary.updated} updated) on {connection.vendor}"
            )
        started = time.perf_counter()
        do_import_ratings(ratings, RatingList.objects.get(code="otb-standard"), Month(2026, 9))
        print(f"import_ratings: {count} ratings in {time.perf_counter() - started:.2f} s on {connection.vendor}")
    finally:
        teardown_databases(names, verbosity=0)


if __name__ == "__main__":
    main()
