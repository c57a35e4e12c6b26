"""Public reads from a streaming replica (common/replica.py, docs/database-replica.md), against a
real one made from the test database (tests/replica_server.py). To tell which database a page
read, the replica's replay is paused and the primary written: what the replica shows is the old
value, what the primary shows the new one. Every read of what a test wrote on the replica waits
first for the replica to replay it (caught_up: the primary's WAL position against its replay)."""

import contextlib
import logging
import threading
import time

import pytest
from django.db import connections, transaction
from django.urls import reverse

from common.replica import REPLICA, caught_up, reading_alias, replica_reads
from events.models import Event
from grading.run import publishing
from players.models import Player
from tests.builders import publish_month
from tests.ports import free_port

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True, databases=["default", "replica"])


def replayed():
    """Wait for the replica to replay all the primary has written (the test's writes among it)."""
    assert caught_up(within=30), "the replica did not replay the primary's WAL within 30 s"


@pytest.fixture
def written(replica, federation, arbiter):
    """The federation on both databases; then the replica paused, and Alice renamed and the
    congress renamed on the primary only."""
    Event.objects.filter(pk=federation.congress.pk).update(arbiter=arbiter)
    replayed()
    replica.pause()
    federation.alice.surname = "Fletcher-Hart"
    federation.alice.save()
    Event.objects.filter(pk=federation.congress.pk).update(name="Northquay Open")
    return federation


def test_public_pages_feeds_downloads_and_the_read_api_read_the_replica(client, written):
    pages = [
        reverse("player", args=["200001A"]),
        reverse("player-feed", args=["200001A"]),
        reverse("club-csv", args=["NQC"]),
        reverse("api-player", args=["200001A"]),
    ]

    for url in pages:
        text = client.get(url).content.decode()
        assert "Fletcher" in text and "Fletcher-Hart" not in text, url
    event = client.get(reverse("event", args=["NQ2609"])).content.decode()
    assert "Northquay Congress" in event and "Northquay Open" not in event


def test_the_admin_the_arbiters_pages_and_the_apis_events_read_the_primary(client, admin_client, arbiter, written):
    client.force_login(arbiter)

    assert "Fletcher-Hart" in admin_client.get(f"/admin/players/player/{written.alice.pk}/change/").content.decode()
    assert "Northquay Open" in client.get(reverse("arbiter-events")).content.decode()
    # A pairing program reads its event back after an upload, and keeps no cookie.
    assert client.get(reverse("api-event", args=["NQ2609"])).json()["name"] == "Northquay Open"


def test_once_the_replica_replays_again_the_public_pages_show_the_change(client, replica, written):
    assert "Fletcher-Hart" not in client.get(reverse("player", args=["200001A"])).content.decode()

    replica.resume()
    replayed()

    assert "Fletcher-Hart" in client.get(reverse("player", args=["200001A"])).content.decode()


def test_a_visitor_who_wrote_reads_the_primary_for_the_window_then_the_replica(client, officer, written, settings):
    settings.DATABASE_REPLICA_STICKY_SECONDS = 2
    page = reverse("player", args=["200001A"])

    logged_in = client.post(reverse("login"), {"username": "officer", "password": "pw"})
    right_after = client.get(page).content.decode()
    time.sleep(2.1)
    later = client.get(page).content.decode()

    assert logged_in.status_code == 302 and "wrote" in logged_in.cookies
    assert "Fletcher-Hart" in right_after
    assert "Fletcher-Hart" not in later


def test_a_refused_write_opens_no_window(client, written):
    refused = client.post(reverse("api-events"), {})  # no token: 401

    assert refused.status_code == 401 and "wrote" not in refused.cookies
    assert "Fletcher-Hart" not in client.get(reverse("player", args=["200001A"])).content.decode()


def test_the_public_search_reads_the_replica_with_its_typo_tolerance(client, written):
    found = client.get(reverse("player-search"), {"q": "flecher alice"}).content.decode()

    assert "200001A" in found and "Fletcher-Hart" not in found


