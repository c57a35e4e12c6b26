"""The rating officers' daily digest: what waits for them (events submitted, error reports open,
integrity flags open), to each officer once, through a real SMTP server; no mail when nothing
waits; those who turned it off left out."""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from accounts.models import Application
from accounts.roles import RATING_OFFICERS
from corrections.reporting import do_answer_report, send_report
from events.models import Event
from grading.models import Flag, RatingList
from mails.choices import do_set_mail_choices
from mails.models import Occasion
from mails.tasks import mail_missed, mail_officer_digest
from tests.builders import EventFactory, PlayerFactory
from tests.conftest import with_role

pytestmark = pytest.mark.django_db

SITE = "https://ratings.example.org"
DAY = "2026-11-21"
OFFICERS = {"officer@example.net", "deputy@example.net", "admin@example.net"}


@pytest.fixture
def people(officer, arbiter, django_user_model):
    """Three who get the digest: a Rating officer, a staff member given the approval permission,
    an administrator; and four who do not: an officer without an address, one no longer active,
    an arbiter, a staff member who may not approve."""
    officer.email = "officer@example.net"
    officer.save()
    deputy = django_user_model.objects.create_user("deputy", "deputy@example.net", "pw", is_staff=True)
    deputy.user_permissions.add(Permission.objects.get(codename="approve_event"))
    django_user_model.objects.create_superuser("admin", "admin@example.net", "pw")
    with_role(django_user_model.objects.create_user("nomail", "", "pw", is_staff=True), RATING_OFFICERS)
    with_role(django_user_model.objects.create_user("gone", "gone@example.net", "pw", is_active=False), RATING_OFFICERS)
    arbiter.email = "arbiter@example.net"
    arbiter.save()
    django_user_model.objects.create_user("clerk", "clerk@example.net", "pw", is_staff=True)
    return {"officer": officer, "deputy": deputy, "arbiter": arbiter}


def flag(list_code, month, summary, state="open"):
    return Flag.objects.create(
        rating_list=RatingList.objects.get(code=list_code),
        kind="improbable",
        key=f"improbable:{summary}",
        month=month,
        summary=summary,
        found_at=timezone.now(),
        state=state,
    )


@pytest.fixture
def waiting(people):
    """Two events submitted (one since 3 Nov, one since 10 Nov) and one approved; four reports,
    two new, one in hand, one resolved; three flags open (two of October's standard list, one of
    September's rapid list) and one cleared."""
    arbiter = people["arbiter"]
    moment = datetime.datetime(2026, 11, 3, 12, tzinfo=datetime.UTC)
    EventFactory(code="SPRING", name="Spring Congress", status="submitted", arbiter=arbiter, status_changed_at=moment)
    EventFactory(
        code="LEAGUE-7",
        name="County League round 7",
        status="submitted",
        arbiter=arbiter,
        status_changed_at=moment + datetime.timedelta(days=7),
    )
    EventFactory(code="DONE", name="Autumn Open", status="approved", arbiter=arbiter)
    player = PlayerFactory(code="300001A", surname="Oakley", forenames="Ann")
    reports = [
        send_report("result", f"parent{number}@example.net", "Round 2 was a draw, not a win.", player=player)
        for number in range(4)
    ]
    do_answer_report(reports[2], "in-hand", acting_user=people["officer"])
    do_answer_report(reports[3], "resolved", reply="Corrected.", acting_user=people["officer"])
    flag("otb-standard", "2026-10", "Oakley beat a player rated 900 points above")
    flag("otb-standard", "2026-10", "Quill beat a player rated 850 points above")
    flag("otb-rapid", "2026-09", "Reed won ten games against the same two players")
    flag("otb-standard", "2026-09", "an old flag, cleared", state="cleared")
    return reports


