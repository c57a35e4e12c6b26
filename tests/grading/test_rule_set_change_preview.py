"""Before a rating officer changes a list's rule set, the admin shows what the new rule set would
leave out of the months the change reaches, by reason in the engine's words, against the rule set
in force, and asks again when that is most of their games (grading/selectors/rule_set_changes.py,
grading/admin/lists.py)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from chess.months import Month
from grading.live.computing import compute_live
from grading.models import RuleSetChange
from grading.rule_set_changes import do_change_rule_set
from grading.selectors.rule_set_changes import change_effect
from tests.builders import PlayerFactory, approved_event, rating_list, take_on

pytestmark = pytest.mark.django_db

THIS_MONTH = Month.of(timezone.localdate())
LAST_MONTH = THIS_MONTH - 1
ONLINE_CONTROL = "10 min + 5 s/move"  # 15 minutes for 60 moves: under any of fide-2017's limits
TIME_LIMIT = "the time control gives 15 minutes for 60 moves; an event with a 1900 needs 90"
CONFIRM = "Confirm the change"  # the preview's button
SWISS = [("111111A", "222222B", "1-0"), ("333333C", "444444D", "0-1"), ("111111A", "333333C", "1/2-1/2")]
SWISS += [("222222B", "444444D", "1-0")]  # four players, four of their six pairs: no round robin


@pytest.fixture
def online():
    """The Online list taken on by the ECF method three months ago (four Full ratings, the highest
    1900), with 10+5 events of four games each: two last month, one this month."""
    for code in ("111111A", "222222B", "333333C", "444444D"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 1, 1))
    taken_on = LAST_MONTH - 2
    take_on(
        "online",
        str(taken_on),
        f"111111A,1500,full,50,75000,25,{taken_on}",
        f"222222B,1900,full,50,95000,25,{taken_on}",
        f"333333C,1700,full,50,85000,25,{taken_on}",
        f"444444D,1200,full,50,60000,25,{taken_on}",
    )
    first, this_month = LAST_MONTH.first_day(), THIS_MONTH.first_day()
    for code, day in (("BLITZ1", first), ("BLITZ2", first + datetime.timedelta(days=7)), ("BLITZ3", this_month)):
        approved_event(code, "online", day, SWISS, time_control=ONLINE_CONTROL)
    return rating_list("online")


@pytest.fixture(params=["ecf-2024", "fide-2017-rapid"])
def online_in_force(request, online):
    """The Online list rated by an ECF rule set (its own), or by fide-2017-rapid from the month
    after its take-on (a change's month has one change: the admin's is from last month)."""
    if request.param != online.rule_set:
        do_change_rule_set(online, LAST_MONTH - 1, request.param, acting_user=None)
    return online


def add(client, online, rule_set, **confirmed):
    return client.post(
        reverse("admin:grading_rulesetchange_add"),
        {"rating_list": online.pk, "month": str(LAST_MONTH), "rule_set": rule_set, **confirmed},
    )


def test_the_effect_of_a_change_is_counted_by_month_and_reason_in_the_engines_words(online_in_force):
    effect = change_effect(online_in_force, LAST_MONTH, "fide-2017")

    assert [(month.month, month.events, month.games) for month in effect.months] == [
        (LAST_MONTH, 2, 8),
        (THIS_MONTH, 1, 4),
    ]
    # Neither rule set in force has a time limit: nothing left out; fide-2017 leaves out every game.
    assert [(month.in_force.games, month.in_force.reasons) for month in effect.months] == [(0, []), (0, [])]
    assert [
        [(reason.text, reason.events, reason.games) for reason in month.new.reasons] for month in effect.months
    ] == [[(f"not rated: {TIME_LIMIT}", 2, 8)], [(f"not rated: {TIME_LIMIT}", 1, 4)]]
    assert (effect.games, effect.left_out, effect.leaves_out_most) == (12, 12, True)


def test_the_games_of_events_not_yet_approved_are_named_apart(online, officer, client):
    day = LAST_MONTH.first_day() + datetime.timedelta(days=20)
    approved_event("WAITING", "online", day, SWISS[:3], status="submitted", time_control=ONLINE_CONTROL)
    client.force_login(officer)

    effect = change_effect(online, LAST_MONTH, "fide-2017")
    page = add(client, online, "fide-2017").content.decode()

    assert (effect.games, effect.waiting) == (12, 3)
    assert "3 games of events submitted or awaiting review in these months are not counted" in page


def test_a_change_of_method_says_how_many_players_the_new_method_rates(online):
    PlayerFactory(code="555555E", birth_date=datetime.date(1980, 1, 1))  # no record on the list: unrated
    match = [("111111A", "555555E", "1-0"), ("555555E", "111111A", "1-0")]
    approved_event("MATCH", "online", LAST_MONTH.first_day() + datetime.timedelta(days=14), match, time_control="90+30")

    effect = change_effect(online, LAST_MONTH, "fide-2017")

    last_month = effect.months[0]
    assert [(reason.text, reason.events, reason.games) for reason in last_month.new.reasons] == [
        (f"not rated: {TIME_LIMIT}", 2, 8),
        ("not rated: a match against an unrated player does not count", 1, 2),
    ]
    assert (last_month.games, last_month.new.games, last_month.new.events) == (10, 10, 3)
    assert effect.method_change == ("ECF three-pass method", "Elo method")
    assert (effect.players, effect.players_rated) == (5, 4)


def test_the_admin_shows_what_fide_2017_would_leave_out_and_asks_again(online_in_force, officer, client):
    client.force_login(officer)
    in_force = online_in_force.rule_set_for(str(LAST_MONTH))

    preview = add(client, online_in_force, "fide-2017")

    page = preview.content.decode()
    assert preview.status_code == 200
    assert f"8 of 8 games left out: {TIME_LIMIT} (2 events)" in page
    assert f"4 of 4 games left out: {TIME_LIMIT} (1 event)" in page
    assert f"{in_force}, in force, leaves out none" in page
    assert "fide-2017 would leave out 12 of the 12 games" in page
    assert 'name="leave_out_most"' in page and 'name="csrfmiddlewaretoken"' in page
    assert not RuleSetChange.objects.filter(rule_set="fide-2017").exists()

    # Confirmed once only: the page asks again, and nothing is changed.
    once = add(client, online_in_force, "fide-2017", confirm=CONFIRM)
    assert once.status_code == 200
    assert "Tick the box to leave out most of the months' games" in once.content.decode()
    assert not RuleSetChange.objects.filter(rule_set="fide-2017").exists()

    twice = add(client, online_in_force, "fide-2017", confirm=CONFIRM, leave_out_most="on")
    assert twice.status_code == 302
    change = RuleSetChange.objects.get(rating_list=online_in_force, month=str(LAST_MONTH))
    assert (change.rule_set, change.made_by) == ("fide-2017", officer)


def test_a_change_that_leaves_out_nothing_shows_so_and_is_confirmed_once(online, officer, client):
    client.force_login(officer)

    preview = add(client, online, "fide-2017-rapid")

    page = preview.content.decode()
    assert "fide-2017-rapid would leave out none of the 12 games" in page
    assert "games left out:" not in page
    assert 'name="leave_out_most"' not in page
    assert not RuleSetChange.objects.exists()

    confirmed = add(client, online, "fide-2017-rapid", confirm=CONFIRM)
    assert confirmed.status_code == 302
    assert RuleSetChange.objects.get().rule_set == "fide-2017-rapid"


def test_a_change_reaching_no_games_says_so(online, officer, client):
    client.force_login(officer)
    later = THIS_MONTH + 1

    page = client.post(
        reverse("admin:grading_rulesetchange_add"),
        {"rating_list": online.pk, "month": str(later), "rule_set": "fide-2017"},
    ).content.decode()

    assert f"No approved or rated event has games from {later} to {THIS_MONTH}" in page


def test_a_staff_user_without_the_permission_to_change_rule_sets_is_refused(online, client, django_user_model):
    clerk = django_user_model.objects.create_user("clerk", password="pw", is_staff=True)
    client.force_login(clerk)

    for confirmed in ({}, {"confirm": CONFIRM, "leave_out_most": "on"}):
        refused = add(client, online, "fide-2017", **confirmed)
        assert refused.status_code == 403
        assert "games left out" not in refused.content.decode()
    assert not RuleSetChange.objects.exists()


def live_list_lede(client) -> str:
    page = client.get(reverse("live-list", args=["online"])).content.decode()
    return page.split('<p class="lede">')[1].split(" player")[0]


def test_after_the_change_the_live_list_counts_the_games_by_the_new_rule_set(
    online, officer, client, django_capture_on_commit_callbacks
):
    compute_live(online)
    assert live_list_lede(client).startswith("12 games from 3 approved events")
    client.force_login(officer)

    with django_capture_on_commit_callbacks(execute=True):
        add(client, online, "fide-2017", confirm=CONFIRM, leave_out_most="on")

    assert live_list_lede(client).startswith("0 games from 3 approved events")


def test_after_the_change_an_event_page_and_the_month_page_count_its_games_by_the_new_rule_set(
    online, officer, client, django_capture_on_commit_callbacks
):
    client.force_login(officer)
    with django_capture_on_commit_callbacks(execute=True):
        add(client, online, "fide-2017", confirm=CONFIRM, leave_out_most="on")

    page = client.get(reverse("event", args=["BLITZ1"])).content.decode()

    assert "<dd>4, of which 0 rated" in page
    # The month page follows too: last month's 8 approved games, none rated as things stand.
    month = client.get(f"/lists/online/{LAST_MONTH}/").content.decode()
    assert "8 games approved for rating, of which 0 rated and 8 left out by FIDE's conditions" in month
