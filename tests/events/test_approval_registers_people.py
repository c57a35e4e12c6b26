"""Approval registers each new person once, as the records stand when it happens."""

import threading

import pytest
from django.db import connection

from events import approval, workflow
from events.models import Event
from events.uploads import storing
from events.uploads.checking import EventDetails, check_upload
from grading.models import RatingRun
from grading.selectors.history import lists_for_uploads
from players.models import Club, Player
from tests.builders import ECF_EXAMPLE, PlayerFactory, ecf_file, stored_event, take_on

pytestmark = pytest.mark.django_db


def submitted(arbiter, data=ECF_EXAMPLE):
    return workflow.do_submit_event(stored_event(arbiter, data), acting_user=arbiter)


def with_fide_id_for_dunn(data, fide_id="2400101"):
    return data.replace(b"#PIN=4#NAME=Dunn, David", f"#PIN=4#NAME=Dunn, David#FIDE NO={fide_id}".encode())


def test_a_new_player_approved_in_two_events_one_after_the_other_becomes_one_record(arbiter, officer):
    first = submitted(arbiter, with_fide_id_for_dunn(ECF_EXAMPLE))
    second = submitted(
        arbiter, with_fide_id_for_dunn(ecf_file(event_code="NQ241002"))
    )  # uploaded before either is approved

    approval.do_approve_event(first, acting_user=officer)
    approval.do_approve_event(second, acting_user=officer)

    assert Player.objects.filter(fide_id=2400101).count() == 1
    dunn = Player.objects.get(fide_id=2400101)
    assert {entry.event.code: (entry.player, entry.match) for entry in dunn.entries.select_related("event")} == {
        "NQ241001": (dunn, "new"),
        "NQ241002": (dunn, "fide-id"),
    }


def test_a_code_registered_since_the_upload_is_the_same_person_not_a_new_code(arbiter, officer):
    event = submitted(arbiter)
    baker = PlayerFactory(code="234567B", surname="Baker")  # registered by another event meanwhile

    approval.do_approve_event(event, acting_user=officer)

    entry = event.entries.get(pin=2)
    assert (entry.player, entry.match) == (baker, "code")
    assert Player.objects.filter(surname="Baker").count() == 1


def test_two_entries_of_one_event_with_one_fide_id_are_refused_naming_both_and_nothing_is_registered(arbiter, officer):
    event = submitted(arbiter)
    event.entries.filter(pin__in=[2, 4]).update(fide_id=2400101, code="")  # as an edit could leave them

    with pytest.raises(
        workflow.WorkflowError,
        match=r"players 2 \(Baker, Brian\) and 4 \(Dunn, David\) are one "
        r"person \(FIDE ID 2400101\)",
    ):
        approval.do_approve_event(event, acting_user=officer)

    event.refresh_from_db()
    assert event.status == "submitted" and not Player.objects.exists()


def test_a_player_only_in_defaulted_games_is_not_registered(arbiter, officer):
    # Dunn (pin 4) loses round 2 by default and round 3 is a default too: no rated game.
    data = (
        ECF_EXAMPLE.replace(b"#PIN1=3#SCORE=55#PIN2=4", b"#PIN1=3#SCORE=1d#PIN2=4")
        .replace(b"#PIN1=4#SCORE=01#PIN2=1", b"#PIN1=4#SCORE=d1#PIN2=1")
        .replace(b"#PIN1=2#SCORE=10#PIN2=4", b"#PIN1=2#SCORE=1d#PIN2=4")
    )
    event = submitted(arbiter, data)

    approval.do_approve_event(event, acting_user=officer)

    assert event.entries.get(pin=4).player is None
    assert not Player.objects.filter(surname="Dunn").exists()
    assert event.entries.exclude(pin=4).filter(player=None).count() == 0


def test_an_event_with_no_rated_game_starts_no_revision(arbiter, officer, django_capture_on_commit_callbacks):
    for code, name in (("123456A", "Abbott"), ("234567B", "Baker"), ("345678C", "Carter")):
        PlayerFactory(code=code, surname=name)
    take_on("otb-standard", "2026-10", "123456A,1500,full,50,75000,25,2026-10")
    data = ECF_EXAMPLE
    for score in (b"10", b"55", b"01"):
        data = data.replace(b"#SCORE=" + score, b"#SCORE=1d")
    data = data.replace(b"#SCORE=1d#PIN2=3#COLOUR=BLACK", b"#SCORE=1d#PIN2=3#COLOUR=BLACK")
    event = submitted(
        arbiter, data.replace(b"#SCORE=1d#PIN2=3#COLOUR=WHITE#ROUND=2", b"#SCORE=d1#PIN2=3#COLOUR=WHITE#ROUND=2")
    )
    assert not event.games.filter(rated=True).exists()

    with django_capture_on_commit_callbacks(execute=True):
        approval.do_approve_event(event, acting_user=officer)

    assert not RatingRun.objects.exclude(trigger="import").exists()
    assert event.entries.filter(player=None).count() == 1  # Dunn, who has no record and no rated game


