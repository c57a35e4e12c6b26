import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from chess.months import Month
from grading.models import ListEntry, PlayerRating, RatingPeriod, RatingRun
from grading.rule_set_changes import do_change_rule_set
from tests.builders import PlayerFactory, approved_event, publish_month, rating_list, succeeded

pytestmark = pytest.mark.django_db

HEADER = "code,rating,type,games,opponents_total,points,last_played\n"


def write(tmp_path, *lines, header=HEADER):
    path = tmp_path / "ratings.csv"
    path.write_text(header + "".join(line + "\n" for line in lines))
    return str(path)


def state(code, month):
    return PlayerRating.objects.get(player__code=code, month=month, superseded_at=None)


@pytest.fixture
def players():
    return [PlayerFactory(code="123456A"), PlayerFactory(code="234567B")]


def test_it_stores_the_states_published_for_a_period(tmp_path, players, capsys):
    path = write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08", "234567B,1500,Partial,3,4500,1.5,")

    call_command("import_ratings", path, "--list", "otb-standard", "--period", "2026-09")

    assert capsys.readouterr().out == "otb-standard 2026-09: 2 ratings imported, 0 replaced.\n"
    period = RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-09")
    assert (period.status, period.rule_set) == ("published", "ecf-2024")
    alice = PlayerRating.objects.get(player__code="123456A")
    assert (alice.rating, alice.type, alice.games, alice.opponents_total) == (1850, "full", 41, 74210)
    assert (alice.points, alice.last_played, alice.method) == (Decimal("22.5"), "2026-08", "import")
    brian = PlayerRating.objects.get(player__code="234567B")
    assert (brian.type, brian.last_played) == ("partial", "")
    assert RatingRun.objects.get(period=period).message == "2 ratings imported (0 replaced)"
    # Both are active (last played within 36 months of 2026-09, or... not at all: Brian's state
    # has no last_played, so he is lapsed and not on the published list).
    assert list(ListEntry.objects.filter(period=period).values_list("player__code", "rating")) == [("123456A", 1850)]


def test_importing_the_same_period_again_replaces_its_rows(tmp_path, players, capsys):
    call_command(
        "import_ratings",
        write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"),
        "--list",
        "online",
        "--period",
        "2026-09",
    )
    call_command(
        "import_ratings",
        write(tmp_path, "123456A,1860,full,42,76000,23,2026-09"),
        "--list",
        "online",
        "--period",
        "2026-09",
    )

    assert capsys.readouterr().out.splitlines()[-1] == "online 2026-09: 0 ratings imported, 1 replaced."
    assert list(PlayerRating.objects.filter(superseded_at=None).values_list("rating", "games")) == [(1860, 42)]
    assert PlayerRating.objects.exclude(superseded_at=None).get().rating == 1850
    period = RatingPeriod.objects.get(month="2026-09", rating_list__code="online")
    assert period.revision == 1
    assert list(ListEntry.objects.filter(period=period).values_list("revision", "rating")) == [(0, 1850), (1, 1860)]


