"""The error reports' Celery tasks: they take primary keys.

- mail_reply: an officer's reply mailed to the reporter, once (its ``replied_at`` says so; one
  task at a time claims it); retried on a connection error, backing off from a minute to an
  hour; a reply the mail server refuses for good (a 5xx) is marked refused and not tried again.
- mail_replies_waiting: beat's, every 15 minutes: replies of the last week not yet mailed (their
  message lost with the broker, or their retries spent) sent again.
"""

import datetime
import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from common.outgoing_mail import REFUSALS, refused_for_good, site_url
from corrections.models import ReportChange

logger = logging.getLogger(__name__)

WAITING_WITHIN = datetime.timedelta(days=7)
CLAIM_EXPIRES = datetime.timedelta(hours=1)
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
    now = timezone.now()
    # One task at a time sends a reply: the claim is one UPDATE, and a claim an hour old is of a
    # task that died.
    claimed = ReportChange.objects.filter(pk=change_pk, replied_at=None, refused=False).filter(
        Q(sending_at=None) | Q(sending_at__lt=now - CLAIM_EXPIRES)
    )
    if not claimed.update(sending_at=now):
        return
    change = ReportChange.objects.select_related("report__player", "report__event").get(pk=change_pk)
    if not change.reply:
        return
    try:
        reply_message(change).send()
    except REFUSALS as error:
        permanent = refused_for_good(error)
        ReportChange.objects.filter(pk=change.pk).update(sending_at=None, refused=permanent)
        if not permanent:
            raise
        logger.warning("reply to report %s refused by the mail server: %s", change.report_id, error)
        return
    except BaseException:
        ReportChange.objects.filter(pk=change.pk).update(sending_at=None)
        raise
    ReportChange.objects.filter(pk=change.pk).update(replied_at=timezone.now())


def reply_message(change) -> EmailMultiAlternatives:
    report = change.report
    context = {"report": report, "change": change, "page": page_of(report)}
    message = EmailMultiAlternatives(
        f"Your report {report.reference}: {report.get_state_display()}",
        render_to_string("corrections/mail/reply.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [report.email],
    )
    message.attach_alternative(render_to_string("corrections/mail/reply.html", context), "text/html")
    return message


def page_of(report) -> str:
    """The address of the page the report was sent from, for the reply to link to."""
    if report.player_id:
        return site_url(report.player.get_absolute_url())
    return site_url(reverse("event", args=[report.event.code])) if report.event_id else ""


@shared_task(name="corrections.tasks.mail_replies_waiting", ignore_result=True)
def mail_replies_waiting():
    now = timezone.now()
    # Past its task's retries (about three hours), within a week: older replies are news no longer.
    waiting = ReportChange.objects.filter(replied_at=None, refused=False, at__gte=now - WAITING_WITHIN)
    waiting = waiting.filter(at__lt=now - RETRYING, sending_at=None).exclude(reply="")
    for pk in waiting.values_list("pk", flat=True):
        mail_reply.delay(pk)
