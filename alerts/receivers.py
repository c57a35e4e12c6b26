"""What the alerts do when grading announces a publication (connected in apps.py)."""

import logging

from django.db import transaction
from django.dispatch import receiver

from grading.run.broker import Unreachable, send
from grading.signals import run_published

logger = logging.getLogger(__name__)


@receiver(run_published, dispatch_uid="alerts.mail_followers_of_publication")
def mail_followers_of_publication(sender, run, months, **kwargs):
    """Queue the mailing once the run's follow-ups commit. A message the broker cannot take is not
    lost: beat's mail_missed_publications finds the run without its mailing."""

    def queue():
        try:
            send("alerts.tasks.mail_publication", (run.pk, list(months)))
        except Unreachable as error:
            logger.warning("mailing of run %s: %s", run.pk, error)
        except Exception:
            # In process (no broker) the mailing runs here: its failure (the mail server down) is
            # not the run's, which has published; beat's mail_missed_publications tries again.
            logger.exception("mailing of run %s failed", run.pk)

    transaction.on_commit(queue)
