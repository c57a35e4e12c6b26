"""A password reset as production runs it: the page hands the address to a real Celery worker
through the broker, and the worker looks the address up and mails through the SMTP server the
test started (CI runs this). The page does the same work for an address with an account as for
one without: not one query of it reads the accounts, so its time tells nothing."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.accounts.mails import link_in
from tests.celery_worker import running_worker, wait_until

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def ask(address):
    with CaptureQueriesContext(connection) as queries:
        answer = Client().post(reverse("password_reset"), {"email": address})
    return answer, [query["sql"] for query in queries.captured_queries]


def test_the_page_does_the_same_work_for_any_address_and_the_worker_mails_the_account(smtp_server, django_user_model):
    django_user_model.objects.create_user("jsmith", email="arbiter@example.org", password="old-horse-battery")
    mail = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_server.port), "SITE_URL": "https://ratings.example.org"}

    with running_worker(**mail):
        known, known_queries = ask("arbiter@example.org")
        unknown, unknown_queries = ask("nobody@example.org")
        wait_until(lambda: smtp_server.inbox.to("arbiter@example.org"), "the worker mails the account's address")

    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert known_queries == unknown_queries
    assert not [sql for sql in known_queries if "auth_user" in sql]
    [message] = smtp_server.inbox.messages
    assert message["X-RcptTo"] == "arbiter@example.org"
    assert link_in(message, "/accounts/reset/").startswith("/accounts/reset/")
