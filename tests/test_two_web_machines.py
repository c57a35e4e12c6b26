"""Two web machines behind one load balancer share nothing but the database server, Redis and the
object store (docs/deployment.md): a file an arbiter uploads through one is checked, downloaded and
approved by a rating officer through the other. Two real gunicorn processes, each with a local
folder of its own, over HTTP with logins and CSRF tokens as a browser sends them; the store is
moto's S3 server, a process too (tests/s3_server.py)."""

import os
import re
import uuid

import pytest
import redis
import requests
from django.conf import settings
from django.db import connection
from django.urls import reverse

from events.models import Event, Upload
from tests.builders import ECF_EXAMPLE
from tests.web_server import web_server

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def shared_services():
    """PostgreSQL and Redis, as CI runs the tests; a SQLite file is no database server."""
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        message = (
            "needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): two web machines share a database "
            "server and Redis, not a SQLite file"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    # What the machines send to the broker waits on a queue of the test's own, emptied after it.
    queue = f"tests-{uuid.uuid4().hex[:12]}"
    yield {"TEST_CELERY_QUEUE": queue}
    redis.Redis.from_url(settings.REDIS_URL).delete(
        queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"
    )


@pytest.fixture
def machines(shared_services, object_store, tmp_path):
    """Two web machines: the same database, Redis and store; each a VAR_DIR (a local disk) of its own."""
    common = {
        **shared_services,
        **object_store.settings(),
        "TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_COOKIES": "false",  # plain http between the test and the machines
        "BEHIND_PROXY": "false",
        "WEB_MACHINES": "2",
    }
    disks = [tmp_path / "machine-1", tmp_path / "machine-2"]
    with (
        web_server(tmp_path / "machine-1.log", **common, VAR_DIR=str(disks[0])) as first,
        web_server(tmp_path / "machine-2.log", **common, VAR_DIR=str(disks[1])) as second,
    ):
        yield (first, second), disks


def csrf_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def logged_in(address, user) -> requests.Session:
    browser = requests.Session()
    login = browser.get(address + reverse("login"))
    answer = browser.post(
        address + reverse("login"),
        {"username": user.username, "password": "pw", "csrfmiddlewaretoken": csrf_token(login.text)},
        allow_redirects=False,
    )
    assert answer.status_code == 302, answer.text
    return browser


def files_on(folder):
    return [path for path in folder.rglob("*") if path.is_file()] if folder.exists() else []


def test_a_file_uploaded_through_one_machine_is_checked_downloaded_and_approved_through_the_other(
    machines, arbiter, officer, object_store
):
    (first, second), disks = machines

    # The arbiter uploads and submits through the first machine.
    arbiter_browser = logged_in(first, arbiter)
    form = arbiter_browser.get(first + reverse("arbiter-upload"))
    uploaded = arbiter_browser.post(
        first + reverse("arbiter-upload"),
        data={"csrfmiddlewaretoken": csrf_token(form.text)},
        files={"file": ("results.txt", ECF_EXAMPLE, "text/plain")},
        allow_redirects=False,
    )
    assert uploaded.status_code == 302, uploaded.text
    event = Event.objects.get()
    report = arbiter_browser.get(first + reverse("arbiter-event", args=[event.pk]))
    submitted = arbiter_browser.post(
        first + reverse("arbiter-submit", args=[event.pk]),
        data={"csrfmiddlewaretoken": csrf_token(report.text)},
        allow_redirects=False,
    )
    assert submitted.status_code == 302 and Event.objects.get().status == "submitted"
    stored = Upload.objects.get()
    assert object_store.read(stored.file.name) == ECF_EXAMPLE

    # The officer checks, downloads and approves it through the second.
    officer_browser = logged_in(second, officer)
    check = officer_browser.get(second + reverse("admin:events_upload_change", args=[stored.pk]))
    download = officer_browser.get(second + reverse("admin:events_upload_original", args=[stored.pk]))
    decision = officer_browser.get(second + reverse("admin:events_event_decide", args=[event.pk]))
    approved = officer_browser.post(
        second + reverse("admin:events_event_decide", args=[event.pk]),
        data={"csrfmiddlewaretoken": csrf_token(decision.text), "approve": "Approve"},
        allow_redirects=False,
    )

    assert check.status_code == 200 and "Games</dt><dd>6, of which 5 rated" in check.text
    assert download.status_code == 200 and download.content == ECF_EXAMPLE
    assert download.headers["Content-Disposition"] == 'attachment; filename="results.txt"'
    assert "6, of which 5 rated" in decision.text
    assert approved.status_code == 302, approved.text
    assert Event.objects.get().status == "approved"
    # Neither machine kept the file on its own disk: the second read it from the store.
    assert files_on(disks[0]) == [] and files_on(disks[1]) == []
    # And the arbiter, whose session the database keeps, reads the approval through the second.
    page = arbiter_browser.get(second + reverse("arbiter-event", args=[event.pk])).text
    assert "Status: <strong>approved</strong>" in page
