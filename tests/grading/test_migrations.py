"""Ratings imported before publications existed become the period's original list on migrate."""

import datetime
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("grading", "0002_the_three_lists"), ("players", "0002_name_search"), ("events", "0001_initial")]
AFTER = [("grading", "0005_ratings_belong_to_runs")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def back_to_the_latest_schema():
    """The tests after this one need every migration, later ones than AFTER included."""
    yield
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_imported_ratings_become_the_original_list_with_its_active_players():
    apps = migrate(BEFORE)
    try:
        Player = apps.get_model("players", "Player")
        RatingList = apps.get_model("grading", "RatingList")
        RatingPeriod = apps.get_model("grading", "RatingPeriod")
        RatingRun = apps.get_model("grading", "RatingRun")
        PlayerRating = apps.get_model("grading", "PlayerRating")
        standard = RatingList.objects.get(code="otb-standard")
        published = datetime.datetime(2026, 10, 2, 9, 0, tzinfo=datetime.UTC)
        period = RatingPeriod.objects.create(
            rating_list=standard, month="2026-09", rule_set="ecf-2024", status="published", published_at=published
        )
        RatingRun.objects.create(
            period=period, trigger="import", started_at=published, finished_at=published, outcome="succeeded"
        )
        # ecf-2024's window is 36 months: for 2026-09 a state is active if last played 2023-09 or later.
        for code, last_played in [("100001A", "2026-08"), ("100002B", "2023-09"), ("100003C", "2023-08")]:
            player = Player.objects.create(code=code, surname=f"Player {code}")
            PlayerRating.objects.create(
                player=player,
                rating_list=standard,
                period=period,
                rating=1500,
                type="full",
                games=30,
                opponents_total=45000,
                points=15,
                last_played=last_played,
                category="imported",
                method="import",
            )
    finally:
        apps = migrate(AFTER)

    PlayerRating = apps.get_model("grading", "PlayerRating")
    ListEntry = apps.get_model("grading", "ListEntry")
    RatingPeriod = apps.get_model("grading", "RatingPeriod")
    period = RatingPeriod.objects.get(month="2026-09", rating_list__code="otb-standard")
    assert period.revision == 0
    rows = PlayerRating.objects.filter(period=period)
    assert {(row.month, row.published_at, row.run.trigger) for row in rows} == {("2026-09", published, "import")}
    on_list = ListEntry.objects.filter(period=period, revision=0).values_list("player__code", flat=True)
    assert sorted(on_list) == ["100001A", "100002B"]


BEFORE_COUNTERS = [
    ("grading", "0019_lifetime_counters"),
    ("players", "0005_folded_names"),
    ("events", "0005_entries_keep_the_federation"),
]
WITH_COUNTERS = [("grading", "0020_derive_lifetime_counters")]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_ratings_stored_before_the_counters_get_them_from_their_games():
    apps = migrate(BEFORE_COUNTERS)
    try:
        Player = apps.get_model("players", "Player")
        RatingList = apps.get_model("grading", "RatingList")
        RatingPeriod = apps.get_model("grading", "RatingPeriod")
        RatingRun = apps.get_model("grading", "RatingRun")
        PlayerRating = apps.get_model("grading", "PlayerRating")
        Event = apps.get_model("events", "Event")
        Entry = apps.get_model("events", "Entry")
        Game = apps.get_model("events", "Game")
        standard = RatingList.objects.get(code="otb-standard")
        a, b = (Player.objects.create(code=code, surname=code) for code in ("100001A", "100002B"))
        day = datetime.date(2026, 9, 5)
        games = {}
        for code in ("E1", "E2"):
            event = Event.objects.create(code=code, name=code, rating_list=standard, start_date=day, end_date=day)
            white = Entry.objects.create(event=event, pin=1, surname="A", player=a)
            black = Entry.objects.create(event=event, pin=2, surname="B", player=b)
            games[code] = [
                Game.objects.create(
                    event=event, date=day, white_entry=white, black_entry=black, white=a, black=b, result="1-0"
                ).pk
                for _ in range(3)
            ]
        published = datetime.datetime(2026, 10, 2, 9, 0, tzinfo=datetime.UTC)

        def rating(player, month, rating, kind, method, lines, superseded=False):
            period, _ = RatingPeriod.objects.get_or_create(
                rating_list=standard,
                month=month,
                defaults={"rule_set": "ecf-2024", "status": "published", "revision": 0},
            )
            run = RatingRun.objects.create(period=period, trigger="test", started_at=published, outcome="succeeded")
            return PlayerRating.objects.create(
                player=player,
                rating_list=standard,
                period=period,
                month=month,
                run=run,
                published_at=published,
                superseded_at=published if superseded else None,
                rating=rating,
                type=kind,
                games=0,
                opponents_total=0,
                points=0,
                last_played=month,
                category="full",
                method=method,
                breakdown=json.dumps(lines),
            )

        def line(game, halves):  # grading.run.breakdown LINE order: game, colour, halves, ...
            return [game, "w", halves, 1500, "full", None, 0]

        e1, e2 = games["E1"], games["E2"]
        rating(a, "2026-08", 1500, "full", "import", [])
        rating(a, "2026-09", 1480, "full", "K", [line(e1[0], 2), line(e1[1], 1), line(e1[2], 0)])
        rating(a, "2026-10", 1510, "full", "K", [line(e2[0], 2)], superseded=True)
        rating(a, "2026-10", 1520, "full", "K", [line(e2[0], 2), line(e2[1], 2)])
        rating(b, "2026-09", 1300, "partial", "P", [line(e1[0], 0), line(e1[1], 1), line(e1[2], 2)])
    finally:
        apps = migrate(WITH_COUNTERS)

    PlayerRating = apps.get_model("grading", "PlayerRating")
    rows = PlayerRating.objects.order_by("player__code", "month", "pk")
    assert [(r.player.code, r.month, r.wins, r.draws, r.events3, r.peak) for r in rows] == [
        ("100001A", "2026-08", 0, 0, 0, 1500),  # the take-on: its Full rating is its peak
        ("100001A", "2026-09", 1, 1, 1, 1500),  # event E1: three games, one of each
        ("100001A", "2026-10", 2, 1, 1, 1510),  # superseded: from September's, plus its one win
        ("100001A", "2026-10", 3, 1, 1, 1520),  # two wins in E2: not three games
        ("100002B", "2026-09", 1, 1, 1, None),  # a Partial rating: no peak
    ]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_months_the_old_rule_held_current_keep_what_they_read_and_the_others_are_rated_again():
    from grading.engine.rule_sets import reading_digests

    apps = migrate([("grading", "0021_list_entry_order")])
    RatingList = apps.get_model("grading", "RatingList")
    RatingPeriod = apps.get_model("grading", "RatingPeriod")

    def published(code, month, revision, day):
        at = datetime.datetime(2026, 11, day, 2, 0, tzinfo=datetime.UTC)
        return RatingPeriod.objects.create(
            rating_list=RatingList.objects.get(code=code),
            month=month,
            rule_set="ecf-2024",
            status="published",
            revision=revision,
            published_at=at,
        )

    published("otb-standard", "2026-09", 0, 1)
    rapid_october = published("otb-rapid", "2026-10", 0, 2)  # read standard's September as it was
    published("otb-standard", "2026-10", 1, 5)  # revised later, but not a month rapid's October reads
    rapid_november = published("otb-rapid", "2026-11", 0, 3)  # read standard's October before its revision
    apps = migrate([("grading", "0022_periods_know_what_they_read")])
    RatingPeriod = apps.get_model("grading", "RatingPeriod")

    read = dict(RatingPeriod.objects.filter(rating_list__code="otb-rapid").values_list("month", "states_read"))
    standard = [("2026-09", "otb-standard", 0), ("2026-10", "otb-standard", 1)]
    assert read == {
        rapid_october.month: reading_digests({"2026-10": ("otb-standard",)}, standard)["2026-10"],
        rapid_november.month: "",  # stale under the old rule too: the next run rates it again
    }
    assert read["2026-10"] != ""
