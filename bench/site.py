"""The public site under load: 300,000 players with a year of history, gunicorn, 8 clients.

    python bench/site.py [--players 300000] [--requests 1500] [--reuse]

1. Creates the PostgreSQL database ``federation_bench`` (BENCH_DATABASE_URL, default
   postgres://postgres@127.0.0.1:5432/federation_bench; it is dropped and made anew unless
   --reuse finds it loaded), migrates it and loads, with COPY: clubs, players, a take-on
   period and twelve rated months on each of the three lists (events, entries, games, rating
   history, the rated-game breakdown, and each period's list snapshot).
2. Serves the site with gunicorn, 2 workers, on 127.0.0.1 with production settings
   (DEBUG off, collected static files).
3. Drives it with 8 concurrent clients (threads, one request at a time each, a bounded number
   of requests) and prints p50/p95/p99 for the list page, the player page and the search.
Targets: list and player page p95 under 50 ms, search p95 under 100 ms.
"""

import argparse
import datetime
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grading.engine.periods import Month  # noqa: E402
from grading.engine.tables import d_offset_tenths_array  # noqa: E402

DATABASE = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/federation_bench")
LISTS = [  # code, share of players on it, share of those who play in a month, games each
    ("otb-standard", 1.0, 0.20, 4),
    ("otb-rapid", 0.5, 0.10, 6),
    ("online", 0.3, 0.10, 6),
]
EVENT_SIZE = 40
TARGETS = {"list page": 50, "player page": 50, "search": 100}
SYLLABLES = ("Ab Bar Car Dun Ed Fal Gar Hal Ing Jar Kel Lan Mor Nor Or Pen Quin Ros Sal Tur Up Val War "
             "Yar Zel Ash Brom Crag Dal Elm Fen Glen").split()
MIDDLES = ["", "ble", "den", "ing", "ton", "ley", "ford", "wick", "more", "son", "ridge", "worth"]
ENDINGS = ["", "s", "er", "ham"]
FORENAMES = ("Adam Brian Callum David Ewan Farhan George Harry Ivan Jack Kieran Liam Mohammed Niall Oscar "
             "Piotr Rhys Sam Tomas Wei Alice Beth Chloe Dana Eilidh Fatima Grace Hannah Isla Jasmine Katya "
             "Lucy Maya Niamh Olivia Priya Ruth Sofia Zofia Ana").split()


def log(message):
    print(message, flush=True)


# --- 1. The data -------------------------------------------------------------------------


def database(name=None):
    """A psycopg connection to the bench database (or ``name`` on the same server)."""
    url = DATABASE if name is None else DATABASE.rsplit("/", 1)[0] + "/" + name
    return psycopg.connect(url, autocommit=True)


def loaded(players):
    try:
        with database() as conn:
            return conn.execute("SELECT count(*) FROM players_player").fetchone()[0] == players
    except psycopg.Error:
        return False


def create_and_migrate():
    name = DATABASE.rsplit("/", 1)[1]
    with database("postgres") as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=site_env(), check=True)


def copy(conn, table, columns, rows):
    with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as out:
        for row in rows:
            out.write_row(row)


