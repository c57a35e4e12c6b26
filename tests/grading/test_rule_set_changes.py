"""A list changes its rule set from a month on: the months before keep theirs, published ones
for good (revisions included), open ones follow the change (grading/rule_set_changes.py)."""

import datetime

import pytest
from django.urls import reverse

from chess.months import Month
from grading.models import RatingPeriod, RuleSetChange
from grading.rule_set_changes import ChangeRefused, do_cancel_rule_set_change, do_change_rule_set
from tests.builders import PlayerFactory, approved_event, rating_list, succeeded, take_on

pytestmark = pytest.mark.django_db


@pytest.fixture
def taken_on():
    for code in ("111111A", "222222B"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 1, 1))
    take_on(
        "otb-standard",
        "2026-08",
        "111111A,1500,full,50,75000,25,2026-08",
        "222222B,1900,full,50,95000,25,2026-08",
    )
    return rating_list("otb-standard")


def rule_sets(the_list):
    return dict(RatingPeriod.objects.filter(rating_list=the_list).values_list("month", "rule_set"))


def test_months_from_the_change_on_are_rated_by_the_new_rule_set(taken_on, officer, rate):
    do_change_rule_set(taken_on, Month.parse("2026-10"), "fide-2017", acting_user=officer)
    approved_event("SEP", "otb-standard", datetime.date(2026, 9, 5), [("111111A", "222222B", "1-0")])
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 5), [("111111A", "222222B", "1-0")])

    succeeded(rate("otb-standard", "2026-10"))

    assert rule_sets(taken_on) == {"2026-08": "ecf-2024", "2026-09": "ecf-2024", "2026-10": "fide-2017"}
    # September is rated by the ECF method (A, Full with 50 games, gets a K rating), October by Elo.
    september = taken_on.ratings.get(player__code="111111A", month="2026-09")
    october = taken_on.ratings.get(player__code="111111A", month="2026-10")
    assert (september.method, october.method) == ("K", "elo")
    change = RuleSetChange.objects.get()
    assert (change.month, change.rule_set, change.made_by) == ("2026-10", "fide-2017", officer)


def test_a_change_cannot_reach_back_into_a_published_month(taken_on):
    with pytest.raises(ChangeRefused) as refused:
        do_change_rule_set(taken_on, Month.parse("2026-08"), "fide-2017", acting_user=None)

    assert str(refused.value) == (
        "otb-standard is published up to 2026-08, and a published month keeps the rules it was rated by: "
        "a change can start from 2026-09 at the earliest"
    )
    assert not RuleSetChange.objects.exists()


def test_a_change_to_the_rule_set_already_in_force_is_refused(taken_on):
    with pytest.raises(ChangeRefused, match="otb-standard is rated by ecf-2024 in 2026-10 already"):
        do_change_rule_set(taken_on, Month.parse("2026-10"), "ecf-2024", acting_user=None)


def test_open_periods_follow_a_change_and_its_cancellation(taken_on):
    approved_event("OCT", "otb-standard", datetime.date(2026, 10, 5), [("111111A", "222222B", "1-0")])
    RatingPeriod.objects.create(rating_list=taken_on, month="2026-09", rule_set="ecf-2024")
    RatingPeriod.objects.create(rating_list=taken_on, month="2026-10", rule_set="ecf-2024")

    change = do_change_rule_set(taken_on, Month.parse("2026-10"), "fide-2017-rapid", acting_user=None)
    assert rule_sets(taken_on) == {"2026-08": "ecf-2024", "2026-09": "ecf-2024", "2026-10": "fide-2017-rapid"}

    do_cancel_rule_set_change(change, acting_user=None)
    assert rule_sets(taken_on) == {"2026-08": "ecf-2024", "2026-09": "ecf-2024", "2026-10": "ecf-2024"}


def test_a_revision_rates_a_month_by_the_rules_it_was_published_under(taken_on, rate):
    approved_event("SEP", "otb-standard", datetime.date(2026, 9, 5), [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-09"))
    do_change_rule_set(taken_on, Month.parse("2026-10"), "fide-2017", acting_user=None)
    approved_event("LATE", "otb-standard", datetime.date(2026, 9, 20), [("222222B", "111111A", "1-0")])

    succeeded(rate("otb-standard", "2026-10"))

    september = RatingPeriod.objects.get(rating_list=taken_on, month="2026-09")
    assert (september.revision, september.rule_set) == (1, "ecf-2024")
    assert taken_on.ratings.get(player__code="111111A", month="2026-09", superseded_at=None).method == "K"


def test_the_admin_makes_a_change_and_says_why_it_refuses_one(taken_on, officer, client):
    client.force_login(officer)
    url = reverse("admin:grading_rulesetchange_add")

    refused = client.post(url, {"rating_list": taken_on.pk, "month": "2026-07", "rule_set": "fide-2017"})
    assert refused.status_code == 200
    assert "otb-standard is published up to 2026-08" in refused.content.decode()
    bad_month = client.post(url, {"rating_list": taken_on.pk, "month": "2026-13", "rule_set": "fide-2017"})
    assert "month" in bad_month.context["adminform"].form.errors
    assert not RuleSetChange.objects.exists()

    shown = client.post(url, {"rating_list": taken_on.pk, "month": "2026-09", "rule_set": "fide-2017"})
    assert "Confirm the change" in shown.content.decode()
    assert not RuleSetChange.objects.exists()
    made = client.post(
        url, {"rating_list": taken_on.pk, "month": "2026-09", "rule_set": "fide-2017", "confirm": "Confirm the change"}
    )
    assert made.status_code == 302
    change = RuleSetChange.objects.get()
    assert (change.month, change.rule_set, change.made_by) == ("2026-09", "fide-2017", officer)
    assert taken_on.rule_set_for("2026-08") == "ecf-2024"
    assert taken_on.rule_set_for("2027-01") == "fide-2017"


def test_a_change_in_force_for_a_published_month_cannot_be_deleted(taken_on, officer, client, rate):
    change = do_change_rule_set(taken_on, Month.parse("2026-09"), "fide-2017", acting_user=None)
    approved_event("SEP", "otb-standard", datetime.date(2026, 9, 5), [("111111A", "222222B", "1-0")])
    succeeded(rate("otb-standard", "2026-09"))
    client.force_login(officer)

    deleted = client.post(reverse("admin:grading_rulesetchange_delete", args=[change.pk]), {"post": "yes"})
    assert deleted.status_code == 403
    assert RuleSetChange.objects.filter(pk=change.pk).exists()
