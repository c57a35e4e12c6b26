"""Time an arbiter's upload of a large event: a generated 3,000-player, 11-round TRF file is
parsed, validated, matched and stored (the same path as the upload page). Then the largest file
the upload page takes (5 MB) with no dates in it, the dates given in the form instead, checked:
every game is then dated from the event, the path that was once quadratic.

    DATABASE_URL=postgres://... python bench/upload.py [--players 3000] [--rounds 11]

It runs in a throwaway database (the test database machinery); half the players are on record.
"""

import argparse
import datetime
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")


def field(line, start, text):
    """Write ``text`` into the fixed columns starting at 1-based position ``start``."""
    line[start - 1 : start - 1 + len(text)] = list(text)


def generate_trf(players, rounds, seed=1, dated=True):
    rng = random.Random(seed)
    start = datetime.date(2026, 10, 1)
    results = {rank: [] for rank in range(1, players + 1)}
    for _ in range(rounds):
        order = list(range(1, players + 1))
        rng.shuffle(order)
        # Adjacent pairs of a shuffle: a random pairing with nobody twice in a round.
        for white, black in zip(order[::2], order[1::2]):
            outcome = rng.choice(["1", "=", "0"])
            other = {"1": "0", "=": "=", "0": "1"}[outcome]
            results[white].append((black, "w", outcome))
            results[black].append((white, "b", other))
        if players % 2:
            results[order[-1]].append((0, "-", "U"))
    lines = [
        "012 Generated Congress",
        "022 Northquay",
        *([f"042 {start:%Y/%m/%d}", f"052 {start + datetime.timedelta(days=rounds - 1):%Y/%m/%d}"] if dated else []),
        f"062 {players}",
        "092 Individual: Swiss-System",
        "122 90 min + 30 sec",
    ]
    dates = [" " * 91]
    for round_number in range(rounds):
        day = start + datetime.timedelta(days=round_number)
        dates.append(f"{day:%y/%m/%d}  ")
    if dated:
        lines.append("132" + "".join(dates)[3:].rstrip())
    for rank in range(1, players + 1):
        line = [" "] * (91 + 10 * rounds)
        field(line, 1, "001")
        field(line, 5, f"{rank:4d}")
        field(line, 10, "m")
        field(line, 15, f"Surname{rank}, Forename")
        field(line, 49, f"{1500 + rank % 700:4d}")
        field(line, 54, "ENG")
        field(line, 58, f"{400000 + rank:11d}")
        field(line, 70, f"{1950 + rank % 60}/01/01")
        points = sum({"1": 1, "=": 0.5, "0": 0, "U": 1}[result] for _, _, result in results[rank])
        field(line, 81, f"{points:4.1f}")
        field(line, 86, f"{rank:4d}")
        for number, (opponent, colour, result) in enumerate(results[rank]):
            position = 92 + 10 * number
            field(line, position, f"{opponent:4d}" if opponent else "0000")
            field(line, position + 5, colour)
            field(line, position + 7, result)
        lines.append("".join(line).rstrip())
    return ("\r\n".join(lines) + "\r\n").encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from events.uploads import storing
    from events.uploads.checking import EventDetails, check_upload
    from grading.selectors.history import lists_for_uploads
    from players.models import Player

    data = generate_trf(args.players, args.rounds)
    names = setup_databases(verbosity=0, interactive=False)
    try:
        Player.objects.bulk_create(
            Player(code=f"{100000 + n:06d}A", surname=f"Surname{n}", forenames="Forename", fide_id=400000 + n)
            for n in range(1, args.players + 1, 2)
        )
        arbiter = get_user_model().objects.create_user("bench-arbiter")
        started = time.perf_counter()
        check = check_upload(data, "generated.trf", EventDetails(code="BENCH"), lists_for_uploads())
        checked = time.perf_counter()
        if check.errors:
            sys.exit("the generated file has errors: " + "; ".join(map(str, check.errors[:5])))
        event = storing.do_store_upload(check, data, "generated.trf", acting_user=arbiter)
        stored = time.perf_counter()
        print(
            f"upload of a {args.players}-player, {args.rounds}-round TRF ({len(data) / 1024:.0f} KB, "
            f"{event.games.count()} games) on {connection.vendor}: parse, validate and match "
            f"{checked - started:.2f} s, store {stored - checked:.2f} s, total {stored - started:.2f} s"
        )
        undated = generate_trf(9999, 42, dated=False)
        started = time.perf_counter()
        check = check_upload(
            undated,
            "undated.trf",
            EventDetails(code="BENCH2", start_date=datetime.date(2026, 10, 1), end_date=datetime.date(2026, 10, 30)),
            lists_for_uploads(),
        )
        check.report()  # what the arbiter reads
        checked = time.perf_counter()
        if check.errors:
            sys.exit("the generated file has errors: " + "; ".join(map(str, check.errors[:5])))
        print(
            f"check of a {len(undated) / 1024 / 1024:.1f} MB TRF with no dates (9,999 players, 42 rounds, "
            f"{len(check.parsed.games)} games; dates from the form) on {connection.vendor}: "
            f"checked and reported in {checked - started:.2f} s"
        )
    finally:
        teardown_databases(names, verbosity=0)


if __name__ == "__main__":
    main()
