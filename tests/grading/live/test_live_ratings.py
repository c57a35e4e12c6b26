"""Live ratings: the same engine over the games approved since the latest published list, stored
apart, and equal to what the runs publish once those months are rated."""

import datetime
import time

import pytest
from django.core.management import call_command

from chess.months import Month
from events.approval import do_approve_event
from events.models import Event
from events.workflow import do_send_back_event
from grading.demo.federation import load_demo
from grading.live.computing import compute_live, live_months
from grading.models import ListEntry, LiveEntry, LiveList, LiveRating, PlayerRating, RatingList
from grading.rule_set_changes import do_cancel_rule_set_change, do_change_rule_set
from grading.run.publishing import RATING_FIELDS
from grading.takeon import do_import_ratings
from tests.builders import PlayerFactory, approved_event, publish_month, rating_list

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TODAY = datetime.date(2026, 11, 21)
LISTS = ["otb-standard", "otb-rapid", "online"]
COMPARED = [name for name in RATING_FIELDS if name != "breakdown"]


def rate_months(first, last):
    month = first
    while month <= last:
        for code in LISTS:
            call_command("rate_period", str(month), "--list", code)
        month += 1


def live_rows(code):
    rows = LiveRating.objects.filter(rating_list__code=code)
    return {(row["player_id"], row["month"]): row for row in rows.values("month", "breakdown", *COMPARED)}


def published_rows(code, months):
    rows = PlayerRating.objects.filter(rating_list__code=code, superseded_at=None, month__in=months)
    return {(row["player_id"], row["month"]): row for row in rows.values("month", "breakdown", *COMPARED)}


@pytest.mark.parametrize("unpublished", [1, 2])
def test_live_ratings_are_the_ratings_the_runs_then_publish(unpublished):
    summary = load_demo(players=80, seed=11, today=TODAY)
    Event.objects.filter(start_date__gt=summary.last_month.last_day()).delete()  # the month under way's
    rate_months(summary.first_month, summary.last_month - unpublished)
    months = [str(summary.last_month - n) for n in reversed(range(unpublished))]
    for code in LISTS:  # the runs asked for them as they committed; computed here once more
        compute_live(RatingList.objects.get(code=code), today=TODAY)
    assert [str(month) for month in live_months(RatingList.objects.get(code="otb-standard"), TODAY)] == months
    live = {code: live_rows(code) for code in LISTS}
    live_lists = {
        code: set(LiveEntry.objects.filter(rating_list__code=code).values_list("player_id", "rating", "type", "games"))
        for code in LISTS
    }

    rate_months(summary.last_month - unpublished + 1, summary.last_month)
    for code in LISTS:
        assert live[code] == published_rows(code, months), code
        assert len(live[code]) > 10
        latest = ListEntry.objects.filter(period__rating_list__code=code, period__month=months[-1], revision=0)
        assert live_lists[code] == set(latest.values_list("player_id", "rating", "type", "games")), code
        # Published now: nothing is live until the next approval.
        assert not LiveRating.objects.filter(rating_list__code=code).exists()


def november_win(officer):
    """David, 1850 on the October list, beats Grace (1700) in November; the event approved."""
    david = PlayerFactory(
        code="100001A", surname="Fletcher", forenames="David", birth_date=datetime.date(1980, 6, 1), club=None
    )
    grace = PlayerFactory(
        code="100002B", surname="Dunn", forenames="Grace", birth_date=datetime.date(1955, 1, 1), club=None
    )
    rows = [
        {"player": david, "rating": 1850, "games": 120, "opponents_total": 200000, "points": 60},
        {"player": grace, "rating": 1700, "games": 300, "opponents_total": 500000, "points": 150},
    ]
    publish_month("otb-standard", "2026-10", rows)
    published = list(ListEntry.objects.values_list("player_id", "rating").order_by("player_id"))

    event = approved_event(
        "NOV1", "otb-standard", datetime.date(2026, 11, 7), [("100001A", "100002B", "1-0")], status="submitted"
    )
    do_approve_event(event, acting_user=officer)
    return david, grace, event, published


def test_an_approval_and_a_send_back_change_the_live_rating_and_never_a_published_list(officer):
    david, grace, event, published = november_win(officer)
    standard = rating_list("otb-standard")
    live = LiveList.objects.get(rating_list=standard)
    assert (live.first_month, live.last_month, live.games, live.events) == ("2026-11", "2026-11", 1, 1)
    assert live.based_on.month == "2026-10"
    # K ratings (docs/rules.md section 6), both adults with Full ratings, K 20, Q 20:
    # David: D = 1700 - 1850 = -150, D offset -4.0, a win +10: (-4.0 + 10) x 20 / 20 = +6 -> 1856.
    # Grace: D = +150, D offset +4.0, a loss -10: (4.0 - 10) x 20 / 20 = -6 -> 1694.
    entry = LiveEntry.objects.get(rating_list=standard, player=david)
    assert (entry.rating, entry.published_rating, entry.change, entry.live_games) == (1856, 1850, 6, 1)
    grace_entry = LiveEntry.objects.get(rating_list=standard, player=grace)
    assert (grace_entry.rating, grace_entry.published_rating, grace_entry.change) == (1694, 1700, -6)
    assert LiveRating.objects.get(player=david).method == "K"
    assert list(ListEntry.objects.values_list("player_id", "rating").order_by("player_id")) == published

    do_send_back_event(event, acting_user=officer, reason="wrong result")
    live.refresh_from_db()
    assert (live.first_month, live.games) == ("", 0)
    assert not LiveEntry.objects.filter(rating_list=standard).exists()
    assert list(ListEntry.objects.values_list("player_id", "rating").order_by("player_id")) == published


