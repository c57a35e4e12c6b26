import datetime

import pytest
from django.contrib import admin
from django.urls import reverse

from django.utils import timezone

from events.models import Event, Upload
from grading.demo import load_demo
from grading.models import RatingList
from grading.services import start_rating, wait_for
from players.models import Player, years_before

pytestmark = pytest.mark.django_db

OUR_APPS = {"players", "events", "grading"}


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("officer", "officer@example.org", "pw")
    client.force_login(user)
    return client


def our_models():
    return [model for model in admin.site._registry if model._meta.app_label in OUR_APPS]


def test_every_model_of_ours_is_in_the_admin():
    from django.apps import apps

    ours = {model for model in apps.get_models() if model._meta.app_label in OUR_APPS}

    assert ours == set(our_models())


def test_every_list_page_loads_with_search_and_each_filter_on_demo_data(staff_client):
    load_demo(players=60, seed=7)
    for model in our_models():
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = staff_client.get(url, {"q": "a"})
        assert response.status_code == 200, url
        changelist = response.context["cl"]
        for list_filter in changelist.filter_specs:
            for choice in list_filter.choices(changelist):
                response = staff_client.get(choice["query_string"] and url + choice["query_string"])
                assert response.status_code == 200, (url, choice["query_string"])


def test_every_change_page_loads_for_a_demo_object(staff_client, django_user_model, django_capture_on_commit_callbacks):
    summary = load_demo(players=60, seed=7)
    with django_capture_on_commit_callbacks(execute=True):
        run = start_rating(RatingList.objects.get(code="otb-standard"), summary.first_month, "test")
    assert wait_for(run, pickup_timeout=5).outcome == "succeeded"
    Upload.objects.create(
        event=Event.objects.first(), file="uploads/x", original_name="congress.trf", sha256="0" * 64,
        format="trf", uploaded_by=django_user_model.objects.get(), uploaded_at=timezone.now(),
    )
    for model in our_models():
        instance = model.objects.first()
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[instance.pk])
        assert staff_client.get(url).status_code == 200, url


def test_the_junior_filter_counts_players_under_18(staff_client):
    load_demo(players=60, seed=7)
    cutoff = years_before(datetime.date.today(), 18)
    juniors = Player.objects.filter(birth_date__gt=cutoff).count()

    response = staff_client.get(reverse("admin:players_player_changelist"), {"age": "junior"})

    assert juniors > 0
    assert response.context["cl"].result_count == juniors


def test_a_visitor_who_is_not_staff_is_sent_to_the_login(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("player", password="pw"))

    response = client.get(reverse("admin:players_player_changelist"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_the_games_and_events_of_ratings_cannot_be_deleted_or_edited_in_the_admin(staff_client):
    load_demo(players=60, seed=7)
    rated = Event.objects.filter(status=Event.Status.APPROVED).first()
    game = rated.games.first()
    rated.status = Event.Status.RATED
    rated.save()

    assert staff_client.get(reverse("admin:events_event_delete", args=[rated.pk])).status_code == 403
    assert staff_client.post(reverse("admin:events_game_delete", args=[game.pk]), {"post": "yes"}).status_code == 403
    page = staff_client.get(reverse("admin:events_game_change", args=[game.pk]))
    assert b'name="result"' not in page.content  # read only
    assert b"delete_selected" not in staff_client.get(reverse("admin:events_game_changelist")).content
    assert b"delete_selected" not in staff_client.get(reverse("admin:events_event_changelist")).content
    assert game.__class__.objects.filter(pk=game.pk).exists()
