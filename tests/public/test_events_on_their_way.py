"""Before an event is rated: a player's page lists the events they are in that are on their way
(submitted, approved, held), and a submitted or held event's page gives its name, dates, arbiter
and how far it has come, nothing of its results."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import Event, EventChange
from tests.builders import PlayerFactory, approved_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(arbiter):
    """LEAGUE: Ann Oakley beat Bob Quill on 3 October; its file came on the 5th, submitted on the 6th."""
    PlayerFactory(code="300001A", surname="Oakley", forenames="Ann")
    PlayerFactory(code="300002B", surname="Quill", forenames="Bob")
    event = approved_event(
        "LEAGUE", "otb-standard", datetime.date(2026, 10, 3), [("300001A", "300002B", "1-0")], status="submitted"
    )
    event.arbiter = arbiter
    event.save()
    for status, day in [("uploaded", 5), ("checked", 5), ("submitted", 6)]:
        at = timezone.make_aware(datetime.datetime(2026, 10, day, 20, 0))
        EventChange.objects.create(event=event, status=status, by=arbiter, at=at, note="a note for the arbiter")
    return event


def test_a_players_page_lists_their_submitted_event_as_not_yet_rated(client, league):
    page = client.get(reverse("player", args=["300001A"])).content.decode()
    assert "Events not yet rated" in page
    assert '<a href="/events/LEAGUE/">LEAGUE</a>' in page and "<td>Submitted</td>" in page


def test_a_submitted_events_page_says_how_far_it_has_come_and_nothing_of_its_results(client, league):
    page = client.get(reverse("event", args=["LEAGUE"])).content.decode()
    assert "<dt>Arbiter</dt><dd>arbiter</dd>" in page and "<dd>Submitted</dd>" in page
    assert "<li>5 Oct 2026: received</li>" in page and "<li>6 Oct 2026: submitted for approval</li>" in page
    assert "Quill" not in page and "1-0" not in page and "a note for the arbiter" not in page


@pytest.mark.parametrize("status, shown", [("submitted", "submitted"), ("held", "awaiting review")])
def test_the_events_index_says_it_lists_the_events_submitted_and_held_for_review(client, league, status, shown):
    Event.objects.filter(pk=league.pk).update(status=status)

    page = client.get(reverse("events")).content.decode()

    intro = page[page.index("<h1>Events</h1>") : page.index('<form method="get" class="filters"')]
    assert "submitted for approval" in intro and "held for a rating officer's review" in intro
    assert "results are public once it is approved" in intro
    assert '<a href="/events/LEAGUE/">LEAGUE</a>' in page and f"<td >{shown}</td>" in page


@pytest.mark.parametrize("status", ["uploaded", "checked", "sent-back", "withdrawn"])
def test_an_event_still_with_its_arbiter_is_nowhere_public(client, league, status):
    Event.objects.filter(pk=league.pk).update(status=status)
    assert client.get(reverse("event", args=["LEAGUE"])).status_code == 404
    assert "LEAGUE" not in client.get(reverse("player", args=["300001A"])).content.decode()
    assert "LEAGUE" not in client.get(reverse("events")).content.decode()


def test_a_corrected_file_starts_the_steps_again_after_the_first_received(client, league, arbiter):
    # Approved on the 8th, sent back, corrected on the 12th and submitted again on the 13th.
    for status, day in [("approved", 8), ("sent-back", 9), ("uploaded", 12), ("checked", 12), ("submitted", 13)]:
        at = timezone.make_aware(datetime.datetime(2026, 10, day, 20, 0))
        EventChange.objects.create(event=league, status=status, by=arbiter, at=at)
    page = client.get(reverse("event", args=["LEAGUE"])).content.decode()
    steps = page[page.index("So far") : page.index("All events")]
    assert "5 Oct 2026: received" in steps and "12 Oct 2026: corrected file received" in steps
    assert "13 Oct 2026: submitted for approval" in steps and "approved" not in steps
