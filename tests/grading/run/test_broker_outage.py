"""With the broker's Redis down (a Redis of the test's own, stopped), what staff start is kept,
and they are told plainly that it waits for the broker: no page nor command fails or hangs."""

import contextlib
import datetime
import subprocess
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from config.celery import app
from events.approval import do_approve_event
from events.models import Event
from grading.live.requests import queue_live
from grading.models import LiveList, RatingList, RatingRun
from grading.run.runs import UNSENT
from grading.run.workers import wait_for
from laboratory.models import Simulation
from tests.builders import PlayerFactory, approved_event, take_on
from tests.celery_worker import celery_on, running_worker, wait_until
from tests.redis_server import redis_server

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 10)
# The messages are sent on commit, before the page is answered, as in production.
ON_COMMIT = pytest.mark.django_db(transaction=True, serialized_rollback=True)
QUICKLY = 5  # seconds: Celery's own retries would hold a page for 20


@pytest.fixture
def october(rate):
    """October's standard list published (in process, before the outage)."""
    PlayerFactory(code="111111A", surname="Abbott", birth_date=datetime.date(1980, 1, 1))
    PlayerFactory(code="222222B", surname="Baker", birth_date=datetime.date(1975, 1, 1))
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    approved_event("OCT", "otb-standard", OCT, [("111111A", "222222B", "1-0")])
    assert rate("otb-standard", "2026-10").outcome == "succeeded"
    return RatingList.objects.get(code="otb-standard")


@pytest.fixture
def broker_down():
    """Celery's broker and result store a Redis of the test's own, stopped."""
    with redis_server() as server, celery_on(server.url):
        server.stop()
        yield server


def timed(call):
    began = time.monotonic()
    result = call()
    return result, time.monotonic() - began


def text(response):
    return " ".join(response.content.decode().split())


@ON_COMMIT
def test_a_run_started_in_the_admin_with_the_broker_down_is_queued_and_waits_for_it(october, admin_client, broker_down):
    response, seconds = timed(
        lambda: admin_client.post(
            "/admin/grading/ratingrun/add/", {"rating_list": october.pk, "month": "2026-10"}, follow=True
        )
    )

    run = RatingRun.objects.latest("pk")
    assert (response.status_code, run.outcome, run.progress) == (200, "queued", UNSENT)
    assert (
        f"OTB standard 2026-10: rating run {run.pk} is queued and will start when the broker is back: the workers "
        "cannot be reached now (Redis is down), so it waits; nothing more is needed."
    ) in text(response)
    assert seconds < QUICKLY


@ON_COMMIT
def test_a_late_event_approved_with_the_broker_down_is_approved_and_says_its_run_waits(
    october, officer, client, broker_down
):
    late = approved_event("LATE", "otb-standard", OCT, [("222222B", "111111A", "1-0")], status=Event.Status.SUBMITTED)
    client.force_login(officer)

    response, seconds = timed(
        lambda: client.post(f"/admin/events/event/{late.pk}/decide/", {"approve": "1"}, follow=True)
    )

    late.refresh_from_db()
    run = RatingRun.objects.latest("pk")
    assert (response.status_code, late.status) == (200, "approved")
    assert (run.trigger, run.outcome, run.progress) == ("late change to LATE", "queued", UNSENT)
    assert "LATE is approved for rating." in text(response)
    assert (f"OTB standard 2026-10: rating run {run.pk} is queued and will start when the broker is back") in text(
        response
    )
    assert seconds < QUICKLY


@ON_COMMIT
def test_a_simulation_started_with_the_broker_down_says_it_was_not_started(october, officer, client, broker_down):
    client.force_login(officer)

    response, seconds = timed(
        lambda: client.post(
            "/admin/laboratory/simulation/add/",
            {"rating_list": "otb-standard", "first_month": "2026-10", "last_month": "2026-10", "rules": "ecf-2024"},
            follow=True,
        )
    )

    simulation = Simulation.objects.get()
    assert (response.status_code, simulation.status) == (200, "failed")
    assert simulation.message.startswith("not started: the broker (Redis) cannot be reached: Error 111 connecting to")
    assert simulation.message.endswith("Connection refused.; start it again once it is back")
    assert f"Simulation {simulation.pk} not started: the broker (Redis) cannot be reached" in text(response)
    assert seconds < QUICKLY


