"""docs/rules.md sections 17.5 and 17.6: FIDE's 2024 rules on the rate of play, decided game by game
for standard play, and the rapid and blitz lists' conditions, each at its boundary."""

import datetime
from fractions import Fraction

import numpy as np
import pytest

from grading.engine.event_conditions import EventColumns, EventFacts, EventGame, events_not_rated, games_not_rated
from grading.engine.rate_of_play import is_blitz_band
from grading.engine.rule_sets import FIDE_2017, FIDE_2017_RAPID, FIDE_2024, FIDE_2024_RAPID, FIDE_2025

DAY = datetime.date(2026, 10, 3)


def facts(games, ratings, minutes=120, **details):
    return EventFacts(
        rating_used=ratings,
        games=games,
        first_day=DAY,
        last_day=details.pop("last_day", DAY + datetime.timedelta(days=2)),
        minutes_for_60=minutes,
        **details,
    )


def swiss_of_four(day=None):
    """Four players, two rounds: 1-2 and 3-4, then 1-3 and 2-4."""
    return [
        EventGame(1, 2, 2, 1, day),
        EventGame(3, 4, 1, 1, day),
        EventGame(1, 3, 1, 2, day),
        EventGame(2, 4, 0, 2, day),
    ]


# --- 17.5 standard play: the time a game needs, by its two players' ratings used ------------------

SHORT_FOR_1800 = (
    "not rated: the time control gives 89 minutes for 60 moves; a game with a player rated 1800 or more needs 90"
)


@pytest.mark.parametrize("rules", [FIDE_2024, FIDE_2025])
def test_at_89_minutes_only_the_games_of_the_1800_are_not_rated(rules):
    # The 1800 plays games 1 and 3: each needs 90 minutes (1800 or more). Games 2 and 4 are
    # between a 1799 and a 1500 and an unrated player: 60 are enough.
    ratings = {1: 1800, 2: 1500, 3: 1799, 4: None}

    assert games_not_rated(facts(swiss_of_four(), ratings, minutes=89), rules) == [
        SHORT_FOR_1800,
        None,
        SHORT_FOR_1800,
        None,
    ]
    assert games_not_rated(facts(swiss_of_four(), ratings, minutes=90), rules) == [None] * 4


def test_under_fide_2017_the_same_event_at_89_minutes_is_not_rated_at_all():
    # 16.1: the event's highest rating, 1800, needs 90 minutes for the whole event.
    reasons = games_not_rated(facts(swiss_of_four(), {1: 1800, 2: 1500, 3: 1799, 4: None}, minutes=89), FIDE_2017)

    assert reasons == ["not rated: the time control gives 89 minutes for 60 moves; an event with a 1800 needs 90"] * 4


def test_a_game_with_a_2400_needs_120_minutes_and_between_players_under_1800_60():
    ratings = {1: 2400, 2: 2399, 3: 1799, 4: 1200}
    reasons = games_not_rated(facts(swiss_of_four(), ratings, minutes=Fraction(239, 2)), FIDE_2024)

    # 119.5 minutes: 1-2 and 1-3 have the 2400 (120 needed); 2-4 has the 2399 (90): rated; 3-4 too.
    needs_120 = "not rated: the time control gives 119.5 minutes for 60 moves; " + (
        "a game with a player rated 2400 or more needs 120"
    )
    assert reasons == [needs_120, None, needs_120, None]
    short = games_not_rated(facts(swiss_of_four(), {1: 1799, 2: None, 3: 1500, 4: 1200}, minutes=59), FIDE_2024)
    assert (
        short
        == [
            "not rated: the time control gives 59 minutes for 60 moves; "
            "a game between players under 1800 or unrated needs 60"
        ]
        * 4
    )
    assert (
        games_not_rated(facts(swiss_of_four(), {1: 1799, 2: None, 3: 1500, 4: 1200}, minutes=60), FIDE_2024)
        == [None] * 4
    )


def test_a_first_control_of_29_moves_is_not_rated_and_of_30_it_is():
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    at_29 = games_not_rated(facts(swiss_of_four(), ratings, first_control_moves=29), FIDE_2024)
    assert at_29 == ["not rated: the first time control is of 29 moves; it must be of at least 30"] * 4
    assert games_not_rated(facts(swiss_of_four(), ratings, first_control_moves=30), FIDE_2024) == [None] * 4


def test_fide_2017s_40_minute_first_control_no_longer_applies():
    # 16.1's rule is replaced whole by 17.5: a first control of 39 minutes is no reason.
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700}
    reasons = games_not_rated(facts(swiss_of_four(), ratings, minutes=150, first_control_minutes=39), FIDE_2024)

    assert reasons == [None] * 4


def test_an_event_approved_as_fast_classic_is_rated_whatever_the_ratings():
    # 45 min + 30 s: 45 + 30 = 75 minutes for 60 moves, short for every game of 2400s.
    ratings = {1: 2500, 2: 2450, 3: 2420, 4: 2400}
    refused = games_not_rated(facts(swiss_of_four(), ratings, minutes=75), FIDE_2024)
    assert refused[0] == (
        "not rated: the time control gives 75 minutes for 60 moves; a game with a player rated 2400 or more needs 120"
    )
    assert games_not_rated(facts(swiss_of_four(), ratings, minutes=75, fast_classic=True), FIDE_2024) == [None] * 4


