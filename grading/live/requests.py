"""Asking for live ratings: a list's computation is asked for once the current transaction commits
(after every approval, send-back, run and rule set change), and sent to the workers a few seconds
later, so that a burst of approvals is computed once (grading.live.computing does the work)."""

import logging

from django.db import transaction
from django.utils import timezone

from grading.engine.rule_sets import lists_read_by
from grading.models import RatingList
from grading.run.broker import Unreachable, send

logger = logging.getLogger(__name__)

DELAY_SECONDS = 5  # after a request: the approvals of a few seconds are computed once
BUSY_RETRY_SECONDS = 10  # after a computation found another at work on its list


def request_live(rating_list):
    """Ask for the list's live ratings to be computed again once the current transaction commits."""
    transaction.on_commit(lambda: queue_live(rating_list.pk, timezone.now()))


def request_live_of_readers(rating_list, itself=True):
    """Ask for the live ratings of ``rating_list`` (unless not ``itself``) and of the lists
    that read its states."""
    if itself:
        request_live(rating_list)
    for reader in RatingList.objects.exclude(pk=rating_list.pk):
        if rating_list.code in lists_read_by(reader.code):
            request_live(reader)


def queue_live(rating_list_pk: int, requested_at, countdown=DELAY_SECONDS):
    try:
        send("grading.tasks.compute_live_ratings", (rating_list_pk, requested_at.isoformat()), countdown=countdown)
    except Unreachable as error:
        # Live ratings are news, not the record: the next approval or run, or a worker that
        # starts, asks again.
        logger.warning("live ratings of list %s: %s", rating_list_pk, error)
