"""Players of another federation become federation records only when a rating officer says so."""

import pytest
from django.urls import reverse

from events import approval, workflow
from events.models import Event, EventChange
from grading.models import RatingPeriod, RatingRun
from players.models import Player
from tests.builders import PlayerFactory, stored_event, succeeded, trf, trf_player

pytestmark = pytest.mark.django_db


# Round 1: Abbott-Murphy 1-0, Carter-Dunn 0-1; round 2: Carter-Abbott 0-1, Dunn-Murphy draw.
VISITING = trf(
    trf_player(1, "Abbott, Alice", (2, "w", "1"), (3, "b", "1"), fed="ENG", points="2.0"),
    trf_player(2, "Murphy, Sean", (1, "b", "0"), (4, "b", "="), fed="IRL", fide_id="2500001", points="0.5"),
    trf_player(3, "Carter, Chloe", (4, "w", "0"), (1, "w", "0"), points="0.0"),
    trf_player(4, "Dunn, David", (3, "b", "1"), (2, "w", "="), fed="SCO", points="1.5"),
    header=("012 Northquay Visitors Open", "042 2026/10/03", "052 2026/10/04"),
).encode()


def submitted(arbiter):
    return workflow.do_submit_event(
        stored_event(arbiter, VISITING, code="VIS1", time_control="90+30"), acting_user=arbiter
    )


def records(event):
    return {
        entry.surname: entry.player.code if entry.player else None for entry in event.entries.select_related("player")
    }


def test_approval_registers_home_players_and_leaves_players_of_other_federations_on_no_record(arbiter, officer):
    event = approval.do_approve_event(submitted(arbiter), acting_user=officer)

    assert [name for name, code in records(event).items() if code] == ["Abbott", "Carter"]
    assert [entry.surname for entry in approval.unregistered_visitors(event)] == ["Murphy", "Dunn"]
    assert Player.objects.count() == 2
    # Only Carter-Abbott is between two records: the others wait for the officer's say.
    assert event.games.filter(white__isnull=False, black__isnull=False).count() == 1


def test_ticking_the_box_on_approval_registers_them_too(arbiter, officer):
    event = approval.do_approve_event(submitted(arbiter), acting_user=officer, visitors=True)

    assert all(records(event).values())
    assert Player.objects.get(surname="Murphy").fide_id == 2500001
    assert event.games.filter(white__isnull=False, black__isnull=False).count() == 4


def test_a_visitor_already_on_record_is_matched_not_held(arbiter, officer):
    murphy = PlayerFactory(code="345678C", surname="Murphy", fide_id=2500001)

    event = approval.do_approve_event(submitted(arbiter), acting_user=officer)

    assert records(event)["Murphy"] == murphy.code
    assert [entry.surname for entry in approval.unregistered_visitors(event)] == ["Dunn"]


def test_the_home_federations_are_a_setting(arbiter, officer, settings):
    settings.HOME_FEDERATIONS = ["ENG", "SCO"]

    event = approval.do_approve_event(submitted(arbiter), acting_user=officer)

    assert [entry.surname for entry in approval.unregistered_visitors(event)] == ["Murphy"]


def test_the_officer_registers_the_visitors_of_an_approved_event_and_its_history_says_so(client, arbiter, officer):
    event = approval.do_approve_event(submitted(arbiter), acting_user=officer)
    client.force_login(officer)

    page = client.get(f"/admin/events/event/{event.pk}/change/").content.decode()
    client.post("/admin/events/event/", {"action": "register_visitors", "_selected_action": [event.pk]})
    again = client.post(
        "/admin/events/event/", {"action": "register_visitors", "_selected_action": [event.pk]}, follow=True
    ).content.decode()

    assert "Murphy, Sean (IRL), Dunn, David (SCO): their games are not rated until they are registered" in page
    assert all(records(event).values())
    assert event.games.filter(white__isnull=False, black__isnull=False).count() == 4
    note = EventChange.objects.filter(event=event).latest("pk").note
    assert note == "registered 2 players of other federations: Murphy, Sean (IRL), Dunn, David (SCO)"
    assert "VIS1: VIS1 has no player of another federation waiting to be registered" in again


def test_visitors_are_registered_on_approval_only_from_the_decision_page_box(client, arbiter, officer):
    event = submitted(arbiter)
    client.force_login(officer)

    page = client.get(f"/admin/events/event/{event.pk}/decide/").content.decode()
    client.post(f"/admin/events/event/{event.pk}/decide/", {"approve": "1", "reason": "", "visitors": "on"})

    assert "2 players of other federations played rated games here: Murphy, Sean (IRL), Dunn, David (SCO)" in page
    assert all(records(event).values())


def test_visitors_of_an_event_not_yet_approved_are_not_registered_by_the_action(arbiter, officer):
    event = submitted(arbiter)

    with pytest.raises(
        workflow.WorkflowError, match="VIS1 is submitted: register its players of other federations when you approve it"
    ):
        approval.do_register_visitors(event, acting_user=officer)
    assert not Player.objects.exists()


def test_registering_the_visitors_of_a_rated_event_revises_its_month_with_their_games(
    arbiter, officer, rate, django_capture_on_commit_callbacks
):
    event = approval.do_approve_event(submitted(arbiter), acting_user=officer)
    original = succeeded(rate("otb-standard", "2026-10"))
    assert (original.games, Event.objects.get(pk=event.pk).status) == (1, "rated")

    with django_capture_on_commit_callbacks(execute=True):
        assert approval.do_register_visitors(event, acting_user=officer) == 2

    revision = RatingRun.objects.get(trigger="late change to VIS1")
    assert (succeeded(revision).revision, revision.games) == (1, 4)
    assert not RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10").revision_due


def test_the_arbiters_report_says_which_new_players_wait_for_an_officer(arbiter):
    event = stored_event(arbiter, VISITING, code="VIS1", time_control="90+30")

    warnings = [warning["message"] for warning in event.uploads.get().report["warnings"]]

    assert (
        "4 players are on no federation record and will be registered as new on approval (see Players); 2 of "
        "them are of other federations (IRL, SCO): registered only if a rating officer says so"
    ) in warnings


def test_the_players_table_marks_each_visitor(client, arbiter):
    client.force_login(arbiter)
    event = stored_event(arbiter, VISITING, code="VIS1", time_control="90+30")

    page = client.get(reverse("arbiter-event", args=[event.pk])).content.decode()

    assert "<td>new player of IRL, registered if a rating officer says so</td>" in page
    assert "<td>new player</td>" in page  # Abbott, of ENG
