"""A run's record is what it committed, whatever fails around it: Redis down, a lost message, a
worker killed after its commit."""

import datetime

import pytest

from chess.months import Month
from config.celery import app
from grading import tasks
from grading.models import RatingList, RatingPeriod, RatingRun
from grading.run.runs import RunRefused, do_start_rating, run_rating
from tests.builders import PlayerFactory, approved_event, take_on
from tests.celery_worker import forget_connections
from tests.redis_server import redis_server

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 10)
PUBLISHED = "otb-standard 2026-10: 2 players rated on 1 games, original list published"


@pytest.fixture
def queued_run():
    """A run of October's standard list, queued and not yet delivered to any worker."""
    PlayerFactory(code="111111A", surname="Abbott", birth_date=datetime.date(1980, 1, 1))
    PlayerFactory(code="222222B", surname="Baker", birth_date=datetime.date(1975, 1, 1))
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    return do_start_rating(RatingList.objects.get(code="otb-standard"), Month(2026, 10), "test")  # on_commit never runs


def test_a_run_whose_progress_reports_cannot_reach_redis_still_publishes(queued_run):
    with redis_server() as server:
        backend = app.conf.result_backend
        app.conf.result_backend = server.url
        forget_connections(app)
        try:
            server.stop()  # Redis down for the whole run: every progress report fails

            def progress(stage):
                tasks.rate_list.backend.store_result("some-task", {"stage": stage}, "PROGRESS")

            run = run_rating(queued_run.pk, progress)
        finally:
            # The backend made for the stopped Redis must not answer the tests after this one.
            app.conf.result_backend = backend
            forget_connections(app)

    assert (run.outcome, run.message) == ("succeeded", PUBLISHED)
    assert RatingPeriod.objects.get(month="2026-10", rating_list__code="otb-standard").revision == 0


def test_a_run_cut_off_after_its_commit_is_recorded_as_it_published_and_owes_its_follow_ups(queued_run):
    def killed_after_commit(stage):
        if stage == "committed":
            raise SystemExit("the worker was killed")  # as SIGKILL would end it, nothing after runs

    with pytest.raises(SystemExit):
        run_rating(queued_run.pk, killed_after_commit)

    run = RatingRun.objects.get(pk=queued_run.pk)
    assert (run.outcome, run.message, run.follow_ups_done) == ("succeeded", PUBLISHED, False)

    again = run_rating(run.pk)  # delivered again (acks_late), or taken up by a starting worker

    assert (again.outcome, again.message, again.follow_ups_done) == ("succeeded", PUBLISHED, True)
    assert RatingRun.objects.filter(period__month="2026-10").count() == 1


def test_a_queued_run_whose_message_was_lost_is_sent_again_by_the_next_start(
    queued_run, django_capture_on_commit_callbacks
):
    # Redis restarted empty: the run's message is gone. The next start is refused, but sends it
    # again, and here (in process) it is carried out at once.
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RunRefused, match="sent to the workers again"):
        do_start_rating(RatingList.objects.get(code="otb-standard"), Month(2026, 10), "test")

    queued_run.refresh_from_db()
    assert (queued_run.outcome, queued_run.message) == ("succeeded", PUBLISHED)


def test_the_periodic_recovery_takes_up_runs_queued_for_long_and_leaves_new_ones(
    queued_run, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.recover_stalled_runs() == []  # queued a moment ago: in the queue, its turn to come

    RatingRun.objects.filter(pk=queued_run.pk).update(started_at=queued_run.started_at - datetime.timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.recover_stalled_runs() == [queued_run.pk]

    queued_run.refresh_from_db()
    assert queued_run.outcome == "succeeded"