def test_an_event_without_a_time_control_cannot_be_rated_under_the_2024_rules():
    for rules in (FIDE_2024, FIDE_2024_RAPID):
        reasons = games_not_rated(facts(swiss_of_four(), {1: 2000, 2: 1900}, minutes=None), rules)
        assert reasons == [f"not rated: the event has no time control, and a list rated by {rules.name} needs one"] * 4


def test_twelve_hours_a_day_still_holds_under_fide_2024():
    # Four games of 90 min + 30 s on one date for player 1: 4 x 2 x 120 minutes = 16 hours.
    games = [EventGame(1, opponent, 1, n, DAY) for n, opponent in enumerate((2, 3, 4, 5), start=1)]
    reasons = games_not_rated(facts(games, {1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600}), FIDE_2024)

    assert reasons[0] == (
        "not rated: a player has 4 games of 240 minutes (both clocks) on one day, 16 hours; at most 12 are allowed"
    )


# --- 17.6 rapid and blitz ----------------------------------------------------------------------------

APART = (
    "not rated: 600 points apart above 2600 (in rapid and blitz, a game between players whose ratings differ by "
    "600 or more, one of them above 2600, is not rated)"
)


def test_a_rapid_game_600_apart_with_a_player_above_2600_is_not_rated_and_599_apart_it_is():
    # 1-2: 2601 - 2001 = 600 apart, 2601 above 2600. 3-4: 2602 - 2003 = 599. 1-3: 1 apart.
    # 2-4: 2001 and 2003.
    ratings = {1: 2601, 2: 2001, 3: 2602, 4: 2003}
    reasons = games_not_rated(facts(swiss_of_four(), ratings, minutes=25), FIDE_2024_RAPID)

    assert reasons == [APART, None, None, None]
    # The same pair under fide-2017-rapid: rated.
    assert games_not_rated(facts(swiss_of_four(), ratings, minutes=25), FIDE_2017_RAPID) == [None] * 4


def test_a_player_of_exactly_2600_is_not_above_it():
    # 2600 - 2000 = 600 apart, but no one above 2600.
    assert games_not_rated(facts(swiss_of_four(), {1: 2600, 2: 2000}, minutes=25), FIDE_2024_RAPID) == [None] * 4


RAPID_BAND = (
    "not rapid play: the time control gives {} minutes for 60 moves; a rapid list rates more than 10 and less than 60"
)
BLITZ_BAND = (
    "not blitz play: the time control gives {} minutes for 60 moves; a blitz list rates more than 3 and at most 10"
)


@pytest.mark.parametrize(
    ("minutes", "blitz", "reason"),
    [
        (10, False, RAPID_BAND.format(10)),
        (Fraction(21, 2), False, None),  # 10.5: more than 10
        (Fraction(119, 2), False, None),  # 59.5: less than 60
        (60, False, RAPID_BAND.format(60)),
        (3, True, BLITZ_BAND.format(3)),
        (Fraction(7, 2), True, None),
        (10, True, None),  # at most 10
        (Fraction(21, 2), True, BLITZ_BAND.format("10.5")),
    ],
)
def test_a_rapid_list_rates_more_than_10_and_less_than_60_minutes_and_a_blitz_list_more_than_3_and_at_most_10(
    minutes, blitz, reason
):
    reasons = games_not_rated(facts(swiss_of_four(), {1: 2000, 2: 1900}, minutes=minutes), FIDE_2024_RAPID, blitz=blitz)

    assert reasons == [None if reason is None else f"not rated: {reason}"] * 4


@pytest.mark.parametrize(
    ("low", "high", "blitz"), [(0, 10, True), (3, 11, True), (0, 12, False), (10, 60, False), (0, None, False)]
)
def test_a_lists_band_is_blitz_when_its_upper_limit_is_at_most_11_minutes(low, high, blitz):
    # "under 11" holds every time control of at most 10 whole minutes, FIDE's blitz.
    assert is_blitz_band(low, high) is blitz


def test_a_month_of_events_under_fide_2024_decided_at_once_gives_each_event_what_it_gets_alone():
    # Two events: the first at 89 minutes (its 1800's games out), the second a rapid-time
    # control with a first control of 20 moves; decided together, players apart.
    first = facts(swiss_of_four(), {1: 1800, 2: 1500, 3: 1799, 4: None}, minutes=89)
    second = facts(swiss_of_four(), {1: 2000, 2: 1900, 3: 1800, 4: 1700}, first_control_moves=20)
    alone = games_not_rated(first, FIDE_2024) + games_not_rated(second, FIDE_2024)
    parts = [first.columns(), second.columns()]

    def joined(name, step=0):
        return np.concatenate([getattr(part, name) + step * at for at, part in enumerate(parts)])

    together = EventColumns(
        event=joined("event", 1),
        white=joined("white", 100),
        black=joined("black", 100),
        **{name: joined(name) for name in ("white_halves", "round", "day", "white_rating_used", "black_rating_used")},
        first_day=joined("first_day"),
        last_day=joined("last_day"),
        minutes_for_60=[89, 120],
        first_control_minutes=[None, None],
        scheduled_rounds=[None, None],
        length_approved=[False, False],
        first_control_moves=[None, 20],
        fast_classic=[False, False],
    )
    result = events_not_rated(together, FIDE_2024)

    assert [result.text(game) for game in range(8)] == alone
    assert alone[4:] == ["not rated: the first time control is of 20 moves; it must be of at least 30"] * 4
