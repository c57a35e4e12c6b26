"""Talking to the Celery workers: whether one answers, waiting for a run, a run's live progress."""

import time

from celery.exceptions import TimeoutError as CeleryTimeout
from celery.result import AsyncResult

from grading.models import RatingRun
from grading.run.broker import Unreachable, reaching_redis, send
from grading.run.runs import close, in_process


class NoWorker(Exception):
    pass


def check_worker(timeout=5):
    """Ask a Celery worker for its status: (ok, details or the reason it failed)."""
    try:
        return True, worker_status(timeout)
    except (NoWorker, Unreachable) as error:
        return False, str(error)


def worker_status(timeout=5) -> dict:
    """A Celery worker's status; NoWorker when none answered in time, Unreachable when the broker
    could not be reached (a worker would not help then: Redis must be back first)."""
    if in_process():
        return {
            "mode": "in the web process itself: no separate worker is configured (REDIS_URL)",
            # A page is never a task: Celery's process-wide "inside a task" flag, which threads
            # running tasks in process can leave set, is not this request's.
            **send("grading.tasks.worker_status").get(disable_sync_subtasks=False),
        }
    try:
        with reaching_redis():  # Redis may also go while the answer is awaited
            reply = send("grading.tasks.worker_status", expires=timeout).get(
                timeout=timeout, disable_sync_subtasks=False
            )
    except CeleryTimeout:
        raise NoWorker(f"no worker answered within {timeout} seconds") from None
    return {"mode": "on a separate worker", **reply}


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
        if run.task_id and reported_failed(run.task_id):
            return close(run, RatingRun.Outcome.FAILED, "the worker reported the task failed")
        if run.outcome == RatingRun.Outcome.QUEUED and time.monotonic() > deadline:
            raise NoWorker(f"no worker took run {run.pk} within {pickup_timeout} seconds: is a worker running?")
        time.sleep(poll)


def reported_failed(task_id) -> bool:
    try:
        with reaching_redis():
            return AsyncResult(task_id).failed()
    except Unreachable:
        return False  # the run's record says how it ends, once Redis or the worker is back


def live_progress(run) -> str:
    """What a running run is doing now, as its worker reports it; else the run's own record."""
    if run.outcome == RatingRun.Outcome.RUNNING and run.task_id and not in_process():
        try:
            with reaching_redis():
                result = AsyncResult(run.task_id)
                if result.state == "PROGRESS" and isinstance(result.info, dict):
                    return str(result.info.get("stage", ""))
        except Unreachable:
            pass  # the run's own record, then: it is news, not the run
    return run.progress
