"""Every public page bench/site.py times reads a fixed number of queries, whatever it shows: each
page is asked for a small and a larger version of what it shows (more games, players, months or
opponents), on a first visit, and both must take the same queries (issue 41, docs/page-costs.md).
A change that reads a row at a time fails here, not only in the bench."""

import itertools

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from chess.months import Month
from common.memory import forget_everything
from grading.models import LiveEntry, LiveList, RatingPeriod
from players.models import Player
from tests.builders import ClubFactory, EntryFactory, EventFactory, PlayerFactory, play, publish_month, rate_game

pytestmark = pytest.mark.django_db
MONTHS = itertools.count(Month(2024, 1).index)  # each rated event a month of its own


def a_month() -> Month:
    return Month.from_index(next(MONTHS))


def first_visit(client, path) -> int:
    """The queries of a visit to ``path`` with nothing kept from an earlier one (the cache and
    the process's memory emptied: a kept page is built again)."""
    cache.clear()
    forget_everything()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(captured)


def rated_event(players, rounds, code=None) -> tuple:
    """A rated Swiss of ``players`` (the first against each of the others in turn, ``rounds``
    games), published on OTB standard for a month of its own with every game in the ratings'
    breakdowns; (event, month)."""
    month = a_month()
    day = month.first_day()
    event = EventFactory(code=code or f"EV{month}{players[0].pk}", start_date=day, end_date=day)
    entries = [EntryFactory(event=event, player=player, pin=pin) for pin, player in enumerate(players, start=1)]
    games = [play(entries[0], entries[1 + n % (len(entries) - 1)], "1-0", round=n + 1, date=day) for n in range(rounds)]
    rows = [
        {"player": player, "rating": 1500 + n, "games": 40, "category": "full", "method": "K", "prior_rating": 1500}
        for n, player in enumerate(players)
    ]
    _, rated = publish_month("otb-standard", str(month), [{**row, "last_played": str(month)} for row in rows])
    for game in games:
        rate_game(rated[game.white_id], game, "w", 1, 1501, increment="5.0")
        rate_game(rated[game.black_id], game, "b", 0, 1500, increment="-5.0")
    return event, month


def player_with_history(months, games) -> tuple:
    """A player rated in ``months`` months on OTB standard, ``games`` games in each; (player, the
    first month)."""
    club = ClubFactory()
    me = PlayerFactory(club=club)
    opponents = [PlayerFactory(club=club) for _ in range(max(games, 1))]
    rated = [rated_event([me, *opponents], games)[1] for _ in range(months)]
    return me, rated[0]


@pytest.mark.parametrize("page", ["player", "calculation"])
def test_a_player_page_and_a_calculation_read_as_many_queries_for_a_year_of_games_as_for_one(client, page):
    few, many = player_with_history(1, 1), player_with_history(6, 8)

    def path(player, month):
        if page == "player":
            return reverse("player", args=[player.code])
        return reverse("rating-calculation", args=[player.code, "otb-standard", str(month)])

    assert first_visit(client, path(*few)) == first_visit(client, path(*many)) <= {"player": 8, "calculation": 5}[page]


def test_an_event_page_reads_as_many_queries_for_twenty_players_as_for_three(client):
    club = ClubFactory()
    small, _ = rated_event([PlayerFactory(club=club) for _ in range(3)], 2, code="SMALL")
    large, _ = rated_event([PlayerFactory(club=club) for _ in range(20)], 19, code="LARGE")

    small_queries = first_visit(client, reverse("event", args=[small.code]))
    assert small_queries == first_visit(client, reverse("event", args=[large.code])) <= 6


def test_a_head_to_head_reads_as_many_queries_for_eight_games_as_for_one(client):
    pairs = []
    for games in (1, 8):
        first, second = PlayerFactory(), PlayerFactory()
        for n in range(games):
            rated_event([first, second], 1, code=f"H{games}-{n}")
        pairs.append((first.code, second.code))

    counts = [first_visit(client, reverse("head-to-head", args=pair)) for pair in pairs]
    assert counts[0] == counts[1] <= 4


def test_the_search_reads_as_many_queries_for_fifteen_players_found_as_for_two(client):
    for n in range(2):
        PlayerFactory(surname=f"Raredon{n}")
    for n in range(15):
        PlayerFactory(surname=f"Commonby{n}")
    publish_month("otb-standard", "2026-01", [{"player": player, "rating": 1500} for player in Player.objects.all()])

    few = first_visit(client, reverse("player-search") + "?q=raredon")
    assert few == first_visit(client, reverse("player-search") + "?q=commonby") <= 7


def test_a_list_page_and_one_clubs_read_as_many_queries_for_forty_players_as_for_three(client):
    for size, code in ((3, "FEW"), (40, "MANY")):
        club = ClubFactory(code=code)
        rows = [{"player": PlayerFactory(club=club), "rating": 1400 + n, "games": 40} for n in range(size)]
        publish_month("otb-rapid" if size == 3 else "otb-standard", "2026-01", rows)
        publish_month("otb-rapid" if size == 3 else "otb-standard", "2026-02", rows)

    for path in ("/lists/{}/", "/lists/{}/?club={}", "/lists/{}/?club={}&sort=name", "/lists/{}/?club={}&sex=M"):
        few = first_visit(client, path.format("otb-rapid", "FEW"))
        assert few == first_visit(client, path.format("otb-standard", "MANY")) <= 8, path


def test_the_live_list_reads_as_many_queries_for_forty_players_as_for_three(client):
    counts = []
    for size, code in ((3, "otb-rapid"), (40, "otb-standard")):
        players = [PlayerFactory() for _ in range(size)]
        period, _ = publish_month(code, "2026-01", [{"player": player, "rating": 1500} for player in players])
        live = LiveList.objects.create(
            rating_list=period.rating_list,
            computed_at=timezone.now(),
            based_on=period,
            based_on_revision=period.revision,
            first_month="2026-02",
            last_month="2026-02",
            games=size,
        )
        LiveEntry.objects.bulk_create(
            LiveEntry(
                rating_list=live.rating_list,
                player=player,
                rating=1510,
                type="full",
                category="full",
                games=41,
                last_played="2026-02",
                published_rating=1500,
                live_games=1,
            )
            for player in players
        )
        counts.append(first_visit(client, reverse("live-list", args=[code])))
    assert counts[0] == counts[1] <= 10  # on a first visit: the list, its publications, the ranks, the club menu
    assert RatingPeriod.objects.count() == 2


def test_the_calculator_reads_as_many_queries_for_ten_opponents_by_code_as_for_one(client):
    player, *opponents = [PlayerFactory() for _ in range(11)]
    publish_month("otb-standard", "2026-01", [{"player": someone, "rating": 1500} for someone in [player, *opponents]])

    def path(against):
        rows = "&".join(f"o-{n}-opponent={them.code}&o-{n}-result=1" for n, them in enumerate(against))
        return f"{reverse('calculator')}?list=otb-standard&player={player.code}&{rows}"

    assert first_visit(client, path(opponents[:1])) == first_visit(client, path(opponents)) <= 7


def test_the_help_page_reads_one_query_when_kept_and_few_when_written(client):
    written = first_visit(client, reverse("help"))
    with CaptureQueriesContext(connection) as kept:
        client.get(reverse("help"))
    assert written <= 3 and len(kept) == 1  # the lists in force, which name the copy kept
