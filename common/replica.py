"""Reading from a streaming replica of the database (docs/database-replica.md).

With DATABASE_REPLICA_URL set, the database alias ``replica`` is a hot standby of ``default``.
The middleware ``ReplicaReads`` lets a request read it when it is a safe method (GET, HEAD,
OPTIONS) to a view of the public site or the read API (settings.REPLICA_READERS, less
REPLICA_NEVER) from a visitor who has not written in the last DATABASE_REPLICA_STICKY_SECONDS
(a signed cookie that every successful POST, PUT, PATCH or DELETE sets: a login, an upload, an
approval, a follow). The router reads where the request may, but inside a transaction, and writes
on the primary always. Everything else (the admin, the arbiters' and the accounts' pages, Celery
tasks, commands, the shell) never sets the mark: it reads the primary, as without a replica.

A replica that cannot answer (down, or a query cancelled by its replay) costs a page nothing: the
view is read again from the primary, and this process leaves the replica alone for a few seconds.
"""

import contextlib
import contextvars
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import checks
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections

from common.memory import process_memory

logger = logging.getLogger(__name__)

REPLICA = "replica"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WROTE_COOKIE, WROTE_SALT = "wrote", "common.replica.wrote"
# After the replica failed a page, this process reads the primary for these seconds before trying it again.
RETRY_SECONDS = 10
REPLICA_FAILED = process_memory(size=1, seconds=RETRY_SECONDS)

# Where this context's reads go: the primary unless a request was let read the replica.
_reads = contextvars.ContextVar("database_reads", default=DEFAULT_DB_ALIAS)


def replica_configured() -> bool:
    """The site reads a replica: its alias is there and its router in use (DATABASE_REPLICA_URL
    sets both; a test's ``replica`` fixture routes to the alias for that test alone)."""
    return REPLICA in connections.settings and f"{__name__}.ReplicaRouter" in settings.DATABASE_ROUTERS


def reading_alias() -> str:
    """The database alias this context reads: the replica only where a request was let read it
    (ReplicaReads, replica_reads), and never inside a transaction of the primary, whose reads
    must see its own writes and the locks it took."""
    alias = _reads.get()
    if alias != DEFAULT_DB_ALIAS and connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return DEFAULT_DB_ALIAS
    return alias


def reading():
    """The connection this context reads through: a raw query's, or a session setting's that the
    ORM's next read must find (players.search.prepare)."""
    return connections[reading_alias()]


@contextlib.contextmanager
def replica_reads():
    """Reads in the block go to the replica (as a public page's do), transactions aside."""
    token = _reads.set(REPLICA)
    try:
        yield
    finally:
        _reads.reset(token)


class ReplicaRouter:
    """Reads where reading_alias says, writes and migrations on the primary. The two hold the same
    rows: an object read from one may be related to an object read from the other."""

    def db_for_read(self, model, **hints):
        return reading_alias()

    def db_for_write(self, model, **hints):
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        return {obj1._state.db, obj2._state.db} <= {DEFAULT_DB_ALIAS, REPLICA, None}

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == DEFAULT_DB_ALIAS


# The read-your-writes window: a signed cookie whose signature dates it.


def wrote_lately(request) -> bool:
    seconds = settings.DATABASE_REPLICA_STICKY_SECONDS
    return request.get_signed_cookie(WROTE_COOKIE, default=None, salt=WROTE_SALT, max_age=seconds) is not None


