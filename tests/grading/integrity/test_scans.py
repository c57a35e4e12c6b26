"""Scans of a list's month and of one event, stored as flags with their evidence; an officer
clears a flag, holds an event and releases it (docs/integrity.md)."""

import contextlib
import datetime
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from chess.months import Month
from events.models import Event, EventChange
from events.signals import results_stored
from events.workflow import WorkflowError, do_hold_event, do_release_event
from grading.integrity.actions import do_clear_flag
from grading.integrity.scanning import scan_event, scan_month
from grading.models import Flag, Scan
from tests.builders import rating_list

pytestmark = pytest.mark.django_db

SEPTEMBER = Month.parse("2026-09")


@contextlib.contextmanager
def freeze_today(day):
    """The site's date as ``day`` (the clock only: nothing else is replaced)."""
    with mock.patch.object(timezone, "localdate", return_value=day):
        yield


def test_a_month_scan_flags_six_wins_against_players_400_above_with_their_evidence(gift):
    scan = scan_month(rating_list(), SEPTEMBER)
    flag = Flag.objects.get()
    assert (scan.games, scan.events, scan.flags) == (6, 1, 1)
    assert flag.kind == "improbable" and flag.month == "2026-09"
    # Expected 6 x 0.0934 = 0.56 at 1500 (the curve flattened by each opponent's uncertainty);
    # the chance read at 1574: 0.1026^6.
    assert "scored 6 of 6 in GIFT, expected 0.56 at 1500; even read at 1574, a chance of 1 in 857,158" in flag.summary
    figures = dict(flag.evidence["figures"])
    assert figures["Rating used"] == 1500 and figures["Opponents' average rating used"] == 1900
    assert figures["Read at (rating used and form)"] == 1500
    assert figures["Chance of at least that score, read at 1574"] == "1 in 857,158"
    games = flag.evidence["games"]
    # Each game's expected score is the one the sentence adds up: 6 x 0.09 = 0.56.
    assert [(g["white_rating"], g["black_rating"], g["result"], g["white_expected"]) for g in games] == [
        (1500, 1900, "1-0", 0.09)
    ] * 6
    chart = flag.evidence["chart"]
    assert chart["months"][-1] == "2026-09" and chart["series"][0]["ratings"][-1] == 1500
    assert list(flag.events.values_list("code", flat=True)) == ["GIFT"]


def test_an_event_scan_finds_the_same_flag_and_a_cleared_flag_stays_cleared(gift, django_user_model):
    officer = django_user_model.objects.create_user("officer")
    assert scan_event(gift) == 1
    flag = Flag.objects.get()
    do_clear_flag(flag, "A is a junior who was ill all summer", acting_user=officer)
    assert scan_event(gift) == 0
    scan_month(rating_list(), SEPTEMBER)
    flag.refresh_from_db()
    assert (Flag.objects.count(), flag.state, flag.cleared_by) == (1, "cleared", officer)
    change = EventChange.objects.get(event=gift, for_officers=True)
    assert change.note.startswith("improbable result: ") and change.note.endswith("ill all summer")
    with pytest.raises(WorkflowError, match="cleared already"):
        do_clear_flag(flag, "again", acting_user=officer)


def test_a_cleared_flag_reads_in_the_events_history_as_the_flag_cleared_by_the_officer(client, gift, officer):
    scan_event(gift)
    do_clear_flag(Flag.objects.get(), "A is a junior who was ill all summer", acting_user=officer)
    client.force_login(officer)

    page = client.get(reverse("admin:events_event_history", args=[gift.pk])).content.decode()
    row = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[-1]

    assert "<td>officer</td><td>flag cleared</td><td>improbable result: " in row
    assert row.rstrip().endswith("ill all summer</td></tr>") and "approved" not in row.lower()
    assert EventChange.objects.filter(event=gift).last().what == "flag cleared"


def test_a_flag_no_longer_found_goes_when_its_month_is_scanned_again_and_is_kept_as_such(client, officer, gift):
    scan_month(rating_list(), SEPTEMBER)
    gift.games.update(result="1/2-1/2")  # six draws against 1900s: nothing improbable
    scan_month(rating_list(), SEPTEMBER)
    assert list(Flag.objects.values_list("state", flat=True)) == ["gone"]
    client.force_login(officer)
    page = client.get(reverse("admin:grading_flag_review") + "?list=otb-standard&month=2026-09").content.decode()
    assert "1 flag no longer found" in page and "scored 6 of 6 in GIFT" in page and "Open:" not in page


def test_a_held_event_leaves_the_run_and_returns_to_approved_when_released(gift, django_user_model):
    officer = django_user_model.objects.create_user("officer")
    with pytest.raises(WorkflowError, match="say why the event is held"):
        do_hold_event(gift, " ", acting_user=officer)
    held = do_hold_event(gift, "six wins against players 400 above", acting_user=officer)
    assert (held.status, held.held_from) == ("held", "approved")
    assert not Event.objects.in_rating().exists()
    released = do_release_event(held, "the games were checked with the arbiter", acting_user=officer)
    assert (released.status, released.held_from) == ("approved", "")
    notes = list(gift.changes.filter(for_officers=True).values_list("status", "note"))
    assert notes == [
        ("held", "six wins against players 400 above"),
        ("approved", "released from review: the games were checked with the arbiter"),
    ]


def test_the_nightly_scan_reads_each_lists_months_not_yet_published_up_to_the_current_one(gift):
    from grading.tasks import scan_months_under_review_task

    # OTB standard is published up to 2026-08 (taken on): on 5 October, September and October.
    with freeze_today(datetime.date(2026, 10, 5)):
        scanned = scan_months_under_review_task.apply().get()
    assert scanned["otb-standard"] == ["2026-09", "2026-10"]
    assert set(Scan.objects.filter(rating_list__code="otb-standard").values_list("month", "flags")) == {
        ("2026-09", 1),
        ("2026-10", 0),
    }


def test_a_stored_upload_is_scanned_once_its_transaction_commits(gift, django_capture_on_commit_callbacks):
    gift.status = Event.Status.CHECKED  # as an upload leaves it
    gift.save()
    with django_capture_on_commit_callbacks(execute=True):
        results_stored.send(sender=Event, event=gift, user=None)
    assert list(gift.flags.values_list("kind", "state")) == [("improbable", "open")]


def test_an_event_with_no_game_between_two_records_scans_to_no_flag(gift):
    # Checked, its players not yet matched to records: none of its games is read.
    gift.status = Event.Status.CHECKED
    gift.save()
    gift.games.update(black=None)
    assert scan_event(gift) == 0
    assert scan_month(rating_list(), SEPTEMBER).games == 0


def test_storing_flags_takes_the_same_queries_for_one_flag_as_for_two(gift):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.builders import approved_event

    def queries_of_a_scan():
        with CaptureQueriesContext(connection) as captured:
            scan_month(rating_list(), SEPTEMBER)
        return len(captured.captured_queries)

    one = queries_of_a_scan()
    # A second gift to another player, the same six wins: a second improbable result.
    approved_event(
        "GIFT2",
        "otb-standard",
        datetime.date(2026, 9, 19),
        [
            ("100006F", opponent, "1-0")
            for opponent in ["100011L", "100012M", "100013N", "100014P", "100015Q", "100016R"]
        ],
    )
    Flag.objects.all().delete()
    two = queries_of_a_scan()
    assert Flag.objects.filter(kind="improbable").count() == 2
    assert two == one