def test_the_player_page_the_live_list_its_csv_and_the_calculation_show_the_live_rating(client, officer):
    david, grace, _, _ = november_win(officer)

    page = client.get("/players/100001A/").content.decode()
    assert "Live OTB standard: 1856</strong> (+6)" in page
    assert "from 1 approved game since the 2026-10 list" in page
    assert "/players/100001A/live/otb-standard/2026-11/" in page

    page = client.get("/lists/otb-standard/live/").content.decode()
    assert "Provisional." in page and "1 game from 1 approved event in 2026-11, since the 2026-10 list" in page
    assert page.index("Fletcher") < page.index("Dunn")  # 1856 above 1694
    assert '<td class="num">1856</td><td class="num fold">1850</td><td class="num">+6</td>' in page

    csv = client.get("/lists/otb-standard/live/csv/?q=dunn")
    assert csv["Content-Disposition"] == 'attachment; filename="otb-standard-live-provisional.csv"'
    assert csv.content.decode("utf-8-sig").splitlines() == [
        "code,name,live_rating,type,published_rating,change,new_games,category,club,status,age",
        '100002B,"Dunn, Grace",1694,full,1700,-6,1,full,,provisional,Senior 65+',  # born in 1955
    ]

    page = client.get("/players/100001A/live/otb-standard/2026-11/").content.decode()
    assert "How Fletcher, David's live OTB standard rating for 2026-11 is calculated" in page
    assert "New rating: <strong>1856</strong>" in page
    assert "Provisional." in page


def test_a_visitors_kept_live_list_follows_the_next_computation(client, officer):
    _, _, event, _ = november_win(officer)
    first = client.get("/lists/otb-standard/live/").content.decode()
    kept = client.get("/lists/otb-standard/live/").content.decode()

    do_send_back_event(event, acting_user=officer, reason="wrong result")  # the live list is computed again: empty
    after = client.get("/lists/otb-standard/live/").content.decode()

    assert kept == first and "1856" in kept
    assert "1856" not in after and "No games have been approved since the 2026-10 list" in after


def test_live_addresses_that_lead_nowhere_say_so(client, officer):
    november_win(officer)
    assert client.get("/lists/no-such-list/live/").status_code == 404
    assert client.get("/players/100001A/live/otb-standard/2026-10/").status_code == 404
    assert client.get("/players/100001A/live/otb-rapid/2026-11/").status_code == 404
    assert client.get("/lists/otb-standard/live/?page=99").status_code == 404
    response = client.get("/lists/otb-standard/live/?club=NOPE&age=old")
    assert response.status_code == 200 and "No club has the code NOPE." in response.content.decode()


def test_the_api_gives_the_live_list_and_each_players_live_ratings_marked_provisional(client, officer):
    november_win(officer)

    body = client.get("/api/v1/lists/otb-standard/live/").json()
    assert (body["list"], body["provisional"], body["based_on_period"], body["months"]) == (
        "otb-standard",
        True,
        "2026-10",
        ["2026-11"],
    )
    assert body["results"][0] == {
        "code": "100001A",
        "name": "Fletcher, David",
        "title": None,
        "url": "http://testserver/api/v1/players/100001A/",
        "rating": 1856,
        "type": "full",
        "category": "full",
        "games": 121,
        "last_played": "2026-11",
        "club": None,
        "age": None,  # born in 1980: in no age group
        "published_rating": 1850,
        "change": 6,
        "new_games": 1,
        "provisional": True,
    }
    player = client.get("/api/v1/players/100002B/").json()
    assert [(row["list"], row["rating"], row["change"]) for row in player["live"]] == [("otb-standard", 1694, -6)]
    # Online reads OTB standard's ratings, so it was computed again: nothing approved there.
    online = client.get("/api/v1/lists/online/live/").json()
    assert (online["months"], online["count"], online["results"]) == ([], 0, [])
    assert client.get("/api/v1/lists/nothing/live/").status_code == 404


def test_an_approval_reaches_the_live_ratings_through_a_real_worker(celery_worker_process, officer):
    """On a worker the computation follows the approval by a few seconds (DELAY_SECONDS), in a
    task of its own: the approval itself does not wait for it."""
    david, _, _, _ = november_win(officer)
    assert not LiveEntry.objects.filter(player=david).exists()  # not computed by the approval

    deadline = time.monotonic() + 60
    while not LiveEntry.objects.filter(player=david).exists():
        assert time.monotonic() < deadline, "no live rating a minute after the approval"
        time.sleep(0.2)
    assert LiveEntry.objects.get(player=david).rating == 1856  # as computed in process above


