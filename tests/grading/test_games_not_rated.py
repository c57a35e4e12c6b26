"""What the pages read of FIDE's conditions on events (docs/rules.md part 4): the reasons a
publication kept, a rating's games left out, and the preview of an event with today's ratings
(grading.run.event_facts); every reason is the engine's."""

import datetime

import pytest
from django.urls import reverse

from events.models import Entry, Event, Game
from grading.models import GameNotRated, PlayerRating, RatingPeriod
from grading.selectors.crosstables import event_results
from grading.selectors.event_ratings import preview, rating_games_not_rated
from players.models import Player
from tests.builders import approved_event, elo_federation, elo_october, elo_refused_events, succeeded
from tests.public.test_elo_pages import text

pytestmark = pytest.mark.django_db

MATCH = "not rated: a match against an unrated player does not count"
FAST = "not rated: the time control gives 75 minutes for 60 moves; an event with a 1900 needs 90"


@pytest.fixture
def refused():
    elo_federation()
    elo_october()
    return elo_refused_events()


def reasons_of(event):
    """Why each game of ``event`` (in the order stored) was not rated by the publications in force."""
    return [game.why_not_rated for game in sorted(event_results(event).games, key=lambda game: game.pk)]


def test_a_publication_keeps_why_each_game_of_a_refused_event_was_not_rated(refused, rate):
    match, fast = refused
    october = Event.objects.get(code="OCT")

    succeeded(rate("otb-standard", "2026-10"))

    assert reasons_of(match) == [MATCH, MATCH]
    assert reasons_of(fast) == [FAST, FAST, FAST]
    assert set(reasons_of(october)) == {None}


def test_a_revision_shows_its_own_reasons_and_not_those_of_the_publication_before(refused, rate):
    match, fast = refused
    succeeded(rate("otb-standard", "2026-10"))
    fast.time_control = "90 min + 30 s/move"  # 120 minutes for 60 moves: enough for any rating
    fast.save()
    RatingPeriod.objects.filter(month="2026-10").update(revision_due=True)

    succeeded(rate("otb-standard", "2026-10"))

    assert RatingPeriod.objects.get(rating_list__code="otb-standard", month="2026-10").revision == 1
    # Now a round robin of three with unrated players: D (unrated) scored nothing, so D and
    # D's games are set aside, leaving B and E over one round.
    assert reasons_of(fast) == ["not rated: a round robin with unrated players over 1 rounds; it needs at least 4"] * 3
    assert reasons_of(match) == [MATCH, MATCH]
    # The first publication's reasons stay, as its history.
    kept = GameNotRated.objects.filter(game__event=fast, run__revision=0).values_list("reason", flat=True)
    assert list(kept) == [FAST] * 3


def test_a_rating_lists_the_games_of_its_player_its_publication_left_out(refused, rate):
    succeeded(rate("otb-standard", "2026-10"))
    rating = PlayerRating.objects.get(player__code="111111A", month="2026-10", superseded_at=None)

    shown = rating_games_not_rated(rating)

    # A beat C with white in game 1 of MATCH and drew with black in game 2.
    assert [(game.event_code, game.round, game.colour, game.opponent_code, game.score) for game in shown] == [
        ("MATCH", 1, "w", "333333C", "1"),
        ("MATCH", 2, "b", "333333C", "½"),
    ]
    assert {game.reason for game in shown} == {MATCH}
    assert rating_games_not_rated(PlayerRating.objects.get(player__code="444444D", month="2026-10")) != []
    assert rating_games_not_rated(PlayerRating.objects.get(player__code="222222B", month="2026-10"))[0].reason == FAST


def test_the_preview_reads_todays_ratings(refused, rate):
    _, fast = refused
    before = preview(fast)

    succeeded(rate("otb-standard", "2026-10"))
    after = preview(fast)

    assert (before.rule_set, str(before.ratings_of), before.games, before.not_rated) == ("fide-2017", "2026-09", 3, 3)
    assert [reason for reason, _ in before.reasons] == [FAST]
    # B lost to A (1500) in October: 1900 - 18 = 1882, the rating now.
    assert str(after.ratings_of) == "2026-10"
    assert [reason for reason, _ in after.reasons] == [
        "not rated: the time control gives 75 minutes for 60 moves; an event with a 1882 needs 90"
    ]


def test_the_preview_names_the_games_left_out_as_the_file_does(refused):
    match, _ = refused
    a, c = (Player.objects.get(code=code).surname for code in ("111111A", "333333C"))

    ((reason, games),) = preview(match).reasons

    assert reason == MATCH
    assert [(game.round, game.white, game.result, game.black) for game in games] == [
        (1, a, "1-0", c),
        (2, c, "½-½", a),
    ]


