"""A birth date no player can have never reaches the rating run: held out where it enters, and
by the run itself for a record that has one already."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from events.models import Entry, Event
from grading.models import RatingRun
from players.models import Player
from tests.builders import PlayerFactory, approved_event, ecf_file, succeeded, take_on, upload

pytestmark = pytest.mark.django_db


def test_a_birth_date_after_the_event_is_not_stored_and_the_warning_names_its_line(client, arbiter):
    client.force_login(arbiter)
    data = ecf_file().replace(b"#DATE OF BIRTH=01/09/2012", b"#DATE OF BIRTH=01/01/2099")

    response = upload(client, data)

    event = Event.objects.get(code="NQ241001")
    assert response.status_code == 302
    warnings = [w["message"] for w in event.uploads.get().report["warnings"] if w["line"] == 17]
    assert warnings == [
        "player 3 (Carter, Chloe): the birth date 01/01/2099 is not before 03/10/2026, "
        "the event's first day: it is not stored"
    ]
    assert Entry.objects.get(event=event, pin=3).birth_date is None


def test_a_birth_date_before_1900_is_not_stored_either(client, arbiter):
    client.force_login(arbiter)
    data = ecf_file().replace(b"#DATE OF BIRTH=12/05/1990", b"#DATE OF BIRTH=12/05/1090")

    upload(client, data)

    report = Event.objects.get(code="NQ241001").uploads.get().report
    assert "player 1 (Abbott, Alice): the birth date 12/05/1090 is before 1900: it is not stored" in [
        w["message"] for w in report["warnings"]
    ]
    assert Entry.objects.get(pin=1).birth_date is None


def test_staff_cannot_give_a_record_a_birth_date_in_the_future():
    player = PlayerFactory(code="111111A", birth_date=datetime.date(2099, 1, 1))

    with pytest.raises(ValidationError) as refused:
        player.full_clean()

    assert refused.value.message_dict["birth_date"] == [
        f"The birth date 01/01/2099 is not before {datetime.date.today():%d/%m/%Y}: a player's birth date is from "
        "1900 to yesterday."
    ]


def test_a_record_with_an_impossible_birth_date_is_rated_as_of_unknown_age_and_the_run_says_so(rate):
    PlayerFactory(code="111111A", surname="Abbott", birth_date=datetime.date(1980, 1, 1))
    PlayerFactory(code="222222B", surname="Baker", birth_date=datetime.date(1975, 1, 1))
    take_on("otb-standard", "2026-09", "111111A,1500,full,50,75000,25,2026-09", "222222B,1900,full,50,95000,25,2026-09")
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 10), [("111111A", "222222B", "1-0")])
    # A date after the month rated, as a typo in an older record would give: the engine refuses it.
    Player.objects.filter(code="222222B").update(birth_date=datetime.date(2026, 10, 20))

    run = succeeded(rate("otb-standard", "2026-10"))

    assert "rated as of unknown age, their birth date being impossible: 222222B (2026-10-20)" in run.message
    # Brian (full 1900) loses to Alice 1500: D = -400, (-8.4 - 10) x 20/20 = -18.4 -> 1882, as any adult.
    assert RatingRun.objects.get(pk=run.pk).ratings.get(player__code="222222B").rating == 1882