def load(players, seed=2026):
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    latest = Month.of(datetime.date.today()) - 1
    first = latest - 12
    with database() as conn:
        # The rows are consistent by construction: skip the foreign-key triggers while loading,
        # and build the secondary indexes once at the end rather than row by row.
        conn.execute("SET session_replication_role = replica")
        indexes = drop_indexes(conn)
        clubs = max(50, players // 200)
        copy(conn, "players_club", ["id", "code", "name", "county"],
             ((n + 1, f"B{n:05d}", f"{SYLLABLES[n % 32]}{MIDDLES[n % 12]} {n}", "Benchshire") for n in range(clubs)))
        people = make_players(rng, players, clubs)
        copy(conn, "players_player", ["id", "code", "surname", "forenames", "birth_date", "sex", "nationality",
                                      "fide_title", "club_id"], people)
        log(f"  {players:,} players in {clubs:,} clubs: {time.perf_counter() - started:.0f} s")
        club_of = np.array([0] + [row[8] for row in people], dtype=np.int64)
        ids = Ids()
        for code, share, plays, games in LISTS:
            load_list(conn, rng, ids, code, share, plays, games, players, club_of, first, latest)
            log(f"  {code}: {time.perf_counter() - started:.0f} s")
        for table in ("players_club", "players_player", "grading_ratingperiod", "grading_ratingrun",
                      "grading_playerrating", "events_event", "events_entry", "events_game"):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        conn.execute("SET session_replication_role = DEFAULT")
        for statement in indexes:
            conn.execute(statement)
        log(f"  indexes built: {time.perf_counter() - started:.0f} s")
        conn.execute("VACUUM ANALYZE")
    log(f"  loaded and analysed in {time.perf_counter() - started:.0f} s")


BULK_TABLES = ("players_player", "grading_playerrating", "grading_listentry", "grading_ratedgame", "events_event",
               "events_entry", "events_game")


def drop_indexes(conn):
    """Drop the bulk tables' secondary indexes and unique constraints; returns the statements
    that make them again."""
    again = []
    constraints = conn.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE contype = 'u' AND conrelid::regclass::text = ANY(%s)", [list(BULK_TABLES)]).fetchall()
    for table, name, definition in constraints:
        conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        again.append(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    indexes = conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) AND indexname NOT IN "
        "(SELECT conname FROM pg_constraint WHERE contype = 'p')", [list(BULK_TABLES)]).fetchall()
    for name, definition in indexes:
        conn.execute(f'DROP INDEX "{name}"')
        again.append(definition)
    return again


def make_players(rng, count, clubs):
    surnames = [f"{a}{m}{e}".capitalize() for a in SYLLABLES for m in MIDDLES for e in ENDINGS]
    weights = 1 / np.arange(1, len(surnames) + 1) ** 0.7
    surname = rng.choice(len(surnames), count, p=weights / weights.sum())
    junior = rng.random(count) < 0.2
    age = np.where(junior, rng.integers(6, 18, count), rng.integers(18, 90, count))
    today = datetime.date.today()
    rows = []
    for n in range(count):
        female = n % 6 == 0
        born = today - datetime.timedelta(days=int(age[n]) * 365 + n % 360)
        rows.append((n + 1, f"{100000 + n:06d}{'ABCDEFGHJKL'[n % 11]}", surnames[surname[n]],
                     FORENAMES[20 + n % 20 if female else n % 20], born, "F" if female else "M", "ENG", "",
                     int(rng.integers(1, clubs + 1))))
    return rows


class Ids:
    """Primary keys handed out here, so that rows can point at each other before COPY."""

    def __init__(self):
        self.next = {}

    def take(self, table, count):
        start = self.next.get(table, 1)
        self.next[table] = start + count
        return np.arange(start, start + count, dtype=np.int64)


def load_list(conn, rng, ids, code, share, plays, games_each, players, club_of, first, latest):
    list_id = conn.execute("SELECT id FROM grading_ratinglist WHERE code = %s", [code]).fetchone()[0]
    members = np.sort(rng.choice(np.arange(1, players + 1), int(players * share), replace=False))
    size = len(members)
    rating = np.clip(rng.normal(1550, 330, size), 100, 2750).astype(np.int64)
    full = rng.random(size) < 0.9
    games = np.where(full, rng.integers(10, 400, size), rng.integers(1, 10, size))
    last_played = first.index - rng.choice([0, 0, 0, 1, 2, 5, 11, 20, 30], size)
    month = first
    while month <= latest:
        period_id, run_id = publish_period(conn, ids, list_id, month, latest)
        now = datetime.datetime.now(datetime.UTC)
        if month == first:
            rows = ids.take("grading_playerrating", size)
            copy(conn, "grading_playerrating", RATING_COLUMNS, (
                (int(rows[i]), int(members[i]), list_id, period_id, str(month), run_id, now, int(rating[i]),
                 "full" if full[i] else "partial", int(games[i]), int(games[i]) * int(rating[i]),
                 int(games[i]) // 2, str(Month.from_index(int(last_played[i]))), "imported", "import",
                 None, None, None, None, None)
                for i in range(size)))
        else:
            play_month(conn, rng, ids, code, list_id, period_id, run_id, month, members, rating, full, games,
                       last_played, plays, games_each, club_of, now)
        active = np.flatnonzero(last_played >= month.index - 36)
        copy(conn, "grading_listentry", ["period_id", "revision", "player_id", "rating", "type", "category",
                                         "games", "last_played", "club_id"], (
            (period_id, 0, int(members[i]), int(rating[i]), "full" if full[i] else "partial",
             "full" if full[i] else "partial", int(games[i]), str(Month.from_index(int(last_played[i]))),
             int(club_of[members[i]]))
            for i in active))
        month += 1


