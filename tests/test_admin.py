import datetime

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from alerts.models import Delivery, Follow, Follower, Mailing
from chess.months import Month
from corrections.reporting import send_report
from events.models import Event, EventChange, Game, Upload
from events.tokens import do_create_token
from grading.demo.federation import load_demo
from grading.integrity.actions import do_set_integrity_threshold
from grading.integrity.scanning import scan_month
from grading.models import Flag, GameNotRated, PlayerMerge, RatingList, RatingPeriod
from grading.rule_set_changes import do_change_rule_set
from grading.run.runs import do_start_rating
from grading.run.workers import wait_for
from mails.choices import do_set_mail_choices
from mails.models import Delivery as RoleMailDelivery
from mails.models import Occasion
from players.models import Club, Player, years_before
from privacy.services import do_restrict_player
from tests.builders import EventFactory, PlayerFactory, publish_month

pytestmark = pytest.mark.django_db

OUR_APPS = {"players", "events", "grading", "alerts", "corrections", "mails"}


@pytest.fixture
def staff_client(client, django_user_model):
    user = django_user_model.objects.create_superuser("officer", "officer@example.org", "pw")
    client.force_login(user)
    return client


def our_models():
    return [model for model in admin.site._registry if model._meta.app_label in OUR_APPS]


def test_every_model_of_ours_is_in_the_admin():
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
        run = do_start_rating(RatingList.objects.get(code="otb-standard"), summary.first_month, "test")
    assert wait_for(run, pickup_timeout=5).outcome == "succeeded"
    Upload.objects.create(
        event=Event.objects.first(),
        file="uploads/x",
        original_name="congress.trf",
        sha256="0" * 64,
        format="trf",
        uploaded_by=django_user_model.objects.get(),
        uploaded_at=timezone.now(),
    )
    do_change_rule_set(RatingList.objects.get(code="online"), summary.first_month + 3, "fide-2017", acting_user=None)
    GameNotRated.objects.create(
        run=run, game=Game.objects.first(), reason="not rated: a match against an unrated player"
    )
    scan_month(RatingList.objects.get(code="otb-standard"), summary.first_month)
    Flag.objects.create(
        rating_list=RatingList.objects.get(code="otb-standard"),
        kind="event",
        key="event:test",
        month=str(summary.first_month),
        summary="an event flagged for the test",
        found_at=timezone.now(),
    )
    do_set_integrity_threshold(
        RatingList.objects.get(code="otb-standard"), 1e-3, "a test", acting_user=django_user_model.objects.get()
    )
    do_create_token("a pairing program", acting_user=django_user_model.objects.get())
    follower = Follower.objects.create(email="fan@example.net", key="k" * 43, created_at=timezone.now())
    Follow.objects.create(follower=follower, kind="player", player=Player.objects.first(), created_at=timezone.now())
    mailing = Mailing.objects.create(key="run:0", subject="a publication", created_at=timezone.now())
    Delivery.objects.create(mailing=mailing, follower=follower, sent_at=timezone.now())
    send_report("result", "fan@example.net", "Round 2 was a draw.", event=Event.objects.first())
    officer = django_user_model.objects.get()
    do_set_mail_choices(officer, {"officer-digest": False}, acting_user=officer)
    occasion = Occasion.objects.create(
        kind="officer-digest", subject="2026-11-21", title="a digest", created_at=timezone.now()
    )
    RoleMailDelivery.objects.create(occasion=occasion, address=officer.email, user=officer, claimed_at=timezone.now())
    first, second = Player.objects.order_by("pk")[:2]
    PlayerMerge.objects.create(kept=first, merged=second, merged_at=timezone.now(), games=0, ratings=0)
    do_restrict_player(first, acting_user=django_user_model.objects.get(), reason="asked by letter")
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


