"""Grading's Celery tasks: thin wrappers that take primary keys and call the services. Their names
(grading.tasks.*) are what queued messages and the beat schedule (config/celery.py) carry: they stay.

What happens when a task fails or its worker dies, task by task:
- ``rate_list`` is acknowledged late and rejected when its worker is lost: the message is delivered
  again and the run, rolled back whole, is done again from the start. A message Redis lost is sent
  again by ``recover_stalled_runs`` (every five minutes, beat) and by a worker that starts.
- ``compute_live_ratings`` is not retried: it asks again itself when another computation holds
  the list (after ten seconds), and any later approval, run or starting worker asks again.
- ``rate_month_just_ended`` (beat, monthly) starts one run a list; a list whose run is refused
  says why in the task's result, and the recovery above takes up what a dead worker left.
- ``worker_status`` and ``recover_stalled_runs`` are idempotent: nothing to retry; so are the
  integrity watch's scans (``scan_event``, ``scan_month``, nightly ``scan_months_under_review``),
  whose flags a later scan finds again.
Every sender goes through grading.run.broker.send, which says when Redis cannot be reached.
"""

import datetime
import logging
import socket

from celery import shared_task
from celery.signals import worker_ready
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from chess.months import Month
from events.models import Event
from grading.integrity.scanning import scan_event, scan_month, scan_months_under_review
from grading.live.computing import LiveBusy, compute_live
from grading.live.requests import BUSY_RETRY_SECONDS, queue_live, request_live
from grading.models import RatingList
from grading.run.publishing import RunRefused
from grading.run.runs import do_start_rating, recover_interrupted_runs, run_rating
from players.models import Player

logger = logging.getLogger(__name__)

STALLED_MINUTES = 10


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, name="grading.tasks.rate_list")
def rate_list(self, run_pk):
    """Carry out a queued rating run."""

    def progress(stage):
        if not self.request.is_eager:
            self.update_state(state="PROGRESS", meta={"stage": stage})

    run = run_rating(run_pk, progress)
    return {"run": run.pk, "outcome": run.outcome, "message": run.message}


@shared_task(name="grading.tasks.compute_live_ratings", ignore_result=True)
def compute_live_ratings(rating_list_pk: int, requested_at: str):
    rating_list = RatingList.objects.filter(pk=rating_list_pk).first()
    if rating_list is None:
        return
    asked = datetime.datetime.fromisoformat(requested_at)
    try:
        compute_live(rating_list, requested_at=asked)
    except LiveBusy:
        # Another computation is at work, perhaps begun before this request: asked again after it.
        queue_live(rating_list_pk, asked, countdown=BUSY_RETRY_SECONDS)


@shared_task(name="grading.tasks.rate_month_just_ended")
def rate_month_just_ended():
    """The monthly schedule: every list rated for the month that has just ended."""
    month = Month.of(timezone.localdate()) - 1
    started = {}
    for rating_list in RatingList.objects.all():
        try:
            started[rating_list.code] = do_start_rating(rating_list, month, trigger="schedule").pk
        except RunRefused as refused:
            started[rating_list.code] = str(refused)
    return started


@shared_task(name="grading.tasks.scan_event", ignore_result=True)
def scan_event_results(event_pk: int):
    """The integrity watch's scan of an event whose results were just stored."""
    event = Event.objects.filter(pk=event_pk).select_related("rating_list").first()
    if event is not None:
        scan_event(event)


@shared_task(name="grading.tasks.scan_month")
def scan_month_of_list(rating_list_pk: int, month: str, user_pk: int | None = None):
    """The integrity watch's scan of a list's month, as an officer asked for it."""
    rating_list = RatingList.objects.filter(pk=rating_list_pk).first()
    if rating_list is None:
        return None
    user = get_user_model().objects.filter(pk=user_pk).first() if user_pk else None
    scan = scan_month(rating_list, Month.parse(month), acting_user=user)
    return {"scan": scan.pk, "flags": scan.flags, "seconds": round(scan.seconds, 1)}


@shared_task(name="grading.tasks.scan_months_under_review")
def scan_months_under_review_task():
    """Nightly (beat): every list's months not yet published, up to the current one, scanned so
    that officers read fresh flags before each run."""
    return scan_months_under_review(timezone.localdate())


@shared_task(name="grading.tasks.recover_stalled_runs")
def recover_stalled_runs():
    """Runs queued or running for a while with no worker at them are sent again, and follow-ups
    a killed worker owed are done. A broker restarted empty loses the messages of queued runs;
    without this they would wait for the next worker to start."""
    stalled_since = timezone.now() - datetime.timedelta(minutes=STALLED_MINUTES)
    if requeued := recover_interrupted_runs(started_before=stalled_since):
        logger.warning("rating runs %s had stalled: queued again", ", ".join(map(str, requeued)))
    return requeued


@worker_ready.connect
def requeue_interrupted_runs(**kwargs):
    """A worker that starts takes up the runs a killed worker (or a restarted broker) left, and
    asks for every list's live ratings: a request that Redis lost, or that a dead worker held
    (Redis would give it to another only after the visibility timeout), is made good."""
    if requeued := recover_interrupted_runs():
        logger.warning("rating runs %s were left unfinished: queued again", ", ".join(map(str, requeued)))
    for rating_list in RatingList.objects.all():
        request_live(rating_list)


@shared_task(name="grading.tasks.worker_status")
def worker_status():
    """What a worker sees: proves it is alive, has the code, and reaches the same database."""
    return {
        "hostname": socket.gethostname(),
        "database": connection.vendor,
        "players": Player.objects.count(),
        "time": timezone.now().isoformat(),
    }