def test_outside_a_request_tasks_and_commands_read_the_primary(written):
    assert reading_alias() == "default"
    assert Player.objects.get(pk=written.alice.pk).surname == "Fletcher-Hart"


def test_inside_a_transaction_reads_go_to_the_primary(written):
    with replica_reads():
        before = Player.objects.get(pk=written.alice.pk).surname
        with transaction.atomic():
            inside = Player.objects.get(pk=written.alice.pk).surname

    assert (before, inside) == ("Fletcher", "Fletcher-Hart")


def test_a_row_read_from_the_replica_is_saved_on_the_primary(written):
    with replica_reads():
        grace = Player.objects.get(pk=written.grace.pk)
        grace.forenames = "Gracie"
        grace.save(update_fields=["forenames"])
        on_the_replica = Player.objects.get(pk=written.grace.pk).forenames

    assert grace._state.db == "default"
    assert (Player.objects.get(pk=written.grace.pk).forenames, on_the_replica) == ("Gracie", "Grace")


@contextlib.contextmanager
def replica_unreachable():
    """The alias ``replica`` pointed at a port nothing listens on, as a replica that is down."""
    settings = connections.settings[REPLICA]
    port = settings["PORT"]
    connections[REPLICA].close()
    del connections[REPLICA]
    settings["PORT"] = str(free_port())  # nothing listens there
    try:
        yield
    finally:
        connections[REPLICA].close()
        del connections[REPLICA]
        settings["PORT"] = port


def test_a_replica_that_cannot_be_reached_leaves_the_pages_to_the_primary(client, written, caplog):
    with replica_unreachable(), caplog.at_level(logging.WARNING, logger="common.replica"):
        first = client.get(reverse("player", args=["200001A"]))
        second = client.get(reverse("api-player", args=["200001A"]))

    assert first.status_code == 200 and "Fletcher-Hart" in first.content.decode()
    assert second.json()["surname"] == "Fletcher-Hart"
    # Logged once: the second page did not try the replica again so soon.
    assert [record.getMessage()[:35] for record in caplog.records] == ["the replica failed /players/200001A"]


def test_system_status_says_how_far_behind_the_replica_is(admin_client, replica, written):
    paused = admin_client.get(reverse("system-status")).content.decode()
    replica.resume()
    replayed()
    streaming = admin_client.get(reverse("system-status")).content.decode()

    assert "has its replay paused" in paused and " of WAL" in paused
    assert "nothing: it has replayed everything the primary wrote" in streaming


def test_a_publication_is_told_to_the_pages_once_the_replica_has_replayed_it(client, replica, federation):
    replayed()
    replica.pause()
    threading.Timer(1.0, replica.resume).start()

    started = time.perf_counter()
    publish_month("otb-standard", "2026-11", [{"player": federation.grace, "rating": 1711}])
    waited = time.perf_counter() - started
    page = client.get(reverse("rating-list", args=["otb-standard"])).content.decode()

    assert waited >= 0.9
    assert "OTB standard list, 2026-11" in page and "1711" in page


def test_the_replicas_pages_never_take_the_primarys_newer_publication(
    client, officer, replica, federation, monkeypatch
):
    monkeypatch.setattr(publishing, "REPLICA_WAIT_SECONDS", 0.2)
    replayed()
    replica.pause()
    publish_month("otb-standard", "2026-11", [{"player": federation.grace, "rating": 1711}])

    client.post(reverse("login"), {"username": "officer", "password": "pw"})  # reads the primary a while
    officers = client.get(reverse("rating-list", args=["otb-standard"])).content.decode()
    client.logout()  # its cookies with it
    visitors = client.get(reverse("rating-list", args=["otb-standard"])).content.decode()

    assert "OTB standard list, 2026-11" in officers and "1711" in officers
    assert "OTB standard list, 2026-10" in visitors and "1695" in visitors and "1711" not in visitors
