"""The e-mail alerts at scale: a FIDE-sized publication mailed to 100,000 followers by one worker.

    python bench/alerts.py [--size fide|ecf] [--followers 100000] [--reuse]

The monthly run's bench federation (bench/monthly_run.py: for fide, 300,000 players and
1,000,000 games in the month to rate; made, or with --reuse reused) is rated for its month, so
that each list's run publishes. Then ``--followers`` addresses are loaded with COPY, each
following 1 to 30 of the players the OTB standard run rated (most follow a few: a parent, a
club's captain), one in ten also a club, one in twenty the list itself, all confirmed. A real
SMTP server (aiosmtpd, which accepts and drops every message) listens on a local port, and one
process (what a worker runs: alerts.mailing.mail_publication) mails the OTB standard run's
followers, one mail each, in batches over one connection, recording each delivery. Prints the
time to work out who gets what, the time to mail them, the mails sent and the rate (target:
under 10 minutes in all).
"""

import argparse
import datetime
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import databases
import monthly_run
import numpy as np
from databases import connect, log

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tests.mail_server import SMTPServer  # noqa: E402 (the tests' SMTP server, dropping what it gets)

TARGET_SECONDS = 600
FOLLOWER_LIST = "otb-standard"


def add_followers(url, count, seed=2026) -> int:
    """``count`` confirmed followers of players (and some of clubs and the list) the OTB standard
    run of the month rated; any loaded before are dropped. Returns the follows loaded."""
    rng = np.random.default_rng(seed)
    month = str(monthly_run.month_to_rate())
    with connect(url) as conn:
        for table in ("alerts_delivery", "alerts_mailing", "alerts_follow", "alerts_follower"):
            conn.execute(f"DELETE FROM {table}")
        list_id = conn.execute("SELECT id FROM grading_ratinglist WHERE code = %s", [FOLLOWER_LIST]).fetchone()[0]
        rated = np.array(
            [
                row[0]
                for row in conn.execute(
                    "SELECT player_id FROM grading_playerrating WHERE rating_list_id = %s AND month = %s "
                    "AND superseded_at IS NULL",
                    [list_id, month],
                )
            ]
        )
        clubs = np.array([row[0] for row in conn.execute("SELECT id FROM players_club")])
        # Following since before the run: a mailing's followers are those of its publication's time.
        now = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
        first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM alerts_follower").fetchone()[0]
        ids = np.arange(first, first + count)
        databases.copy(
            conn,
            "alerts_follower",
            ["id", "email", "key", "created_at", "unanswered"],
            ((int(pk), f"follower{pk}@bench.example", f"bench-key-{pk}", now, 0) for pk in ids),
        )
        # Most follow a few players, some many: 1 + a geometric count, at most 30.
        sizes = np.minimum(rng.geometric(0.3, count), 30)
        follows = []
        for pk, size in zip(ids, sizes):
            for player in set(rng.choice(rated, size).tolist()):
                follows.append((int(pk), "player", player, None, None, now, now))
        for pk in ids[rng.random(count) < 0.1]:
            follows.append((int(pk), "club", None, int(rng.choice(clubs)), None, now, now))
        for pk in ids[rng.random(count) < 0.05]:
            follows.append((int(pk), "list", None, None, list_id, now, now))
        columns = ["follower_id", "kind", "player_id", "club_id", "rating_list_id", "created_at", "confirmed_at"]
        databases.copy(conn, "alerts_follow", columns, follows)
        next_id = "(SELECT max(id) + 1 FROM alerts_follower)"
        conn.execute(f"SELECT setval(pg_get_serial_sequence('alerts_follower', 'id'), {next_id}, false)")
        conn.execute("VACUUM ANALYZE alerts_follower")
        conn.execute("VACUUM ANALYZE alerts_follow")
    return len(follows)


def mail(url, port):
    """In this process, as one worker: the OTB standard run's followers mailed, timed."""
    os.environ.update(
        databases.django_env(url, EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(port)),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    import django

    django.setup()
    from alerts import mailing
    from grading.models import RatingRun
    from grading.run.runs import republished_months

    run = (
        RatingRun.objects.filter(period__rating_list__code=FOLLOWER_LIST, outcome="succeeded")
        .exclude(trigger="import")
        .select_related("period__rating_list")
        .latest("pk")
    )
    months = republished_months(run)
    started = time.perf_counter()
    publication = mailing.publication_of(run, months)
    worked_out = time.perf_counter() - started
    letters = sum(1 for _ in publication.by_follower)
    started = time.perf_counter()
    result = mailing.mail_publication(run, months)
    sent = time.perf_counter() - started
    print(f"result {worked_out} {sent} {letters} {result.sent}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=list(monthly_run.SIZES), default="fide")
    parser.add_argument("--followers", type=int, default=100_000)
    parser.add_argument("--reuse", action="store_true", help="use the bench federation already loaded and rated")
    parser.add_argument("--mail", help=argparse.SUPPRESS)  # internal: mail on this database
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.mail:
        mail(options.mail, options.port)
        return

    url = monthly_run.database(options.size)
    rated = options.reuse and databases.count_players(url) == monthly_run.SIZES[options.size][0]
    if rated:
        databases.migrate(url)
    else:
        url = monthly_run.prepare(options.size, history=1, reuse=False)
        monthly_run.rate_in_child(url, options.size, "ecf")
    started = time.perf_counter()
    follows = add_followers(url, options.followers)
    log(f"\n{options.followers:,} followers, {follows:,} follows loaded in {time.perf_counter() - started:.1f} s")
    server = SMTPServer(pathlib.Path(tempfile.gettempdir()), keep=False)
    server.start()
    try:
        child = subprocess.run(
            [sys.executable, __file__, "--mail", url, "--port", str(server.port)], capture_output=True, text=True
        )
    finally:
        server.stop()
    if child.returncode:
        sys.stderr.write(child.stderr)
        raise SystemExit(child.returncode)
    worked_out, seconds, letters, sent = (float(value) for value in child.stdout.split()[-4:])
    verdict = "met" if seconds < TARGET_SECONDS else "MISSED"
    log(
        f"{options.size}: {int(sent):,} mails to {int(letters):,} followers in {seconds:.1f} s "
        f"({sent / seconds:,.0f} a second; who gets what, worked out first, {worked_out:.1f} s of it), one process, "
        f"one SMTP connection (target {TARGET_SECONDS} s: {verdict})"
    )


if __name__ == "__main__":
    main()
