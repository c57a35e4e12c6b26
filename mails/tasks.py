"""The role mails' Celery tasks (docs/mails.md): they take primary keys, and do nothing for a
row gone since. Each is retried on a connection error (the mail server away), backing off from a
minute to an hour; what they sent is recorded as it goes (mails.delivery), so a retry, a second
delivery of the message or beat's mail_missed sends only what was not sent.

- mail_event_steps: the arbiters of events told of their steps (approved, sent back, held,
  rated: a run's events all in one task, over one connection).
- acknowledge_report: an error report acknowledged to its reporter.
- mail_application_declined: a declined application's reason, to its applicant.
- mail_officer_digest: beat's, daily at OFFICER_DIGEST_HOUR: what waits for the rating officers.
- mail_missed: beat's, every 15 minutes, and a worker's as it starts: the mails of the last two
  days never started (their message lost with the broker), or cut off (a worker killed), and
  today's digest if its hour has passed without it.
"""

import datetime
from dataclasses import dataclass

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.utils import timezone

from accounts.models import Application
from corrections.models import Report
from events.models import EventChange
from mails.applicants import declined_since, mail_of_decline
from mails.arbiters import kind_of, mail_of_step, mailed_steps
from mails.delivery import Postman, deliver
from mails.digest import mail_of_day
from mails.models import Kind, Occasion
from mails.reporters import mail_of_report, reports_since

RETRIED = {"autoretry_for": (OSError,), "retry_backoff": 60, "retry_backoff_max": 3600, "max_retries": 12}
MISSED_WITHIN = datetime.timedelta(days=2)  # older steps and reports are news no longer


@shared_task(name="mails.tasks.mail_event_steps", ignore_result=True, **RETRIED)
def mail_event_steps(change_pks: list[int]):
    """Mail each step's arbiter (mails.arbiters)."""
    changes = EventChange.objects.filter(pk__in=change_pks).select_related("event__arbiter", "event__rating_list")
    with Postman() as postman:
        for change in changes.order_by("pk"):
            if mail := mail_of_step(change):
                deliver(mail, postman)


@shared_task(name="mails.tasks.acknowledge_report", ignore_result=True, **RETRIED)
def acknowledge_report(report_pk: int):
    report = Report.objects.filter(pk=report_pk).select_related("player", "event").first()
    if report is not None:
        with Postman() as postman:
            deliver(mail_of_report(report), postman)


@shared_task(name="mails.tasks.mail_application_declined", ignore_result=True, **RETRIED)
def mail_application_declined(application_pk: int):
    application = Application.objects.filter(pk=application_pk, state=Application.State.DECLINED).first()
    if application is not None:
        with Postman() as postman:
            deliver(mail_of_decline(application), postman)


@shared_task(name="mails.tasks.mail_officer_digest", ignore_result=True, **RETRIED)
def mail_officer_digest(day: str = ""):
    """The digest of ``day`` (today's by default), once to each officer."""
    with Postman() as postman:
        deliver(mail_of_day(day or timezone.localdate().isoformat()), postman)


def digest_due(now) -> str | None:
    """Today's digest's day, if its hour has passed."""
    local = timezone.localtime(now)
    return local.date().isoformat() if local.hour >= settings.OFFICER_DIGEST_HOUR else None


@dataclass
class Missed:
    """What beat's mail_missed takes up: occasions that never started or are unfinished."""

    steps: list[int]  # EventChange
    reports: list[int]  # Report
    declines: list[int]  # Application
    days: list[str]  # the officers' digests


def missed(now=None) -> Missed:
    """What never started or is unfinished: cut off, or at work (the task sent for it finds it
    claimed, and leaves it be). A digest is today's once its hour has passed, or one begun and
    cut off."""
    now = now or timezone.now()
    since = now - MISSED_WITHIN
    recent = Occasion.objects.filter(created_at__gte=since)
    finished = {occasion.key for occasion in recent.filter(finished_at__isnull=False)}

    def unfinished(kind, pks):
        return [pk for pk in pks if f"{kind}:{pk}" not in finished]

    days = set(recent.filter(kind=Kind.DIGEST, finished_at=None).values_list("subject", flat=True))
    if (today := digest_due(now)) and f"{Kind.DIGEST}:{today}" not in finished:
        days.add(today)
    return Missed(
        steps=[change.pk for change in mailed_steps(since) if f"{kind_of(change)}:{change.pk}" not in finished],
        reports=unfinished(Kind.ACKNOWLEDGED, reports_since(since).values_list("pk", flat=True)),
        declines=unfinished(Kind.DECLINED, declined_since(since).values_list("pk", flat=True)),
        days=sorted(days),
    )


@shared_task(name="mails.tasks.mail_missed", ignore_result=True)
def mail_missed():
    found = missed()
    if found.steps:
        mail_event_steps.delay(found.steps)
    for pk in found.reports:
        acknowledge_report.delay(pk)
    for pk in found.declines:
        mail_application_declined.delay(pk)
    for day in found.days:
        mail_officer_digest.delay(day)


@worker_ready.connect(dispatch_uid="mails.mail_missed_on_start")
def mail_missed_on_start(**kwargs):
    """A worker that starts takes up at once what a killed worker left part way."""
    mail_missed()
