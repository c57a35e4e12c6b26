"""The integrity watch's pages: a month's review and an event's decision page for rating officers
only, their steps (clear, hold, release, scan) with every odd value told, not a 500; the public
and the arbiter see of a held event only that it awaits review."""

import datetime

import pytest
from django.urls import reverse

from chess.months import Month
from events.models import Event
from grading.integrity.scanning import scan_month
from grading.models import Flag, RatingRun
from grading.run.runs import do_start_rating
from tests.builders import rating_list

pytestmark = pytest.mark.django_db

OCTOBER_DAY = datetime.date(2026, 10, 5)
REVIEW = "/admin/grading/flag/review/"
ACT = "/admin/grading/flag/act/"


@pytest.fixture
def flagged(gift):
    scan_month(rating_list(), Month(2026, 9))
    return Flag.objects.get()


def test_a_rating_officer_reads_the_months_flags_with_their_evidence(client, officer, flagged):
    client.force_login(officer)
    page = client.get(REVIEW, {"list": "otb-standard", "month": "2026-09"}).content.decode()
    assert "scored 6 of 6 in GIFT, expected 0.56 at 1500; even read at 1574, a chance of 1 in 857,158" in page
    assert "Chance of at least that score, read at 1574" in page and "1 in 857,158" in page
    assert 'id="flag-chart-' in page and "Hold GIFT from rating" in page
    assert "1 improbable result" in page  # the month's open flags, counted
    assert "{#" not in page and "{%" not in page  # no template comment shown as text


@pytest.mark.parametrize("who", ["arbiter", "anonymous", "visitor"])
def test_nobody_but_a_rating_officer_reaches_the_review_or_its_steps(client, who, arbiter, django_user_model, flagged):
    if who == "arbiter":
        client.force_login(arbiter)
    if who == "visitor":  # staff without the officers' role
        client.force_login(django_user_model.objects.create_user("clerk", is_staff=True))
    review = client.get(REVIEW)
    step = client.post(ACT, {"step": "clear", "pk": flagged.pk, "reason": "fine"})
    if who == "visitor":
        assert (review.status_code, step.status_code) == (403, 403)
    else:  # not staff: the admin's login page
        assert review.status_code == step.status_code == 302 and "/admin/login/" in review.url
    flagged.refresh_from_db()
    assert flagged.state == "open"


@pytest.mark.parametrize(
    "query, told",
    [
        ({"list": "no-such-list"}, "There is no rating list &#x27;no-such-list&#x27;"),
        ({"month": "2026-13"}, "is not a month in the form YYYY-MM"),
        ({"month": "x" * 5000}, "is not a month in the form YYYY-MM"),
        ({"month": "\x00"}, None),
    ],
)
def test_odd_values_of_the_review_are_told_not_a_server_error(client, officer, flagged, query, told):
    client.force_login(officer)
    response = client.get(REVIEW, query, follow=True)
    assert response.status_code in (200, 400)
    if told:
        assert told in response.content.decode()


@pytest.mark.parametrize(
    "data, told",
    [
        ({"step": "clear", "pk": "x"}, "there is no flag"),
        ({"step": "clear", "pk": "99999999"}, "there is no flag"),
        ({"step": "clear", "reason": "  "}, "say why the flag is cleared"),
        ({"step": "hold", "pk": "1" * 40, "reason": "r"}, "there is no event"),
        ({"step": "erase"}, "the step asked for is not one this page knows"),
        ({"step": "scan", "list": "otb-standard", "month": "soon"}, "is not a month in the form YYYY-MM"),
        ({"step": "clear", "reason": "x" * 2001}, "2,001 characters long"),
    ],
)
def test_a_step_with_odd_values_does_nothing_and_says_why(client, officer, flagged, data, told):
    client.force_login(officer)
    data = {"pk": flagged.pk, **data}
    page = client.post(ACT, data, follow=True).content.decode()
    assert "Nothing was done" in page and told in page
    flagged.refresh_from_db()
    assert flagged.state == "open"


def test_a_step_never_sends_the_officer_off_the_site(client, officer, flagged):
    client.force_login(officer)
    response = client.post(ACT, {"step": "clear", "pk": flagged.pk, "reason": "ok", "next": "https://evil.example/"})
    assert response.status_code == 302 and response.url == reverse("admin:grading_flag_review")


def test_an_officer_holds_the_event_from_the_review_and_the_run_leaves_it_out_saying_so(
    client, officer, gift, flagged, django_capture_on_commit_callbacks
):
    client.force_login(officer)
    client.post(ACT, {"step": "hold", "pk": gift.pk, "reason": "six wins against 1900s", "next": REVIEW})
    gift.refresh_from_db()
    assert gift.status == "held"
    with django_capture_on_commit_callbacks(execute=True):
        run = do_start_rating(rating_list(), Month(2026, 9), "test", acting_user=officer, today=OCTOBER_DAY)
    run.refresh_from_db()
    assert "1 event awaiting review left out: GIFT" in run.message and run.games == 0
    with django_capture_on_commit_callbacks(execute=True):
        client.post(ACT, {"step": "release", "pk": gift.pk, "reason": "checked with the arbiter", "next": REVIEW})
    gift.refresh_from_db()
    revision = RatingRun.objects.order_by("-pk").first()
    # Released, it is approved again, and the month already published is revised with its games.
    assert (gift.status, revision.trigger, revision.games) == ("rated", "late change to GIFT", 6)
    assert "awaiting review" not in revision.message


def test_the_decision_page_scans_the_event_and_shows_its_flags(client, officer, gift):
    client.force_login(officer)
    gift.status = Event.Status.SUBMITTED
    gift.save()
    page = client.get(reverse("admin:events_event_decide", args=[gift.pk])).content.decode()
    assert "The integrity watch" in page and "scored 6 of 6 in GIFT" in page
    assert "Hold it from rating" in page
    assert Flag.objects.filter(events=gift, state="open").count() == 1


def test_the_public_sees_a_held_event_only_as_awaiting_review(client, officer, gift):
    from events.workflow import do_hold_event

    do_hold_event(gift, "six wins against 1900s", acting_user=officer)
    page = client.get(reverse("event", args=["GIFT"])).content.decode()
    assert "Awaiting review" in page
    assert "1900" not in page and "six wins" not in page and "Crosstable" not in page
    index = client.get(reverse("events"), {"status": "held"}).content.decode()
    assert "GIFT" in index and "awaiting review" in index


def test_the_arbiter_reads_that_the_event_is_held_not_why(client, officer, arbiter, gift):
    from events.workflow import do_hold_event, do_release_event

    gift.arbiter = arbiter
    gift.save()
    do_hold_event(gift, "six wins against 1900s", acting_user=officer)
    page = client.get(reverse("arbiter-event", args=[gift.pk]))
    client.force_login(arbiter)
    page = client.get(reverse("arbiter-event", args=[gift.pk])).content.decode()
    assert "Awaiting review." in page and "six wins" not in page and "officer" not in page.split("History")[-1]
    do_release_event(gift, "checked: a strong junior", acting_user=officer)
    page = client.get(reverse("arbiter-event", args=[gift.pk])).content.decode()
    assert "strong junior" not in page and page.count("awaiting review") == 1
