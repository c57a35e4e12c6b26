"""An arbiter uploads FIDE TRF-2026 files (tests/data/trf-2026/, written by hand to FIDE's
published format): the rounds the file gives, its own scoring, its forfeited team match, its
round dates written YYYY/MM/DD, all through the upload page."""

import datetime

import pytest

from events.models import Event, Game
from tests.builders import DATA, upload

pytestmark = pytest.mark.django_db

TRF_2026 = DATA / "trf-2026"


def test_an_arbiter_uploads_a_swiss_scored_three_one_nothing_and_its_points_pass_the_check(client, arbiter):
    client.force_login(arbiter)
    data = (TRF_2026 / "northquay-spring-swiss-3-1-0.trf").read_bytes()

    response = upload(client, data, "spring.trf", code="NQSPR26")

    assert response.status_code == 302
    event = Event.objects.get(code="NQSPR26")
    assert (event.name, event.scheduled_rounds, event.rating_list.code) == (
        "Northquay Spring Swiss 2026",
        5,  # record 142
        "otb-standard",
    )
    # 14 games over the board, rated; 4 pairing-allocated byes, a half-point bye and a forfeit not.
    assert (Game.objects.filter(event=event).count(), Game.objects.filter(event=event, rated=True).count()) == (20, 14)
    page = client.get(response["Location"]).content.decode()
    assert "<dt>Rounds</dt><dd>5</dd>" in page
    assert "add up to" not in page  # 13, 9, 7, 4, 8, 9, 4 points: three a win, one a draw (record 162)


def test_the_same_swiss_without_its_record_162_is_warned_that_its_points_do_not_add_up(client, arbiter):
    client.force_login(arbiter)
    data = (
        (TRF_2026 / "northquay-spring-swiss-3-1-0.trf")
        .read_bytes()
        .replace(b"162  W 3.0    D 1.0    L 0.0    A 0.0\r\n", b"")
    )

    response = upload(client, data, "spring.trf", code="NQSPR26")

    page = client.get(response["Location"]).content.decode()
    # Four wins and a draw: 1+1+1+1+½ = 4.5 by FIDE's points.
    assert "Line 19: player 1 has 13.0 points in columns 81-84 but their results add up to 4.5" in page


def test_a_leagues_forfeited_team_match_is_stored_with_its_games_not_rated(client, arbiter):
    client.force_login(arbiter)
    data = (TRF_2026 / "northquay-league-forfeited-match.trf").read_bytes()

    response = upload(client, data, "league.trf", code="NQLGE26")

    assert response.status_code == 302
    event = Event.objects.get(code="NQLGE26")
    assert event.scheduled_rounds == 3
    not_rated = {
        (game.round, game.white_entry.pin, game.black_entry.pin): (game.result, game.unrated_reason)
        for game in Game.objects.filter(event=event, rated=False).select_related("white_entry", "black_entry")
    }
    # Round 2: Riverside (3, 4) did not come to Saltmarsh (7, 8), the boards defaulted; round 3: the
    # match Riverside v Castle Hill (5, 6) awarded to Riverside, its boards kept as played.
    assert not_rated == {
        (2, 7, 3): ("1-0F", "default"),
        (2, 4, 8): ("0-1F", "default"),
        (3, 3, 5): ("1/2-1/2", "the team match was forfeited"),
        (3, 6, 4): ("1-0", "the team match was forfeited"),
    }
    assert Game.objects.filter(event=event, rated=True).count() == 8  # 12 boards less those 4
    page = client.get(response["Location"]).content.decode()
    assert "<td>1/2-1/2</td><td>the team match was forfeited</td>" in page


def test_a_rapid_league_whose_round_dates_are_written_yyyy_mm_dd_dates_every_round(client, arbiter):
    client.force_login(arbiter)
    data = (TRF_2026 / "quayside-rapid-league-long-dates.trf").read_bytes()

    response = upload(client, data, "rapid.trf", code="QRL26")

    assert response.status_code == 302
    event = Event.objects.get(code="QRL26")
    assert (event.start_date, event.end_date, event.rating_list.code) == (
        datetime.date(2026, 5, 5),
        datetime.date(2026, 6, 2),
        "otb-rapid",  # record 222, 1500+10: 25 minutes and 60 x 10 s
    )
    assert dict(Game.objects.filter(event=event).values_list("round", "date").distinct()) == {
        1: datetime.date(2026, 5, 5),
        2: datetime.date(2026, 5, 12),
        3: datetime.date(2026, 5, 19),
        4: datetime.date(2026, 5, 26),
        5: datetime.date(2026, 6, 2),
    }


def test_a_malformed_record_330_is_refused_with_its_line_and_stores_nothing(client, arbiter):
    client.force_login(arbiter)
    data = (TRF_2026 / "northquay-league-forfeited-match.trf").read_bytes().replace(b"330 +- 003 002 003", b"330 +- 3")

    response = upload(client, data, "league.trf", code="NQLGE26")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Line 34, column 5: record 330 &#x27;+- 3&#x27; cannot be read" in page
    assert not Event.objects.exists()
