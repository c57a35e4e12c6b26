"""The health of the rating pool (docs/laboratory.md): calibration, drift, inflow and outflow,
the sum of changes, from stored games and published ratings."""

import datetime

import pytest

from chess.months import Month
from laboratory.health import health_csv, pool_health
from tests.builders import PlayerFactory, approved_event, rating_list, succeeded, take_on

pytestmark = pytest.mark.django_db
OCTOBER = Month.parse("2026-10")
RATINGS = [("100001A", 1500), ("100002B", 1700), ("100003C", 1400), ("100004J", 1300)]


@pytest.fixture
def october(rate):
    """A 1500, B 1700, C 1400 and J 1300 (a junior, 14), all Full from September; in October
    A beats B, B draws with C, J loses to A. Rated and published."""
    for code, born in [("100001A", 1980), ("100002B", 1975), ("100003C", 1990), ("100004J", 2012)]:
        PlayerFactory(code=code, birth_date=datetime.date(born, 5, 1))
    take_on(
        "otb-standard",
        "2026-09",
        *(f"{code},{rating},full,30,{30 * rating},15,2026-08" for code, rating in RATINGS),
    )
    approved_event(
        "OCT",
        "otb-standard",
        datetime.date(2026, 10, 10),
        [("100001A", "100002B", "1-0"), ("100002B", "100003C", "1/2-1/2"), ("100004J", "100001A", "0-1")],
    )
    succeeded(rate("otb-standard", "2026-10"))


def test_calibration_compares_the_expected_score_with_the_score_made(october):
    health = pool_health(rating_list("otb-standard"), OCTOBER, OCTOBER)

    bands = {row["group"]: row for row in health.calibration if row["games"]}
    # The higher-rated side: B (+200 over A) scored 0 and A (+200 over J) 1, each expected 0.76;
    # B (+300 over C) drew, expected 0.85.
    assert bands == {
        "200-249": {"group": "200-249", "games": 2, "expected": 0.76, "actual": 0.5, "gap": -0.26},
        "300-349": {"group": "300-349", "games": 1, "expected": 0.85, "actual": 0.5, "gap": -0.35},
    }
    ages = {row["group"]: row for row in health.by_age}
    # J, 14: expected 0.24 against A, scored 0. The adults' five sides: expected 0.24 + 0.76 +
    # 0.76 + 0.85 + 0.15 = 2.76 (0.552 each), scored 1 + 1 + 0 + 0.5 + 0.5 = 3 (0.6).
    assert ages["juniors (under 18)"] == {
        "group": "juniors (under 18)",
        "games": 1,
        "expected": 0.24,
        "actual": 0.0,
        "gap": -0.24,
    }
    assert (ages["adults"]["games"], ages["adults"]["expected"], ages["adults"]["actual"]) == (5, 0.552, 0.6)
    assert ages["seniors (65 and over)"]["games"] == 0
    assert [(row["group"], row["games"]) for row in health.by_category] == [("Full", 6), ("Partial", 0)]


def test_drift_inflow_outflow_and_the_sum_of_changes(october):
    [month] = pool_health(rating_list("otb-standard"), OCTOBER, OCTOBER).months

    # K ratings: A +15.2 + 4.8 = +20 -> 1520; B -15.2 - 7.0 = -22.2 -> 1678; C +7.0 -> 1407;
    # J (K 20: the games lowered the rating) 5.2 - 10 = -4.8 -> 1295. 20 - 22 + 7 - 5 = 0.
    assert month["stayed"] == 4 and (month["inflow"], month["outflow"]) == (0, 0)
    assert (month["mean_before"], month["mean_after"]) == (1475, 1475)
    assert (month["median_before"], month["median_after"]) == (1450, 1463.5)  # (1400 + 1500) / 2, (1407 + 1520) / 2
    assert (month["changed"], month["change_sum"]) == (4, 0)


def test_a_month_not_yet_published_is_marked_so_and_counts_nobody_as_gone(october):
    months = pool_health(rating_list("otb-standard"), OCTOBER, OCTOBER + 1).months

    assert [(m["month"], m["published"], m.get("outflow")) for m in months] == [
        ("2026-10", True, 0),
        ("2026-11", False, None),
    ]


