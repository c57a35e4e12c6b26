"""Mailing a run's publication to its followers (alerts/publication.py says who gets what):
one mail per follower per run, never two.

The followers are those of the publication's time (alerts.publication.publication_of): a follow
confirmed while the mailing waited (the mail server down) is not mailed about it. The mailing
is claimed by the task at work on it with an advisory lock its database session holds
(common.locking.claim_number): a second delivery of the task finds it claimed, or finished, and
sends nothing; a worker killed in the middle lets go of it with its connection, and the next
task (a worker that starts, beat's mail_missed_publications) goes on at once. Mails go out over
one SMTP connection, opened only if someone is to be mailed, and each follower reached is
recorded as their mail is accepted (committed at once), so that a mailing cut off goes on where
it stopped: only a mail accepted in the instant before a worker is killed can go twice. A mail
the server refuses for good (an address it does not know, a message it will not take: a 5xx)
is recorded as refused and not tried again; anything else stops the mailing, for the task's
retry or beat to take up.
"""

import contextlib
import datetime
import logging
import time

from django.core.mail import get_connection
from django.utils import timezone

from alerts.letters import Letter
from alerts.models import Delivery, Follower, Mailing
from alerts.publication import context, publication_of
from common.locking import claim_number
from common.outgoing_mail import REFUSALS, refused_for_good
from grading.models import RatingRun
from grading.run.runs import REVISED_BY, republished_months

logger = logging.getLogger(__name__)

BATCH = 500  # followers read from the database a batch at a time
MAILING_LOCKS = 0x6D61696C << 32  # a mailing's claim: the advisory lock of this plus its pk


@contextlib.contextmanager
def claimed(key: str, subject: str):
    """The mailing of ``key``, claimed by this task while the block runs; None if it is
    finished, or another task (alive: its connection holds the claim) is at work on it."""
    now = timezone.now()
    mailing, _ = Mailing.objects.get_or_create(
        key=key, defaults={"subject": " ".join(subject.split())[:200], "created_at": now}
    )
    with claim_number(MAILING_LOCKS + mailing.pk) as held:
        mailing.refresh_from_db()
        if not held or mailing.finished_at is not None:
            yield None
            return
        Mailing.objects.filter(pk=mailing.pk).update(claimed_at=now)  # at work since, for the admin
        yield mailing


def mail_publication(run: RatingRun, months: list[str]) -> Mailing | None:
    """Mail every follower ``run``'s publication concerns, once: None if another task has it."""
    publication = publication_of(run, months)
    with claimed(f"run:{run.pk}", publication.subject) as mailing:
        if mailing is None:
            return None
        started = time.monotonic()
        done = set(Delivery.objects.filter(mailing=mailing).values_list("follower_id", flat=True))
        waiting = [pk for pk in publication.by_follower if pk not in done]
        try:
            if waiting:  # nobody left to mail: finished without the mail server
                send_all(mailing, publication, waiting)
        finally:
            # Finished, or cut off (the mail server gone): the claim let go of either way, for
            # the task's retry or beat's mail_missed_publications to go on from the last reached.
            Mailing.objects.filter(pk=mailing.pk).update(claimed_at=None)
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


def send_all(mailing: Mailing, publication, waiting: list[int]) -> None:
    """Mail each follower of ``waiting`` over one SMTP connection."""
    letter = Letter("publication")
    with get_connection() as connection:
        for start in range(0, len(waiting), BATCH):
            batch = Follower.objects.filter(pk__in=waiting[start : start + BATCH])
            send_each(
                connection,
                mailing,
                ((who, letter.to(who, mailing.subject, context(publication, who.pk))) for who in batch),
            )


def send_each(connection, mailing, letters) -> None:
    """Send each (follower, message) over ``connection``, recording each follower reached, or
    refused for good, the moment the server answers: whatever stops it, even a worker killed,
    those recorded are not mailed again."""
    for follower, message in letters:
        refused = False
        try:
            connection.send_messages([message])
        except REFUSALS as error:
            if not refused_for_good(error):
                raise
            logger.warning("mailing %s: the mail to follower %s refused: %s", mailing.key, follower.pk, error)
            refused = True
        Delivery.objects.create(mailing=mailing, follower=follower, sent_at=timezone.now(), refused=refused)


MISSED_WITHIN = datetime.timedelta(days=2)  # older publications are news no longer


def missed_publications():
    """(run, months published) of the runs of the last two days whose mailing was never started
    (its message lost with the broker) or is unfinished (cut off, or at work: the task sent
    for it finds it claimed and leaves it be)."""
    now = timezone.now()
    runs = (
        RatingRun.objects.filter(finished_at__gte=now - MISSED_WITHIN, follow_ups_done=True)
        .filter(outcome=RatingRun.Outcome.SUCCEEDED)
        .exclude(trigger__startswith=REVISED_BY.format(""))
        .exclude(trigger=RatingRun.IMPORT)  # a take-on: the previous system's ratings, no news
        .select_related("period__rating_list")
    )
    finished = set(
        Mailing.objects.filter(key__startswith="run:", finished_at__isnull=False).values_list("key", flat=True)
    )
    for run in runs:
        if f"run:{run.pk}" not in finished and (months := republished_months(run)):
            yield run, months
