"""The bench's PostgreSQL databases: connecting, creating and migrating one, the environment of a
process of the site on it, warming its cache, and loading with COPY (indexes and triggers off
while the rows go in)."""

import os
import subprocess
import sys
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]

BULK_TABLES = (
    "players_player",
    "grading_playerrating",
    "grading_listentry",
    "events_event",
    "events_entry",
    "events_game",
)
SEQUENCES = (
    "players_club",
    "players_player",
    "grading_ratingperiod",
    "grading_ratingrun",
    "grading_playerrating",
    "events_event",
    "events_entry",
    "events_game",
)


def log(message):
    print(message, flush=True)


def connect(url, name=None):
    """An autocommit connection to the database of ``url`` (or to ``name`` on the same server)."""
    if name is not None:
        url = url.rsplit("/", 1)[0] + "/" + name
    return psycopg.connect(url, autocommit=True)


def django_env(url, **extra):
    """The environment of a manage.py or gunicorn process on the bench database."""
    env = dict(
        os.environ,
        DATABASE_URL=url,
        SECRET_KEY="bench-only-secret-key-" + "x" * 30,
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        SECURE_HSTS_SECONDS="0",
        LOG_LEVEL="WARNING",
        **extra,
    )
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("REDIS_URL", None)
    return env


def warm(url):
    """Read every table and index of the database once, through the operating system's file
    cache (pg_prewarm, mode "read"): a federation's database of a few GB is in memory on a
    server that has run for an hour, and a bench of a freshly loaded one would time the disk.
    Returns the MB read, or None where the server lacks pg_prewarm (the bench then runs cold)."""
    with connect(url) as conn:
        # A streaming replica has the primary's extension and can make none (it is read only).
        if not conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm'").fetchone():
            try:
                conn.execute("CREATE EXTENSION pg_prewarm")
            except psycopg.Error:
                return None
        blocks = conn.execute(
            "SELECT coalesce(sum(pg_prewarm(c.oid, 'read')), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 'm')"
        ).fetchone()[0]
        return int(blocks) * 8192 // 2**20


def count_players(url):
    """Players in the bench database, or None if it is not there or not migrated."""
    try:
        with connect(url) as conn:
            return conn.execute("SELECT count(*) FROM players_player").fetchone()[0]
    except psycopg.Error:
        return None


def create_and_migrate(url):
    name = url.rsplit("/", 1)[1]
    with connect(url, "postgres") as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    migrate(url)


def migrate(url):
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=django_env(url), check=True)


def copy(conn, table, columns, rows):
    with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as out:
        for row in rows:
            out.write_row(row)


class bulk_loading:
    """Foreign-key triggers off and secondary indexes dropped while loading; then the sequences
    moved past the ids handed out, the indexes built once, and the statistics gathered."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        # The rows are consistent by construction.
        self.conn.execute("SET session_replication_role = replica")
        self.again = drop_indexes(self.conn)

    def __exit__(self, *exc):
        if exc[0] is not None:
            return
        for table in SEQUENCES:
            self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
            )
        self.conn.execute("SET session_replication_role = DEFAULT")
        for statement in self.again:
            self.conn.execute(statement)
        self.conn.execute("VACUUM ANALYZE")


def drop_indexes(conn):
    """Drop the bulk tables' secondary indexes and unique constraints; returns the statements
    that make them again."""
    again = []
    constraints = conn.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE contype = 'u' AND conrelid::regclass::text = ANY(%s)",
        [list(BULK_TABLES)],
    ).fetchall()
    for table, name, definition in constraints:
        conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        again.append(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    indexes = conn.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) AND indexname NOT IN "
        "(SELECT conname FROM pg_constraint WHERE contype = 'p')",
        [list(BULK_TABLES)],
    ).fetchall()
    for name, definition in indexes:
        conn.execute(f'DROP INDEX "{name}"')
        again.append(definition)
    return again
