"""The role mails as production sends them: through the broker to a real Celery worker, which
mails through the SMTP server the test started (CI runs this); and a worker killed in the middle
of the officers' digest, after which a new worker finishes it, each officer mailed once."""

import datetime
import os
import signal
from collections import defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from accounts.roles import RATING_OFFICERS
from events import approval, workflow
from grading.run.broker import send
from mails.models import Delivery, Occasion
from tests.builders import EventFactory, PlayerFactory, stored_event
from tests.celery_worker import running_worker, wait_until

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

OFFICERS = 400


def mail_settings(smtp_server) -> dict:
    # The digest is due at any hour of the test: a worker that starts takes up today's at once.
    return {
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_server.port),
        "SITE_URL": "https://ratings.example.org",
        "OFFICER_DIGEST_HOUR": "0",
    }


def test_an_approval_is_mailed_to_its_arbiter_by_a_worker_through_the_broker(smtp_server, arbiter, officer):
    arbiter.email = "arbiter@example.net"
    arbiter.save()
    PlayerFactory(code="123456A")
    PlayerFactory(code="100000A")
    event = workflow.do_submit_event(stored_event(arbiter), acting_user=arbiter)

    with running_worker(**mail_settings(smtp_server)):
        approval.do_approve_event(event, acting_user=officer)  # committed: its task goes to the worker
        wait_until(lambda: smtp_server.inbox.to("arbiter@example.net"), "the worker mails the arbiter", timeout=60)
        wait_until(lambda: Occasion.objects.filter(finished_at__isnull=False).exists(), "the occasion is finished")

    [message] = smtp_server.inbox.to("arbiter@example.net")
    assert message["Subject"] == f"{event.name} ({event.code}) is approved for rating"
    assert Delivery.objects.get().sent_at is not None


def test_a_worker_killed_mid_digest_leaves_each_mail_claimed_and_a_new_worker_mails_each_officer_once(
    smtp_server, settings
):
    """400 officers; the worker mailing them the digest of 2026-11-21 is killed (SIGKILL) once 60
    mails have arrived. Each mail sent is recorded, but for the one in flight, whose claim is
    left unsent; a new worker takes the digest up at once (the claim died with the killed
    worker's connection), mails those not reached, and sends the one in flight again under its
    Message-ID: each officer has one message, whatever the mail server received."""
    settings.OFFICER_DIGEST_HOUR = 0
    officers = Group.objects.get(name=RATING_OFFICERS)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"officer{number}", email=f"officer{number}@example.net", password="!")
        for number in range(OFFICERS)
    )
    get_user_model().groups.through.objects.bulk_create(
        get_user_model().groups.through(user_id=user.pk, group_id=officers.pk) for user in users
    )
    arrived = smtp_server.inbox.maildir

    with running_worker(**mail_settings(smtp_server)) as worker:
        # The worker's start took today's digest up (its hour passed): nothing waited, none sent.
        wait_until(lambda: Occasion.objects.filter(finished_at__isnull=False).exists(), "today's digest decided")
        EventFactory(
            code="SPRING",
            name="Spring Congress",
            status="submitted",
            status_changed_at=datetime.datetime.now(datetime.UTC),
        )
        send("mails.tasks.mail_officer_digest", ("2026-11-21",))
        wait_until(lambda: len(arrived.keys()) >= 60, "the worker has sent 60 mails", timeout=60)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(10)

    mailed = len(arrived.keys())
    assert mailed < OFFICERS, "the digest was over before the worker was killed"
    sent = Delivery.objects.filter(sent_at__isnull=False).count()
    assert mailed - 1 <= sent <= mailed  # each recorded as it was accepted
    assert Delivery.objects.filter(sent_at=None).count() <= 1  # claimed before sending: the one in flight

    with running_worker(**mail_settings(smtp_server)):
        digest = Occasion.objects.filter(subject="2026-11-21", finished_at__isnull=False)
        wait_until(digest.exists, "a new worker finishes it")

    message_ids = defaultdict(list)
    for message in smtp_server.inbox.messages:
        assert message["Subject"] == "Waiting for the rating officers: 1 event submitted for approval"
        message_ids[message["X-RcptTo"]].append(message["Message-ID"])
    assert len(message_ids) == OFFICERS
    assert all(len(set(ids)) == 1 for ids in message_ids.values())  # one message each, as mail programs see it
    assert sum(len(ids) - 1 for ids in message_ids.values()) <= 1  # the mail in flight at the kill, if any
    assert (digest.get().recipients, digest.get().sent) == (OFFICERS, OFFICERS)
    assert Delivery.objects.filter(sent_at__isnull=False).count() == OFFICERS
    today = Occasion.objects.exclude(subject="2026-11-21").get()
    assert (today.kind, today.recipients) == ("officer-digest", 0)  # decided once, before anything waited