def mark_wrote(response):
    response.set_signed_cookie(
        WROTE_COOKIE,
        "1",
        salt=WROTE_SALT,
        max_age=settings.DATABASE_REPLICA_STICKY_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def under(module: str, names) -> bool:
    return any(module == name or module.startswith(name + ".") for name in names)


def reads_replica_view(view) -> bool:
    """Whether ``view`` is one of those that read the replica: settings.REPLICA_READERS' modules
    but REPLICA_NEVER's (the forms whose next page reads what they wrote)."""
    module = getattr(view, "__module__", None) or type(view).__module__
    return under(module, settings.REPLICA_READERS) and not under(module, settings.REPLICA_NEVER)


class ReplicaReads:
    """Lets a request read the replica (see the module's docstring), and marks a visitor who
    wrote as one who reads the primary for DATABASE_REPLICA_STICKY_SECONDS."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.replica_reads = None
        try:
            response = self.get_response(request)
        finally:
            # The thread serves other requests next: what this one was let read ends with it.
            stop_reading_replica(request)
        if request.method not in SAFE_METHODS and response.status_code < 400:
            mark_wrote(response)
        return response

    def process_view(self, request, view, args, kwargs):
        if (
            request.method in SAFE_METHODS
            and reads_replica_view(view)
            and REPLICA_FAILED.get("failed") is None
            and not wrote_lately(request)
        ):
            request.replica_reads = (_reads.set(REPLICA), view, args, kwargs)

    def process_exception(self, request, exception):
        if request.replica_reads is None or not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        _, view, args, kwargs = request.replica_reads
        logger.warning("the replica failed %s (%s): read from the primary", request.path, exception)
        REPLICA_FAILED.set("failed", True)
        connections[REPLICA].close_if_unusable_or_obsolete()
        stop_reading_replica(request)
        return view(request, *args, **kwargs)


def stop_reading_replica(request):
    if request.replica_reads is not None:
        _reads.reset(request.replica_reads[0])
        request.replica_reads = None


# The replica's state: how far behind the primary it is (System status), and waiting for it.


@dataclass
class ReplicaState:
    lag_bytes: int  # WAL the primary has written that the replica has not replayed
    behind_seconds: float | None  # since the last transaction it replayed, while it lags
    paused: bool  # replay paused (pg_wal_replay_pause)
    streaming: bool  # its WAL receiver is connected to the primary


def replica_state() -> ReplicaState | None:
    """The replica's state now, or None where there is none; raises the database's error if it
    cannot be reached."""
    if not replica_configured():
        return None
    with connections[REPLICA].cursor() as cursor:
        cursor.execute(
            "SELECT pg_last_wal_replay_lsn()::text, extract(epoch FROM now() - pg_last_xact_replay_timestamp()), "
            "pg_is_wal_replay_paused(), EXISTS (SELECT FROM pg_stat_wal_receiver WHERE status = 'streaming')"
        )
        replayed, since, paused, streaming = cursor.fetchone()
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s::pg_lsn)", [replayed])
        lag = int(cursor.fetchone()[0])
    return ReplicaState(lag, float(since) if lag and since is not None else None, paused, streaming)


def caught_up(within: float) -> bool:
    """Wait at most ``within`` seconds for the replica to replay everything the primary has
    written so far (True: it has, or there is no replica). Publishing waits so before it
    renews what the pages keep (grading.run.publishing.forget_publications)."""
    if not replica_configured():
        return True
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        written = cursor.fetchone()[0]
    deadline = time.monotonic() + within
    try:
        with connections[REPLICA].cursor() as cursor:
            while True:
                cursor.execute("SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), %s::pg_lsn) >= 0", [written])
                if cursor.fetchone()[0]:
                    return True
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.02)
    except (OperationalError, InterfaceError) as error:
        logger.warning("the replica cannot be reached (%s): not waited for", error)
        return False


# What ``manage.py check --deploy`` says of it.

LOCAL = {"", "localhost", "127.0.0.1", "::1"}


def where(database: dict) -> tuple:
    host = database.get("HOST") or ""
    return ("local" if host in LOCAL else host, str(database.get("PORT") or 5432), database.get("NAME"))


@checks.register(deploy=True)
def replica_is_another_database(app_configs, **kwargs):
    replica = settings.DATABASES.get(REPLICA)
    if replica is None:
        return []
    primary = settings.DATABASES[DEFAULT_DB_ALIAS]
    if replica["ENGINE"] != primary["ENGINE"] or where(replica) == where(primary):
        return [
            checks.Warning(
                "DATABASE_REPLICA_URL names the database of DATABASE_URL (or another kind of database): the "
                "public pages read the primary while paying for the replica's routing.",
                hint="Set DATABASE_REPLICA_URL to the streaming replica's address (its host or port), or unset it.",
                id="common.W001",
            )
        ]
    return []
