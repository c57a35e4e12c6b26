"""A scan settles only what it read (docs/integrity.md): a month's scan finds a sandbagging case
that a scan of one of its events cannot see; opening the events' decision pages, their files
stored again and scans of each event alone leave the flag as the month's scan found it. A flag
goes only when a month's scan no longer finds it, and it is kept, as no longer found."""

import datetime

import pytest
from django.urls import reverse

from chess.months import Month
from events.models import Event
from events.signals import results_stored
from grading.integrity.scanning import scan_event, scan_month
from grading.models import Flag
from tests.builders import PlayerFactory, approved_event, rating_list, take_on

pytestmark = pytest.mark.django_db

OCTOBER = Month.parse("2026-10")
WEAK = [f"20000{n}W" for n in range(1, 7)]
STRONG = [f"20001{n}S" for n in range(1, 7)]


@pytest.fixture
def sandbagger():
    """S, rated 2000, loses six games in DROP (September) to players rated 1650, 350 below;
    published at 1850 for October, S beats six players rated 2100 in REBOUND. Read as weak as is
    plausible (1926), each loss to a 1650 is about 0.1 and six of them about 1 in a million; read
    as strong as is plausible at 1850, each win against a 2100 about 0.17: both improbable, far
    beyond JOINT together, and the rating fell 150."""
    for code in ["100001S", *WEAK, *STRONG]:
        PlayerFactory(code=code)
    take_on(
        "otb-standard",
        "2026-08",
        "100001S,2000,full,50,100000,25,2026-08",
        *(f"{code},1650,full,50,82500,25,2026-08" for code in WEAK),
        *(f"{code},2100,full,50,105000,25,2026-08" for code in STRONG),
    )
    take_on("otb-standard", "2026-09", "100001S,1850,full,56,100000,25,2026-09")
    drop = approved_event("DROP", "otb-standard", datetime.date(2026, 9, 12), [("100001S", w, "0-1") for w in WEAK])
    rebound = approved_event(
        "REBOUND", "otb-standard", datetime.date(2026, 10, 10), [("100001S", s, "1-0") for s in STRONG]
    )
    return drop, rebound


def the_flag():
    flag = Flag.objects.get(kind="sandbagging")
    return flag.state, flag.found_by, flag.summary, flag.evidence


def test_a_months_flag_stays_through_decision_pages_stored_files_and_scans_of_one_event(
    client, officer, sandbagger, django_capture_on_commit_callbacks
):
    scan_month(rating_list(), OCTOBER)
    found = the_flag()
    assert found[:2] == ("open", "month")
    assert "lost to much weaker players in DROP at 2000" in found[2] and "150 points lower" in found[2]

    client.force_login(officer)
    for event in sandbagger:
        # The decision page scans the event alone: it reads its players' games to its end.
        page = client.get(reverse("admin:events_event_decide", args=[event.pk]))
        assert page.status_code == 200 and "lost to much weaker players" in page.content.decode()
        # Its file stored again: an upload sends this once the games are stored, and the event
        # is scanned on its commit.
        with django_capture_on_commit_callbacks(execute=True):
            results_stored.send(sender=Event, event=event, user=None)
        assert scan_event(event) >= 1
        assert the_flag() == found

    assert Flag.objects.filter(kind="sandbagging").count() == 1


def test_a_month_scan_that_no_longer_finds_it_keeps_it_as_no_longer_found_and_one_that_finds_it_again_reopens_it(
    sandbagger,
):
    drop, rebound = sandbagger
    scan_month(rating_list(), OCTOBER)
    rebound.games.update(result="1/2-1/2")  # corrected: six draws, nothing improbable

    scan = scan_month(rating_list(), OCTOBER)
    flag = Flag.objects.get(kind="sandbagging")
    assert (flag.state, flag.gone_by) == ("gone", scan)
    assert flag.evidence["figures"]  # kept as it was last found

    rebound.games.update(result="1-0")
    scan_month(rating_list(), OCTOBER)
    flag.refresh_from_db()
    assert (flag.state, flag.gone_at, flag.found_by) == ("open", None, "month")


def test_an_event_scan_settles_the_flags_it_alone_found(gift):
    # Found by the event's scan alone, then corrected: the event's scan read all it was based on.
    assert scan_event(gift) == 1
    gift.games.update(result="1/2-1/2")
    assert scan_event(gift) == 0
    assert list(Flag.objects.values_list("state", "found_by")) == [("gone", "event")]
