"""Logging in: password guessing is paused, and each role lands on its own start page (a
password reset by e-mail: tests/accounts/test_password_reset.py)."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from accounts.roles import ARBITERS, RATING_OFFICERS
from grading.models import RatingRun

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


@pytest.fixture
def arbiter(django_user_model):
    return django_user_model.objects.create_user("arbiter", password="right-horse-battery")


def log_in(client, password, address="198.51.100.7"):
    # Behind the proxy the visitor's address is the last one it added to X-Forwarded-For.
    return client.post(
        LOGIN, {"username": "arbiter", "password": password}, HTTP_X_FORWARDED_FOR=f"10.9.9.9, {address}"
    )


def test_ten_wrong_passwords_pause_that_user_from_that_address(client, arbiter):
    wrong = [log_in(client, f"guess-{n}").status_code for n in range(10)]

    locked = log_in(client, "right-horse-battery")
    elsewhere = log_in(client, "right-horse-battery", address="203.0.113.9")

    assert wrong == [200] * 9 + [429]
    assert locked.status_code == 429 and "paused for 15 minutes" in locked.content.decode()
    assert elsewhere.status_code == 302  # the arbiter, from their own address, still gets in


def test_the_pause_sends_the_user_to_an_administrator_who_alone_can_lift_it(client, arbiter):
    for n in range(10):
        log_in(client, f"guess-{n}")

    page = log_in(client, "right-horse-battery").content.decode()

    assert "ask an administrator to unlock it" in page and "rating officer" not in page


def test_a_successful_login_clears_the_count(client, arbiter):
    for n in range(9):
        log_in(client, f"guess-{n}")
    assert log_in(client, "right-horse-battery").status_code == 302
    client.logout()

    assert [log_in(client, f"again-{n}").status_code for n in range(9)] == [200] * 9


def test_the_admin_login_is_paused_the_same_way(client, django_user_model):
    django_user_model.objects.create_superuser("chief", password="right-horse-battery")
    attempts = [
        client.post("/admin/login/", {"username": "chief", "password": f"guess-{n}"}).status_code for n in range(11)
    ]

    assert attempts[-1] == 429


def test_a_staff_member_without_the_permission_cannot_start_a_rating_run(client, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_ratingrun"))
    client.force_login(clerk)
    add = reverse("admin:grading_ratingrun_add")

    assert client.get(add).status_code == 403
    assert client.post(add, {"rating_list": 1, "month": "2026-10"}).status_code == 403
    assert not RatingRun.objects.exists()


def test_each_role_lands_on_its_own_start_page(client, django_user_model):
    officer = django_user_model.objects.create_user("officer", password="right-horse-battery", is_staff=True)
    officer.groups.add(Group.objects.get(name=RATING_OFFICERS))
    arbiter = django_user_model.objects.create_user("arb", password="right-horse-battery")
    arbiter.groups.add(Group.objects.get(name=ARBITERS))

    landed = {}
    for name in ("officer", "arb"):
        landed[name] = client.post(LOGIN, {"username": name, "password": "right-horse-battery"})["Location"]
        client.logout()

    assert landed == {"officer": "/admin/", "arb": "/arbiter/"}


def test_a_page_the_account_does_not_give_says_so_in_the_sites_frame(client, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    client.force_login(clerk)

    response = client.get("/arbiter/")

    assert response.status_code == 403
    page = response.content.decode()
    assert "Your account does not give you this page. The staff pages are in the" in page
    assert 'id="site-search-q"' in page  # the site's header, with its search box
