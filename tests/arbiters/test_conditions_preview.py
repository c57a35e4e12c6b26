"""The arbiter's event page on a list rated by the Elo method: which games FIDE's conditions on
events (docs/rules.md part 4) would leave out, and why, with today's ratings, in the engine's
words (grading.selectors.event_ratings.preview)."""

import datetime
import html

import pytest
from django.urls import reverse

from chess.months import Month
from events.models import Event
from grading.rule_set_changes import do_change_rule_set
from tests.builders import (
    ECF_EXAMPLE,
    approved_event,
    elo_federation,
    elo_october,
    elo_refused_events,
    rating_list,
    upload,
)
from tests.public.test_elo_pages import text

pytestmark = pytest.mark.django_db

# The example file (3 and 4 October 2026, four players on no record: new, unrated) with a first
# control of 30 minutes for 40 moves, then 30 for the rest: 60 minutes for 60 moves.
QUICK_START = ECF_EXAMPLE.replace(b"#MINUTES FIRST SESSION=90", b"#MINUTES FIRST SESSION=30")


def own_event(client, arbiter, data):
    client.force_login(arbiter)
    response = upload(client, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Event.objects.get(code="NQ241001"), client.get(response["Location"])


def test_an_arbiter_who_uploads_an_event_for_an_elo_list_sees_which_games_the_conditions_would_leave_out(
    client, arbiter
):
    elo_federation()  # otb-standard is rated by fide-2017 from 2026-10

    event, response = own_event(client, arbiter, QUICK_START)
    page = text(response)

    assert (event.rating_list.code, event.status) == ("otb-standard", "checked")
    assert "FIDE's conditions on events OTB standard is rated by the Elo method (fide-2017)" in page
    assert (
        "With today's ratings (each player's latest on the list, published up to 2026-09; a player on no "
        "federation record yet counts as unrated), the conditions would leave out: "
        "Not rated: the first time control gives 30 minutes; it must give at least 40. All 5 games of the event."
    ) in page


def test_on_a_list_rated_by_fide_2025_the_preview_names_the_time_limit_game_by_game(client, arbiter):
    elo_federation()
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "fide-2025", acting_user=None)

    _, response = own_event(client, arbiter, QUICK_START)

    assert (
        "OTB standard is rated by the Elo method (fide-2025): it rates an event's games only where the event meets "
        "FIDE's conditions on the time limit game by game, by the two players' ratings, hours a day, length, round "
        "robins and matches (the federation's rules, parts 4 and 5): what each means."
    ) in html.unescape(text(response))
    assert 'href="/help/#not-rated"' in response.content.decode()


def test_an_event_that_meets_the_conditions_is_told_so(client, arbiter):
    elo_federation()

    _, response = own_event(client, arbiter, ECF_EXAMPLE)

    # Five rated games (the default is not one), 120 minutes for 60 moves, four new players
    # who do not all meet: no match, no round robin.
    assert "the conditions leave none of its 5 games out." in text(response)


def test_an_event_on_a_list_the_ecf_method_rates_shows_no_preview(client, arbiter):
    _, response = own_event(client, arbiter, QUICK_START)

    assert "FIDE's conditions" not in text(response) and "not rated:" not in text(response)


def test_another_arbiter_sees_neither_the_event_nor_its_preview(client, arbiter, other_arbiter):
    elo_federation()
    event, _ = own_event(client, arbiter, QUICK_START)
    client.force_login(other_arbiter)

    response = client.get(reverse("arbiter-event", args=[event.pk]))

    assert response.status_code == 404
    assert "not rated:" not in response.content.decode()


def test_an_event_without_a_time_control_is_told_a_list_rated_by_fide_2017_needs_one(client, arbiter):
    elo_federation()
    elo_october()
    games = [("222222B", "111111A", "1-0"), ("111111A", "444444D", "1/2-1/2"), ("444444D", "555555E", "1-0")]
    event = approved_event("NOCLOCK", "otb-standard", datetime.date(2026, 10, 24), games, time_control="")
    Event.objects.filter(pk=event.pk).update(arbiter=arbiter, status=Event.Status.SUBMITTED)
    client.force_login(arbiter)

    page = text(client.get(reverse("arbiter-event", args=[event.pk])))

    assert (
        "Not rated: the event has no time control, and a list rated by fide-2017 needs one. All 3 games of the event."
    ) in page


def test_a_rated_event_shows_what_its_publication_left_out_as_its_public_page_does(client, arbiter, rate):
    elo_federation()
    elo_october()
    match, _ = elo_refused_events()
    Event.objects.filter(pk=match.pk).update(arbiter=arbiter)
    rate("otb-standard", "2026-10")
    client.force_login(arbiter)

    page = text(client.get(reverse("arbiter-event", args=[match.pk])))
    public = text(client.get("/events/MATCH/"))

    assert "Status: rated: its public page" in page
    assert "As the list was published, the conditions leave out: Not rated: a match against an unrated player" in page
    assert "Games: 2, of which 0 rated; 2 left out by FIDE's conditions" in page
    assert "Games 2, of which 0 rated; 2 left out by FIDE's conditions" in public
    assert "Not rated: a match against an unrated player does not count. All 2 games of the event." in public


@pytest.mark.parametrize(
    "time_control, day",
    [
        ("90 min + 30 s/move" * 20, datetime.date(2026, 10, 1)),
        ("0/0", datetime.date(9999, 12, 31)),
        ("∞", datetime.date(1, 1, 1)),
    ],
)
def test_absurd_events_give_a_page_not_an_error(client, arbiter, time_control, day):
    elo_federation()
    event = approved_event("ODD", "otb-standard", datetime.date(2026, 10, 24), [("222222B", "111111A", "1-0")])
    Event.objects.filter(pk=event.pk).update(
        arbiter=arbiter,
        status=Event.Status.CHECKED,
        time_control=time_control[:100],
        start_date=min(day, event.start_date),
        end_date=max(day, event.end_date),
    )
    client.force_login(arbiter)

    assert client.get(reverse("arbiter-event", args=[event.pk])).status_code == 200
