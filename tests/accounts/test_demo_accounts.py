"""`./dev serve` prints logins for the demo's arbiter, who has the demo's congresses, and its rating
officer, each with a fresh random password, as for the admin."""

import datetime
import re

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.roles import ARBITERS, RATING_OFFICERS
from events.models import Event
from grading.demo.federation import load_demo

pytestmark = pytest.mark.django_db


def logins(capsys) -> dict:
    return dict(re.findall(r"Log in as (\w+) / (\S+)", capsys.readouterr().out))


@override_settings(DEBUG=True)
def test_the_demos_arbiter_and_officer_get_fresh_passwords_each_run(capsys, django_user_model, client):
    load_demo(players=40, seed=3, today=datetime.date(2026, 11, 21))
    call_command("demo_accounts")
    first = logins(capsys)
    call_command("demo_accounts")
    second = logins(capsys)

    assert set(first) == set(second) == {"arbiter", "officer"}
    assert all(first[name] != second[name] for name in first)
    arbiter, officer = (django_user_model.objects.get(username=name) for name in ("arbiter", "officer"))
    assert arbiter.check_password(second["arbiter"]) and officer.check_password(second["officer"])
    assert list(arbiter.groups.values_list("name", flat=True)) == [ARBITERS] and not arbiter.is_staff
    assert list(officer.groups.values_list("name", flat=True)) == [RATING_OFFICERS] and officer.is_staff
    congresses = Event.objects.filter(name__contains="Congress")
    assert congresses.count() >= 6 and set(congresses.values_list("arbiter", flat=True)) == {arbiter.pk}
    logged_in = client.post("/accounts/login/", {"username": "arbiter", "password": second["arbiter"]})
    assert logged_in["Location"] == "/arbiter/" and "Congress" in client.get("/arbiter/").content.decode()


def test_demo_logins_are_refused_outside_a_development_server(django_user_model):
    with pytest.raises(CommandError, match="run with DEBUG=true"):
        call_command("demo_accounts")
    assert not django_user_model.objects.exists()