def test_each_officer_is_mailed_what_waits_for_them_once(waiting, inbox):
    mail_officer_digest(DAY)
    mail_officer_digest(DAY)  # beat's message delivered twice: nothing more

    assert {message["X-RcptTo"] for message in inbox.messages} == OFFICERS
    message = inbox.to("officer@example.net")[0]
    assert message["Subject"] == (
        "Waiting for the rating officers: 2 events submitted for approval, 3 error reports open (2 new), "
        "3 integrity flags open"
    )
    text = message.get_body(("plain",)).get_content()
    assert f"What waits for the rating officers on {DAY}:" in text
    spring, league = Event.objects.get(code="SPRING"), Event.objects.get(code="LEAGUE-7")
    assert (
        "2 events submitted for approval\n"
        "  - Spring Congress (SPRING), OTB standard, arbiter arbiter, submitted 3 Nov 2026\n"
        f"    {SITE}/admin/events/event/{spring.pk}/decide/\n"
        "  - County League round 7 (LEAGUE-7), OTB standard, arbiter arbiter, submitted 10 Nov 2026\n"
        f"    {SITE}/admin/events/event/{league.pk}/decide/\n"
        f"  All of them: {SITE}/admin/events/event/?status__exact=submitted\n"
    ) in text
    new, _, in_hand, _ = waiting
    assert "\n3 error reports open (2 new)\n" in text
    assert f"  - {new.reference}: a result is wrong, about Oakley, Ann (300001A) (new, sent " in text
    assert f"  - {in_hand.reference}: a result is wrong, about Oakley, Ann (300001A) (in hand, sent " in text
    assert (
        "3 integrity flags open\n"
        "  - OTB standard, 2026-10: 2 flags open\n"
        f"    {SITE}/admin/grading/flag/review/?list=otb-standard&month=2026-10\n"
        "  - OTB rapid, 2026-09: 1 flag open\n"
        f"    {SITE}/admin/grading/flag/review/?list=otb-rapid&month=2026-09\n"
    ) in text
    assert "Autumn Open" not in text and "cleared" not in text and "Round 2 was a draw" not in text
    assert f"To turn off mails of this kind, or of any other kind: {SITE}/accounts/mails/" in text
    occasion = Occasion.objects.get()
    assert (occasion.kind, occasion.subject, occasion.recipients, occasion.sent) == ("officer-digest", DAY, 3, 3)


def test_no_digest_is_mailed_when_nothing_waits_nor_later_that_day(people, inbox, settings):
    settings.OFFICER_DIGEST_HOUR = 0  # due at any hour of the test
    today = timezone.localdate().isoformat()
    EventFactory(code="DONE", name="Autumn Open", status="rated", arbiter=people["arbiter"])

    mail_officer_digest()
    EventFactory(code="LATE", name="Late Congress", status="submitted", arbiter=people["arbiter"])
    mail_missed()  # beat's, a quarter of an hour later: today's digest was decided

    assert inbox.messages == []
    occasion = Occasion.objects.get()
    assert (occasion.subject, occasion.recipients, occasion.finished_at is not None) == (today, 0, True)


def test_a_digest_whose_message_was_lost_is_sent_by_beats_next_look(waiting, inbox, settings):
    settings.OFFICER_DIGEST_HOUR = 0

    mail_missed()
    mail_missed()

    arrived = inbox.messages
    digests = [message for message in arrived if message["Subject"].startswith("Waiting for")]
    assert sorted(message["X-RcptTo"] for message in digests) == sorted(OFFICERS)
    assert Occasion.objects.get(kind="officer-digest").subject == timezone.localdate().isoformat()
    # The reports' acknowledgements, never queued (the fixture ran no commit's callbacks), went too.
    others = sorted(message["X-RcptTo"] for message in arrived if message not in digests)
    assert others == [f"parent{number}@example.net" for number in range(4)]


def test_an_officer_who_turned_the_digest_off_is_not_mailed_it(waiting, people, inbox):
    do_set_mail_choices(people["deputy"], {"officer-digest": False}, acting_user=people["deputy"])

    mail_officer_digest(DAY)

    assert {message["X-RcptTo"] for message in inbox.messages} == OFFICERS - {"deputy@example.net"}


def test_a_long_queue_lists_ten_and_links_the_rest(people, inbox):
    for number in range(12):
        EventFactory(code=f"E{number:02d}", name=f"Rapidplay {number}", status="submitted", arbiter=people["arbiter"])

    mail_officer_digest(DAY)

    text = inbox.to("officer@example.net")[0].get_body(("plain",)).get_content()
    assert text.count("  - Rapidplay ") == 10
    assert f"  and 2 more: {SITE}/admin/events/event/?status__exact=submitted\n" in text


def test_the_arbiters_requests_for_accounts_are_a_section_of_the_digest(people, inbox):
    moment = datetime.datetime(2026, 11, 18, 9, tzinfo=datetime.UTC)
    waiting = Application.objects.create(
        forenames="Jane", surname="O'Connor", email="jane@example.net", licence="FA-1234", created_at=moment
    )
    Application.objects.create(
        forenames="Old", surname="Request", email="old@example.net", licence="FA-9", created_at=moment, state="declined"
    )

    mail_officer_digest(DAY)

    message = inbox.to("officer@example.net")[0]
    assert message["Subject"] == "Waiting for the rating officers: 1 account to approve"
    text = message.get_body(("plain",)).get_content()
    assert (
        "1 account to approve\n"
        "  - Jane O'Connor, arbiter licence FA-1234, asked 18 Nov 2026\n"
        f"    {SITE}/admin/accounts/application/{waiting.pk}/change/\n"
    ) in text
    assert "Old Request" not in text
