"""What the role mails do when events, the error reports and the accounts announce a step (connected in
apps.py): each queues its task once the transaction commits."""

import logging

from django.db import transaction
from django.dispatch import receiver

from accounts.signals import application_declined
from corrections.signals import report_sent
from events.signals import steps_recorded
from grading.run.broker import Unreachable, send
from mails.arbiters import kind_of

logger = logging.getLogger(__name__)


def queue(task_name: str, args: tuple) -> None:
    """Send the task once the transaction commits. A message the broker cannot take is not lost:
    beat's mail_missed finds the step or the report without its occasion."""

    def queued():
        try:
            send(task_name, args)
        except Unreachable as error:
            logger.warning("%s%r: %s", task_name, args, error)
        except Exception:
            # In process (no broker) the mail is sent here: its failure (the mail server down) is
            # not the step's, which is done; beat's mail_missed tries again.
            logger.exception("%s%r failed", task_name, args)

    transaction.on_commit(queued)


@receiver(steps_recorded, dispatch_uid="mails.mail_arbiters")
def mail_arbiters(sender, changes, **kwargs):
    mailed = [change.pk for change in changes if kind_of(change) and change.event.arbiter_id]
    if mailed:
        queue("mails.tasks.mail_event_steps", (mailed,))


@receiver(report_sent, dispatch_uid="mails.acknowledge_report")
def acknowledge_report(sender, report, **kwargs):
    queue("mails.tasks.acknowledge_report", (report.pk,))


@receiver(application_declined, dispatch_uid="mails.mail_decline")
def mail_decline(sender, application, **kwargs):
    queue("mails.tasks.mail_application_declined", (application.pk,))