def test_what_happened_is_kept_even_from_a_superuser(staff_client):
    event = EventFactory(code="KEPT")
    change = EventChange.objects.create(
        event=event, status="checked", by=get_user_model().objects.get(), at=timezone.now()
    )
    club = Club.objects.create(code="NQC", name="Northquay")
    publish_month(
        "online",
        "2026-09",
        [{"player": Player.objects.create(code="123456A", surname="Abbott", club=club), "rating": 1500}],
    )
    Player.objects.update(club=None)  # the club has no members now, but a published list names it

    assert staff_client.get(reverse("admin:events_eventchange_delete", args=[change.pk])).status_code == 403
    assert staff_client.get(reverse("admin:players_club_delete", args=[club.pk])).status_code == 403
    assert staff_client.get(reverse("admin:events_game_add")).status_code == 403
    changelist = staff_client.get(reverse("admin:players_club_changelist")).content.decode()
    assert "delete_selected" not in changelist
    assert Game.objects.count() == 0 and EventChange.objects.filter(pk=change.pk).exists()


def test_merged_into_is_set_only_by_the_merge(staff_client):
    a = Player.objects.create(code="123456A", surname="Abbott")
    b = Player.objects.create(code="234567B", surname="Baker")
    url = reverse("admin:players_player_change", args=[a.pk])

    form = staff_client.get(url).context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields}
    saved = staff_client.post(url, {**data, "surname": "Abbott-Smith", "merged_into": b.pk})

    assert "merged_into" not in form.fields and saved.status_code == 302
    a.refresh_from_db()
    assert (a.surname, a.merged_into) == ("Abbott-Smith", None)


def test_a_drift_adjustment_is_set_before_the_period_is_published_and_fixed_after(staff_client):
    add = reverse("admin:grading_ratingperiod_add")
    standard = RatingList.objects.get(code="otb-standard")
    too_much = staff_client.post(
        add, {"rating_list": standard.pk, "month": "2026-10", "adjustment_a": "0", "adjustment_b": "5"}
    )
    staff_client.post(add, {"rating_list": standard.pk, "month": "2026-10", "adjustment_a": "12", "adjustment_b": "0"})
    period = RatingPeriod.objects.get(month="2026-10")
    publish_month("otb-standard", "2026-10", [{"player": PlayerFactory(), "rating": 1500}])
    staff_client.post(
        reverse("admin:grading_ratingperiod_change", args=[period.pk]), {"adjustment_a": "50", "adjustment_b": "0"}
    )

    assert "Between -1 and 1." in too_much.content.decode()
    period.refresh_from_db()
    assert (period.adjustment_a, period.rule_set) == (12, "ecf-2024")


def test_the_admin_home_leads_to_the_federations_tools(staff_client):
    home = staff_client.get(reverse("admin:index")).content.decode()
    start = staff_client.get(reverse("admin:grading_ratingrun_add")).content.decode()
    runs = staff_client.get(reverse("admin:grading_ratingrun_changelist")).content.decode()

    assert 'href="/admin/status/">System status</a>' in home
    assert 'href="/admin/events/event/?waiting=you">Events waiting for approval</a>' in home
    assert 'href="/admin/grading/flag/review/">Integrity review</a>' in home

    assert f'name="month" value="{Month.of(timezone.localdate()) - 1}"' in start  # the month just ended
    assert ">Start a rating run</a>" in runs


def test_an_admin_extended_by_the_apps_above_is_registered_once_by_the_last_of_them():
    from pathlib import Path

    from django.conf import settings

    registered = {model: type(model_admin).__module__ for model, model_admin in admin.site._registry.items()}
    unregistering = [
        str(path.relative_to(settings.BASE_DIR))
        for path in Path(settings.BASE_DIR).rglob("*.py")
        if not {".venv", "tests"} & set(path.parts) and "admin.site.unregister(" in path.read_text()
    ]

    assert (registered[Event], registered[Player], registered[Club]) == (
        "grading.admin.events",
        "privacy.admin",
        "grading.admin.players",
    )
    assert unregistering == ["accounts/admin.py"]  # Django's own User admin, replaced by the site's


def test_no_two_models_of_the_admin_go_by_the_same_name():
    names = [str(model._meta.verbose_name_plural).lower() for model in admin.site._registry]

    assert sorted(name for name in set(names) if names.count(name) > 1) == []
    assert {"alert mails sent", "role mails sent"} <= set(names)
