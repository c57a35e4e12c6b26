"""A late result on a list other lists read: the lists are rated again once, not for ever."""

import datetime
import time

import pytest

from events import approval
from events.models import Event
from grading.models import PlayerRating, RatingList, RatingPeriod, RatingRun
from players.models import Player
from tests.builders import PlayerFactory, approved_event, publish_month, succeeded, take_on

pytestmark = pytest.mark.django_db
DECEMBER = datetime.date(2026, 12, 2)


@pytest.fixture
def two_lists_published_through_november(rate):
    """otb-standard and otb-rapid (which reads it) rated for October and November, as the runs of
    1 November and 1 December publish them."""
    for code, surname in [("111111A", "Abbott"), ("222222B", "Baker"), ("333333C", "Carter"), ("444444D", "Dunn")]:
        PlayerFactory(code=code, surname=surname, forenames="Sam", birth_date=datetime.date(1980, 1, 1))
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    take_on("otb-rapid", "2026-09", "333333C,1600,full,50,80000,25,2026-09", "444444D,1700,full,50,85000,25,2026-09")
    for month, day in [("2026-10", datetime.date(2026, 10, 3)), ("2026-11", datetime.date(2026, 11, 7))]:
        approved_event(f"S{month}", "otb-standard", day, [("111111A", "222222B", "1/2-1/2")])
        approved_event(f"R{month}", "otb-rapid", day, [("333333C", "444444D", "1-0")])
        for code in ("otb-standard", "otb-rapid"):
            succeeded(rate(code, month, today=DECEMBER))
    # A list rated by the Elo method, which reads no other list's states, published too.
    RatingList.objects.create(code="otb-blitz", name="OTB blitz", rule_set="fide-2017", max_minutes=10)
    publish_month("otb-blitz", "2026-11", [{"player": Player.objects.get(code="333333C"), "rating": 1650}])


def runs_of(code):
    return list(
        RatingRun.objects.filter(period__rating_list__code=code)
        .order_by("pk")
        .values_list("period__month", "outcome", "trigger")
    )


def test_a_late_result_revises_the_list_once_and_each_list_that_reads_it_once(
    two_lists_published_through_november, officer, django_capture_on_commit_callbacks
):
    standard_before, rapid_before = runs_of("otb-standard"), runs_of("otb-rapid")
    late = approved_event(
        "LATE", "otb-standard", datetime.date(2026, 10, 24), [("111111A", "222222B", "1-0")], Event.Status.SUBMITTED
    )

    with django_capture_on_commit_callbacks(execute=True):
        approval.do_approve_event(late, acting_user=officer)

    standard_runs = runs_of("otb-standard")[len(standard_before) :]
    rapid_runs = runs_of("otb-rapid")[len(rapid_before) :]
    # The late win moves Alice's October (and so her November): one run of November publishes
    # both again, October as a revision on its way.
    assert [(month, outcome) for month, outcome, _ in standard_runs] == [
        ("2026-11", "succeeded"),
        ("2026-10", "succeeded"),
    ]
    # Alice 1500 draws and (late) beats Brian 1900: D = 400, offset 8.4: (8.4 + 0) + (8.4 + 10) =
    # 26.8: 1526.8 -> 1527, where October published 1500 + 8.4 = 1508.4 -> 1508.
    alice = PlayerRating.objects.filter(player__code="111111A", month="2026-10")
    assert list(alice.order_by("pk").values_list("rating", flat=True)) == [1508, 1527]
    # The rapid list reads the standard one: rated again once against the new states, it
    # publishes nothing (none of its players plays standard), and starts no other run.
    assert [(month, outcome) for month, outcome, _ in rapid_runs] == [("2026-11", "unchanged")]
    assert RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10").revision == 1
    assert RatingPeriod.objects.get(rating_list__code="otb-rapid", month="2026-11").revision == 0
    assert not RatingRun.objects.filter(outcome__in=["queued", "running"]).exists()
    assert runs_of("otb-blitz") == [("2026-11", "succeeded", "test")]  # its publication, and no run since


def settled_runs(seconds=4, timeout=120):
    """The runs once none has been queued, running or added for ``seconds``."""
    deadline = time.monotonic() + timeout
    seen, quiet_since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = list(RatingRun.objects.order_by("pk").values_list("pk", "outcome"))
        if now != seen:
            seen, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since >= seconds and not any(o in ("queued", "running") for _, o in now):
            return now
        time.sleep(0.25)
    pytest.fail(f"the runs did not settle within {timeout} s: {len(seen)} runs")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_on_a_real_worker_a_late_result_sets_off_one_run_of_the_list_and_one_of_its_reader(
    two_lists_published_through_november, officer, celery_worker_process
):
    before = RatingRun.objects.count()
    late = approved_event(
        "LATE", "otb-standard", datetime.date(2026, 10, 24), [("111111A", "222222B", "1-0")], Event.Status.SUBMITTED
    )

    approval.do_approve_event(late, acting_user=officer)  # its run is queued when the approval commits

    runs = settled_runs()[before:]
    # otb-standard's November run (with October's revision record), then otb-rapid's, unchanged:
    # before, otb-rapid started a run of itself after each unchanged one, without end.
    assert [outcome for _, outcome in runs] == ["succeeded", "succeeded", "unchanged"]
    assert RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10").revision == 1
