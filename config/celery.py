"""The Celery app, beat's schedule beside it, and the command line of a worker the tests and the
bench start. The tasks are each app's tasks.py: a worker finds them by autodiscovery, and each
app's AppConfig.ready() imports them too, so that every process (a web process without a broker
runs them itself) knows them by the name they are sent by."""

import os
import sys

from celery import Celery
from celery.schedules import crontab
from django.conf import settings

from grading.run.schedule import monthly_run

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("federation")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def schedule(sender, **kwargs):
    """Beat's schedule, by task name (the apps are not imported here): every list rated for the
    month just ended, on RATING_DAY at RATING_HOUR:RATING_MINUTE; runs whose message a
    restarted broker lost, or whose worker died, taken up again every five minutes; the
    integrity watch's scan of the months not yet published, every night at 02:30; and the
    mailings of publications whose message was lost or whose worker died, and the replies to
    error reports not yet mailed, every fifteen minutes; the alerts never confirmed within 30 days
    dropped, every night at 03:15; the rating officers' digest, daily at OFFICER_DIGEST_HOUR, and
    the role mails not yet sent, every fifteen minutes."""
    sender.add_periodic_task(
        monthly_run(), sender.signature("grading.tasks.rate_month_just_ended"), name="rate-the-month-just-ended"
    )
    sender.add_periodic_task(
        5 * 60, sender.signature("grading.tasks.recover_stalled_runs"), name="recover-stalled-runs"
    )
    sender.add_periodic_task(
        crontab(minute=30, hour=2),
        sender.signature("grading.tasks.scan_months_under_review"),
        name="scan-the-months-under-review",
    )
    sender.add_periodic_task(
        15 * 60, sender.signature("alerts.tasks.mail_missed_publications"), name="mail-missed-publications"
    )
    sender.add_periodic_task(
        15 * 60, sender.signature("corrections.tasks.mail_replies_waiting"), name="mail-replies-waiting"
    )
    sender.add_periodic_task(
        crontab(minute=15, hour=3), sender.signature("alerts.tasks.forget_unconfirmed"), name="forget-unconfirmed"
    )
    sender.add_periodic_task(
        crontab(minute=0, hour=settings.OFFICER_DIGEST_HOUR),
        sender.signature("mails.tasks.mail_officer_digest"),
        name="mail-officer-digest",
    )
    sender.add_periodic_task(15 * 60, sender.signature("mails.tasks.mail_missed"), name="mail-missed-role-mails")


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