def test_it_refuses_a_bad_file_listing_every_bad_line_and_stores_nothing(tmp_path, players):
    path = write(
        tmp_path,
        "123456A,99,fool,x,74210,22.25,2026-8",
        "999999A,1500,partial,3,4500,1.5,",
        "234567B,1500,partial,3,4500,4,",
        "234567B,1500,partial,3,4500,1,2026-10",
        "123456A,1500,full,30,4500,1,2025-01",
        "123456A,1500,full,30,4500,1,2025-01",
    )

    with pytest.raises(CommandError) as error:
        call_command("import_ratings", path, "--list", "otb-standard", "--period", "2026-09")

    assert error.value.returncode == 2
    assert str(error.value).splitlines() == [
        f"{path}: nothing imported, 5 problems:",
        "line 2: rating: 99 is out of range (100 to 4000); type: 'fool' is not full or partial; "
        "games: 'x' is not a whole number; points: 22.25 is not a multiple of 0.5; "
        "last_played: '2026-8' is not a month in the form YYYY-MM",
        "line 3: code: no player has the code '999999A' (import the players first)",
        "line 4: points: 4 is more than the 3 games",
        "line 5: last_played: 2026-10 is later than the period 2026-09",
        "line 7: code: 123456A is also on line 6",
    ]
    assert not PlayerRating.objects.exists()
    assert not RatingPeriod.objects.filter(month="2026-09").exists()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            ["--list", "blitz", "--period", "2026-09"],
            "--list: no rating list 'blitz' (lists: otb-standard, otb-rapid, online)",
        ),
        (["--list", "online", "--period", "2026-13"], "--period: '2026-13' is not a month in the form YYYY-MM"),
        (["--list", "online", "--period", "Sept"], "--period: 'Sept' is not a month in the form YYYY-MM"),
    ],
)
def test_it_refuses_a_wrong_list_or_period(tmp_path, players, arguments, message):
    with pytest.raises(CommandError) as error:
        call_command("import_ratings", write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"), *arguments)

    assert str(error.value) == message
    assert error.value.returncode == 2


def test_it_will_not_import_over_a_period_this_system_rated(tmp_path, players):
    call_command(
        "import_ratings",
        write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"),
        "--list",
        "otb-rapid",
        "--period",
        "2026-09",
    )
    PlayerRating.objects.update(method="K", category="full")

    with pytest.raises(CommandError, match="otb-rapid 2026-09 was rated by this system"):
        call_command(
            "import_ratings",
            write(tmp_path, "123456A,1900,full,41,74210,22.5,2026-08"),
            "--list",
            "otb-rapid",
            "--period",
            "2026-09",
        )

    assert PlayerRating.objects.get().rating == 1850


def test_it_refuses_counts_too_large_for_any_player_rather_than_failing_in_the_database(tmp_path, players):
    path = write(
        tmp_path,
        "123456A,1850,full,99999999999999999999,74210,22.5,2026-08",
        "234567B,1500,full,40,99999999999999999999,20,2026-08",
    )

    with pytest.raises(CommandError) as error:
        call_command("import_ratings", path, "--list", "otb-standard", "--period", "2026-09")

    assert str(error.value).splitlines()[1:] == [
        "line 2: games: 99999999999999999999 is out of range (0 to 1000000)",
        "line 3: opponents_total: 99999999999999999999 is out of range (0 to 4000000000)",
    ]
    assert not PlayerRating.objects.exists()


def test_it_refuses_numbers_written_any_other_way_than_plain_digits(tmp_path, players):
    path = write(tmp_path, "123456A,+1500,full,1_0,74210,1e100000000,2026-08", "234567B,١٥٠٠,full,40,80000,20,2026-08")

    with pytest.raises(CommandError) as error:
        call_command("import_ratings", path, "--list", "otb-standard", "--period", "2026-09")

    assert str(error.value).splitlines()[1:] == [
        "line 2: rating: '+1500' is not a whole number; games: '1_0' is not a whole number; "
        "points: '1e100000000' is not a number of points such as 12 or 12.5",
        "line 3: rating: '١٥٠٠' is not a whole number",
    ]


def test_it_refuses_a_month_not_yet_over(tmp_path, players):
    with pytest.raises(CommandError) as error:
        call_command(
            "import_ratings",
            write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"),
            "--list",
            "otb-standard",
            "--period",
            "2099-01",
        )

    assert str(error.value).splitlines()[1] == (
        "--period: 2099-01 is not over yet: take on a month the previous system published"
    )
    assert not RatingPeriod.objects.exists()


def test_it_refuses_a_take_on_before_a_month_this_system_rated(tmp_path, players):
    call_command(
        "import_ratings",
        write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"),
        "--list",
        "otb-standard",
        "--period",
        "2026-08",
    )
    publish_month("otb-standard", "2026-09", [{"player": players[0], "rating": 1860, "method": "K"}])

    with pytest.raises(CommandError) as error:
        call_command(
            "import_ratings",
            write(tmp_path, "123456A,1000,full,41,74210,22.5,2026-08"),
            "--list",
            "otb-standard",
            "--period",
            "2026-08",
        )

    assert str(error.value).splitlines()[1] == (
        "--period: otb-standard has been rated by this system from 2026-09, which read the ratings before it: "
        "a take-on for 2026-08 would change them underneath"
    )
    assert PlayerRating.objects.get(period__month="2026-08").rating == 1850


# Elo states (docs/rules.md part 2): a peak column, and pending rows, one per month.

ELO_HEADER = "code,rating,type,games,opponents_total,points,last_played,peak\n"


def import_september(path):
    call_command("import_ratings", path, "--list", "otb-standard", "--period", "2026-09")


def refusal_lines(path):
    with pytest.raises(CommandError) as error:
        import_september(path)
    assert error.value.returncode == 2
    return str(error.value).splitlines()[1:]


@pytest.fixture
def elo_from_september(players):
    for code in ("345678C", "456789D", "567890E", "678901F", "789012G", "890123H"):
        PlayerFactory(code=code)
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-09"), "fide-2017", acting_user=None)


def test_an_elo_take_on_stores_peaks_and_pending_months_that_the_next_run_uses(tmp_path, capsys, rate):
    for code in ("111111A", "222222B", "333333C", "444444D"):
        PlayerFactory(code=code, birth_date=datetime.date(1980, 1, 1))
    do_change_rule_set(rating_list("otb-standard"), Month.parse("2026-09"), "fide-2017", acting_user=None)
    path = write(
        tmp_path,
        "111111A,2350,full,80,184000,45,2026-08,2410",
        "222222B,1800,full,40,72000,20,2026-09,",
        "333333C,,pending,1,2000,0.5,2026-09,",
        "333333C,,Pending,3,5400,1.5,2026-07,",
        "444444D,,pending,2,3700,1,2024-06,",
        header=ELO_HEADER,
    )

    import_september(path)

    assert capsys.readouterr().out == "otb-standard 2026-09: 4 ratings imported, 0 replaced.\n"
    a, b, c, d = (state(code, "2026-09") for code in ("111111A", "222222B", "333333C", "444444D"))
    assert (a.rating, a.peak, a.type, a.category, a.method) == (2350, 2410, "full", "imported", "import")
    assert (b.rating, b.peak) == (1800, 1800)  # no peak given: the rating is the peak
    # C's two rows are one pending state, its months in order, as a run stores one.
    assert (c.rating, c.type, c.games, c.opponents_total, c.points, c.last_played, c.peak) == (
        None,
        "pending",
        0,
        0,
        0,
        "2026-09",
        None,
    )
    assert c.pending == [
        {"month": "2026-07", "games": 3, "opponents_total": 5400, "points": "1.5"},
        {"month": "2026-09", "games": 1, "opponents_total": 2000, "points": "0.5"},
    ]
    assert (d.type, d.last_played, d.pending) == (
        "pending",
        "2024-06",
        [{"month": "2024-06", "games": 2, "opponents_total": 3700, "points": "1.0"}],
    )
    listed = ListEntry.objects.filter(period__month="2026-09").values_list("player__code", "rating")
    assert dict(listed) == {"111111A": 2350, "222222B": 1800}  # the Elo list: rated players only

    approved_event(
        "OCT",
        "otb-standard",
        datetime.date(2026, 10, 10),
        [("111111A", "222222B", "1-0"), ("333333C", "222222B", "1/2-1/2"), ("444444D", "222222B", "1-0")],
    )
    succeeded(rate("otb-standard", "2026-10"))

    # A (2350, 80 games) has the peak 2410 taken on: K 10, not 20. Beats B: diff 550 counts as
    # 400, PD 0.92: 10 x 0.08 = 0.8 -> 2350.8 -> 2351; the peak stays 2410.
    a = state("111111A", "2026-10")
    assert (a.rating, a.k_factor, a.peak) == (2351, 10, 2410)
    # B (1800, 40 games): K 20; loses to A: 20 x -0.08 = -1.6 -> 1798.4 -> 1798. C and D are
    # unrated: those games do not count for B.
    b = state("222222B", "2026-10")
    assert (b.rating, b.k_factor, b.peak) == (1798, 20, 1800)
    # C: the taken-on months 2026-07 (3 games, 5400, 1.5) and 2026-09 (1, 2000, 0.5), and the
    # draw with B (1800): G 5, T 9200, S 2.5, exactly 50%: Ra = 9200 / 5 = 1840, the first rating.
    c = state("333333C", "2026-10")
    assert (c.rating, c.type, c.method, c.peak, c.pending) == (1840, "full", "first", 1840, [])
    assert (c.games, c.opponents_total, c.points) == (5, 9200, Decimal("2.5"))
    # D's month 2024-06 is past the 26-month window (2024-09 to 2026-10) and dropped: the win
    # over B is one game, short of 5, so D stays pending, stored as the take-on stored C.
    d = state("444444D", "2026-10")
    assert (d.rating, d.type, d.games, d.opponents_total, d.points, d.last_played, d.peak) == (
        None,
        "pending",
        0,
        0,
        0,
        "2026-10",
        None,
    )
    assert d.pending == [{"month": "2026-10", "games": 1, "opponents_total": 1800, "points": "1.0"}]


def test_on_an_elo_list_a_file_without_the_peak_column_takes_each_rating_as_its_peak(tmp_path, elo_from_september):
    import_september(write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"))

    taken_on = state("123456A", "2026-09")
    assert (taken_on.rating, taken_on.peak) == (1850, 1850)


def test_an_elo_rating_taken_on_without_a_last_played_month_is_listed_as_elo_ratings_never_lapse(
    tmp_path, elo_from_september
):
    import_september(write(tmp_path, "123456A,1850,full,41,74210,22.5,"))

    entry = ListEntry.objects.get(period__month="2026-09")
    assert (entry.player.code, entry.rating, entry.last_played) == ("123456A", 1850, "")


def test_an_ecf_list_refuses_pending_rows_and_a_peak_under_a_full_rating(tmp_path, players):
    path = write(
        tmp_path,
        "123456A,1850,full,41,74210,22.5,2026-08,1800",
        "234567B,,pending,3,5400,1.5,2026-07,",
        header=ELO_HEADER,
    )

    assert refusal_lines(path) == [
        "line 2: peak: 1800 is below the rating 1850",
        "line 3: type: pending is not a state of the ECF three-pass method, which rates otb-standard in 2026-09 "
        "(ecf-2024): full or partial",
    ]
    assert not PlayerRating.objects.exists()


def test_an_ecf_take_on_keeps_peaks_and_lifetime_counters_for_rating_floors(tmp_path, players):
    # docs/rules.md section 14: the previous system's highest Full rating and counters, where
    # it kept them; a Full rating without a peak is its own, a Partial one has none.
    path = write(
        tmp_path,
        "123456A,1850,full,41,74210,22.5,2026-08,1900,20,5,4",
        "234567B,1500,partial,3,4500,1.5,2026-08,,1,,",
        header="code,rating,type,games,opponents_total,points,last_played,peak,wins,draws,events3\n",
    )
    import_september(path)

    alice, brian = state("123456A", "2026-09"), state("234567B", "2026-09")
    assert (alice.peak, alice.wins, alice.draws, alice.events3) == (1900, 20, 5, 4)
    assert (brian.peak, brian.wins, brian.draws, brian.events3) == (None, 1, 0, 0)


def test_an_ecf_take_on_without_a_peak_takes_each_full_rating_as_its_peak(tmp_path, players):
    import_september(write(tmp_path, "123456A,1850,full,41,74210,22.5,2026-08"))

    assert (state("123456A", "2026-09").peak, state("123456A", "2026-09").wins) == (1850, 0)


def test_an_elo_list_refuses_partial_ratings_ratings_under_its_floor_and_bad_peaks_or_months(
    tmp_path, elo_from_september
):
    path = write(
        tmp_path,
        "123456A,1500,partial,3,4500,1.5,2026-08,",
        "234567B,900,full,12,11400,4,2026-09,",
        "345678C,1850,full,41,74210,22.5,2026-08,1800",
        "456789D,1850,full,41,74210,22.5,2026-08,4001",
        "567890E,1500,pending,3,5400,1.5,2026-07,",
        "567890E,,pending,3,5400,1.5,2026-06,1600",
        "678901F,,pending,0,0,0,2026-06,",
        "678901F,,pending,3,5400,1.5,,",
        "678901F,,pending,3,5400,1.5,2026-10,",
        "678901F,,pending,3,5400,4,2026-05,",
        header=ELO_HEADER,
    )

    fide = "the Elo method, which rates otb-standard in 2026-09 (fide-2017)"
    assert refusal_lines(path) == [
        f"line 2: type: partial is not a state of {fide}: full or pending",
        "line 3: rating: 900 is below the rating floor 1000",
        "line 4: peak: 1800 is below the rating 1850",
        "line 5: peak: 4001 is out of range (100 to 4000)",
        "line 6: rating: 1500: a pending state has no rating",
        "line 7: peak: a pending state has no peak",
        "line 8: games: 0 is out of range (1 to 1000000)",
        "line 9: last_played: empty: a pending row gives the month of its games, YYYY-MM",
        "line 10: last_played: 2026-10 is later than the period 2026-09",
        "line 11: points: 4 is more than the 3 games",
    ]
    assert not PlayerRating.objects.exists()
    assert not RatingPeriod.objects.filter(month="2026-09").exists()


def test_a_player_has_one_full_row_or_pending_rows_each_for_another_month(tmp_path, elo_from_september):
    path = write(
        tmp_path,
        "789012G,,pending,3,5400,1.5,2026-07,",
        "789012G,,pending,2,3600,1,2026-07,",
        "789012G,1850,full,41,74210,22.5,2026-08,",
        "890123H,1850,full,41,74210,22.5,2026-08,",
        "890123H,,pending,2,3600,1,2026-07,",
        "890123H,1850,full,41,74210,22.5,2026-08,",
        header=ELO_HEADER,
    )

    assert refusal_lines(path) == [
        "line 3: last_played: 789012G has a pending row for 2026-07 on line 2",
        "line 4: code: 789012G is also on line 2 (pending): a player has one full row or pending rows, not both",
        "line 6: code: 890123H is also on line 5 (full): a player has one full row or pending rows, not both",
        "line 7: code: 890123H is also on line 5",
    ]


def test_the_header_may_add_the_peak_and_counter_columns_and_no_other(tmp_path, players):
    path = tmp_path / "ratings.csv"
    path.write_text("code,rating,type,games,opponents_total,points,last_played,peek\n")

    assert refusal_lines(str(path)) == [
        "line 1: unknown column(s) peek; expected: code,rating,type,games,opponents_total,points,last_played "
        "(and optionally peak,wins,draws,events3)"
    ]
