"""A federation's autumn, mailed: two months published on the standard list, then a late result
(a revision of both) and its send-back. One mail per follower per run, however much of it they
follow; nothing to an address unconfirmed; nothing after a one-click unsubscribe."""

import datetime
import threading

import pytest
from django.db import connection
from django.test import Client

from alerts.letters import unsubscribe_token
from alerts.mailing import MAILING_LOCKS, mail_publication, missed_publications
from alerts.models import Delivery, Follow, Follower, Mailing
from alerts.tasks import mail_missed_publications
from common.locking import claim_number
from events import approval, workflow
from events.models import Event
from grading.models import RatingRun
from tests.builders import ClubFactory, PlayerFactory, approved_event, succeeded, take_on

pytestmark = pytest.mark.django_db
DECEMBER = datetime.date(2026, 12, 2)
FAN = "fan@example.net"


def follower(email, *things, confirmed=True):
    """An address following ``things`` (players, clubs, lists), confirmed or not."""
    now = datetime.datetime.now(datetime.UTC)
    who = Follower.objects.create(email=email, key=email.split("@")[0] * 4, created_at=now)
    for thing in things:
        kind = {"Player": "player", "Club": "club", "RatingList": "list"}[type(thing).__name__]
        field = "rating_list" if kind == "list" else kind
        Follow.objects.create(
            follower=who, kind=kind, **{field: thing}, created_at=now, confirmed_at=now if confirmed else None
        )
    return who


@pytest.fixture
def autumn(rate, inbox):
    """Abbott, Baker, Cole and Dale of Northquay, taken on for 2026-09."""
    northquay = ClubFactory(code="NQC", name="Northquay")
    abbott = PlayerFactory(code="111111A", surname="Abbott", forenames="Sam", club=northquay)
    PlayerFactory(code="222222B", surname="Baker", forenames="Jo", club=northquay)
    PlayerFactory(code="333333C", surname="Cole", forenames="Kit", club=northquay)
    PlayerFactory(code="444444D", surname="Dale", forenames="Lee", club=northquay)
    take_on(
        "otb-standard",
        "2026-09",
        "111111A,1500,full,50,75000,25,2026-09",
        "222222B,1900,full,50,95000,25,2026-09",
        "333333C,1700,full,50,85000,25,2026-09",
        "444444D,1700,full,50,85000,25,2026-09",
    )
    standard = abbott.ratings.get().rating_list
    follower(FAN, abbott, northquay, standard)  # Baker of Northquay too: one mail a run
    follower("unconfirmed@example.net", abbott, confirmed=False)
    follower("rapid@example.net", standard.__class__.objects.get(code="otb-rapid"))
    return rate