def test_the_page_and_its_csv_show_a_month_not_yet_published_as_such(october, client, officer):
    client.force_login(officer)
    query = "?rating_list=otb-standard&first_month=2026-10&last_month=2026-11"

    page = client.get("/admin/laboratory/simulation/health/" + query)
    download = client.get("/admin/laboratory/simulation/health/" + query + "&format=csv")

    assert page.status_code == 200
    assert '<td>2026-11</td><td colspan="11">not published yet' in page.content.decode()
    assert "months,2026-11,,,,,,,,,,," in download.content.decode("utf-8-sig")


def test_the_page_shows_the_tables_and_the_csv_holds_them(october, client, officer):
    client.force_login(officer)
    query = "?rating_list=otb-standard&first_month=2026-10&last_month=2026-10"

    page = client.get("/admin/laboratory/simulation/health/" + query).content.decode()
    assert "Calibration by rating difference" in page and 'id="chart-specs"' in page
    download = client.get("/admin/laboratory/simulation/health/" + query + "&format=csv")
    assert download.content.decode("utf-8-sig") == health_csv(
        pool_health(rating_list("otb-standard"), OCTOBER, OCTOBER)
    )
    assert "calibration,200-249,2,0.76,0.5,-0.26" in download.content.decode("utf-8-sig")

    wrong = client.get("/admin/laboratory/simulation/health/?rating_list=999&first_month=2026-13&last_month=x")
    assert wrong.status_code == 200 and "is not a month" in wrong.content.decode()
    backwards = client.get(
        "/admin/laboratory/simulation/health/?rating_list=otb-standard&first_month=2026-10&last_month=2026-09"
    )
    assert "from 2026-10 is after to 2026-09" in backwards.content.decode()  # as a simulation says it


def test_the_page_takes_the_list_by_its_code_and_says_so_of_an_unknown_one(october, client, officer):
    client.force_login(officer)

    page = client.get("/admin/laboratory/simulation/health/?first_month=2026-10&last_month=2026-10").content.decode()
    assert '<option value="otb-standard">' in page  # the menu writes the code the address carries
    unknown = client.get(
        "/admin/laboratory/simulation/health/?rating_list=otb-bullet&first_month=2026-10&last_month=2026-10"
    )
    assert unknown.status_code == 200 and "No rating list has that code." in unknown.content.decode()
    by_id = client.get(
        f"/admin/laboratory/simulation/health/?rating_list={rating_list('otb-standard').pk}&first_month=2026-10&last_month=2026-10"
    )
    assert "No rating list has that code." in by_id.content.decode()


def test_a_game_against_a_lapsed_rating_is_not_calibrated(rate):
    # L's 1600 was last played in 2020, outside the activity window: the method meets L as a
    # dummy, so the game says nothing of how well 1600 predicts; A's game against B counts.
    for code in ("100001A", "100002B", "100005L"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 5, 1))
    take_on(
        "otb-standard",
        "2026-09",
        "100001A,1500,full,30,45000,15,2026-08",
        "100002B,1700,full,30,51000,15,2026-08",
        "100005L,1600,full,30,48000,15,2020-01",
    )
    approved_event(
        "OCT",
        "otb-standard",
        datetime.date(2026, 10, 10),
        [("100001A", "100005L", "1-0"), ("100001A", "100002B", "0-1")],
    )
    succeeded(rate("otb-standard", "2026-10"))

    health = pool_health(rating_list("otb-standard"), OCTOBER, OCTOBER)

    assert [(row["group"], row["games"]) for row in health.calibration if row["games"]] == [("200-249", 1)]


def test_an_impossible_birth_date_counts_as_an_unknown_age_as_in_the_runs(october):
    from players.models import Player

    Player.objects.filter(code="100002B").update(birth_date=datetime.date(1850, 1, 1))  # the runs hold it out

    ages = {row["group"]: row["games"] for row in pool_health(rating_list("otb-standard"), OCTOBER, OCTOBER).by_age}

    assert (ages["seniors (65 and over)"], ages["adults"]) == (0, 5)
