"""Mailing a run's publication to its followers (alerts/publication.py says who gets what):
one mail per follower per run, never two.

The mailing is claimed by the task at work on it, and the claim renewed with each batch; a task
that finds it claimed (a second delivery of the task) or loses its claim (it stalled past
CLAIM_EXPIRES and beat started another) stops. Mails go out over one SMTP connection, and each
follower reached is recorded as their mail is accepted, so that a mailing cut off (a worker
killed, the mail server gone) goes on where it stopped. A mail the server refuses for good (an
address it does not know, a message it will not take: a 5xx) is recorded as refused and not
tried again; anything else stops the mailing, for the task's retry or beat to take up.
"""

import datetime
import logging
import time

from django.core.mail import get_connection
from django.db.models import Q
from django.utils import timezone

from alerts.mail import Letter
from alerts.models import Delivery, Follower, Mailing
from alerts.publication import context, publication_of
from common.mail import REFUSALS, refused_for_good
from grading.models import RatingRun
from grading.run.runs import REVISED_BY, republished_months

logger = logging.getLogger(__name__)

BATCH = 500  # followers read, and the claim renewed, a batch at a time
CLAIM_EXPIRES = 3600  # seconds: a claim not renewed for this long is of a task that died


def claim(key: str, subject: str):
    """The mailing of ``key`` and this task's claim on it (the time it claimed it); None if it is
    finished, or another task at work on it renewed its claim within CLAIM_EXPIRES."""
    now = timezone.now()
    mailing, _ = Mailing.objects.get_or_create(
        key=key, defaults={"subject": " ".join(subject.split())[:200], "created_at": now}
    )
    stale = now - datetime.timedelta(seconds=CLAIM_EXPIRES)
    claimed = (
        Mailing.objects.filter(pk=mailing.pk, finished_at=None)
        .filter(Q(claimed_at=None) | Q(claimed_at__lt=stale))
        .update(claimed_at=now)
    )
    return (mailing, now) if claimed else None


def renewed(mailing, held):
    """The claim renewed (its new time), or None if another task has taken it since."""
    now = timezone.now()
    return now if Mailing.objects.filter(pk=mailing.pk, claimed_at=held).update(claimed_at=now) else None


def mail_publication(run: RatingRun, months: list[str]) -> Mailing | None:
    """Mail every follower ``run``'s publication concerns, once: None if another task has it."""
    publication = publication_of(run, months)
    claimed = claim(f"run:{run.pk}", publication.subject)
    if claimed is None:
        return None
    mailing, held = claimed
    started = time.monotonic()
    done = set(Delivery.objects.filter(mailing=mailing).values_list("follower_id", flat=True))
    waiting = [pk for pk in publication.by_follower if pk not in done]
    letter = Letter("publication")
    try:
        with get_connection() as connection:
            for start in range(0, len(waiting), BATCH):
                if start and (held := renewed(mailing, held)) is None:
                    logger.warning("mailing %s: its claim was taken by another task, which goes on", mailing.key)
                    return None
                batch = Follower.objects.filter(pk__in=waiting[start : start + BATCH])
                send_each(
                    connection,
                    mailing,
                    ((who, letter.to(who, mailing.subject, context(publication, who.pk))) for who in batch),
                )
    except BaseException:
        # Cut off (the mail server gone): released at once, for the task's retry or beat's
        # mail_missed_publications to go on from the last follower reached.
        Mailing.objects.filter(pk=mailing.pk, claimed_at=held).update(claimed_at=None)
        raise
    deliveries = Delivery.objects.filter(mailing=mailing)
    Mailing.objects.filter(pk=mailing.pk).update(
        finished_at=timezone.now(),
        recipients=len(publication.by_follower),
        sent=deliveries.filter(refused=False).count(),
        seconds=time.monotonic() - started,
    )
    mailing.refresh_from_db()
    if mailing.recipients:
        logger.info("mailing %s: %s mails sent in %.1f s", mailing.key, mailing.sent, mailing.seconds)
    return mailing


def send_each(connection, mailing, letters) -> None:
    """Send each (follower, message) over ``connection``, recording each follower reached, or
    refused for good, as it goes: whatever stops the batch, those recorded are not mailed again."""
    reached = []
    try:
        for follower, message in letters:
            try:
                connection.send_messages([message])
            except REFUSALS as error:
                if not refused_for_good(error):
                    raise
                logger.warning("mailing %s: the mail to follower %s refused: %s", mailing.key, follower.pk, error)
                reached.append(Delivery(mailing=mailing, follower=follower, sent_at=timezone.now(), refused=True))
            else:
                reached.append(Delivery(mailing=mailing, follower=follower, sent_at=timezone.now()))
    finally:
        Delivery.objects.bulk_create(reached, ignore_conflicts=True)


MISSED_WITHIN = datetime.timedelta(days=2)  # older publications are news no longer


def missed_publications():
    """(run, months published) of the runs of the last two days whose mailing was never started
    (its message lost with the broker) or was cut off (its claim expired unfinished)."""
    now = timezone.now()
    runs = (
        RatingRun.objects.filter(finished_at__gte=now - MISSED_WITHIN, follow_ups_done=True)
        .filter(outcome=RatingRun.Outcome.SUCCEEDED)
        .exclude(trigger__startswith=REVISED_BY.format(""))
        .exclude(trigger=RatingRun.IMPORT)  # a take-on: the previous system's ratings, no news
        .select_related("period__rating_list")
    )
    stale = now - datetime.timedelta(seconds=CLAIM_EXPIRES)
    taken = Mailing.objects.filter(key__startswith="run:").filter(
        Q(finished_at__isnull=False) | Q(claimed_at__gte=stale)
    )
    taken = set(taken.values_list("key", flat=True))
    for run in runs:
        if f"run:{run.pk}" not in taken and (months := republished_months(run)):
            yield run, months
