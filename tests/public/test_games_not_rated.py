"""The games FIDE's conditions left out of a list rated by the Elo method (docs/rules.md part
4), as the public pages and the API show them: the reasons the publication in force kept,
word for word (tests.builders.elo_refused_events, October 2026 rated by fide-2017)."""

import datetime
import json

import pytest

from events.models import Event, Game
from grading.live.computing import compute_live
from grading.models import RatingList
from players.models import Player
from tests.builders import approved_event, elo_federation, elo_october, elo_refused_events, succeeded
from tests.public.test_elo_pages import text

pytestmark = pytest.mark.django_db

MATCH = "a match against an unrated player does not count"
DECIDED = "played after the match was decided (3-0 after game 3 of 4)"


def october_refused(rate):
    """elo_refused_events' October, with DUEL: A (1500) beats B (1900) three times out of four,
    a game a day (four of 240 minutes, both clocks, on one day would be too many), so that the
    match is A's after game 3; on a match card (kind other). Rated."""
    elo_federation()
    elo_october()
    elo_refused_events()
    duel = [("111111A", "222222B", "1-0"), ("222222B", "111111A", "0-1"), ("111111A", "222222B", "1-0")]
    duel = approved_event(
        "DUEL", "otb-standard", datetime.date(2026, 10, 3), [*duel, ("222222B", "111111A", "1/2-1/2")]
    )
    Event.objects.filter(pk=duel.pk).update(kind=Event.Kind.OTHER, end_date=datetime.date(2026, 10, 6))
    for game in duel.games.all():
        Game.objects.filter(pk=game.pk).update(date=datetime.date(2026, 10, 2 + game.round))
    succeeded(rate("otb-standard", "2026-10"))


@pytest.fixture
def october(rate):
    october_refused(rate)


def name(code):
    return Player.objects.get(code=code).name


def surname(code):
    return Player.objects.get(code=code).surname


def test_the_event_page_says_why_the_games_of_a_match_against_an_unrated_player_were_not_rated(client, october):
    page = text(client.get("/events/MATCH/"))

    assert "Games 2, of which 0 rated; 2 left out by FIDE's conditions" in page
    assert (
        "Games not rated On a list rated by the Elo method, FIDE's conditions on events decide which games count: "
        "the published OTB standard list left these out."
    ) in page
    assert f"Not rated: {MATCH}. All 2 games of the event." in page


def test_a_match_card_marks_the_game_played_after_the_match_was_decided(client, october):
    response = client.get("/events/DUEL/")
    page = text(response)
    card = response.content.decode().split('id="match-card"')[1].split("</table>")[0].split("<tr>")[2:]

    assert "Games 4, of which 3 rated; 1 left out by FIDE's conditions" in page
    assert f"Not rated: {DECIDED}. 1 of its 4 games, marked in the games above." in page
    # The card marks the game and names the reason on hover; the section below gives it.
    assert f'(<a href="#not-rated" title="not rated: {DECIDED}">not rated</a>: see below)' in card[3]
    assert ["not rated</a>" in row for row in card] == [False, False, False, True]


def test_a_crosstable_lists_the_games_left_out_apart(client, october):
    Event.objects.filter(code="DUEL").update(kind=Event.Kind.SWISS)

    page = text(client.get("/events/DUEL/"))

    assert "Crosstable" in page
    assert (
        f"Not rated: {DECIDED}. 1 of its 4 games: Show every column Round Date White Result Black "
        f"4 6 Oct 2026 {surname('222222B')} ½-½ {surname('111111A')}"  # as the file names them
    ) in page


def test_the_calculation_page_lists_the_games_not_rated_apart_with_why(client, october):
    page = text(client.get("/players/111111A/otb-standard/2026-10/"))

    games = page.split("Games not rated")[1]
    assert "decide which games count: they left these games of 2026-10 out of this rating." in games
    assert f"17 Oct 2026 MATCH r1 {name('333333C')} White 1 Not rated: {MATCH}" in games
    assert f"17 Oct 2026 MATCH r2 {name('333333C')} Black ½ Not rated: {MATCH}" in games
    assert f"6 Oct 2026 DUEL r4 {name('222222B')} Black ½ Not rated: {DECIDED}" in games
    # The games rated are still the rating's own: nothing left out is in them.
    rated = page.split("Games not rated")[0]
    assert "MATCH" not in rated and "DUEL r4" not in rated and "DUEL r3" in rated


def test_an_event_whose_games_were_all_rated_shows_no_games_not_rated(client, october):
    page = text(client.get("/events/OCT/"))

    assert "Games 3 " in page and "Games not rated" not in page and "not rated:" not in page


def test_the_api_gives_each_games_reason_or_null(client, october):
    match = json.loads(client.get("/api/v1/events/MATCH/").content)["games"]
    duel = json.loads(client.get("/api/v1/events/DUEL/").content)["games"]
    rated = json.loads(client.get("/api/v1/events/OCT/").content)["games"]

    assert [game["not_rated"] for game in match] == [f"not rated: {MATCH}"] * 2
    assert [game["not_rated"] for game in duel] == [None, None, None, f"not rated: {DECIDED}"]
    assert [(game["rated"], game["not_rated"]) for game in rated] == [(True, None)] * 3


def test_an_event_on_a_list_the_ecf_method_rates_shows_nothing_of_the_sort(client, rate):
    elo_federation()
    approved_event(
        "RAPIDMATCH",
        "otb-rapid",
        datetime.date(2026, 10, 17),
        [("111111A", "333333C", "1-0"), ("333333C", "111111A", "0-1")],
    )
    succeeded(rate("otb-rapid", "2026-10"))

    page = text(client.get("/events/RAPIDMATCH/"))
    games = json.loads(client.get("/api/v1/events/RAPIDMATCH/").content)["games"]
    calculation = text(client.get("/players/111111A/otb-rapid/2026-10/"))

    assert "Games 2 " in page and "Games not rated" not in page and "not rated:" not in page
    assert [game["not_rated"] for game in games] == [None, None]
    assert "New rating" in calculation and "Games not rated" not in calculation


def test_a_live_calculation_says_nothing_of_games_not_rated(client, october):
    # November, not yet published: the live ratings leave the match out as a run would, and
    # keep no reasons; A's live rating is their win over B alone.
    november = datetime.date(2026, 11, 7)
    approved_event("NOVMATCH", "otb-standard", november, [("111111A", "333333C", "1-0"), ("333333C", "111111A", "0-1")])
    approved_event("NOVSWISS", "otb-standard", november, [("111111A", "222222B", "1-0"), ("444444D", "555555E", "0-1")])
    compute_live(RatingList.objects.get(code="otb-standard"), today=datetime.date(2026, 11, 21))

    page = text(client.get("/players/111111A/live/otb-standard/2026-11/"))

    assert "live OTB standard rating for 2026-11 is calculated" in page
    assert "NOVSWISS" in page and "NOVMATCH" not in page and "Games not rated" not in page
