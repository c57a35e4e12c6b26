import datetime
import logging
import socket

from celery import shared_task
from celery.signals import worker_ready
from django.db import connection
from django.utils import timezone

from players.models import Player

logger = logging.getLogger(__name__)


@worker_ready.connect
def requeue_interrupted_runs(**kwargs):
    """A worker that starts takes up the runs a killed worker (or a restarted broker) left."""
    from .services import recover_interrupted_runs

    if requeued := recover_interrupted_runs():
        logger.warning("rating runs %s were left unfinished: queued again", ", ".join(map(str, requeued)))


@shared_task
def worker_status():
    """What a worker sees: proves it is alive, has the code, and reaches the same database."""
    return {
        "hostname": socket.gethostname(),
        "database": connection.vendor,
        "players": Player.objects.count(),
        "time": timezone.now().isoformat(),
    }


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def rate_list(self, run_pk):
    """Carry out a queued rating run. acks_late: a worker killed part way leaves the message
    to be delivered again, and the run, rolled back whole, is done again from the start."""
    from .services import run_rating

    def progress(stage):
        if not self.request.is_eager:
            self.update_state(state="PROGRESS", meta={"stage": stage})

    run = run_rating(run_pk, progress)
    return {"run": run.pk, "outcome": run.outcome, "message": run.message}


@shared_task
def recover_stalled_runs():
    """Every few minutes (beat): runs queued or running for a while with no worker at them are
    sent again, and follow-ups a killed worker owed are done. A broker restarted empty loses the
    messages of queued runs; without this they would wait for the next worker to start."""
    from .services import recover_interrupted_runs

    stalled_since = timezone.now() - datetime.timedelta(minutes=STALLED_MINUTES)
    if requeued := recover_interrupted_runs(started_before=stalled_since):
        logger.warning("rating runs %s had stalled: queued again", ", ".join(map(str, requeued)))
    return requeued


STALLED_MINUTES = 10


@shared_task
def rate_month_just_ended():
    """The monthly schedule: every list rated for the month that has just ended."""
    from .engine.periods import Month
    from .models import RatingList
    from .services import RunRefused, start_rating

    month = Month.of(timezone.localdate()) - 1
    started = {}
    for rating_list in RatingList.objects.all():
        try:
            started[rating_list.code] = start_rating(rating_list, month, trigger="schedule").pk
        except RunRefused as refused:
            started[rating_list.code] = str(refused)
    return started
