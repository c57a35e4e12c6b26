"""The monthly run at scale: read, rate, write and publish one month on all three lists.

    python bench/monthly_run.py [--size ecf|fide|both] [--method ecf|elo|elo-2024|both|elos] [--history 12] [--reuse]
                                [--workers N]

For each size, a PostgreSQL database of its own (``federation_bench_run_SIZE`` on the server of
BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/) is made and loaded with COPY
(bench/federation.py): the players, a take-on period and ``--history`` rated months on each
list, then the month just ended with approved events not yet rated (half the games on OTB
standard, 30% rapid, 20% online; 3% of the players new to the list). Every event is one of 40
players at its list's time control (90+30 on OTB standard, 15+10 rapid, 10+5 online), a round
a day from the month's first day (4 rounds on OTB standard, 6 on the others), so that FIDE's
event conditions, which an Elo list applies, rate its games. Then the month is rated
as ``manage.py rate_period`` does, list by list, in process (no broker), timed from the start
to the commit, with each stage's time from the run's log. The "after" column is what the run
asked for on commit and Celery, without a broker, ran in this process before returning (the live
ratings of the lists: a worker's task in production), not counted in the total.

Sizes: ecf, 15,000 players and 30,000 games (target 10 s); fide, 300,000 players and
1,000,000 games (target 120 s). --reuse rates the month again in a database already loaded
(its earlier result is deleted first).

Methods: ecf rates the month by each list's own rule set (ecf-2024), as the history was; elo
changes every list to the Elo method from the month rated (a RuleSetChange made through
grading.rule_set_changes, as staff would in the admin; not timed): fide-2017 on otb-standard,
fide-2017-rapid on otb-rapid and online. The Elo run reads the ECF history through the
documented conversion (grading.engine.method_change.states_for_method). elo-2024 does the same
with FIDE's rules of 2024 (docs/rules.md part 5): fide-2025 (as amended in October 2025) on
otb-standard, fide-2024-rapid on otb-rapid and online. Each run undoes or makes the change it
needs, so one database serves all; both rates the month by ecf and elo in turn, elos by elo and
elo-2024, and prints the two totals and their ratio.

Workers: --workers N rates the month again through N real Celery worker processes (concurrency
1 each) on the Redis of BENCH_REDIS_URL (default redis://127.0.0.1:6379/12, emptied first), every
list queued at once as the monthly schedule does, and prints when each list committed and the
wall time beside the largest list's time in process.
"""

import argparse
import datetime
import logging
import os
import sys
import time

import databases
import federation
from databases import connect, log

from chess.months import Month

SERVER = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/").rsplit("/", 1)[0]
SIZES = {"ecf": (15_000, 30_000, 10), "fide": (300_000, 1_000_000, 120)}  # players, games, target s
SHARES = {"otb-standard": 0.5, "otb-rapid": 0.3, "online": 0.2}
METHODS = ("ecf", "elo", "elo-2024")
PAIRS = {"both": ("ecf", "elo"), "elos": ("elo", "elo-2024")}  # two methods in turn, and their ratio
ELO_RULE_SETS = {
    "elo": {"otb-standard": "fide-2017", "otb-rapid": "fide-2017-rapid", "online": "fide-2017-rapid"},
    "elo-2024": {"otb-standard": "fide-2025", "otb-rapid": "fide-2024-rapid", "online": "fide-2024-rapid"},
}


def database(size):
    return f"{SERVER}/federation_bench_run_{size}"


def month_to_rate():
    return Month.of(datetime.date.today()) - 1


def prepare(size, history, reuse):
    url = database(size)
    players, games, _ = SIZES[size]
    month = month_to_rate()
    if reuse and databases.count_players(url) == players:
        databases.migrate(url)  # the code may have moved on since the load
        forget_the_run(url, month)
        return url
    log(
        f"Loading {players:,} players, {history} months of history and {games:,} games to rate "
        f"into {url.rsplit('/', 1)[1]}"
    )
    databases.create_and_migrate(url)
    loaded = federation.load(url, players, first=month - history - 1, last=month - 1)
    written = federation.add_month_to_rate(
        url, loaded, month, {code: int(games * share) for code, share in SHARES.items()}
    )
    log(f"  {month} to rate: " + ", ".join(f"{code} {count:,} games" for code, count in written.items()))
    return url


