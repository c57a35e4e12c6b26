"""The monthly run on a real Celery worker against PostgreSQL and Redis (CI runs these)."""

import datetime
import signal

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from chess.months import Month
from config.celery import app as celery_app
from grading.demo.federation import load_demo
from grading.models import ListEntry, PlayerRating, RatingList, RatingPeriod, RatingRun
from grading.run.runs import RunRefused, do_start_rating
from grading.run.workers import wait_for
from grading.tasks import rate_list, rate_month_just_ended
from tests.builders import side_connection
from tests.celery_worker import running_worker, running_workers, wait_until

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TODAY = datetime.date(2026, 11, 21)


def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and killed connections are PostgreSQL's to show")


def test_a_fresh_demo_publishes_all_five_lists_from_a_real_worker(celery_worker_process):
    load_demo(players=60, seed=5, today=TODAY)

    runs = [
        wait_for(do_start_rating(rating_list, Month(2026, 5), "test"), pickup_timeout=60)
        for rating_list in RatingList.objects.all()
    ]

    assert [run.outcome for run in runs] == ["succeeded"] * 5, [run.message for run in runs]
    assert all(run.task_id for run in runs)
    for rating_list in RatingList.objects.all():
        period = RatingPeriod.objects.get(rating_list=rating_list, month="2026-05")
        assert period.revision == 0
        assert ListEntry.objects.filter(period=period).count() > 10


def waiting_to_publish(observer, any_state=False):
    """Sessions of other connections whose last statement updates a rating period."""
    waiting = "" if any_state else "AND wait_event_type = 'Lock' "
    return observer.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
        + waiting
        + "AND query LIKE 'UPDATE \"grading_ratingperiod\"%'"
    ).fetchone()[0]


def test_a_run_killed_part_way_leaves_the_published_lists_untouched_and_a_restarted_worker_completes_it(tmp_path):
    needs_postgresql()
    load_demo(players=60, seed=5, today=TODAY)
    standard = RatingList.objects.get(code="otb-standard")
    with running_worker():
        assert wait_for(do_start_rating(standard, Month(2026, 5), "test"), pickup_timeout=60).outcome == "succeeded"
    call_command("export_list", "--list", "otb-standard", "--period", "2026-05", "-o", str(tmp_path / "before.csv"))
    june = RatingPeriod.objects.create(rating_list=standard, month="2026-06", rule_set="ecf-2024")

    # Another session holds June's row: the run will stop at publishing, its ratings written
    # but not committed. Then its worker is killed.
    blocker = side_connection()
    # pg_stat_activity is read once per transaction: watch from a connection outside any.
    observer = side_connection(autocommit=True)
    try:
        blocker.execute("SELECT id FROM grading_ratingperiod WHERE id = %s FOR NO KEY UPDATE", [june.pk])
        with running_worker() as worker:
            run = do_start_rating(standard, Month(2026, 6), "test")
            wait_until(lambda: waiting_to_publish(observer) == 1, "the run waits to publish")

            with pytest.raises(RunRefused, match="a rating run of otb-standard is in progress"):
                do_start_rating(standard, Month(2026, 6), "test")
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=10)
    finally:
        blocker.rollback()
    wait_until(lambda: waiting_to_publish(observer, any_state=True) == 0, "the killed run's session is gone")
    blocker.close()
    observer.close()

    june.refresh_from_db()
    assert june.revision is None
    assert not PlayerRating.objects.filter(period=june).exists()
    call_command("export_list", "--list", "otb-standard", "--period", "2026-05", "-o", str(tmp_path / "after.csv"))
    assert (tmp_path / "before.csv").read_bytes() == (tmp_path / "after.csv").read_bytes()
    run.refresh_from_db()
    assert run.outcome == "running"  # cut off: nobody could record its end

    # A worker that starts finds the run cut off (marked running, its list not locked) and does it.
    with running_worker():
        run = wait_for(run, pickup_timeout=60)
    assert (run.outcome, run.message) == ("succeeded", run.message)
    assert run.message.startswith("otb-standard 2026-06: ") and run.message.endswith("original list published")
    june.refresh_from_db()
    assert june.revision == 0
    assert PlayerRating.objects.filter(period=june).exists()


