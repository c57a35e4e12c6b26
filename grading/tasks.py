"""The Celery tasks of grading, for Celery's autodiscovery: they are defined beside the services
that start them and that they call (grading/services.py, grading/live.py)."""

from grading.live import compute_live_ratings
from grading.services import (
    rate_list,
    rate_month_just_ended,
    recover_stalled_runs,
    requeue_interrupted_runs,
    worker_status,
)

__all__ = [
    "compute_live_ratings",
    "rate_list",
    "rate_month_just_ended",
    "recover_stalled_runs",
    "requeue_interrupted_runs",
    "worker_status",
]