def forget_the_run(url, month):
    """Undo an earlier bench run of ``month``: its ratings, list and runs; its events approved again."""
    with connect(url) as conn:
        periods = "SELECT id FROM grading_ratingperiod WHERE month = %s"
        runs = f"SELECT id FROM grading_ratingrun WHERE period_id IN ({periods})"
        conn.execute(f"DELETE FROM grading_ratingrun_events WHERE ratingrun_id IN ({runs})", [str(month)])
        conn.execute(f"DELETE FROM grading_gamenotrated WHERE run_id IN ({runs})", [str(month)])
        for table in ("grading_playerrating", "grading_listentry", "grading_ratingrun"):
            conn.execute(f"DELETE FROM {table} WHERE period_id IN ({periods})", [str(month)])
        # The live ratings a run asks for refer to the period: computed again from the next run.
        for table in ("grading_liveentry", "grading_liverating", "grading_livegamenotrated", "grading_livelist"):
            conn.execute(f"DELETE FROM {table}")
        conn.execute("DELETE FROM events_eventchange WHERE note = %s", [f"rated in {month}"])
        conn.execute("DELETE FROM grading_ratingperiod WHERE month = %s", [str(month)])
        conn.execute("UPDATE events_event SET status = 'approved' WHERE start_date >= %s", [month.first_day()])
        conn.execute("VACUUM ANALYZE")


class Stages(logging.Handler):
    """Collects the run's log lines (grading.run.runs) with the time each arrived."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append((time.perf_counter(), record.args[-1]))

    def seconds(self, started):
        """Seconds spent in each kind of stage: from its line to the next (the first from ``started``)."""
        times = [started] + [at for at, _ in self.lines]
        spans = {}
        for (at, stage), end in zip(self.lines, times[2:]):
            kind = stage_kind(stage)
            spans[kind] = spans.get(kind, 0) + end - at
        spans["start"] = times[1] - started if len(times) > 1 else 0
        return spans

    def committed(self, started):
        """Seconds from ``started`` to the run's commit (its "committed" line)."""
        return next(at for at, stage in reversed(self.lines) if stage_kind(stage) == "end") - started


def stage_kind(stage):
    """The column of a stage line: "2026-10: rating 15040 games" is "rate"."""
    words = stage.split(": ", 1)[-1].split()
    return {"reading": "read", "rating": "rate", "writing": "write", "committed": "end"}.get(words[0], "other")


def use_method(method, month):
    """Rate every list by ``method`` from ``month`` on: the Elo rule set changed to from that
    month, or the list's own (ECF) rule set with such a change undone; through
    grading.rule_set_changes, as staff would in the admin."""
    from grading.models import RatingList, RuleSetChange
    from grading.rule_set_changes import do_cancel_rule_set_change, do_change_rule_set

    for rating_list in RatingList.objects.order_by("display_order"):
        wanted = ELO_RULE_SETS[method][rating_list.code] if method in ELO_RULE_SETS else rating_list.rule_set
        change = RuleSetChange.objects.filter(rating_list=rating_list, month=str(month)).first()
        if change and change.rule_set != wanted:
            do_cancel_rule_set_change(change, acting_user=None)
        if rating_list.rule_set_for(str(month)) != wanted:
            do_change_rule_set(rating_list, month, wanted, acting_user=None)


def rate(url, method):
    """Rate the month on every list in this process, as ``rate_period`` does without a broker."""
    os.environ.update(databases.django_env(url), DJANGO_SETTINGS_MODULE="config.settings")
    import django

    django.setup()
    from grading.models import RatingList, RatingRun
    from grading.run.runs import do_start_rating

    use_method(method, month_to_rate())
    stages = Stages()
    logging.getLogger("grading.run.runs").addHandler(stages)
    logging.getLogger("grading.run.runs").setLevel(logging.INFO)
    columns = ["start", "read", "rate", "write"]
    log(
        f"{'list':<14}{'rule set':<17}{'games':>10}{'rated':>9}"
        + "".join(f"{name:>7}" for name in columns)
        + f"{'finish':>7}{'total s':>9}{'after':>7}"
    )
    total, runs, elapsed_by_list = 0.0, [], []
    for rating_list in RatingList.objects.order_by("display_order"):
        stages.lines.clear()
        started = time.perf_counter()
        run = do_start_rating(rating_list, month_to_rate(), trigger="bench")  # in process: done on return
        returned = time.perf_counter() - started
        run.refresh_from_db()
        if run.outcome != RatingRun.Outcome.SUCCEEDED:
            raise SystemExit(f"{rating_list.code}: {run.outcome}: {run.message}")
        spans = stages.seconds(started)
        # The run is done at its commit. What follows it here (the live ratings of the lists
        # that read this one, asked for on commit) is a worker's task in production: without a
        # broker Celery runs it in this process before do_start_rating returns.
        elapsed = stages.committed(started)
        total += elapsed
        elapsed_by_list.append(elapsed)
        runs.append(run)
        log(
            f"{rating_list.code:<14}{run.period.rule_set:<17}{run.games:>10,}{run.players_rated:>9,}"
            + "".join(f"{spans.get(name, 0):>7.2f}" for name in columns)
            + f"{elapsed - sum(spans.get(name, 0) for name in columns):>7.2f}{elapsed:>9.2f}"
            + f"{returned - elapsed:>7.2f}"
        )
    log(
        f"{'all lists':<31}{sum(r.games for r in runs):>10,}{sum(r.players_rated for r in runs):>9,}"
        f"{'':>35}{total:>9.2f}"
    )
    print(f"result {total} {max(elapsed_by_list)}")


