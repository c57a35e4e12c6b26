"""Months rated one after another through the database agree with the engine run month by month
from rate-file documents (docs/rate-file.md), each month's file built from the last one's output."""

import datetime

import pytest

from grading.models import PlayerRating, RatingList
from grading.run.loading import rated_games
from players.models import Player
from tests.builders import file_state, rated_demo, rated_from_file

# Real commits: each run is queued when its transaction commits, as in production.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TODAY = datetime.date(2026, 11, 21)
LISTS = ["otb-standard", "otb-rapid", "online"]


def test_six_months_through_the_database_match_the_engine_run_from_files():
    summary = rated_demo(LISTS, today=TODAY)

    # The file chain starts from the states taken on, and carries each month's output forward.
    people = {p.pk: p for p in Player.objects.all()}
    states = {code: {} for code in LISTS}
    for row in PlayerRating.objects.filter(method="import", rating_list__code__in=LISTS).select_related("rating_list"):
        states[row.rating_list.code][people[row.player_id].code] = file_state(row, peak=False)
    month = summary.first_month
    while month <= summary.last_month:
        # Each list of a month reads the others' states as they stood at the start of the month.
        start_of_month = {code: dict(states[code]) for code in LISTS}
        for code in LISTS:
            games = list(
                rated_games(RatingList.objects.get(code=code), month)
                .order_by("pk")
                .values_list("white_id", "black_id", "result", "date")
            )
            output = rated_from_file("ecf-2024", code, month, people, games, start_of_month)
            for player in output["players"]:
                states[code][player["id"]] = player["state"]
        month += 1

    for code in LISTS:
        latest = {}
        for row in PlayerRating.objects.filter(rating_list__code=code, superseded_at=None).order_by("month"):
            latest[people[row.player_id].code] = file_state(row, peak=False)
        assert latest == states[code], code
        assert len(latest) > 30
    rated_months = set(PlayerRating.objects.exclude(method="import").values_list("month", flat=True))
    assert rated_months == {"2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-10"}
