from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from grading.models import ListEntry, PlayerRating, RatingPeriod, RatingRun
from tests.builders import PlayerFactory, publish_month

pytestmark = pytest.mark.django_db

HEADER = "code,rating,type,games,opponents_total,points,last_played\n"


def write(tmp_path, *lines):
    path = tmp_path / "ratings.csv"
    path.write_text(HEADER + "".join(line + "\n" for line in lines))
    return str(path)


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
