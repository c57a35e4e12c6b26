"""The alerts' Celery tasks: they take primary keys, and do nothing for a row gone since.

- send_link: an address's link mailed as it asked; retried three times on a connection error
  (the mail server away), then the address may ask again (LINK_INTERVAL after the last ask).
- mail_publication: a run's followers mailed; retried on a connection error, backing off from a
  minute to an hour; a message the broker lost, or a worker killed part way, is found by a
  worker that starts and by beat's mail_missed_publications (every 15 minutes), which start it
  again for those not yet mailed (the killed worker's claim died with its connection).
- forget_unconfirmed: beat's, daily: nothing to retry (tomorrow's does what today's did not).
"""

from celery import shared_task
from celery.signals import worker_ready

from alerts.follows import forget_unconfirmed
from alerts.letters import Letter
from alerts.mailing import mail_publication, missed_publications
from alerts.models import Follower
from grading.models import RatingRun

LINKS = {"confirm": "Confirm your rating alerts", "manage": "Your rating alerts"}


@shared_task(
    name="alerts.tasks.send_link", ignore_result=True, autoretry_for=(OSError,), retry_backoff=30, max_retries=3
)
def send_link(follower_pk: int, what: str):
    """Mail an address its link: to confirm what it asked to follow, or to manage its alerts."""
    follower = Follower.objects.filter(pk=follower_pk).first()
    if follower is None:
        return
    follows = list(follower.follows.select_related("player", "club", "rating_list"))
    pending = [follow for follow in follows if follow.confirmed_at is None]
    if what == "confirm" and not pending:
        return  # confirmed since it was asked for: nothing to confirm
    Letter(what).to(follower, LINKS[what], {"follows": follows, "pending": pending}, unsubscribe=False).send()


@shared_task(
    name="alerts.tasks.mail_publication",
    autoretry_for=(OSError,),  # the SMTP server unreachable: again in a while, those not reached
    retry_backoff=60,
    retry_backoff_max=3600,
    max_retries=12,
)
def mail_publication_of_run(run_pk: int, months: list[str]):
    """Mail the followers of what a run published (alerts.mailing)."""
    run = RatingRun.objects.filter(pk=run_pk).select_related("period__rating_list").first()
    if run is None:
        return None
    mailing = mail_publication(run, months)
    return {"mailing": mailing.pk, "sent": mailing.sent, "seconds": round(mailing.seconds, 1)} if mailing else None


@shared_task(name="alerts.tasks.mail_missed_publications", ignore_result=True)
def mail_missed_publications():
    """Beat's: the mailings of recent publications never started, or cut off (alerts.mailing)."""
    for run, months in missed_publications():
        mail_publication_of_run.delay(run.pk, months)  # on a worker: the broker is there


@worker_ready.connect(dispatch_uid="alerts.mail_missed_publications_on_start")
def mail_missed_publications_on_start(**kwargs):
    """A worker that starts takes up at once the mailings a killed worker left part way (and
    those whose message Redis lost), rather than waiting for beat."""
    mail_missed_publications()


@shared_task(name="alerts.tasks.forget_unconfirmed", ignore_result=True)
def forget_unconfirmed_follows():
    """Beat's, daily: follows never confirmed within 30 days dropped (alerts.follows)."""
    forget_unconfirmed()
