"""FIDE's rules from 2024 (docs/rules.md part 5) at their boundaries through the site: events
approved on a list rated by fide-2025, the month rated by a run on a worker, the list exported;
and a TRF-2026 file scored 3-1-0 uploaded by an arbiter, submitted, approved, rated and exported."""

import datetime
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from chess.months import Month
from events.approval import do_approve_event
from events.models import Event
from events.workflow import do_submit_event
from grading.models import GameNotRated, ListEntry, PlayerRating, RatingList
from grading.rule_set_changes import do_change_rule_set
from tests.builders import DATA, PlayerFactory, approved_event, rating_list, succeeded, take_on, upload
from tests.grading.run.fide_2025 import NEWCOMERS, OCTOBER, october_games, one_game_a_day, set_up_fide_2025_list, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def fide_2025_list():
    set_up_fide_2025_list()


def test_a_month_on_fide_2025_rates_each_rule_at_its_boundary_and_exports_it(fide_2025_list, rate, capsys):
    one_game_a_day(approved_event("OCT", "otb-standard", OCTOBER, october_games()))

    succeeded(rate("otb-standard", "2026-10"))

    # The floor of 1400 (16.1): equals at K 20, a loss 20 x (0 - 0.50) = -10. 1410 -> 1400 stays
    # rated; 1409 -> 1399 becomes unrated: pending, no pending months, its games kept for nothing,
    # its peak kept.
    assert (state("100001A").rating, state("100001A").type) == (1400, "full")
    f2 = state("100002A")
    assert (f2.rating, f2.type, f2.pending, f2.games, f2.peak) == (None, "pending", [], 0, 1409)
    # Juniors' K (16.4): a 1800 beats a 1800, 0.50 expected. Born 2008, 2026 <= 2008 + 18: K 40,
    # +20. Born 2007, 2026 > 2025: K 20, +10.
    assert (state("100005A").rating, state("100005A").k_factor) == (1820, 40)
    assert (state("100006A").rating, state("100006A").k_factor) == (1810, 20)
    # The 2650 exemption (16.2): 500 above, uncapped for 2650: PD 0.96 (485-517), 10 x 0.04 =
    # 0.4 -> 0, 2650 stays. 2649 keeps the cap: 400, PD 0.92, 10 x 0.08 = 0.8 -> +1, 2650.
    assert (state("100009A").rating, state("100010A").rating) == (2650, 2650)
    # Their opponents keep the cap: -400, PD 0.08, 20 x -0.08 = -1.6 -> -2.
    assert (state("100011A").rating, state("100012A").rating) == (2148, 2147)
    # Halves away from zero (16.2): 193 apart, PD 0.75. H1 (peak 2400: K 10) wins, 10 x 0.25 =
    # +2.5 -> +3, 2403; H2 loses, 10 x -0.25 = -2.5 -> -3, 2397 (half up would give -2).
    assert (state("100013A").rating, state("100015A").rating) == (2403, 2397)
    # First ratings (16.3), two imaginary draws against 1800s added:
    # N1: T = 3 x 2359 + 2 x 2358 = 11793, (11793 + 3600) / 7 = 2199, p = 3.5 / 7 = 0.50: 2199.
    # N2: (11800 + 3600) / 7 = 2200, p 0.50: 2200.
    # N3: (11500 + 3600) / 7 = 2157.14, p = 6 / 7 = 0.86, dp +309: 2466.14, capped at 2200.
    assert [state(code).rating for code in NEWCOMERS] == [2199, 2200, 2200]
    assert [state(code).method for code in NEWCOMERS] == ["first"] * 3

    call_command("export_list", "--list", "otb-standard", "--period", "2026-10", "--format", "json")

    exported = {p["code"]: p["rating"] for p in json.loads(capsys.readouterr().out)["players"]}
    assert exported["100001A"] == 1400 and "100002A" not in exported
    assert [exported[code] for code in NEWCOMERS] == [2199, 2200, 2200]
    assert exported["100015A"] == 2397
    listed = set(ListEntry.objects.filter(period__month="2026-10").values_list("player__code", flat=True))
    assert "100002A" not in listed and "100001A" in listed


