"""Codes as long as their fields allow never stop the run they start."""

import datetime

import pytest

from events import approval, workflow
from events.models import Event
from grading.models import RatingRun
from grading.run.runs import trigger_text
from tests.builders import PlayerFactory, approved_event, succeeded, take_on

pytestmark = pytest.mark.django_db
LONG_CODE = "NORTHQUAY-AUTUMN-CONGRESS-2026-OPEN-A123"  # 40 characters, the most an event code has


@pytest.fixture
def october_published(rate):
    PlayerFactory(code="111111A", surname="Abbott", birth_date=datetime.date(1980, 1, 1))
    PlayerFactory(code="222222B", surname="Baker", birth_date=datetime.date(1975, 1, 1))
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 10), [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))


def test_an_event_with_a_forty_character_code_approved_late_queues_its_revision(
    october_published, django_user_model, django_capture_on_commit_callbacks
):
    assert len(LONG_CODE) == 40
    late = approved_event(
        LONG_CODE,
        "otb-standard",
        datetime.date(2026, 10, 20),
        [("222222B", "111111A", "1-0")],
        status=Event.Status.SUBMITTED,
    )
    officer = django_user_model.objects.create_user("officer")

    with django_capture_on_commit_callbacks(execute=True):
        approval.do_approve_event(late, acting_user=officer)

    run = RatingRun.objects.get(trigger=f"late change to {LONG_CODE}")
    assert (run.outcome, run.revision) == ("succeeded", 1)

    with django_capture_on_commit_callbacks(execute=True):
        workflow.do_send_back_event(Event.objects.get(code=LONG_CODE), "wrong crosstable", acting_user=officer)
    assert RatingRun.objects.filter(trigger=f"late change to {LONG_CODE}").count() == 2


def test_a_trigger_longer_than_its_field_is_shortened_not_refused():
    text = "otb-rapid-" + "r" * 20 + " republished (run 1); " + "x" * 300
    assert len(trigger_text(text)) == 200 and trigger_text(text).endswith("...")
    assert trigger_text("schedule") == "schedule"


def test_the_admin_tells_original_from_revised_ratings_and_runs_say_what_they_did_once(
    october_published, admin_client, django_user_model, django_capture_on_commit_callbacks
):
    late = approved_event(
        "LATE",
        "otb-standard",
        datetime.date(2026, 10, 20),
        [("222222B", "111111A", "1-0")],
        status=Event.Status.SUBMITTED,
    )
    with django_capture_on_commit_callbacks(execute=True):
        approval.do_approve_event(late, acting_user=django_user_model.objects.create_user("officer"))

    ratings = admin_client.get("/admin/grading/playerrating/?q=111111A&period__month=2026-10").content.decode()
    current = admin_client.get("/admin/grading/playerrating/?edition=current").content.decode()
    runs = admin_client.get("/admin/grading/ratingrun/").content.decode()
    index = admin_client.get("/admin/").content.decode()

    assert "original, superseded" in ratings and "revision 1, current" in ratings
    assert "original, superseded" not in current
    assert '<td class="field-now">-</td>' in runs  # a finished run's progress does not repeat its outcome
    assert '<td class="field-summary">2 players rated on 2 games, revision 1 published</td>' in runs
    assert "List entries" in index and "List entrys" not in index