def test_rate_period_with_the_broker_down_says_so_and_queues_nothing(october, broker_down):
    runs = RatingRun.objects.count()

    with pytest.raises(CommandError) as error:
        _, seconds = timed(lambda: call_command("rate_period", "2026-10"))

    assert error.value.returncode == 1
    assert str(error.value).startswith("the broker (Redis) cannot be reached: Error 111 connecting to 127.0.0.1:")
    assert str(error.value).endswith("Connection refused.; nothing was queued: run this again once it is back")
    assert "worker" not in str(error.value)
    assert RatingRun.objects.count() == runs


def test_the_system_status_page_says_the_broker_is_down(admin_client, broker_down):
    response, seconds = timed(lambda: admin_client.get("/admin/status/"))

    assert response.status_code == 200
    assert "Rating runs cannot start: the broker (Redis) cannot be reached: Error 111 connecting to" in text(response)
    assert seconds < QUICKLY


# The worker when Redis goes: kombu's Redis transport may kill it (an AttributeError restoring the
# messages it held), and systemd starts it again (deploy/systemd/). What it held, or Redis lost
# (a Redis that keeps nothing restarts empty), a worker that starts takes up again.

NOV = datetime.date(2026, 11, 5)


def live_of(code):
    return LiveList.objects.filter(rating_list__code=code, computed_at__isnull=False).first()


def redis_goes_away_from(worker, server):
    """Redis stops under a worker holding a message; a worker still alive after is stopped."""
    wait_until(lambda: any((app.control.inspect(timeout=1).scheduled() or {}).values()), "the worker holds it")
    server.stop()
    with contextlib.suppress(subprocess.TimeoutExpired):
        worker.wait(timeout=10)  # it may die; if not, it stops with its block


@ON_COMMIT
def test_a_live_update_a_worker_held_when_redis_went_is_computed_by_the_worker_started_after(october):
    with redis_server() as server, celery_on(server.url):
        with running_worker(server.url) as worker:
            # The worker asks for every list's live ratings as it starts: over before the test goes on.
            wait_until(lambda: live_of("otb-standard") and live_of("otb-standard").games == 0, "the first live")
            approved_event("NOV", "otb-standard", NOV, [("222222B", "111111A", "1/2-1/2")])
            queue_live(october.pk, timezone.now(), countdown=60)  # the approval's request, held by the worker
            redis_goes_away_from(worker, server)
        server.start()  # empty: the request is lost with it, if the dead worker had not lost it already

        with running_worker(server.url):
            wait_until(lambda: live_of("otb-standard").games == 1, "the live ratings count November's game")

    live = live_of("otb-standard")
    assert (live.first_month, live.last_month, live.games, live.events, live.players_rated) == (
        "2026-11",
        "2026-11",
        1,
        1,
        2,
    )


@ON_COMMIT
def test_a_run_queued_while_redis_was_down_is_carried_out_by_the_worker_started_after(october, officer):
    late = approved_event("LATE", "otb-standard", OCT, [("222222B", "111111A", "1-0")], status=Event.Status.SUBMITTED)
    with redis_server() as server, celery_on(server.url):
        with running_worker(server.url) as worker:
            queue_live(october.pk, timezone.now(), countdown=60)  # a message the worker holds
            redis_goes_away_from(worker, server)
            do_approve_event(late, acting_user=officer)  # Redis down: the run it starts is queued, unsent
            run = RatingRun.objects.get(trigger="late change to LATE")
            assert (run.outcome, run.progress) == ("queued", UNSENT)
        server.start()

        with running_worker(server.url):
            run = wait_for(run, pickup_timeout=60)

    assert (run.outcome, run.message) == (
        "succeeded",
        "otb-standard 2026-10: 2 players rated on 2 games, revision 1 published",
    )