def test_the_rate_of_play_is_decided_game_by_game_by_the_two_ratings(fide_2025_list, rate):
    # 59 minutes + 30 seconds a move: 59 + 60 x 30 s = 89 minutes for 60 moves. A 1799 against
    # a 1409 needs 60: rated. An 1800 needs 90: not rated, its reason stored. At 60 + 30 (90
    # minutes) the same game is rated.
    short = approved_event(
        "E89",
        "otb-standard",
        OCTOBER,
        [("100017A", "100002A", "1-0"), ("100007A", "100004A", "1-0")],
        time_control="59 min + 30 s/move",
    )
    approved_event("E90", "otb-standard", OCTOBER, [("100008A", "100001A", "1-0")], time_control="60 min + 30 s/move")

    succeeded(rate("otb-standard", "2026-10"))

    # 1799 beat 1409: diff 390, PD 0.91, 20 x 0.09 = 1.8 -> +2.
    assert state("100017A").rating == 1801
    # 1800 beat 1410 at 90 minutes: diff 390, the same +2.
    assert state("100008A").rating == 1802
    # 1800 against 1409 at 89 minutes: not rated, for either.
    assert not PlayerRating.objects.filter(player__code__in=["100007A", "100004A"], month="2026-10").exists()
    reasons = list(GameNotRated.objects.filter(game__event=short).values_list("reason", flat=True))
    assert reasons == [
        "not rated: the time control gives 89 minutes for 60 moves; a game with a player rated 1800 or more needs 90"
    ]


def test_an_arbiters_trf_2026_file_scored_three_one_nothing_is_rated_one_half_nothing(
    client, arbiter, officer, rate, capsys
):
    # The file's players, rated on otb-standard in February 2026 (40 games each), the list on
    # fide-2025 from March.
    fide_ids = {
        "Hartley": ("400731122", 2284, 1991),
        "Okafor": ("400822390", 2156, 1998),
        "Lindqvist": ("1743981", 2032, 1987),
        "Pryce": ("410240067", 1967, 2005),
        "Marsh": ("400917261", 1891, 1976),
        "Szabo": ("744417", 1840, 2009),
    }
    for n, (surname, (fide_id, _, born)) in enumerate(fide_ids.items()):
        PlayerFactory(code=f"30000{n}A", surname=surname, fide_id=fide_id, birth_date=datetime.date(born, 6, 1))
    take_on(
        "otb-standard",
        "2026-02",
        *(f"30000{n}A,{rating},full,40,{40 * rating},20,2026-02" for n, (_, rating, _) in enumerate(fide_ids.values())),
    )
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-03"), "fide-2025", acting_user=None)
    client.force_login(arbiter)
    data = (DATA / "trf-2026" / "northquay-spring-swiss-3-1-0.trf").read_bytes()
    assert upload(client, data, "spring.trf", code="NQSPR26").status_code == 302
    event = do_submit_event(Event.objects.get(code="NQSPR26"), acting_user=arbiter)
    do_approve_event(event, acting_user=officer, visitors=True)

    succeeded(rate("otb-standard", "2026-03", today=datetime.date(2026, 4, 3)))

    # Hartley (2284, K 20) scored 13 of the file's 3-1-0 points, rated as 1, 1/2, 0: beat Pryce
    # (1967, diff 317, PD 0.87), drew Okafor (2156, 128, 0.67), beat Szabo (1840, 444 -> 400,
    # 0.92) and Lindqvist (2032, 252, 0.81); his win over Whitcombe (unrated) does not count.
    # 3.5 - 3.27 = 0.23, x 20 = 4.6 -> +5: 2289.
    hartley = state("300000A", "2026-03")
    assert (hartley.rating, hartley.games, hartley.points) == (2289, 44, 23.5)
    # Szabo, born 2009 (a junior to the end of 2027): K 40. Lost to Lindqvist (2032, -192, PD
    # 0.25), beat Pryce (1967, -127, 0.33), lost to Hartley (-444 -> -400, 0.08), beat Whitcombe
    # (unrated: not counted); his forfeit win over Marsh is no game. 1 - 0.66 = 0.34, x 40 = 13.6
    # -> +14: 1854.
    szabo = state("300005A", "2026-03")
    assert (szabo.rating, szabo.k_factor) == (1854, 40)

    call_command("export_list", "--list", "otb-standard", "--period", "2026-03", "--format", "json")

    exported = {p["code"]: p["rating"] for p in json.loads(capsys.readouterr().out)["players"]}
    assert (exported["300000A"], exported["300005A"]) == (2289, 1854)


