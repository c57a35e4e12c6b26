"""An officer's view of calibration (docs/integrity.md): how many improbable results chance alone
would give a month of its size, and a threshold per list that officers change, recorded."""

import pytest
from django.urls import reverse

from chess.months import Month
from events.workflow import WorkflowError
from grading.integrity.actions import do_set_integrity_threshold
from grading.integrity.scanning import scan_month
from grading.models import Flag, ThresholdChange
from tests.builders import approved_event, rating_list

pytestmark = pytest.mark.django_db

SEPTEMBER = Month.parse("2026-09")
REVIEW = reverse("admin:grading_flag_review") + "?list=otb-standard&month=2026-09"
ACT = reverse("admin:grading_flag_act")


@pytest.fixture
def three_wins(gift):
    """F (1500) beats three players rated 1900 and draws with a fourth in LUCKY: read at 1574, a
    win is 0.1026 and a draw 0.0660, and seven half points of eight or more are 0.1026^4 + 4 x
    0.1026^3 x 0.0660 = 0.000396, 1 in 2,525: flagged at 1 in 1,000 but not at 1 in 10,000
    (GIFT's six wins, 1 in 857,158, at both)."""
    import datetime

    return approved_event(
        "LUCKY",
        "otb-standard",
        datetime.date(2026, 9, 20),
        [("100006F", s, "1-0") for s in ["100011L", "100012M", "100013N"]] + [("100006F", "100014P", "1/2-1/2")],
    )


def test_a_threshold_change_is_recorded_and_the_next_scan_reads_it(three_wins, officer):
    assert scan_month(rating_list(), SEPTEMBER).threshold == 1e-4
    assert Flag.objects.filter(kind="improbable").count() == 1

    change = do_set_integrity_threshold(rating_list(), 1e-3, "a small federation: look at more", acting_user=officer)
    scan = scan_month(rating_list(), SEPTEMBER)

    assert (change.before, change.after, change.by, change.reason) == (
        1e-4,
        1e-3,
        officer,
        "a small federation: look at more",
    )
    assert scan.threshold == 1e-3
    lucky = Flag.objects.get(kind="improbable", events__code="LUCKY")
    assert "a chance of 1 in 2,525" in lucky.summary


def test_the_review_page_says_how_many_flags_chance_alone_would_give(client, officer, three_wins):
    scan = scan_month(rating_list(), SEPTEMBER)
    client.force_login(officer)
    page = client.get(REVIEW).content.decode()

    # GIFT's 7 players and LUCKY's 5: 12 scores x 1 / 10,000 = 0.0012.
    assert scan.scores == 12
    assert "At a chance of 1 in 10,000, a month of 12 players' scores in events would show at most about 0.0" in page
    assert "the month has 1 improbable result flagged (1 finding of every kind)" in page


def test_an_officer_changes_the_threshold_on_the_review_page_and_the_month_is_scanned_again(
    client, officer, three_wins
):
    client.force_login(officer)
    client.post(
        ACT,
        {
            "step": "threshold",
            "list": "otb-standard",
            "month": "2026-09",
            "threshold": "0.001",
            "reason": "more",
            "next": REVIEW,
        },
    )

    assert rating_list().integrity_threshold == 1e-3
    assert ThresholdChange.objects.get().by == officer
    page = client.get(REVIEW).content.decode()
    assert "flags an improbable result: 1 in 1,000" in page and "from 1 in 10,000 to 1 in 1,000, more" in page
    assert Flag.objects.filter(kind="improbable", events__code="LUCKY").exists()


@pytest.mark.parametrize(
    "threshold, reason, told",
    [
        ("0.5", "why", "is not one of the chances offered"),
        ("0.001", " ", "say why"),
        ("0.001", "x" * 2001, "2,001 characters"),
    ],
)
def test_odd_threshold_values_are_told_and_nothing_changes(client, officer, gift, threshold, reason, told):
    client.force_login(officer)
    page = client.post(
        ACT,
        {
            "step": "threshold",
            "list": "otb-standard",
            "month": "2026-09",
            "threshold": threshold,
            "reason": reason,
            "next": REVIEW,
        },
        follow=True,
    ).content.decode()

    assert "Nothing was done" in page and told in page
    assert rating_list().integrity_threshold == 1e-4 and not ThresholdChange.objects.exists()


def test_the_same_threshold_again_is_refused(officer, db):
    with pytest.raises(WorkflowError, match="already"):
        do_set_integrity_threshold(rating_list(), 1e-4, "again", acting_user=officer)


def test_nobody_but_a_rating_officer_changes_it(client, arbiter, gift):
    client.force_login(arbiter)
    response = client.post(ACT, {"step": "threshold", "list": "otb-standard", "threshold": "0.001", "reason": "r"})

    assert response.status_code in (302, 403)
    assert rating_list().integrity_threshold == 1e-4


def test_with_the_broker_down_the_threshold_change_stands_and_the_page_says_its_scan_waits(client, officer, gift):
    from tests.celery_worker import celery_on
    from tests.redis_server import redis_server

    client.force_login(officer)
    with redis_server() as server, celery_on(server.url):
        server.stop()
        data = {"step": "threshold", "list": "otb-standard", "month": "2026-09", "threshold": "0.001"}
        page = client.post(ACT, {**data, "reason": "more", "next": REVIEW}, follow=True).content.decode()

    assert rating_list().integrity_threshold == 1e-3 and ThresholdChange.objects.count() == 1
    assert "now flagged at 1 in 1,000 or rarer" in page and "The month is not scanned again yet" in page
    assert "Nothing was done" not in page


def test_the_lists_admin_page_shows_the_threshold_without_changing_it(admin_client, gift):
    from tests.builders import change_form_data

    url = reverse("admin:grading_ratinglist_change", args=[rating_list().pk])
    page = admin_client.get(url)
    data = {**change_form_data(page), "integrity_threshold": "0.001"}
    admin_client.post(url, data)

    assert "1 in 10,000" in page.content.decode()
    assert rating_list().integrity_threshold == 1e-4 and not ThresholdChange.objects.exists()
