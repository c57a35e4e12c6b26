"""Report an error: sent from a player's or an event's page with the reporter's address, queued
for the rating officers, answered with a reply mailed through a real SMTP server, its history
kept; the event's arbiter reads those of their events; and the abuse the form meets."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from corrections.models import Report, ReportChange
from corrections.reporting import AnswerRefused, do_answer_report
from corrections.tasks import mail_replies_waiting, mail_reply
from tests.builders import PlayerFactory, approved_event

pytestmark = pytest.mark.django_db

REPORTER = "parent@example.net"
REFERENCE = re.compile(r"Your report's reference is ([A-Z2-9]{4}-[A-Z2-9]{4})\.")


@pytest.fixture
def league(arbiter):
    PlayerFactory(code="300001A", surname="Oakley", forenames="Ann")
    PlayerFactory(code="300002B", surname="Quill", forenames="Bob")
    event = approved_event("LEAGUE", "otb-standard", datetime.date(2026, 10, 3), [("300001A", "300002B", "1-0")])
    event.arbiter = arbiter
    event.save()
    return event


def report(client, query, **fields):
    data = {"kind": "result", "message": "Round 1: Bob won, not Ann.", "email": REPORTER, **fields}
    return client.post(reverse("report-error") + query, data)


def test_a_report_from_an_events_page_is_queued_new_with_its_history(client, league):
    response = report(client, "?event=LEAGUE")

    assert response.status_code == 200
    sent = Report.objects.get()
    assert f"Your report's reference is {sent.reference}." in response.content.decode()
    assert (sent.kind, sent.event, sent.player, sent.state, sent.email) == ("result", league, None, "new", REPORTER)
    assert sent.about == "LEAGUE (LEAGUE)"
    assert list(sent.changes.values_list("state", "by")) == [("new", None)]


def test_the_reporter_is_given_an_opaque_reference_that_tells_nothing_of_how_many_reports_exist(client, league):
    pages = [report(client, "?event=LEAGUE").content.decode() for _ in range(3)]

    references = [REFERENCE.search(page).group(1) for page in pages]
    assert references == list(Report.objects.order_by("pk").values_list("reference", flat=True))
    assert len(set(references)) == 3
    for page, sent in zip(pages, Report.objects.order_by("pk"), strict=True):
        assert "number" not in page and f"report {sent.pk}" not in page.lower()


def test_a_players_page_offers_the_three_kinds_and_a_duplicate_names_the_other_record(client, league):
    page = client.get(reverse("report-error") + "?player=300001A").content.decode()
    assert "Two records are one person" in page and "A birth date or club is wrong" in page

    missing = report(client, "?player=300001A", kind="same-person", other_record="")
    itself = report(client, "?player=300001A", kind="same-person", other_record="300001a")
    other = report(client, "?player=300001A", kind="same-person", other_record="300002B")

    assert missing.status_code == 400 and "Give the code of the other record" in missing.content.decode()
    assert itself.status_code == 400 and "That is this record&#x27;s own code" in itself.content.decode()
    assert other.status_code == 200
    assert Report.objects.get().other_record == "300002B"


def test_a_wrong_result_reported_on_a_players_page_names_its_event_and_reaches_its_arbiter(client, league, arbiter):
    unnamed = report(Client(), "?player=300002B")
    named = report(Client(), "?player=300002B", event="LEAGUE")

    assert unnamed.status_code == 400 and "Choose the event the result is in" in unnamed.content.decode()
    assert named.status_code == 200
    sent = Report.objects.get()
    assert (sent.player.code, sent.event, sent.about) == ("300002B", league, "Quill, Bob (300002B) in LEAGUE (LEAGUE)")
    client.force_login(arbiter)
    assert "Round 1: Bob won, not Ann." in client.get(reverse("arbiter-event", args=[league.pk])).content.decode()


def test_a_result_in_an_event_not_listed_is_reported_on_the_player_alone(client, league):
    assert report(client, "?player=300002B", event="another").status_code == 200
    assert Report.objects.get().event is None
    assert report(client, "?player=300002B", event="NOT-HIS").status_code == 400  # not a choice


def test_the_choice_of_an_event_not_listed_sends_the_reporter_to_the_box_below_it(client, league):
    page = client.get(reverse("report-error") + "?player=300002B").content.decode()

    assert '<option value="another">another event: name it in Tell us, below</option>' in page
    assert "named above" not in page
    assert page.index('id="id_event"') < page.index('<label for="id_message">Tell us</label>')


def test_an_events_page_offers_a_wrong_result_only(client, league):
    response = report(client, "?event=LEAGUE", kind="details")

    assert response.status_code == 400 and not Report.objects.exists()


def test_an_officer_takes_answers_and_resolves_a_report_and_the_reply_is_mailed(
    league, officer, inbox, django_capture_on_commit_callbacks
):
    report(Client(), "?event=LEAGUE")
    sent = Report.objects.get()

    do_answer_report(sent, "in-hand", acting_user=officer)
    with django_capture_on_commit_callbacks(execute=True):
        do_answer_report(
            sent,
            "resolved",
            "Thank you: the arbiter sent a corrected file.",
            "checked the scoresheet",
            acting_user=officer,
        )

    sent.refresh_from_db()
    assert sent.state == "resolved"
    assert list(sent.changes.values_list("state", "by__username")) == [
        ("new", None),
        ("in-hand", "officer"),
        ("resolved", "officer"),
    ]
    [mail] = inbox.to(REPORTER)
    assert mail["Subject"] == f"Your report {sent.reference}: resolved"
    text = mail.get_body(("plain",)).get_content()
    assert (
        "Thank you: the arbiter sent a corrected file." in text and "https://ratings.example.org/events/LEAGUE/" in text
    )
    assert "checked the scoresheet" not in text  # the officers' note is theirs
    assert ReportChange.objects.get(state="resolved").replied_at is not None


def test_declining_needs_a_word_to_the_reporter(league, officer):
    report(Client(), "?event=LEAGUE")

    with pytest.raises(AnswerRefused, match="Say why in the reply"):
        do_answer_report(Report.objects.get(), "declined", acting_user=officer)


def test_the_officers_answer_from_the_admin(client, league, officer, inbox, django_capture_on_commit_callbacks):
    report(Client(), "?event=LEAGUE")
    sent = Report.objects.get()
    client.force_login(officer)

    page = client.get(reverse("admin:corrections_report_change", args=[sent.pk])).content.decode()
    assert "Round 1: Bob won, not Ann." in page and 'id="answer-form"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:corrections_report_answer", args=[sent.pk]),
            {"state": "declined", "reply": "The scoresheet says Ann won.", "note": ""},
            follow=True,
        )

    assert f"Report {sent.reference} is declined. Your reply is mailed to the reporter." in response.content.decode()
    assert inbox.to(REPORTER)[0]["Subject"] == f"Your report {sent.reference}: declined"


def test_an_arbiter_reads_the_reports_of_their_event_and_no_other(client, league, arbiter, other_arbiter, officer):
    report(Client(), "?event=LEAGUE")
    do_answer_report(Report.objects.get(), "in-hand", note="asked the arbiter", acting_user=officer)

    client.force_login(arbiter)
    page = client.get(reverse("arbiter-event", args=[league.pk])).content.decode()
    assert "Errors reported by the public" in page and "Round 1: Bob won, not Ann." in page
    assert "asked the arbiter" in page and REPORTER not in page  # the reporter's address is the officers'
    mine = client.get(reverse("arbiter-events")).content.decode()
    assert f'<a href="/arbiter/events/{league.pk}/#error-reports">1 error reported</a>' in mine
    client.force_login(other_arbiter)
    assert client.get(reverse("arbiter-event", args=[league.pk])).status_code == 404


def test_arbiters_and_the_public_never_reach_the_queue(client, arbiter):
    assert client.get(reverse("admin:corrections_report_changelist")).status_code == 302
    client.force_login(arbiter)
    assert client.get(reverse("admin:corrections_report_changelist")).status_code == 302


def test_the_honeypot_and_the_limits_per_address_and_connection(client, league):
    robot = report(client, "?event=LEAGUE", website="spam")
    assert robot.status_code == 200 and REFERENCE.search(robot.content.decode())
    assert not Report.objects.exists()

    for _ in range(5):
        report(client, "?event=LEAGUE")
    sixth = report(client, "?event=LEAGUE")
    assert sixth.status_code == 400 and "This address has sent 5 reports today" in sixth.content.decode()
    for number in range(4):
        report(client, "?event=LEAGUE", email=f"other{number}@example.net")
    eleventh = report(client, "?event=LEAGUE", email="another@example.net")
    assert "Too many reports from your connection" in eleventh.content.decode()
    assert Report.objects.count() == 9


@pytest.mark.parametrize(
    "query, status",
    [("?player=999999Z", 404), ("?event=NOPE", 404), ("", 404), ("?event=" + "x" * 3000, 404), ("?event=%00", 400)],
)
def test_reporting_on_nothing_of_ours_is_refused(client, query, status):
    assert client.get(reverse("report-error") + query).status_code == status


def test_an_event_not_public_cannot_be_reported_on(client, league):
    league.status = "checked"
    league.save()

    assert client.get(reverse("report-error") + "?event=LEAGUE").status_code == 404


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"message": "short"}, "Ensure this value has at least 10 characters"),
        ({"message": "x" * 3001}, "Ensure this value has at most 3000 characters"),
        ({"email": "nobody"}, "Enter a valid email address."),
        ({"kind": "everything"}, "Select a valid choice."),
    ],
)
def test_a_wrong_field_is_named_and_nothing_stored(client, league, fields, message):
    response = report(client, "?event=LEAGUE", **fields)

    assert response.status_code == 400 and message in response.content.decode()
    assert not Report.objects.exists()


def test_a_reply_the_mail_server_refuses_for_good_is_marked_and_not_tried_again(
    league, officer, inbox, django_capture_on_commit_callbacks
):
    report(Client(), "?event=LEAGUE", email="refused@example.net")
    with django_capture_on_commit_callbacks(execute=True):
        do_answer_report(Report.objects.get(), "resolved", "Corrected.", acting_user=officer)

    answer = ReportChange.objects.get(state="resolved")
    assert (answer.refused, answer.replied_at, answer.sending_at) == (True, None, None)
    ReportChange.objects.update(at=answer.at - datetime.timedelta(hours=5))
    mail_replies_waiting()
    assert inbox.messages == [] and not ReportChange.objects.get(pk=answer.pk).replied_at


def test_a_reply_is_mailed_once_whatever_the_number_of_tasks_sent_for_it(
    league, officer, inbox, django_capture_on_commit_callbacks
):
    report(Client(), "?event=LEAGUE")
    with django_capture_on_commit_callbacks(execute=True):
        do_answer_report(Report.objects.get(), "resolved", "Corrected.", acting_user=officer)
    answer = ReportChange.objects.get(state="resolved")

    mail_reply(answer.pk)
    ReportChange.objects.update(at=answer.at - datetime.timedelta(hours=5))
    mail_replies_waiting()

    assert len(inbox.to(REPORTER)) == 1
