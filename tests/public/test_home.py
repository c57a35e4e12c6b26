import pytest
from django.urls import reverse

from grading.demo.federation import load_demo

pytestmark = pytest.mark.django_db


def test_the_home_page_shows_the_lists_and_recent_events(client, django_assert_max_num_queries):
    load_demo(players=60, seed=7)

    with django_assert_max_num_queries(5):
        response = client.get(reverse("home"))

    page = response.content.decode()
    assert response.status_code == 200
    assert "60 players in 8 clubs." in page
    rows = [page.index(f"<td>{name}</td>") for name in ("OTB standard", "OTB rapid", "Online")]
    assert rows == sorted(rows)
    assert "Congress" in page


def test_the_status_page_is_for_staff_only(client):
    response = client.get(reverse("system-status"))

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
