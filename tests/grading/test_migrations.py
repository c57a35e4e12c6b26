"""Ratings imported before publications existed become the period's original list on migrate."""

import datetime

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