def test_a_computation_rewrites_only_the_ratings_that_changed(officer):
    david, grace, first, _ = november_win(officer)
    kept = LiveRating.objects.get(player=david).pk, LiveEntry.objects.get(player=grace).pk
    PlayerFactory(code="100003C", surname="Byrne", forenames="Ann", birth_date=datetime.date(1990, 1, 1), club=None)
    PlayerFactory(code="100004D", surname="Moss", forenames="Tom", birth_date=datetime.date(1990, 1, 1), club=None)
    other = approved_event(
        "NOV2", "otb-standard", datetime.date(2026, 11, 14), [("100003C", "100004D", "1/2-1/2")], status="submitted"
    )
    do_approve_event(other, acting_user=officer)

    # Two newcomers played each other: David's and Grace's numbers are as they were, so their
    # rows stay, and the newcomers' are added.
    assert (LiveRating.objects.get(player=david).pk, LiveEntry.objects.get(player=grace).pk) == kept
    assert LiveRating.objects.filter(rating_list__code="otb-standard").count() == 4
    assert LiveList.objects.get(rating_list__code="otb-standard").games == 2

    newcomers = set(LiveRating.objects.filter(player__code__in=["100003C", "100004D"]).values_list("pk", flat=True))
    do_send_back_event(first, acting_user=officer, reason="wrong result")

    # David's and Grace's games are gone: their rows go, the newcomers' stay as they were.
    assert set(LiveRating.objects.filter(rating_list__code="otb-standard").values_list("pk", flat=True)) == newcomers


def test_an_approved_events_page_shows_its_live_ratings_marked_provisional(client, officer):
    november_win(officer)

    page = client.get("/events/NOV1/").content.decode()

    assert "<strong>Provisional.</strong> This event is approved but not yet rated" in page
    rows = page.split('id="crosstable"')[1].split("</table>")[0].split("<tr>")[2:]
    # David beat Grace: counted at 1850 and 1700; (-4.0 + 10) x 20 / 20 = +6.0 and -6.0;
    # performances 1700 + 800 and 1850 - 800; by 400: 1700 + 400 and 1850 - 400.
    assert [cell in rows[0] for cell in (">1850<", ">2500<", ">2100<", ">+6.0<")] == [True] * 4
    assert [cell in rows[1] for cell in (">1700<", ">1050<", ">1450<", ">-6.0<")] == [True] * 4


def test_the_live_ratings_follow_a_rule_set_change_from_the_live_month_and_its_undoing(client, officer):
    for code in ("100001A", "100002B", "100003C", "100004D"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 1, 1), club=None)
    # A: 1210, once 1464, with 20 wins, 10 draws and 6 events of three games; three 1210s.
    data = "code,rating,type,games,opponents_total,points,last_played,peak,wins,draws,events3\n"
    data += "100001A,1210,full,60,72600,30,2026-08,1464,20,10,6\n"
    data += "".join(f"{code},1210,full,60,72600,30,2026-08,,,,\n" for code in ("100002B", "100003C", "100004D"))
    do_import_ratings(data.encode(), rating_list("otb-standard"), Month.parse("2026-10"))
    november = [("100001A", "100002B", "0-1"), ("100003C", "100001A", "1-0"), ("100001A", "100004D", "1/2-1/2")]
    do_approve_event(
        approved_event("NOV", "otb-standard", datetime.date(2026, 11, 7), november, "submitted"), acting_user=officer
    )

    def live_a():
        rating = LiveRating.objects.get(player__code="100001A", month="2026-11")
        return rating.rule_set, rating.rating, rating.floor, LiveEntry.objects.get(player__code="100001A").rating

    # ecf-2024: two losses and a draw against 1210s, -10, -10 and 0 by the K rating: 1190.
    assert live_a() == ("ecf-2024", 1190, None, 1190)

    change = do_change_rule_set(
        rating_list("otb-standard"), Month.parse("2026-11"), "ecf-2024+floors", acting_user=officer
    )

    # Floors: absolute 100 + 4 x 20 + 2 x 11 + 7 = 209, at most 150; peak 1464 - 200 = 1264,
    # down to 1200: the method's 1190 is held up to 1200.
    assert live_a() == ("ecf-2024+floors", 1200, 1200, 1200)
    page = client.get("/players/100001A/live/otb-standard/2026-11/").content.decode()
    assert "<dd>ecf-2024+floors</dd>" in page and "The rating floor" in page
    body = client.get("/api/v1/lists/otb-standard/live/").json()
    assert (body["rule_set"], body["method"]) == ("ecf-2024+floors", "ecf")
    assert [(line["code"], line["rating"]) for line in body["results"]][-1] == ("100001A", 1200)

    do_cancel_rule_set_change(change, acting_user=officer)

    assert live_a() == ("ecf-2024", 1190, None, 1190)
    assert "<dd>ecf-2024</dd>" in client.get("/players/100001A/live/otb-standard/2026-11/").content.decode()
    assert client.get("/api/v1/lists/otb-standard/live/").json()["rule_set"] == "ecf-2024"
