"""The demo's blitz list, rated by the Elo method month by month through the database, agrees
with the engine run from rate-file documents (docs/rate-file.md, "Elo rule sets"), each month's
file built from the last one's output: peaks, pending months and first ratings included."""

import datetime

import pytest

from grading.models import GameNotRated, PlayerRating, RatingList
from grading.run.loading import rated_games
from players.models import Player
from tests.builders import file_state, rated_demo, rated_from_file

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
TODAY = datetime.date(2026, 11, 21)
BLITZ = "otb-blitz"


def same_numbers(state: dict) -> dict:
    """A file's state with its points as floats, for comparison with file_state."""
    state = {**state, "points": float(state["points"])}
    if "pending" in state:
        state["pending"] = [{**month, "points": float(month["points"])} for month in state["pending"]]
    return state


def test_six_elo_months_through_the_database_match_the_engine_run_from_files():
    summary = rated_demo([BLITZ], today=TODAY)

    people = {p.pk: p for p in Player.objects.all()}
    blitz = RatingList.objects.get(code=BLITZ)
    taken_on = PlayerRating.objects.filter(rating_list=blitz, method="import")
    states = {people[row.player_id].code: file_state(row) for row in taken_on}
    firsts = 0
    month = summary.first_month
    while month <= summary.last_month:
        # The file rates the games it is given: those FIDE's conditions kept (the demo's blitz
        # match against a newcomer is left out, docs/rules.md part 4).
        games = list(
            rated_games(blitz, month)
            .exclude(pk__in=GameNotRated.objects.values("game"))
            .order_by("date", "pk")
            .values_list("white_id", "black_id", "result", "date", "event__code")
        )
        output = rated_from_file("fide-2017-rapid", BLITZ, month, people, games, {BLITZ: states})
        for player in output["players"]:
            firsts += player["method"] == "first" and player["type"] == "full"
            if player["state"] is not None:
                states[player["id"]] = same_numbers(player["state"])
        month += 1

    latest = {}
    for row in PlayerRating.objects.filter(rating_list=blitz, superseded_at=None).order_by("month"):
        latest[people[row.player_id].code] = file_state(row)
    assert latest == states
    assert firsts > 3 and sum(state["type"] == "pending" for state in latest.values()) > 3
    assert GameNotRated.objects.filter(game__event__code__endswith="-MATCH").count() == 4