def test_a_new_player_joins_the_club_the_file_names(arbiter, officer):
    club = Club.objects.create(code="NQC", name="Northquay")
    event = submitted(arbiter)

    approval.do_approve_event(event, acting_user=officer)

    assert event.entries.get(pin=4).player.club is None  # Dunn's file line has no club: he joins none
    assert Player.objects.get(code="123456A").club == club  # "#CLUB NAME=Northquay"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_approvals_at_once_issue_different_codes(arbiter, officer):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions are PostgreSQL's to show")
    events = [
        submitted(arbiter, ecf_file(event_code=code).replace(b"#ECF CODE=", b"#COMMENT="))
        for code in ("RACE-A", "RACE-B")
    ]
    start, failures = threading.Barrier(2), []

    def approve(event):
        try:
            start.wait()
            approval.do_approve_event(event, acting_user=officer)
        except Exception as error:  # noqa: BLE001 (the test reports whatever a thread met)
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=approve, args=(event,)) for event in events]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert set(Event.objects.values_list("status", flat=True)) == {"approved"}
    assert Player.objects.count() == 8  # four codeless players in each event, one code each
    assert len(set(Player.objects.values_list("code", flat=True))) == 8


def test_the_bulk_approval_refuses_an_event_whose_new_player_may_be_on_record_and_says_who(client, arbiter, officer):
    PlayerFactory(code="111111A", surname="Dunn", forenames="David")  # the report suggests him for pin 4
    event = submitted(arbiter)
    client.force_login(officer)

    response = client.post("/admin/events/event/", {"action": "approve", "_selected_action": [event.pk]}, follow=True)

    event.refresh_from_db()
    assert event.status == "submitted"
    assert (
        "NQ241001: player 4 (Dunn, David) may be 111111A (Dunn, David): choose their records in the event&#x27;s "
        "entries, or approve it from its own page once read"
    ) in response.content.decode()

    response = client.post(f"/admin/events/event/{event.pk}/decide/", {"approve": "1"})  # read, and approved

    event.refresh_from_db()
    assert event.status == "approved" and Player.objects.filter(surname="Dunn").count() == 2


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_uploads_of_one_new_event_code_at_once_store_one_and_tell_the_other(arbiter):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions are PostgreSQL's to show")

    files = [ECF_EXAMPLE, ECF_EXAMPLE.replace(b"#EVENT NAME=", b"#EVENT NAME=Corrected ")]
    checks = [check_upload(data, "results.txt", EventDetails(), lists_for_uploads()) for data in files]
    start, outcomes = threading.Barrier(2), []

    def store(check, data):
        try:
            start.wait()
            outcomes.append(storing.do_store_upload(check, data, "results.txt", acting_user=arbiter).code)
        except workflow.WorkflowError as refused:
            outcomes.append(str(refused))
        except Exception as error:  # noqa: BLE001 (shown by the assertion below)
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=store, args=pair) for pair in zip(checks, files)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert Event.objects.count() == 1, outcomes
    assert sorted(outcomes, key=len) in (
        # The second either waited for the first's row and replaced it with the next index, or met
        # the new code at the moment of writing and was told.
        ["NQ241001", "NQ241001 is stored with submission index 1: a replacement needs a higher index than 1"],
        [
            "NQ241001",
            "NQ241001 was stored by another upload at the same moment: open it from My events, or upload "
            "again to replace it",
        ],
    )


def test_the_decision_page_shows_the_matches_the_officer_corrected(client, arbiter, officer):
    event = submitted(arbiter)
    dunn = PlayerFactory(code="555555E", surname="Dunn", forenames="David")
    event.entries.filter(pin=4).update(player=dunn, match="chosen")  # chosen in the entries after the upload
    client.force_login(officer)

    page = client.get(f"/admin/events/event/{event.pk}/decide/").content.decode()

    assert (
        f'<a href="/admin/players/player/{dunn.pk}/change/">Dunn, David (555555E)</a></td>\n      <td>chosen by staff'
        in page
    )