def rate_on_workers(url, method, count):
    """Rate the month on every list through ``count`` real Celery worker processes (one task
    each, concurrency 1) and a Redis broker, as production does: every list queued at once,
    timed from the first queue to the last commit. Prints the wall time and when each list's
    run finished."""
    import subprocess

    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    env = dict(databases.django_env(url), REDIS_URL=redis_url, DJANGO_SETTINGS_MODULE="config.settings")
    os.environ.update(env)
    import django

    django.setup()
    import redis
    from celery import current_app

    from config.celery import worker_command
    from grading.models import RatingList, RatingRun
    from grading.run.runs import do_start_rating

    use_method(method, month_to_rate())
    redis.Redis.from_url(redis_url).flushdb()  # no message of an earlier bench is left to deliver
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    workers = [
        subprocess.Popen(
            worker_command(f"bench-{number}@", loglevel="WARNING"),
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for number in range(count)
    ]
    try:
        deadline = time.monotonic() + 60
        while len(current_app.control.ping(timeout=0.5)) < count:
            if time.monotonic() > deadline:
                raise SystemExit(f"{count} workers did not answer within a minute")
        month = month_to_rate()
        runs = RatingRun.objects.filter(period__month=str(month))
        started = time.perf_counter()
        for rating_list in RatingList.objects.order_by("display_order"):
            do_start_rating(rating_list, month, trigger="bench")
        while runs.filter(outcome__in=[RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING]).exists():
            time.sleep(0.02)
        wall = time.perf_counter() - started
        queued = runs.order_by("started_at").first().started_at
        for run in runs.select_related("period__rating_list").order_by("finished_at"):
            if run.outcome != RatingRun.Outcome.SUCCEEDED:
                raise SystemExit(f"{run.period.rating_list.code}: {run.outcome}: {run.message}")
            after = (run.finished_at - queued).total_seconds()
            log(f"  {run.period.rating_list.code:<14}committed {after:6.2f} s after the first list was queued")
        print(f"result {wall}")
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=[*SIZES, "both"], default="both")
    parser.add_argument("--method", choices=[*METHODS, *PAIRS], default="ecf", help="the rating method of the month")
    parser.add_argument("--history", type=int, default=12, help="rated months before the one timed")
    parser.add_argument("--reuse", action="store_true", help="rate again in a database already loaded")
    parser.add_argument(
        "--workers", type=int, default=0, help="also rate the month through this many real Celery workers"
    )
    parser.add_argument("--rate", help=argparse.SUPPRESS)  # internal: time the run on this database
    options = parser.parse_args()
    if options.rate:
        if options.workers:
            rate_on_workers(options.rate, options.method, options.workers)
        else:
            rate(options.rate, options.method)
        return

    methods = PAIRS.get(options.method, [options.method])
    for size in SIZES if options.size == "both" else [options.size]:
        url = prepare(size, options.history, options.reuse)
        target = SIZES[size][2]
        totals, largest = {}, {}
        for method in methods:
            if totals:
                forget_the_run(url, month_to_rate())  # the month again, by the next method
            totals[method], largest[method] = rate_in_child(url, size, method)
            verdict = "met" if totals[method] < target else "MISSED"
            log(f"{size} ({method}): {totals[method]:.1f} s for the whole month (target {target} s: {verdict})")
            read, write = copy_floor(url, month_to_rate())
            log(
                f"{size} ({method}): the floor, COPY of the same data out ({read:.2f} s) and in ({write:.2f} s): "
                f"{read + write:.2f} s; the run took {totals[method] / (read + write):.1f} times that"
            )
        if options.workers:
            for method in methods:
                forget_the_run(url, month_to_rate())
                wall = rate_in_child(url, size, method, options.workers)
                log(
                    f"{size} ({method}): {options.workers} workers, {wall:.1f} s from the first list queued to "
                    f"the last committed; in process the largest list took {largest[method]:.1f} s "
                    f"(wall / largest = {wall / largest[method]:.2f})"
                )
        if len(totals) == 2:
            first, second = methods
            log(
                f"{size}: {first} {totals[first]:.2f} s, {second} {totals[second]:.2f} s: "
                f"{second} / {first} = {totals[second] / totals[first]:.3f}"
            )


