"""Every writer of a publication takes the list's lock, inside its transaction."""

import threading

import pytest
from django.db import connection, transaction

from chess.months import Month
from grading.live.computing import lock_live
from grading.models import RatingList
from grading.run.publishing import RunRefused, lock_list
from grading.takeon import do_import_ratings
from players.csvfiles import FileRefused
from tests.builders import PlayerFactory


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # no test transaction around it
def test_the_list_is_not_locked_outside_a_transaction():
    standard = RatingList.objects.get(code="otb-standard")

    with pytest.raises(transaction.TransactionManagementError, match="inside the transaction that writes it"):
        lock_list(standard)  # in autocommit the lock would end with its own statement


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_take_on_while_a_run_holds_the_list_is_refused_and_stores_nothing():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's to show")
    PlayerFactory(code="123456A")
    standard = RatingList.objects.get(code="otb-standard")
    holding, release = threading.Event(), threading.Event()

    def run_holding_the_list():  # as a rating run does for its whole transaction
        with transaction.atomic():
            lock_list(standard)
            holding.set()
            release.wait(10)
        connection.close()

    worker = threading.Thread(target=run_holding_the_list)
    worker.start()
    holding.wait(10)
    try:
        data = b"code,rating,type,games,opponents_total,points,last_played\n123456A,1850,full,41,74210,22.5,2026-08\n"
        with pytest.raises(FileRefused) as refused:
            do_import_ratings(data, standard, Month(2026, 9))
    finally:
        release.set()
        worker.join()

    assert refused.value.errors == ["a rating run of otb-standard is in progress: try again when it has finished"]
    assert not standard.periods.exists()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_live_lock_is_not_the_list_lock():
    # A live computation and a run of the same list neither wait for nor refuse each other.
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's to show")
    standard = RatingList.objects.get(code="otb-standard")
    holding, release = threading.Event(), threading.Event()

    def run_holding_the_list():
        with transaction.atomic():
            lock_list(standard)
            holding.set()
            release.wait(10)
        connection.close()

    worker = threading.Thread(target=run_holding_the_list)
    worker.start()
    holding.wait(10)
    try:
        with transaction.atomic():
            live = lock_live(standard)
    finally:
        release.set()
        worker.join()

    assert live.rating_list == standard
    with transaction.atomic():  # and the other way round
        lock_live(standard)
        assert lock_list_elsewhere(standard) == "locked"


def lock_list_elsewhere(rating_list):
    outcome = []

    def take():
        try:
            with transaction.atomic():
                lock_list(rating_list)
            outcome.append("locked")
        except RunRefused as refused:
            outcome.append(str(refused))
        finally:
            connection.close()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    return outcome[0]
