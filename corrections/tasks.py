"""The error reports' Celery tasks: they take primary keys.

- mail_reply: an officer's reply mailed to the reporter, once (its ``replied_at`` says so);
  retried on a connection error, backing off from a minute to an hour.
- mail_replies_waiting: beat's, every 15 minutes: replies of the last week not yet mailed (their
  message lost with the broker, or their retries spent) sent again.
"""

import datetime

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from corrections.models import ReportChange

WAITING_WITHIN = datetime.timedelta(days=7)
RETRYING = datetime.timedelta(hours=4)


@shared_task(
    name="corrections.tasks.mail_reply",
    ignore_result=True,
    autoretry_for=(OSError,),
    retry_backoff=60,
    retry_backoff_max=3600,
    max_retries=8,
)
def mail_reply(change_pk: int):
    change = ReportChange.objects.filter(pk=change_pk, replied_at=None).select_related("report").first()
    if change is None or not change.reply:
        return
    report = change.report
    context = {"report": report, "change": change, "page": page_of(report)}
    message = EmailMultiAlternatives(
        f"Your report {report.pk}: {report.get_state_display()}",
        render_to_string("corrections/mail/reply.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [report.email],
        headers={"Auto-Submitted": "auto-replied"},
    )
    message.attach_alternative(render_to_string("corrections/mail/reply.html", context), "text/html")
    message.send()
    ReportChange.objects.filter(pk=change.pk).update(replied_at=timezone.now())


def page_of(report) -> str:
    """The address of the page the report was sent from, for the reply to link to."""
    if report.player_id:
        path = reverse("player", args=[report.player.code])
    elif report.event_id:
        path = reverse("event", args=[report.event.code])
    else:
        return ""
    return settings.SITE_URL.rstrip("/") + path


@shared_task(name="corrections.tasks.mail_replies_waiting", ignore_result=True)
def mail_replies_waiting():
    now = timezone.now()
    # Past its task's retries (about three hours), within a week: older replies are news no longer.
    waiting = ReportChange.objects.filter(replied_at=None, at__gte=now - WAITING_WITHIN, at__lt=now - RETRYING)
    waiting = waiting.exclude(reply="")
    for pk in waiting.values_list("pk", flat=True):
        mail_reply.delay(pk)
