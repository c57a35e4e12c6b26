"""Talking to the Celery workers: whether one answers, waiting for a run, a run's live progress."""

import time

from celery.exceptions import TimeoutError as CeleryTimeout
from celery.result import AsyncResult
from kombu.exceptions import OperationalError as BrokerError

from .models import RatingRun
from .services import close, in_process, worker_status


def check_worker(timeout=5):
    """Ask a Celery worker for its status: (ok, details or the reason it failed)."""
    if in_process():
        return True, {
            "mode": "in the web process itself: no separate worker is configured (REDIS_URL)",
            **worker_status.apply().get(),
        }
    try:
        reply = worker_status.apply_async(expires=timeout).get(timeout=timeout)
    except CeleryTimeout:
        return False, f"no worker answered within {timeout} seconds"
    except BrokerError as error:
        return False, f"the broker cannot be reached: {error}"
    return True, {"mode": "on a separate worker", **reply}


class NoWorker(Exception):
    pass


def wait_for(run, progress=None, poll=0.5, pickup_timeout=120) -> RatingRun:
    """Wait for a run to end, passing each new progress line to ``progress``. A run that no
    worker has taken after ``pickup_timeout`` seconds raises NoWorker (it stays queued)."""
    shown = ""
    deadline = time.monotonic() + pickup_timeout
    while True:
        run.refresh_from_db()
        stage = live_progress(run)
        if progress and stage != shown:
            shown = stage
            progress(shown)
        if run.outcome not in (RatingRun.Outcome.QUEUED, RatingRun.Outcome.RUNNING):
            return run
        if run.task_id and AsyncResult(run.task_id).failed():
            return close(run, RatingRun.Outcome.FAILED, "the worker reported the task failed")
        if run.outcome == RatingRun.Outcome.QUEUED and time.monotonic() > deadline:
            raise NoWorker(f"no worker took run {run.pk} within {pickup_timeout} seconds: is a worker running?")
        time.sleep(poll)


def live_progress(run) -> str:
    """What a running run is doing now, as its worker reports it; else the run's own record."""
    if run.outcome == RatingRun.Outcome.RUNNING and run.task_id and not in_process():
        result = AsyncResult(run.task_id)
        if result.state == "PROGRESS" and isinstance(result.info, dict):
            return str(result.info.get("stage", ""))
    return run.progress
