"""common/locking.py: the locks every writer takes, inside its transaction."""

import time

import pytest
from django.db import OperationalError, connection, transaction

from common.locking import Busy, claim_number, lock_number, lock_row, lock_rows
from grading.models import LiveList, RatingList
from tests.builders import side_connection


def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("row and advisory locks are PostgreSQL's to show")


@pytest.mark.parametrize(
    "lock",
    [
        lambda: lock_rows(RatingList.objects.all()),
        lambda: lock_row(RatingList.objects.filter(code="otb-standard"), nowait=True),
        lambda: lock_number(7_301_999),
    ],
    ids=["rows", "row", "number"],
)
def test_no_lock_is_taken_outside_a_transaction(lock):
    # In autocommit a lock would end with its own statement: refused before the database is asked.
    with pytest.raises(transaction.TransactionManagementError, match="inside the transaction that writes it"):
        lock()


@pytest.mark.django_db
def test_the_rows_locked_are_those_of_the_query():
    with transaction.atomic():
        rows = lock_rows(RatingList.objects.filter(code__startswith="otb").order_by("code"))
        one = lock_row(RatingList.objects.filter(code="online"), nowait=True)
        lock_number(7_301_999)

    assert [row.code for row in rows] == ["otb-rapid", "otb-standard"]
    assert one.code == "online"
    with pytest.raises(RatingList.DoesNotExist), transaction.atomic():
        lock_row(RatingList.objects.filter(code="no-such-list"))


@pytest.mark.django_db
def test_a_row_another_transaction_holds_is_busy_at_once_with_nowait():
    needs_postgresql()
    standard = RatingList.objects.get(code="otb-standard")
    other = side_connection()
    try:
        other.execute("SELECT id FROM grading_ratinglist WHERE id = %s FOR UPDATE", [standard.pk])

        with pytest.raises(Busy), transaction.atomic():
            lock_rows(RatingList.objects.filter(pk=standard.pk), nowait=True)
        with pytest.raises(Busy), transaction.atomic():
            lock_row(RatingList.objects.filter(code="otb-standard"), nowait=True)
        # The others are free: only the row held is busy.
        with transaction.atomic():
            assert lock_row(RatingList.objects.filter(code="online"), nowait=True).code == "online"
        # Without nowait it waits, here no longer than the lock timeout: that is no Busy.
        with pytest.raises(OperationalError), transaction.atomic():
            connection.cursor().execute("SET LOCAL lock_timeout = '100ms'")
            lock_rows(RatingList.objects.filter(pk=standard.pk))
    finally:
        # Ended, and answered, before the connection goes: a closed session's locks are let go
        # by the server in its own time, which raced the next lock under load.
        other.rollback()
        other.close()

    with transaction.atomic():  # released with the other transaction
        assert lock_row(RatingList.objects.filter(pk=standard.pk), nowait=True) == standard


@pytest.mark.django_db
def test_a_number_another_transaction_holds_is_waited_for():
    needs_postgresql()
    other = side_connection()
    try:
        other.execute("SELECT pg_advisory_xact_lock(7301999)")

        with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
            connection.cursor().execute("SET LOCAL lock_timeout = '100ms'")
            lock_number(7_301_999)
        with transaction.atomic():
            lock_number(7_301_998)  # another number is free
    finally:
        other.close()

    with transaction.atomic():
        connection.cursor().execute("SET LOCAL lock_timeout = '100ms'")
        lock_number(7_301_999)  # released with the other transaction


@pytest.mark.django_db
def test_rows_joined_in_are_read_not_locked():
    needs_postgresql()
    standard = RatingList.objects.get(code="otb-standard")
    live, _ = LiveList.objects.get_or_create(rating_list=standard)
    other = side_connection()
    try:
        other.execute("SELECT id FROM grading_ratinglist WHERE id = %s FOR UPDATE", [standard.pk])

        with transaction.atomic():  # the list's row is held: its live record is not
            locked = lock_row(LiveList.objects.select_related("rating_list").filter(pk=live.pk), nowait=True)
    finally:
        other.close()

    assert locked.rating_list.code == "otb-standard"


def claimed_by_anyone(key) -> bool:
    """Whether a session holds the advisory lock ``key``, as PostgreSQL's pg_locks shows it."""
    watcher = side_connection(autocommit=True)
    try:
        query = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = %s AND granted"
        return watcher.execute(query, [key]).fetchone()[0] > 0
    finally:
        watcher.close()


@pytest.mark.django_db
def test_a_claim_is_held_by_its_session_until_its_block_ends_or_its_connection_is_gone():
    needs_postgresql()
    other = side_connection(autocommit=True)
    try:
        other.execute("SELECT pg_advisory_lock(7301997)")  # another worker's claim
        with claim_number(7_301_997) as held:
            assert held is False  # at once, without waiting
    finally:
        other.close()  # that worker gone: its claim with its session, as soon as the server sees it

    deadline = time.monotonic() + 5
    while claimed_by_anyone(7_301_997) and time.monotonic() < deadline:
        time.sleep(0.05)
    with claim_number(7_301_997) as held:
        assert held is True and claimed_by_anyone(7_301_997)
    assert not claimed_by_anyone(7_301_997)  # let go at the block's end
