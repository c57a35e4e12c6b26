"""FIDE's one-off adjustment of March 2024 (docs/rules.md section 18) through the site: offered with
a change of rule set from fide-2017 to fide-2025, recorded with it, made at the start of the
month by its run (a row for every player it raised, those without games included), shown on the
list, the player page, the calculation page and the API, made identically by a revision and by
the live ratings, never twice."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from alerts.models import Follow, Follower
from chess.months import Month
from grading.live.computing import compute_live
from grading.models import ListEntry, LiveRating, PlayerRating, RatingRun, RuleSetChange
from grading.rule_set_changes import ChangeRefused, do_change_rule_set
from grading.takeon import do_import_ratings
from laboratory.rerating import run_simulation
from laboratory.simulations import do_start_simulation
from players.models import Player
from tests.builders import PlayerFactory, approved_event, rating_list, succeeded

pytestmark = pytest.mark.django_db

OCTOBER = datetime.date(2026, 10, 3)
# Taken on for 2026-09 under fide-2017: code, rating, peak (40 games each: K 20 for adults).
TAKEN_ON = [
    ("100001A", 1500, 1500),  # A: plays in October
    ("100002A", 1000, 1000),  # B: no games; 1000 + 0.4 x 1000 = 1400
    ("100003A", 2100, 2100),  # C: A's opponent, over 2000: unchanged
    ("100004A", 1999, 1999),  # D: 1999 + 0.4 x 1 = 1999.4, + 0: unchanged, no row
    ("100005A", 1850, 1950),  # E: 1850 + 60 = 1910, its peak 1950 kept
]
PENDING = "100006A"  # P: pending, one month of 3 games: its months kept as they are


def state(code, month="2026-10"):
    return PlayerRating.objects.get(player__code=code, month=month, superseded_at=None)


@pytest.fixture
def on_fide_2017():
    for code, _, _ in TAKEN_ON:
        PlayerFactory(code=code, birth_date=datetime.date(1980, 6, 1))
    PlayerFactory(code=PENDING, birth_date=datetime.date(1980, 6, 1))
    standard = rating_list("otb-standard")
    do_change_rule_set(standard, Month.parse("2026-09"), "fide-2017", acting_user=None)
    lines = [f"{code},{rating},full,40,{40 * rating},20,2026-09,{peak}" for code, rating, peak in TAKEN_ON]
    lines.append(f"{PENDING},,pending,3,5400,1.5,2026-09,")
    data = "code,rating,type,games,opponents_total,points,last_played,peak\n" + "\n".join(lines) + "\n"
    do_import_ratings(data.encode(), standard, Month.parse("2026-09"))
    return standard


def test_a_change_from_fide_2017_to_fide_2025_carries_the_adjustment_unless_the_officer_unticks_it(on_fide_2017):
    change = do_change_rule_set(on_fide_2017, Month.parse("2026-10"), "fide-2025", acting_user=None)
    assert change.fide_adjustment is True  # FIDE's own change: offered, ticked

    change = do_change_rule_set(
        on_fide_2017, Month.parse("2026-10"), "fide-2024", acting_user=None, fide_adjustment=False
    )
    assert change.fide_adjustment is False
    assert RuleSetChange.objects.get(rating_list=on_fide_2017, month="2026-10").rule_set == "fide-2024"


def test_the_adjustment_comes_only_with_a_change_from_fides_2017_rules_or_the_ecf_method(on_fide_2017):
    do_change_rule_set(on_fide_2017, Month.parse("2026-10"), "fide-2024", acting_user=None, fide_adjustment=False)
    with pytest.raises(ChangeRefused, match="rated by fide-2024 before 2026-11"):
        do_change_rule_set(on_fide_2017, Month.parse("2026-11"), "fide-2025", acting_user=None, fide_adjustment=True)
    # From the ECF method: only if asked (the rapid list is rated by ecf-2024).
    rapid = rating_list("otb-rapid")
    assert (
        do_change_rule_set(rapid, Month.parse("2026-10"), "fide-2024-rapid", acting_user=None).fide_adjustment is False
    )
    asked = do_change_rule_set(rapid, Month.parse("2026-10"), "fide-2024-rapid", acting_user=None, fide_adjustment=True)
    assert asked.fide_adjustment is True
    # A change before it that would no longer lead from FIDE's 2017 rules or the ECF method is refused.
    with pytest.raises(ChangeRefused, match="carries FIDE's adjustment of March 2024"):
        do_change_rule_set(rapid, Month.parse("2026-09"), "fide-2024-rapid", acting_user=None)


def adjusted_october(rate, officer=None):
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "fide-2025", acting_user=officer)
    approved_event("OCT", "otb-standard", OCTOBER, [("100003A", "100001A", "1-0")])
    return succeeded(rate("otb-standard", "2026-10"))


def test_the_month_is_rated_from_the_adjusted_ratings_and_every_player_raised_has_a_row(on_fide_2017, rate):
    run = adjusted_october(rate)

    a, b, c, e = (state(code) for code in ("100001A", "100002A", "100003A", "100005A"))
    # A began October at 1500 + 0.4 x 500 = 1700 and lost to C (2100): a difference of 400, PD
    # 0.08 for A; K 20 x (0 - 0.08) = -1.6, rounded half away from zero, -2: 1698. Without the
    # adjustment 1500 v 2100 is capped at 400 too, and A would be 1498.
    assert (a.adjusted_from, a.prior_rating, a.rating, a.method) == (1500, 1700, 1698, "elo")
    # C, over 2000, began at 2100: K 20 x (1 - 0.92) = +1.6, +2.
    assert (c.adjusted_from, c.prior_rating, c.rating) == (None, 2100, 2102)
    # B and E had no games: rows of their own, their games and last-played month as before.
    assert (b.method, b.adjusted_from, b.prior_rating, b.rating, b.peak) == ("adjust", 1000, 1000, 1400, 1400)
    assert (b.games, b.last_played, b.type, b.breakdown) == (40, "2026-09", "full", [])
    assert (e.rating, e.peak) == (1910, 1950)  # 1850 + 0.4 x 150 = 1910, under its peak
    # D (1999, raised by 0) and the pending player have no row: nothing changed for them.
    assert not PlayerRating.objects.filter(player__code__in=["100004A", PENDING], month="2026-10").exists()
    listed = dict(
        ListEntry.objects.filter(period__month="2026-10", period__rating_list__code="otb-standard").values_list(
            "player__code", "rating"
        )
    )
    assert listed == {"100001A": 1698, "100002A": 1400, "100003A": 2102, "100004A": 1999, "100005A": 1910}
    assert "FIDE's adjustment of March 2024 at the start of 2026-10: 3 ratings under 2000 raised" in run.message


def test_the_next_month_reads_the_adjusted_ratings_without_adjusting_them_again(on_fide_2017, rate):
    adjusted_october(rate)
    approved_event("NOV", "otb-standard", datetime.date(2026, 11, 7), [("100002A", "100004A", "1-0")])

    succeeded(rate("otb-standard", "2026-11", today=datetime.date(2026, 12, 5)))

    b, d = state("100002A", "2026-11"), state("100004A", "2026-11")
    # B 1400 beat D 1999: a difference of -599, counted at -400, PD 0.08; +20 x 0.92 = 18.4, +18.
    assert (b.prior_rating, b.adjusted_from, b.rating) == (1400, None, 1418)
    assert (d.prior_rating, d.rating) == (1999, 1981)


def test_a_revision_of_the_month_makes_the_same_adjustment(on_fide_2017, rate):
    adjusted_october(rate)
    first = {row.player.code: (row.rating, row.adjusted_from) for row in PlayerRating.objects.filter(month="2026-10")}
    approved_event("LATE", "otb-standard", datetime.date(2026, 10, 20), [("100005A", "100003A", "1/2-1/2")])

    revised = succeeded(rate("otb-standard", "2026-10"))

    assert revised.revision == 1
    now = {
        row.player.code: (row.rating, row.adjusted_from)
        for row in PlayerRating.objects.filter(month="2026-10", superseded_at=None)
    }
    # E drew with C: 1910 v 2102, a difference of -192, PD 0.25 for E: +20 x 0.25 = +5, 1915;
    # C -5, 2097. The others as first published, B's 1400 and A's 1698 included.
    assert now == {**first, "100005A": (1915, 1850), "100003A": (2097, None)}
    assert RatingRun.objects.filter(period__month="2026-10").count() == 2


def test_the_live_ratings_start_from_the_adjusted_ratings(on_fide_2017):
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-10"), "fide-2025", acting_user=None)
    approved_event("OCT", "otb-standard", OCTOBER, [("100003A", "100001A", "1-0")])

    compute_live(rating_list("otb-standard"), today=datetime.date(2026, 10, 21))

    live = {row.player.code: row for row in LiveRating.objects.filter(month="2026-10")}
    assert (live["100001A"].adjusted_from, live["100001A"].rating) == (1500, 1698)
    assert (live["100002A"].method, live["100002A"].rating) == ("adjust", 1400)


def test_the_list_the_player_page_the_calculation_and_the_api_show_the_adjustment(on_fide_2017, rate, client):
    adjusted_october(rate)

    listing = client.get(reverse("rating-list-period", args=["otb-standard", "2026-10"])).content.decode()
    assert "2026-10 began with FIDE's adjustment of March 2024" in listing
    assert "(1500 became 1700" in listing
    player = client.get(reverse("player", args=["100002A"])).content.decode()
    assert 'title="FIDE&#x27;s adjustment of March 2024: 1000 + 0.4 × (2000 − 1000) = 1000 + 400 = 1400"' in player
    calculation = client.get(reverse("rating-calculation", args=["100001A", "otb-standard", "2026-10"]))
    text = calculation.content.decode()
    assert "1500 + 0.4 × (2000 − 1500) = 1500 + 200 = 1700" in text
    assert "the rating this month's games were rated from" in text
    answer = client.get(reverse("api-player-ratings", args=["100002A"]), {"list": "otb-standard"}).json()
    october = next(row for row in answer["results"] if row["period"] == "2026-10")
    assert october["adjustment"] == {
        "reason": "FIDE's adjustment of March 2024",
        "before": 1000,
        "gain": 400,
        "after": 1400,
        "text": "FIDE's adjustment of March 2024: 1000 + 0.4 × (2000 − 1000) = 1000 + 400 = 1400",
    }
    assert (october["rating"], october["method"]) == (1400, "adjust")
    september = next(row for row in answer["results"] if row["period"] == "2026-09")
    assert september["adjustment"] is None


def test_the_admin_offers_the_adjustment_ticked_and_records_what_the_officer_confirms(on_fide_2017, officer, client):
    client.force_login(officer)
    asked = {"rating_list": on_fide_2017.pk, "month": "2026-10", "rule_set": "fide-2025"}

    preview = client.post(reverse("admin:grading_rulesetchange_add"), asked).content.decode()

    assert '<input type="checkbox" name="fide_adjustment" checked>' in preview
    # Of the five rated players, B (1000), A (1500) and E (1850) would be raised; D's 1999 stays.
    assert "3 of the list's ratings would be raised" in preview
    client.post(reverse("admin:grading_rulesetchange_add"), {**asked, "confirm": "Confirm the change"})
    assert RuleSetChange.objects.get(month="2026-10").fide_adjustment is False  # unticked
    RuleSetChange.objects.all().delete()
    client.post(
        reverse("admin:grading_rulesetchange_add"), {**asked, "confirm": "Confirm the change", "fide_adjustment": "on"}
    )
    change = RuleSetChange.objects.get(month="2026-10")
    assert (change.fide_adjustment, change.made_by) == (True, officer)
    # From fide-2025 to fide-2024 nothing is offered.
    later = {**asked, "month": "2026-11", "rule_set": "fide-2024"}
    assert "fide_adjustment" not in client.post(reverse("admin:grading_rulesetchange_add"), later).content.decode()


def test_the_laboratory_simulates_the_change_with_and_without_the_adjustment(on_fide_2017, rate):
    approved_event("OCT", "otb-standard", OCTOBER, [("100003A", "100001A", "1-0")])
    succeeded(rate("otb-standard", "2026-10"))  # under fide-2017: A 1498, C 2102

    def simulated(adjusted):
        simulation = do_start_simulation(
            *(on_fide_2017, Month.parse("2026-10"), Month.parse("2026-10"), "fide-2025"),
            acting_user=None,
            queue=False,
            fide_adjustment=adjusted,
        )
        run_simulation(simulation.pk)
        simulation.refresh_from_db()
        assert simulation.status == "done", simulation.message
        return simulation

    with_it, without = simulated(True), simulated(False)

    compared = {row.player.code: (row.published_rating, row.simulated_rating) for row in with_it.players.all()}
    # A 1700 - 2 = 1698; B raised to 1400 and E to 1910 without games; C 2102 either way.
    assert compared == {
        "100001A": (1498, 1698),
        "100002A": (1000, 1400),
        "100003A": (2102, 2102),
        "100005A": (1850, 1910),
    }
    marks = {mark["mark"]: mark for mark in with_it.summary["marks"]}
    assert (marks[1400]["published"], marks[1400]["simulated"], marks[1400]["up"]) == (3, 4, 1)  # B reaches 1400
    assert (marks[2000]["up"], marks[2200]["simulated"]) == (0, 0)
    assert with_it.rules_name == "fide-2025 with FIDE's adjustment"
    assert {row.player.code: row.simulated_rating for row in without.players.all()} == {
        "100001A": 1498,
        "100003A": 2102,
    }
    assert [mark["up"] for mark in without.summary["marks"]] == [0, 0, 0]


def test_a_followers_mail_counts_the_change_from_the_rating_published_before_and_gives_the_adjustment(
    on_fide_2017, rate, inbox
):
    now = datetime.datetime.now(datetime.UTC)
    fan = Follower.objects.create(email="fan@example.net", key="fan" * 4, created_at=now)
    for code in ("100001A", "100002A"):
        Follow.objects.create(
            follower=fan, kind="player", player=Player.objects.get(code=code), created_at=now, confirmed_at=now
        )

    adjusted_october(rate)

    (mail,) = inbox.to("fan@example.net")
    text = mail.get_body(("plain",)).get_content()
    # A: 1500 published for September, 1698 for October: +198, as the player page counts it.
    assert (
        "2026-10: 1698 (+198), 1 game; FIDE's adjustment of March 2024: 1500 + 0.4 × (2000 − 1500) = 1500 + 200 = 1700"
        in text
    )
    assert "2026-10: 1400 (+400), 0 games; FIDE's adjustment of March 2024: 1000 + 0.4 × (2000 − 1000)" in text
    page = Client().get(reverse("player", args=["100001A"])).content.decode()
    assert '<td class="num">+198</td>' in page
