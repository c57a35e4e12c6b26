"""The alerts as production sends them: a rating run on a real Celery worker publishes, the
mailing's task goes through the broker to the worker, and the worker mails through the SMTP
server the test started (CI runs this)."""

import datetime
import os
import signal
from collections import Counter

import pytest

from alerts.models import Delivery, Follow, Follower, Mailing
from chess.months import Month
from grading.models import RatingList
from grading.run.runs import do_start_rating
from grading.run.workers import wait_for
from tests.builders import PlayerFactory, approved_event, take_on
from tests.celery_worker import running_worker, wait_until

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_run_on_a_worker_mails_its_followers_through_the_broker_once(smtp_server):
    abbott = PlayerFactory(code="111111A", surname="Abbott", forenames="Sam")
    PlayerFactory(code="222222B", surname="Baker", forenames="Jo")
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 3), [("111111A", "222222B", "1/2-1/2")])
    now = datetime.datetime.now(datetime.UTC)
    fan = Follower.objects.create(email="fan@example.net", key="k" * 43, created_at=now)
    Follow.objects.create(follower=fan, kind="player", player=abbott, created_at=now, confirmed_at=now)
    mail = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_server.port), "SITE_URL": "https://ratings.example.org"}

    with running_worker(**mail):
        run = do_start_rating(
            RatingList.objects.get(code="otb-standard"), Month(2026, 10), "test", today=datetime.date(2026, 11, 21)
        )
        assert wait_for(run, pickup_timeout=30).outcome == "succeeded"
        wait_until(lambda: smtp_server.inbox.to("fan@example.net"), "the worker mails the fan", timeout=60)
        wait_until(lambda: Mailing.objects.filter(finished_at__isnull=False).exists(), "the mailing is finished")

    [message] = smtp_server.inbox.to("fan@example.net")
    assert message["Subject"] == "OTB standard list: 2026-10 published"
    # A 1500 draws B 1900: D = 400, offset 8.4: 1508.4 -> 1508 (+8).
    assert "  2026-10: 1508 (+8), 1 game\n" in message.get_body(("plain",)).get_content()
    assert Mailing.objects.get().sent == 1


def test_a_worker_killed_mid_mailing_leaves_each_mail_recorded_and_a_new_worker_goes_on_at_once(smtp_server):
    """600 followers of the list; the worker mailing them is killed (SIGKILL) after 100 mails.
    Every mail the server accepted is recorded, at most the one in flight aside; a worker that
    starts takes the mailing up at once (its claim died with the killed worker's connection), and
    mails only those not reached."""
    PlayerFactory(code="111111A", surname="Abbott", forenames="Sam")
    PlayerFactory(code="222222B", surname="Baker", forenames="Jo")
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 3), [("111111A", "222222B", "1/2-1/2")])
    standard = RatingList.objects.get(code="otb-standard")
    now = datetime.datetime.now(datetime.UTC)
    followers = Follower.objects.bulk_create(
        Follower(email=f"reader{number}@example.net", key=f"key{number:040d}", created_at=now) for number in range(600)
    )
    Follow.objects.bulk_create(
        Follow(follower=who, kind="list", rating_list=standard, created_at=now, confirmed_at=now) for who in followers
    )
    mail = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_server.port), "SITE_URL": "https://ratings.example.org"}
    arrived = smtp_server.inbox.maildir

    with running_worker(**mail) as worker:
        run = do_start_rating(standard, Month(2026, 10), "test", today=datetime.date(2026, 11, 21))
        assert wait_for(run, pickup_timeout=30).outcome == "succeeded"
        wait_until(lambda: len(arrived.keys()) >= 100, "the worker has sent 100 mails", timeout=60)
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(10)

    mailed = len(arrived.keys())
    assert mailed < 600, "the mailing was over before the worker was killed"
    assert mailed - 1 <= Delivery.objects.count() <= mailed  # each recorded as it was accepted

    with running_worker(**mail):
        wait_until(lambda: Mailing.objects.filter(finished_at__isnull=False).exists(), "a new worker finishes it")

    received = Counter(address for message in smtp_server.inbox.messages for address in message["X-RcptTo"].split(","))
    assert len(received) == 600 and Delivery.objects.count() == 600
    assert sum(count - 1 for count in received.values()) <= 1  # the mail in flight at the kill, if any
    assert Mailing.objects.get().sent == 600