@pytest.fixture
def mailed(django_capture_on_commit_callbacks):
    """Approvals and send-backs with their commit's callbacks run: the revision and its mailing."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def publish(rate, month, day, code):
    approved_event(code, "otb-standard", day, [("111111A", "222222B", "1/2-1/2")])
    return succeeded(rate("otb-standard", month, today=DECEMBER))


def text_of(message):
    return message.get_body(("plain",)).get_content()


def test_a_publication_mails_each_follower_once_with_everything_they_follow_in_it(autumn, inbox):
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")

    [mail] = inbox.to(FAN)
    assert mail["Subject"] == "OTB standard list: 2026-10 published"
    text = text_of(mail)
    # A 1500 draws B 1900: D = 400, offset 8.4 each way: 1508.4 -> 1508 (+8), 1891.6 -> 1892 (-8).
    assert "Abbott, Sam (111111A) https://ratings.example.org/players/111111A/\n  2026-10: 1508 (+8), 1 game\n" in text
    assert "Baker, Jo (222222B) https://ratings.example.org/players/222222B/\n  2026-10: 1892 (-8), 1 game\n" in text
    assert "Events: OCT" in text
    assert "The players you follow\n\nAbbott, Sam" in text and "Northquay: 1 more player rated\n\nBaker, Jo" in text
    assert text.startswith(
        "The OTB standard list for 2026-10 is published.\nhttps://ratings.example.org/lists/otb-standard/\n"
    )
    html = mail.get_body(("html",)).get_content()
    assert '<a href="https://ratings.example.org/players/111111A/">Abbott, Sam</a>' in html
    # RFC 8058's one-click unsubscribe, and the key only this address's mail holds.
    key = Follower.objects.get(email=FAN).key
    follower = Follower.objects.get(email=FAN)
    unsubscribe = f"https://ratings.example.org/alerts/unsubscribe/{follower.pk}/{unsubscribe_token(follower)}/"
    assert mail["List-Unsubscribe"].strip() == f"<{unsubscribe}>" and key not in mail["List-Unsubscribe"]
    assert mail["List-Unsubscribe-Post"].strip() == "List-Unsubscribe=One-Click"
    # An unconfirmed address is never mailed; a follower of a list not published gets nothing.
    assert inbox.to("unconfirmed@example.net") == [] and inbox.to("rapid@example.net") == []
    mailing = Mailing.objects.get()
    assert (mailing.recipients, mailing.sent) == (1, 1)


def test_a_run_delivered_twice_mails_nobody_twice(autumn, inbox):
    run = publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")

    assert mail_publication(run, ["2026-10"]) is None  # finished: a second delivery does nothing
    Mailing.objects.update(finished_at=None, claimed_at=None)  # as if cut off after its one batch
    mail_publication(run, ["2026-10"])

    assert len(inbox.to(FAN)) == 1 and Delivery.objects.count() == 1


def test_the_autumn_two_months_a_late_result_and_its_send_back_then_an_unsubscribe(
    autumn, inbox, officer, django_capture_on_commit_callbacks
):
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    publish(autumn, "2026-11", datetime.date(2026, 11, 7), "NOV")
    late = approved_event(
        "LATE", "otb-standard", datetime.date(2026, 10, 24), [("111111A", "222222B", "1-0")], Event.Status.SUBMITTED
    )
    with django_capture_on_commit_callbacks(execute=True):
        approval.do_approve_event(late, acting_user=officer)  # a run of November revises October on its way

    subjects = [mail["Subject"] for mail in inbox.to(FAN)]
    assert subjects == [
        "OTB standard list: 2026-10 published",
        "OTB standard list: 2026-11 published",
        "OTB standard list: 2026-10 revised, 2026-11 revised",
    ]
    # The revision's mail: each month as first published and as revised. October: the late win
    # (8.4 + 18.4 = 26.8, 1500 -> 1527, not 1508); November after it (1535, not 1516).
    revised = text_of(inbox.to(FAN)[-1])
    assert revised.startswith(
        "The OTB standard list for 2026-10 is revised: 2 ratings changed.\n"
        "The OTB standard list for 2026-11 is revised: 2 ratings changed.\n"
    )
    assert (
        "  2026-10: 1508 -> 1527, 2 games (1 before)\n  2026-11: 1516 -> 1535, 1 game\n  Events: OCT, LATE, NOV\n"
        in revised
    )
    # Baker loses 27 in October (1873, not 1892) and, drawing 1535 in November, 8 more (1865).
    assert "  2026-10: 1892 -> 1873, 2 games (1 before)\n  2026-11: 1884 -> 1865, 1 game\n" in revised

    # The one-click unsubscribe from the latest mail: a mail program's POST, no cookie, no CSRF token.
    address = inbox.to(FAN)[-1]["List-Unsubscribe"].strip().strip("<>").removeprefix("https://ratings.example.org")
    Client(enforce_csrf_checks=True).post(
        address, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    with django_capture_on_commit_callbacks(execute=True):
        workflow.do_send_back_event(Event.objects.get(code="LATE"), "entered twice", acting_user=officer)

    runs = RatingRun.objects.filter(outcome="succeeded", period__rating_list__code="otb-standard")
    # Take-on, October, November, the late result's revision, the send-back's: four runs published,
    # four mailings, three mails to the fan and none after the unsubscribe.
    assert runs.exclude(trigger="import").exclude(trigger__startswith="revision from").count() == 4
    assert Mailing.objects.count() == 4
    assert len(inbox.to(FAN)) == 3
    assert len(inbox.messages) == 3  # and to nobody else


def test_a_mailing_cut_off_by_the_mail_server_is_finished_by_beat_and_nobody_is_mailed_twice(autumn, smtp_server):
    smtp_server.stop()

    run = publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")  # published all the same

    mailing = Mailing.objects.get(key=f"run:{run.pk}")
    assert mailing.finished_at is None and mailing.claimed_at is None and not Delivery.objects.exists()
    smtp_server.start()
    mail_missed_publications()
    mail_missed_publications()

    assert [mail["Subject"] for mail in smtp_server.inbox.to(FAN)] == ["OTB standard list: 2026-10 published"]
    assert Mailing.objects.get().finished_at is not None


def test_a_mail_refused_for_good_is_recorded_and_the_others_go_on(autumn, inbox):
    standard = Follow.objects.get(follower__email=FAN, kind="list").rating_list
    follower("refused@example.net", standard)
    follower("after@example.net", standard)

    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    mail_missed_publications()

    assert len(inbox.to(FAN)) == 1 and len(inbox.to("after@example.net")) == 1
    refused = Delivery.objects.get(follower__email="refused@example.net")
    assert refused.refused and Delivery.objects.filter(refused=False).count() == 2
    mailing = Mailing.objects.get()
    assert (mailing.recipients, mailing.sent, mailing.finished_at is not None) == (3, 2, True)


def test_a_revision_mails_only_the_ratings_it_changed_each_original_to_revised(autumn, inbox, officer, mailed):
    """October: Abbott draws Baker, Cole draws Dale (all of Northquay). A late win of Abbott's over
    Baker revises October: Abbott and Baker change, Cole and Dale are as they were."""
    northquay = Follow.objects.get(follower__email=FAN, kind="club").club
    follower("cole@example.net", northquay.players.get(code="333333C"), northquay)
    follower("dale@example.net", northquay.players.get(code="444444D"))
    approved_event("CD", "otb-standard", datetime.date(2026, 10, 4), [("333333C", "444444D", "1/2-1/2")])
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    assert len(inbox.to("dale@example.net")) == 1
    late = approved_event(
        "LATE", "otb-standard", datetime.date(2026, 10, 24), [("111111A", "222222B", "1-0")], Event.Status.SUBMITTED
    )

    with mailed():
        approval.do_approve_event(late, acting_user=officer)  # the run of October revises it

    [fan] = inbox.to(FAN)[1:]
    assert fan["Subject"] == "OTB standard list: 2026-10 revised"
    text = text_of(fan)
    assert text.startswith("The OTB standard list for 2026-10 is revised: 2 ratings changed.\n")
    # October as first published, then as revised (the late win: 8.4 + 18.4 = 26.8, 1500 -> 1527).
    assert (
        "Abbott, Sam (111111A) https://ratings.example.org/players/111111A/\n"
        "  2026-10: 1508 -> 1527, 2 games (1 before)\n" in text
    )
    assert (
        "Baker, Jo (222222B) https://ratings.example.org/players/222222B/\n"
        "  2026-10: 1892 -> 1873, 2 games (1 before)\n" in text
    )
    assert "Cole" not in text and "Dale" not in text
    assert "Unchanged by the revision: the ratings of 2 more players you follow.\n" in text
    # Cole's follower sees Northquay's two changed, and Cole and Dale as they were; Dale's, nothing.
    [cole_mail] = inbox.to("cole@example.net")[1:]
    assert "Northquay: 2 players rated\n" in text_of(cole_mail) and "Cole, Kit" not in text_of(cole_mail)
    assert "the ratings of 2 more players you follow" in text_of(cole_mail)
    assert len(inbox.to("dale@example.net")) == 1
    mailing = Mailing.objects.order_by("created_at").last()
    assert (mailing.recipients, mailing.sent) == (2, 2)


def test_a_list_follower_is_told_how_many_ratings_a_revision_changed(autumn, inbox, officer, mailed):
    standard = Follow.objects.get(follower__email=FAN, kind="list").rating_list
    follower("list@example.net", standard)
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    late = approved_event(
        "LATE", "otb-standard", datetime.date(2026, 10, 24), [("111111A", "222222B", "1-0")], Event.Status.SUBMITTED
    )

    with mailed():
        approval.do_approve_event(late, acting_user=officer)

    [_, revised] = inbox.to("list@example.net")
    assert text_of(revised).startswith("The OTB standard list for 2026-10 is revised: 2 ratings changed.\n")
    assert "Abbott" not in text_of(revised)


def test_a_follow_confirmed_after_a_publication_never_gets_its_mail(autumn, smtp_server):
    smtp_server.stop()
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")  # its mailing cut off
    abbott = Follow.objects.get(follower__email=FAN, kind="player").player
    follower("late@example.net", abbott)  # confirmed while the mail server was down
    smtp_server.start()

    mail_missed_publications()

    assert len(smtp_server.inbox.to(FAN)) == 1 and smtp_server.inbox.to("late@example.net") == []
    mailing = Mailing.objects.get()
    assert (mailing.recipients, mailing.sent, mailing.finished_at is not None) == (1, 1, True)


def test_a_publication_that_concerns_nobody_is_finished_without_the_mail_server(autumn, smtp_server):
    Follow.objects.filter(follower__email__in=[FAN, "unconfirmed@example.net"]).delete()
    smtp_server.stop()

    run = publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")

    mailing = Mailing.objects.get(key=f"run:{run.pk}")
    assert (mailing.recipients, mailing.sent, mailing.finished_at is not None) == (0, 0, True)
    assert list(missed_publications()) == []


def test_a_mailing_another_task_is_at_work_on_is_left_to_it_and_taken_up_when_that_one_ends(autumn, inbox):
    if connection.vendor != "postgresql":
        pytest.skip("the claim is a PostgreSQL advisory lock: on SQLite one process does the mailing")
    run = publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    mailing = Mailing.objects.get()
    Mailing.objects.update(finished_at=None)  # as if cut off
    held, done = threading.Event(), threading.Event()

    def another_worker():  # its own database connection holds the claim
        with claim_number(MAILING_LOCKS + mailing.pk) as claimed:
            assert claimed
            held.set()
            done.wait(10)
        connection.close()

    other = threading.Thread(target=another_worker)
    other.start()
    held.wait(10)
    try:
        assert mail_publication(run, ["2026-10"]) is None
    finally:
        done.set()
        other.join()

    assert mail_publication(run, ["2026-10"]).finished_at is not None
    assert len(inbox.to(FAN)) == 1


def test_a_revision_that_takes_a_months_rating_away_says_so(autumn, inbox, officer, mailed):
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    late = approved_event(
        "CD", "otb-standard", datetime.date(2026, 10, 4), [("333333C", "444444D", "1/2-1/2")], Event.Status.SUBMITTED
    )
    with mailed():
        approval.do_approve_event(late, acting_user=officer)  # October revised: Cole and Dale rated too
    inbox.clear()

    with mailed():
        workflow.do_send_back_event(Event.objects.get(code="OCT"), "the wrong event", acting_user=officer)

    [mail] = inbox.to(FAN)
    text = text_of(mail)
    assert "  2026-10: 1508 -> not rated, 0 games (1 before)\n" in text
    assert "  2026-10: 1892 -> not rated, 0 games (1 before)\n" in text


def test_a_revision_that_leaves_a_month_with_no_rating_at_all_is_mailed_too(autumn, inbox, officer, mailed):
    publish(autumn, "2026-10", datetime.date(2026, 10, 3), "OCT")
    inbox.clear()

    with mailed():
        workflow.do_send_back_event(Event.objects.get(code="OCT"), "the wrong event", acting_user=officer)

    [mail] = inbox.to(FAN)
    text = text_of(mail)
    assert text.startswith("The OTB standard list for 2026-10 is revised: 2 ratings changed.\n")
    assert "Abbott, Sam (111111A) https://ratings.example.org/players/111111A/\n  2026-10: 1508 -> not rated" in text
