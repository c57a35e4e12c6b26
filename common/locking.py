"""Locks, for the writers that must not interleave: every lock the apps take is taken here.

A lock lasts as long as the transaction that takes it, and is released when it commits or rolls
back, or when its connection dies (a killed worker). Outside a transaction, in autocommit, a
lock would end with its own statement and guard nothing: each function here refuses to run
there (TransactionManagementError). The apps name their locks in thin functions of their own
(events.workflow.lock_event, grading.run.publishing.lock_list, grading.live.computing.lock_live,
players.services.lock_player_registration), which turn ``Busy`` into their own refusal.

- ``lock_rows``/``lock_row``: rows of the query's model, locked FOR UPDATE (those it joins in
  with select_related are read, not locked); with ``nowait``, ``Busy`` at once when another
  transaction holds one of them, rather than waiting for it.
- ``lock_number``: an advisory lock on a number, for what has no row to lock (the creation of
  new rows); PostgreSQL's, and nothing elsewhere (SQLite lets one writer at a time anyway).
- ``claim_number``: the one lock that outlives transactions: an advisory lock held by the
  connection's session while a block runs, for work that commits as it goes (a mailing records
  each mail as the server accepts it). It ends with the block, or with the connection: a
  worker killed in the middle lets go of it as PostgreSQL closes its session, and another
  takes the work up at once. It never waits: the block is told whether it holds it.
"""

import contextlib

from django.db import DatabaseError, OperationalError, transaction
from django.db.models import Model, QuerySet

LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a NOWAIT lock another transaction holds


class Busy(Exception):
    """Another transaction holds a lock asked for without waiting (``nowait``)."""


def refuse_outside_transaction(what: str, using: str | None = None) -> None:
    """TransactionManagementError unless a transaction is open: ``what`` names the lock."""
    if not transaction.get_connection(using).in_atomic_block:
        raise transaction.TransactionManagementError(
            f"{what} is locked inside the transaction that writes it: in autocommit the lock would end "
            "with its own statement"
        )


def lock_rows(queryset: QuerySet, *, nowait: bool = False) -> list:
    """The rows of ``queryset``, locked (SELECT ... FOR UPDATE OF its own table) until the
    transaction ends: rows joined in by select_related are not locked. Waits for another
    transaction that holds one of them, or with ``nowait`` raises Busy."""
    refuse_outside_transaction(f"a {queryset.model._meta.verbose_name}", queryset.db)
    return _locked(queryset, nowait, list)


def lock_row(queryset: QuerySet, *, nowait: bool = False) -> Model:
    """The one row of ``queryset`` (as ``get()``: DoesNotExist if none), locked as ``lock_rows``
    locks them."""
    refuse_outside_transaction(f"a {queryset.model._meta.verbose_name}", queryset.db)
    return _locked(queryset, nowait, QuerySet.get)


def _locked(queryset, nowait, read):
    try:
        return read(queryset.select_for_update(nowait=nowait, of=("self",)))
    except OperationalError as error:
        if not nowait or getattr(error.__cause__, "sqlstate", None) != LOCK_NOT_AVAILABLE:
            raise
        raise Busy(f"a {queryset.model._meta.verbose_name} is locked by another transaction") from None


def lock_number(key: int, using: str | None = None) -> None:
    """Hold the advisory lock ``key`` (any number no other lock of the database uses) until the
    transaction ends, waiting for another transaction that holds it. PostgreSQL's
    pg_advisory_xact_lock; nothing on other databases."""
    refuse_outside_transaction(f"advisory lock {key}", using)
    connection = transaction.get_connection(using)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


@contextlib.contextmanager
def claim_number(key: int, using: str | None = None):
    """Hold the advisory lock ``key`` on the connection's session (not its transaction) while
    the block runs: yields True, or False at once if another session holds it. PostgreSQL's
    pg_try_advisory_lock; elsewhere always True (SQLite's one process at a time)."""
    connection = transaction.get_connection(using)
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        held = cursor.fetchone()[0]
    try:
        yield held
    finally:
        if held:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
            except DatabaseError:
                pass  # the connection is gone, and the lock with its session
