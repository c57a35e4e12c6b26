"""Operations on ratings that views, admin actions, commands and tasks all call."""

from celery.exceptions import TimeoutError as CeleryTimeout
from django.conf import settings
from kombu.exceptions import OperationalError as BrokerError

from . import tasks


def check_worker(timeout=5):
    """Ask a Celery worker for its status: (ok, details or the reason it failed)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return True, {"mode": "in process (no REDIS_URL)", **tasks.worker_status.apply().get()}
    try:
        reply = tasks.worker_status.apply_async(expires=timeout).get(timeout=timeout)
    except CeleryTimeout:
        return False, f"no worker answered within {timeout} seconds"
    except BrokerError as error:
        return False, f"the broker cannot be reached: {error}"
    return True, {"mode": "worker", **reply}
