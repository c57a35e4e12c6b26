"""The alerts as production sends them: a rating run on a real Celery worker publishes, the
mailing's task goes through the broker to the worker, and the worker mails through the SMTP
server the test started (CI runs this)."""

import datetime

import pytest

from alerts.models import Follow, Follower, Mailing
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
