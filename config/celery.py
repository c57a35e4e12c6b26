import os
import sys

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def worker_command(name: str, queue: str | None = None, loglevel: str = "INFO") -> list[str]:
    """The command line of one worker process of this app, doing one task at a time (the
    rating runs are long and hold a database transaction): as the tests and the bench start
    real workers. ``name`` is its node name before the host."""
    queues = ["-Q", queue] if queue else []
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool=solo",
        "--without-heartbeat",
        "--without-mingle",
        "--without-gossip",
        *queues,
        f"--loglevel={loglevel}",
        "-n",
        f"{name}%h",
    ]