def test_the_schedule_rates_every_list_for_the_month_just_ended():
    entry = celery_app.conf.beat_schedule["rate-the-month-just-ended"]
    assert entry["task"] == "grading.tasks.rate_month_just_ended"
    assert (entry["schedule"].day_of_month, entry["schedule"].hour, entry["schedule"].minute) == ({1}, {2}, {0})
    load_demo(players=40, seed=5, today=TODAY)

    started = rate_month_just_ended.apply().get()  # in process: tests run tasks here

    runs = RatingRun.objects.filter(pk__in=started.values())
    assert sorted(started) == ["fide-standard", "online", "otb-blitz", "otb-rapid", "otb-standard"]
    assert {run.period.month for run in runs} == {str(Month.of(datetime.date.today()) - 1)}


def test_two_workers_rate_two_lists_at_the_same_time():
    needs_postgresql()
    load_demo(players=60, seed=5, today=TODAY)
    standard, rapid = (RatingList.objects.get(code=code) for code in ("otb-standard", "otb-rapid"))
    may = RatingPeriod.objects.create(rating_list=standard, month="2026-05", rule_set="ecf-2024")
    # Another session holds OTB standard's May: its run stops at publishing, holding one worker.
    blocker = side_connection()
    observer = side_connection(autocommit=True)
    try:
        blocker.execute("SELECT id FROM grading_ratingperiod WHERE id = %s FOR NO KEY UPDATE", [may.pk])
        with running_workers(2):
            held = do_start_rating(standard, Month(2026, 5), "test")
            wait_until(lambda: waiting_to_publish(observer) == 1, "the OTB standard run waits to publish")

            rapid_run = wait_for(do_start_rating(rapid, Month(2026, 5), "test"), pickup_timeout=60)

            held.refresh_from_db()
            assert (rapid_run.outcome, held.outcome) == ("succeeded", "running")  # the other worker's
            blocker.rollback()
            assert wait_for(held, pickup_timeout=60).outcome == "succeeded"
    finally:
        blocker.rollback()
        blocker.close()
        observer.close()

    for rating_list in (standard, rapid):
        period = RatingPeriod.objects.get(rating_list=rating_list, month="2026-05")
        assert period.revision == 0 and ListEntry.objects.filter(period=period).count() > 10


def waiting_to_start(observer):
    """Sessions of other connections waiting for a lock to mark a rating run running."""
    return observer.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock' "
        "AND query LIKE 'UPDATE \"grading_ratingrun\"%'"
    ).fetchone()[0]


def test_a_run_sent_twice_to_two_workers_is_carried_out_by_one_and_left_be_by_the_other():
    needs_postgresql()
    load_demo(players=60, seed=5, today=TODAY)
    standard = RatingList.objects.get(code="otb-standard")
    may = RatingPeriod.objects.create(rating_list=standard, month="2026-05", rule_set="ecf-2024")
    at_publishing, at_start = side_connection(), side_connection()
    observer = side_connection(autocommit=True)
    try:
        # The run that starts will stop at publishing May, holding its list.
        at_publishing.execute("SELECT id FROM grading_ratingperiod WHERE id = %s FOR NO KEY UPDATE", [may.pk])
        with running_workers(2):
            run = RatingRun.objects.create(period=may, trigger="test", started_at=timezone.now(), outcome="queued")
            # Held until both deliveries have read the run as queued and wait to mark it running.
            at_start.execute("SELECT id FROM grading_ratingrun WHERE id = %s FOR UPDATE", [run.pk])
            # As two starts send it, each finding it queued (do_start_rating).
            deliveries = [rate_list.delay(run.pk) for _ in range(2)]
            wait_until(lambda: waiting_to_start(observer) == 2, "both workers wait to start the run")
            at_start.rollback()
            wait_until(lambda: any(delivery.ready() for delivery in deliveries), "one delivery is over")
            wait_until(lambda: waiting_to_publish(observer) == 1, "the other waits to publish")

            run.refresh_from_db()
            # Before, the delivery that found the list locked recorded the run "refused: a rating
            # run of otb-standard is in progress", though the run at work was itself.
            assert (run.outcome, run.message) == ("running", "")
            at_publishing.rollback()
            run = wait_for(run, pickup_timeout=60)
    finally:
        at_publishing.rollback()
        at_start.rollback()
        for side in (at_publishing, at_start, observer):
            side.close()

    assert (run.outcome, run.revision) == ("succeeded", 0), run.message
    assert RatingRun.objects.filter(period=may).count() == 1
    may.refresh_from_db()
    assert may.revision == 0