RATING_COLUMNS = ["id", "player_id", "rating_list_id", "period_id", "month", "run_id", "published_at", "rating", "type", "games",
                  "opponents_total", "points", "last_played", "category", "method", "prior_rating", "dummy_rating",
                  "pass1", "pass2", "k_factor"]


def publish_period(conn, ids, list_id, month, latest):
    now = datetime.datetime.now(datetime.UTC)
    period_id = int(ids.take("grading_ratingperiod", 1)[0])
    run_id = int(ids.take("grading_ratingrun", 1)[0])
    conn.execute("INSERT INTO grading_ratingperiod (id, rating_list_id, month, rule_set, status, published_at, "
                 "adjustment_a, adjustment_b, revision) VALUES (%s, %s, %s, 'ecf-2024', 'published', %s, 0, 0, 0)",
                 [period_id, list_id, str(month), now])
    conn.execute("INSERT INTO grading_ratingrun (id, period_id, trigger, started_at, finished_at, outcome, revision, "
                 "task_id, progress, games, players_rated, message) VALUES (%s, %s, 'bench', %s, %s, 'succeeded', 0, "
                 "'', '', 0, 0, '')", [run_id, period_id, now, now])
    return period_id, run_id


def play_month(conn, rng, ids, code, list_id, period_id, run_id, month, members, rating, full, games, last_played,
               plays, games_each, club_of, now):
    """Events of EVENT_SIZE players, ``games_each`` rounds of random pairings, and the ratings
    they give (a K-style update for everyone: plausible numbers, not the engine's)."""
    playing = rng.permutation(np.flatnonzero(rng.random(len(members)) < plays))
    playing = playing[: len(playing) - len(playing) % EVENT_SIZE]
    events = len(playing) // EVENT_SIZE
    event_ids = ids.take("events_event", events)
    day = month.first_day()
    copy(conn, "events_event", ["id", "code", "name", "kind", "rating_list_id", "start_date", "end_date",
                                "time_control", "online", "organiser", "status", "sent_back_reason",
                                "submission_index", "list_overridden"], (
        (int(event), f"B-{code}-{month}-{k}", f"Bench {code} {month} event {k}", "swiss", list_id, day,
         day + datetime.timedelta(days=1), "", code == "online", "", "rated", "", 1, False)
        for k, event in enumerate(event_ids)))
    entry_ids = ids.take("events_entry", len(playing))
    player_of = members[playing]
    copy(conn, "events_entry", ["id", "event_id", "pin", "surname", "forenames", "code", "player_id", "match",
                                "club_name", "title", "sex"], (
        (int(entry_ids[i]), int(event_ids[i // EVENT_SIZE]), i % EVENT_SIZE + 1, "", "", "", int(player_of[i]),
         "code", "", "", "") for i in range(len(playing))))
    # Pairings: within each event, shuffle and pair neighbours, once per round.
    seats = np.arange(len(playing)).reshape(events, EVENT_SIZE)
    white, black, rounds = [], [], []
    for round_number in range(1, games_each + 1):
        shuffled = rng.permuted(seats, axis=1).reshape(-1, 2)
        white.append(shuffled[:, 0])
        black.append(shuffled[:, 1])
        rounds.append(np.full(len(shuffled), round_number))
    white, black, rounds = np.concatenate(white), np.concatenate(black), np.concatenate(rounds)
    old = rating[playing]
    expected = 1 / (1 + 10 ** ((old[black] - old[white]) / 400))
    roll = rng.random(len(white))
    halves = np.where(roll < expected - 0.12, 2, np.where(roll < expected + 0.12, 1, 0))
    game_ids = ids.take("events_game", len(white))
    results = np.array(["0-1", "1/2-1/2", "1-0"])[halves]
    copy(conn, "events_game", ["id", "event_id", "round", "board", "date", "white_entry_id", "black_entry_id",
                               "white_id", "black_id", "result", "rated", "unrated_reason"], (
        (int(game_ids[g]), int(event_ids[white[g] // EVENT_SIZE]), int(rounds[g]), g % (EVENT_SIZE // 2) + 1, day,
         int(entry_ids[white[g]]), int(entry_ids[black[g]]), int(player_of[white[g]]), int(player_of[black[g]]),
         results[g], True, "") for g in range(len(white))))
    # Each side's increment: (D offset + S offset) x 20 / 20, in tenths.
    side_player = np.concatenate([white, black])
    side_opponent = np.concatenate([black, white])
    side_halves = np.concatenate([halves, 2 - halves])
    tenths = d_offset_tenths_array(old[side_opponent] - old[side_player]) + (side_halves - 1) * 100
    change = np.zeros(len(playing), dtype=np.int64)
    np.add.at(change, side_player, tenths)
    new = np.maximum(100, old + np.floor_divide(change + 5, 10))
    rating_ids = ids.take("grading_playerrating", len(playing))
    copy(conn, "grading_playerrating", RATING_COLUMNS, (
        (int(rating_ids[i]), int(player_of[i]), list_id, period_id, str(month), run_id, now, int(new[i]), "full",
         int(games[playing[i]]) + games_each, (int(games[playing[i]]) + games_each) * int(new[i]),
         (int(games[playing[i]]) + games_each) // 2, str(month), "full" if full[playing[i]] else "partial", "K",
         int(old[i]), None, None, None, 20) for i in range(len(playing))))
    copy(conn, "grading_ratedgame", ["rating_id", "game_id", "opponent_id", "colour", "score", "opponent_rating",
                                     "opponent_type", "increment"], (
        (int(rating_ids[side_player[s]]), int(game_ids[s % len(white)]), int(player_of[side_opponent[s]]),
         "w" if s < len(white) else "b", int(side_halves[s]) / 2, int(old[side_opponent[s]]), "full",
         int(tenths[s]) / 10) for s in range(len(side_player))))
    rating[playing] = new
    full[playing] = True
    games[playing] += games_each
    last_played[playing] = month.index


# --- 2. The server -----------------------------------------------------------------------


def site_env(static_root=None):
    env = dict(os.environ, DATABASE_URL=DATABASE, SECRET_KEY="bench-only-secret-key-" + "x" * 30, DEBUG="false",
               ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="false", SECURE_COOKIES="false",
               SECURE_HSTS_SECONDS="0", DATABASE_CONN_MAX_AGE="600", LOG_LEVEL="WARNING")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    if static_root:
        env["STATIC_ROOT"] = str(static_root)
    return env


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_gunicorn(static_root):
    env = site_env(static_root)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    server = subprocess.Popen([gunicorn, "config.wsgi:application", "--workers", "2", "--bind", f"127.0.0.1:{port}",
                               "--log-level", "warning"], cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if fetch(port, "/")[0] == 200:
                return server, port
        except OSError:
            time.sleep(0.3)
    stop(server)
    raise SystemExit("gunicorn did not start within a minute")


def stop(server):
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


# --- 3. The clients ----------------------------------------------------------------------


def fetch(port, path):
    """One GET over a fresh connection (gunicorn's sync workers close it after each response),
    with as little client work as possible: the clients share the machine with the server."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    response = b"".join(chunks)
    return int(response[9:12]), response


def drive(port, paths, clients=8, seconds=120):
    """Request every path once, ``clients`` at a time; returns the latencies in ms and errors."""
    queue = list(paths)
    lock = threading.Lock()
    latencies, errors = [], []
    deadline = time.monotonic() + seconds

    def client():
        while time.monotonic() < deadline:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            started = time.perf_counter()
            try:
                status, _ = fetch(port, path)
            except OSError as error:
                status = str(error)
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                (latencies if status == 200 else errors).append(elapsed if status == 200 else (path, status))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors, time.perf_counter() - started


def workloads(rng, count):
    """The paths each measured page is asked for: random pages, players and names."""
    with database() as conn:
        sample = conn.execute(
            "SELECT DISTINCT p.code, p.surname, p.forenames FROM grading_playerrating r "
            "JOIN players_player p ON p.id = r.player_id WHERE r.method = 'K' AND r.id % 97 = 0 LIMIT 2000"
        ).fetchall()
    searches = []
    for code, surname, forenames in sample:
        typo = surname[:2] + surname[3] + surname[2] + surname[4:] if len(surname) > 4 else surname
        searches += [f"{surname} {forenames}", f"{forenames} {surname}", surname[:5], f"{typo} {forenames[:3]}"]
    quote = lambda text: text.replace(" ", "+")
    return {
        "list page": [f"/lists/otb-standard/?page={rng.randint(1, 20)}" for _ in range(count)],
        "player page": [f"/players/{rng.choice(sample)[0]}/" for _ in range(count)],
        "search": [f"/players/?q={quote(rng.choice(searches))}" for _ in range(count)],
        "list page, one club": [f"/lists/otb-standard/?club=B{rng.randint(0, 1400):05d}" for _ in range(count // 3)],
    }


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=300_000)
    parser.add_argument("--requests", type=int, default=1500, help="per page measured")
    parser.add_argument("--reuse", action="store_true", help="keep a database already loaded with --players")
    options = parser.parse_args()

    if not (options.reuse and loaded(options.players)):
        log(f"Loading {options.players:,} players with a year of history into {DATABASE.rsplit('@', 1)[-1]}")
        create_and_migrate()
        load(options.players)
    with database() as conn:
        counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in (
            "players_player", "grading_playerrating", "grading_listentry", "grading_ratedgame", "events_game")}
    log("Rows: " + ", ".join(f"{table.split('_', 1)[1]} {count:,}" for table, count in counts.items()))

    static_root = Path(tempfile.mkdtemp(prefix="bench-static-"))
    server, port = start_gunicorn(static_root)
    try:
        rng = random.Random(7)
        work = workloads(rng, options.requests)
        for paths in work.values():  # warm up: imports, templates, connections, cached list sizes
            drive(port, paths[:60])
        log(f"gunicorn, 2 workers, 127.0.0.1:{port}; 8 concurrent clients; {options.requests} requests a page")
        log(f"{'page':<22}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'req/s':>8}  target")
        for name, paths in work.items():
            latencies, errors, elapsed = drive(port, paths)
            if errors:
                log(f"{name}: {len(errors)} errors, e.g. {errors[:3]}")
            target = TARGETS.get(name)
            p95 = percentile(latencies, 0.95)
            verdict = f"p95 < {target} ms: {'met' if p95 < target else 'MISSED'}" if target else "(for information)"
            log(f"{name:<22}{statistics.median(latencies):>8.1f}{p95:>8.1f}{percentile(latencies, 0.99):>8.1f}"
                f"{len(latencies) / elapsed:>8.0f}  {verdict}")
    finally:
        stop(server)
        shutil.rmtree(static_root, ignore_errors=True)


if __name__ == "__main__":
    main()