def test_before_approval_a_player_on_no_record_is_unrated_and_once_approved_is_not_read(refused):
    event = approved_event("NEW", "otb-standard", datetime.date(2026, 10, 20), [("222222B", "111111A", "1-0")])
    stranger = Entry.objects.create(event=event, pin=3, surname="Stranger", forenames="Sam")
    b = event.entries.get(pin=1)
    Game.objects.create(
        event=event,
        round=2,
        date=event.start_date,
        white_entry=stranger,
        black_entry=b,
        white=None,
        black=b.player,
        result="0-1",
    )
    Game.objects.create(
        event=event,
        round=3,
        date=event.start_date,
        white_entry=b,
        black_entry=stranger,
        white=b.player,
        black=None,
        result="1-0",
    )
    # B plays A once and the stranger twice: no match, no round robin; three players.
    event.status = Event.Status.SUBMITTED
    event.save()
    submitted = preview(event)
    event.status = Event.Status.APPROVED
    event.save()
    approved = preview(event)

    assert (submitted.games, submitted.not_rated) == (3, 0)
    assert (approved.games, approved.not_rated) == (1, 0)


def test_a_match_against_a_player_on_no_record_is_not_rated_in_the_preview(refused):
    event = approved_event("VISIT", "otb-standard", datetime.date(2026, 10, 20), [("222222B", "111111A", "1-0")])
    a = event.entries.get(pin=2)
    Game.objects.filter(event=event).delete()
    stranger = Entry.objects.create(event=event, pin=3, surname="Stranger", forenames="Sam")
    b = event.entries.get(pin=1)
    for number, (white, black) in enumerate([(b, stranger), (stranger, b)], start=1):
        Game.objects.create(
            event=event, round=number, date=event.start_date, white_entry=white, black_entry=black,
            white=white.player, black=black.player, result="1-0",
        )  # fmt: skip
    a.delete()
    event.status = Event.Status.CHECKED
    event.save()

    shown = preview(event)

    assert (shown.games, shown.reasons[0][0]) == (2, MATCH)
    b = Player.objects.get(code="222222B").surname
    assert [(game.white, game.black) for game in shown.reasons[0][1]] == [(b, "Stranger, Sam"), ("Stranger, Sam", b)]


def test_the_preview_says_an_event_without_a_time_control_needs_one(refused):
    for written in ("", "as fast as you can"):
        event = approved_event(
            f"NOTC{len(written)}", "otb-standard", datetime.date(2026, 10, 20),
            [("222222B", "111111A", "1-0"), ("111111A", "444444D", "1-0"), ("444444D", "555555E", "1-0")],
            time_control=written,
        )  # fmt: skip

        reasons = preview(event).reasons

        assert [(reason, len(games)) for reason, games in reasons] == [
            ("not rated: the event has no time control, and a list rated by fide-2017 needs one", 3)
        ]


def test_a_list_the_ecf_method_rates_has_no_preview(refused):
    rapid = approved_event("RAPID", "otb-rapid", datetime.date(2026, 10, 20), [("111111A", "333333C", "1-0")])
    september = approved_event("SEPT", "otb-standard", datetime.date(2026, 9, 20), [("111111A", "333333C", "1-0")])

    assert preview(rapid) is None
    assert preview(september) is None  # otb-standard is rated by ecf-2024 until 2026-10
    assert Player.objects.count() == 5


def test_the_officers_decision_page_shows_the_preview_of_an_event_going_on_an_elo_list(client, refused, officer):
    match, fast = refused
    Event.objects.filter(pk__in=[match.pk, fast.pk]).update(status=Event.Status.SUBMITTED)
    rapid = approved_event("RAPID", "otb-rapid", datetime.date(2026, 10, 20), [("111111A", "333333C", "1-0")])
    Event.objects.filter(pk=rapid.pk).update(status=Event.Status.SUBMITTED)
    client.force_login(officer)

    def page(event):
        return text(client.get(reverse("admin:events_event_decide", args=[event.pk])))

    assert (
        "With today's ratings (each player's latest on the list, published up to 2026-09; a player on no federation "
        "record yet counts as unrated), the conditions would leave out: Not rated: the time control gives 75 "
        "minutes for 60 moves; an event with a 1900 needs 90. "
        "All 3 games of the event."
    ) in page(fast)
    assert "Not rated: a match against an unrated player does not count. All 2 games of the event." in page(match)
    assert "FIDE's conditions" not in page(rapid)