def rate_in_child(url, size, method, workers=0):
    """The month rated by ``method`` in a process of its own (Django set up once, on that
    size's database): in process, (the total seconds, the largest list's); through ``workers``
    real workers, the wall time."""
    import subprocess

    players, games, _ = SIZES[size]
    log(
        f"\n{size}, {method} method: {players:,} players, about {games:,} games in {month_to_rate()}; "
        + (
            f"queued at once to {workers} real Celery workers, one list each at a time"
            if workers
            else "rated in process, read + rate + write + publish, committed"
        )
    )
    child = subprocess.run(
        [sys.executable, __file__, "--rate", url, "--method", method, "--workers", str(workers)],
        capture_output=True,
        text=True,
    )
    *shown, result = child.stdout.rstrip().splitlines() or [""]
    sys.stdout.write("".join(line + "\n" for line in shown))
    if child.returncode:
        sys.stderr.write(child.stderr)
        raise SystemExit(child.returncode)
    numbers = [float(value) for value in result.split()[1:]]  # the child's last line: "result ..."
    return numbers[0] if workers else tuple(numbers)


def copy_floor(url, month) -> tuple[float, float]:
    """What PostgreSQL needs to move the run's data, by psql's COPY on the same database, in
    seconds: out, the month's games, every list's prior states (each list's run reads its own
    and, under the ECF rules, OTB standard's and rapid's) and the players; in, the ratings and
    lists the run wrote, into empty copies of their tables with the same indexes, logged as the
    real ones are, committed."""
    import re
    import subprocess
    import tempfile

    first, last = month.first_day(), month.last_day()
    periods = f"SELECT id FROM grading_ratingperiod WHERE month = '{month}'"
    with connect(url) as conn:
        lists = conn.execute("SELECT id, code FROM grading_ratinglist ORDER BY id").fetchall()
    ids = {code: pk for pk, code in lists}
    read_by_ecf = [ids[code] for code in ("otb-standard", "otb-rapid") if code in ids]
    states = (
        "SELECT DISTINCT ON (player_id) player_id, rating, type, games, opponents_total, points, last_played, "
        "category, peak FROM grading_playerrating WHERE rating_list_id = {} AND month < '{}' "
        "AND superseded_at IS NULL ORDER BY player_id, month DESC"
    )
    out = []
    for pk, _ in lists:
        out.append(
            "SELECT g.id, g.white_id, g.black_id, g.result, g.event_id, g.date FROM events_game g "
            f"JOIN events_event e ON e.id = g.event_id WHERE e.rating_list_id = {pk} AND g.rated "
            f"AND g.date BETWEEN '{first}' AND '{last}'"
        )
        out += [states.format(other, month) for other in dict.fromkeys([pk, *read_by_ecf])]
        out.append("SELECT id, birth_date, fide_title FROM players_player")

    def psql(script):
        done = subprocess.run(["psql", "-X", "-q", url], input=script, capture_output=True, text=True, check=True)
        return sum(float(ms) for ms in re.findall(r"Time: ([0-9.]+) ms", done.stdout)) / 1000

    with tempfile.TemporaryDirectory() as folder:
        psql(
            "".join(
                f"\\copy (SELECT * FROM grading_{name} WHERE period_id IN ({periods})) TO '{folder}/{name}' "
                "(FORMAT BINARY)\n"
                for name in ("playerrating", "listentry")
            )
        )
        read = psql("\\timing on\n" + "".join(f"\\copy ({sql}) TO '/dev/null' (FORMAT BINARY)\n" for sql in out))
        # Not temporary tables: those write no WAL, which the run's tables must.
        tables = {"playerrating": "bench_floor_ratings", "listentry": "bench_floor_list"}
        drop = "".join(f"DROP TABLE IF EXISTS {copy};\n" for copy in tables.values())
        try:
            write = psql(
                drop
                + "".join(
                    f"CREATE TABLE {copy} (LIKE grading_{name} INCLUDING ALL);\n" for name, copy in tables.items()
                )
                + "\\timing on\nBEGIN;\n"
                + "".join(f"\\copy {copy} FROM '{folder}/{name}' (FORMAT BINARY)\n" for name, copy in tables.items())
                + "COMMIT;\n"
            )
        finally:
            psql(drop)
    return read, write


if __name__ == "__main__":
    main()