def test_a_rapid_game_600_apart_above_2600_is_not_rated_and_599_apart_is(rate):
    for code, born in [("400001A", 1985), ("400002A", 1985), ("400003A", 1985), ("400004A", 1985)]:
        PlayerFactory(code=code, birth_date=datetime.date(born, 6, 1))
    take_on(
        "otb-rapid",
        "2026-09",
        "400001A,2610,full,40,104400,20,2026-09",
        "400002A,2011,full,40,80440,20,2026-09",
        "400003A,2610,full,40,104400,20,2026-09",
        "400004A,2010,full,40,80400,20,2026-09",
    )
    do_change_rule_set(rating_list("otb-rapid"), Month.parse("2026-10"), "fide-2024-rapid", acting_user=None)
    # 15 minutes + 10 seconds a move: 25 minutes for 60 moves, rapid play.
    event = approved_event(
        "RAPID",
        "otb-rapid",
        OCTOBER,
        [("400001A", "400002A", "1-0"), ("400003A", "400004A", "1-0")],
        time_control="15 min + 10 s/move",
    )

    succeeded(rate("otb-rapid", "2026-10"))

    # 2610 beat 2011, 599 apart: counted at 400, PD 0.92, K 20 x 0.08 = 1.6 -> +2; 2011 -2.
    assert (state("400001A").rating, state("400002A").rating) == (2612, 2009)
    # 2610 and 2010, 600 apart with one above 2600: not rated for either.
    assert not PlayerRating.objects.filter(player__code__in=["400003A", "400004A"], month="2026-10").exists()
    reasons = list(GameNotRated.objects.filter(game__event=event).values_list("reason", flat=True))
    assert len(reasons) == 1 and "600" in reasons[0] and "2600" in reasons[0], reasons


def test_a_blitz_list_rated_by_fide_2024_rapid_rates_blitz_games_and_leaves_out_rapid_ones(rate):
    RatingList.objects.create(
        code="otb-blitz", name="OTB blitz", rule_set="fide-2017-rapid", min_minutes=0, max_minutes=10
    )
    players = ("600001A", "600002A", "600003A", "600004A")
    for code in players:
        PlayerFactory(code=code, birth_date=datetime.date(1985, 6, 1))
    take_on("otb-blitz", "2026-09", *(f"{code},1700,full,40,68000,20,2026-09" for code in players))
    do_change_rule_set(
        rating_list("otb-blitz"), Month.parse("2026-10"), "fide-2024-rapid", acting_user=None, fide_adjustment=False
    )
    # 3 minutes + 2 seconds a move: 3 + 60 x 2 s = 5 minutes for 60 moves, blitz (more than 3, at
    # most 10). 15 + 10 on the same list: 25 minutes, rapid play, not this list's.
    approved_event("BLITZ", "otb-blitz", OCTOBER, [("600001A", "600002A", "1-0")], time_control="3 min + 2 s/move")
    rapid = approved_event(
        "RAPID", "otb-blitz", OCTOBER, [("600003A", "600004A", "1-0")], time_control="15 min + 10 s/move"
    )

    succeeded(rate("otb-blitz", "2026-10"))

    # Equals at K 20: +10 and -10.
    assert (state("600001A").rating, state("600002A").rating) == (1710, 1690)
    assert not PlayerRating.objects.filter(player__code__in=["600003A", "600004A"], month="2026-10").exists()
    reasons = list(GameNotRated.objects.filter(game__event=rapid).values_list("reason", flat=True))
    assert len(reasons) == 1 and reasons[0].startswith("not rated: not blitz play"), reasons


def test_the_calculation_page_of_a_capped_first_rating_shows_the_imaginary_draws_and_the_cap(
    client, fide_2025_list, rate
):
    one_game_a_day(approved_event("OCT", "otb-standard", OCTOBER, october_games()))
    succeeded(rate("otb-standard", "2026-10"))

    page = client.get(reverse("rating-calculation", args=["200003A", "otb-standard", "2026-10"])).content.decode()

    # N3: five wins against 2300s. T = 11500; Ra = (11500 + 2 x 1800) / 7 = 2157.14; p = (5 + 1) /
    # 7 = 0.8571, rounded 0.86, dp +309: 2466.14, rounded 2466, capped at 2200.
    text = " ".join(page.split())
    assert "2 imaginary games against opponents rated 1800, both drawn" in text
    assert "= <strong>2157.14</strong>" in text
    assert "rounded to 0.86" in text and "dp = <strong>309</strong>" in text
    assert "2466, more than a first rating may be: <strong>2200</strong>, the cap" in text


def test_the_calculation_page_names_a_juniors_k_by_the_year_they_turn_18(client, fide_2025_list, rate):
    one_game_a_day(approved_event("OCT", "otb-standard", OCTOBER, october_games()))
    succeeded(rate("otb-standard", "2026-10"))

    page = client.get(reverse("rating-calculation", args=["100005A", "otb-standard", "2026-10"])).content.decode()

    # Born 2008, 18 in 2026: K 40 (16.4), 40 x (1 - 0.50) = +20.
    assert "K is 40: a junior (until the end of the year they turn 18) rated under 2300." in " ".join(page.split())
