"""FIDE's conditions on which events an Elo list rates (docs/rules.md part 4, section 16), each at
its boundary. The engine alone: these run without Django."""

import datetime
from fractions import Fraction
from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from grading.engine.event_conditions import EventColumns, EventFacts, EventGame, events_not_rated, games_not_rated
from grading.engine.rule_sets import ECF_2024, FIDE_2017, FIDE_2017_RAPID

DAY = datetime.date(2026, 10, 3)


def facts(games, ratings, minutes=120, **details):
    return EventFacts(
        rating_used=ratings,
        games=games,
        first_day=details.pop("first_day", DAY),
        last_day=details.pop("last_day", DAY + datetime.timedelta(days=2)),
        minutes_for_60=minutes,
        **details,
    )


def swiss_of_four(day=None):
    """Four players, two rounds, no pair twice: a Swiss, not a round robin."""
    return [
        EventGame(1, 2, 2, 1, day),
        EventGame(3, 4, 1, 1, day),
        EventGame(1, 3, 1, 2, day),
        EventGame(2, 4, 0, 2, day),
    ]


RATED = {1: 2250, 2: 2100, 3: 1900, 4: 1800}


# 16.1 Playing time: 120 minutes for 60 moves once the event's highest rating used is 2200.


def test_an_event_with_a_2250_is_rated_at_exactly_120_minutes_for_60_moves():
    # 90 + 30 s a move: 90 + 60 x 30 s = 120 minutes.
    assert games_not_rated(facts(swiss_of_four(), RATED, minutes=120), FIDE_2017) == [None] * 4


def test_an_event_with_a_2250_is_not_rated_at_90_minutes_for_60_moves():
    reasons = games_not_rated(facts(swiss_of_four(), RATED, minutes=90), FIDE_2017)

    assert reasons == ["not rated: the time control gives 90 minutes for 60 moves; an event with a 2250 needs 120"] * 4


def test_below_2200_90_minutes_are_enough_and_below_1600_60():
    under_2200 = {1: 2199, 2: 2100, 3: 1900, 4: 1800}
    assert games_not_rated(facts(swiss_of_four(), under_2200, minutes=90), FIDE_2017) == [None] * 4
    assert games_not_rated(facts(swiss_of_four(), under_2200, minutes=Fraction(179, 2)), FIDE_2017)[0] == (
        "not rated: the time control gives 89.5 minutes for 60 moves; an event with a 2199 needs 90"
    )
    under_1600 = {1: 1599, 2: 1500, 3: None, 4: 1400}
    assert games_not_rated(facts(swiss_of_four(), under_1600, minutes=60), FIDE_2017) == [None] * 4


def test_a_first_control_under_40_minutes_is_not_rated_and_at_40_it_is():
    assert (
        games_not_rated(facts(swiss_of_four(), RATED, minutes=150, first_control_minutes=40), FIDE_2017) == [None] * 4
    )
    assert games_not_rated(facts(swiss_of_four(), RATED, minutes=150, first_control_minutes=39), FIDE_2017)[0] == (
        "not rated: the first time control gives 39 minutes; it must give at least 40"
    )


def test_an_event_without_a_time_control_cannot_be_rated_on_a_fide_2017_list():
    reasons = games_not_rated(facts(swiss_of_four(), RATED, minutes=None), FIDE_2017)

    assert reasons[0] == "not rated: the event has no time control, and a list rated by fide-2017 needs one"


def test_the_rapid_rule_set_and_the_ecf_method_leave_the_playing_time_to_the_lists_band():
    assert games_not_rated(facts(swiss_of_four(), RATED, minutes=25), FIDE_2017_RAPID) == [None] * 4
    assert games_not_rated(facts(swiss_of_four(), RATED, minutes=25), ECF_2024) == [None] * 4


# 16.2 Twelve hours a day: a game lasts twice its time for 60 moves.


def test_three_games_of_120_minutes_on_one_date_are_exactly_twelve_hours_and_four_are_too_many():
    # Each game 2 x 120 = 240 minutes: three make 720 (12 hours), four 960 (16 hours).
    three = [EventGame(1, 2, 1, 1, DAY), EventGame(1, 3, 1, 2, DAY), EventGame(1, 4, 1, 3, DAY)]
    assert games_not_rated(facts(three, RATED), FIDE_2017) == [None] * 3
    four = [*three, EventGame(2, 3, 1, 4, DAY)] + [EventGame(1, 5, 2, 4, DAY)]
    reasons = games_not_rated(facts(four, {**RATED, 5: 2000}), FIDE_2017)
    assert (
        reasons
        == ["not rated: a player has 4 games of 240 minutes (both clocks) on one day, 16 hours; at most 12 are allowed"]
        * 5
    )


def test_undated_games_are_spread_evenly_over_the_events_days():
    # Player 1 has 7 undated games over 2 days: 4 on the busiest, 4 x 240 = 16 hours.
    opponents = range(2, 9)
    games = [EventGame(1, other, 1, number) for number, other in enumerate(opponents, start=1)]
    ratings = dict.fromkeys(range(1, 9), 2000)
    two_days = facts(games, ratings, last_day=DAY + datetime.timedelta(days=1))
    assert games_not_rated(two_days, FIDE_2017)[0].startswith("not rated: a player has 4 games")
    # Over 3 days: 3 on the busiest, 12 hours.
    assert games_not_rated(facts(games, ratings), FIDE_2017) == [None] * 7


# 16.3 Ninety days.


def test_an_event_over_90_days_is_rated_only_with_its_length_approved():
    ninety_days = facts(swiss_of_four(), RATED, last_day=DAY + datetime.timedelta(days=89))
    assert games_not_rated(ninety_days, FIDE_2017) == [None] * 4

    ninety_one = facts(swiss_of_four(), RATED, last_day=DAY + datetime.timedelta(days=90))
    assert games_not_rated(ninety_one, FIDE_2017_RAPID)[0] == (
        "not rated: the event lasted 91 days, more than 90, and a rating officer has not approved its length"
    )
    approved = facts(swiss_of_four(), RATED, last_day=DAY + datetime.timedelta(days=90), length_approved=True)
    assert games_not_rated(approved, FIDE_2017) == [None] * 4


# 16.4 Round robins, found from the pairings alone.


def all_play_all(players, times=1, scores=None):
    games, number = [], 0
    for _ in range(times):
        for white, black in combinations(players, 2):
            number += 1
            games.append(EventGame(white, black, (scores or {}).get((white, black), 1), number))
    return games


def test_a_round_robin_with_a_third_of_its_players_rated_is_rated_and_with_fewer_it_is_not():
    # Six players, two rated: 3 x 2 = 6 >= 6.
    six = all_play_all(range(1, 7))
    two_rated = {1: 2000, 2: 1900, 3: None, 4: None, 5: None, 6: None}
    assert games_not_rated(facts(six, two_rated), FIDE_2017_RAPID) == [None] * 15
    # One rated: 3 x 1 < 6.
    one_rated = {**two_rated, 2: None}
    assert games_not_rated(facts(six, one_rated), FIDE_2017_RAPID)[0] == (
        "not rated: a round robin of 6 players with 1 rated; at least a third must be rated"
    )


def test_unrated_players_who_scored_nothing_are_left_out_with_their_games_for_everyone():
    # Seven players, two rated: 3 x 2 = 6 < 7. Player 7, unrated, loses every game: left out with
    # their games, six players remain and 6 >= 6. The event is rated, but none of player 7's six
    # games is, for them or for their opponents (section 16.4).
    ratings = {1: 2000, 2: 1900, 3: None, 4: None, 5: None, 6: None, 7: None}
    losses = {(white, 7): 2 for white in range(1, 7)}
    games = all_play_all(range(1, 8), scores=losses)
    reasons = games_not_rated(facts(games, ratings), FIDE_2017_RAPID)
    zero_scorer = "not rated: an unrated player who scored nothing in a round robin is left out with all their games"
    assert [reason for game, reason in zip(games, reasons) if 7 in (game.white, game.black)] == [zero_scorer] * 6
    assert [reason for game, reason in zip(games, reasons) if 7 not in (game.white, game.black)] == [None] * 15
    # Had player 7 drawn every game, seven players would count: not rated.
    assert games_not_rated(facts(all_play_all(range(1, 8)), ratings), FIDE_2017_RAPID)[0] == (
        "not rated: a round robin of 7 players with 2 rated; at least a third must be rated"
    )


def test_an_unrated_zero_scorer_among_rated_players_is_left_out_with_their_games():
    # Five rated players and one unrated who lost all five games: the other ten games are rated,
    # the five of the unrated player are not.
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: 1700, 5: 1600, 6: None}
    games = all_play_all(range(1, 7), scores={(white, 6): 2 for white in range(1, 6)})
    reasons = games_not_rated(facts(games, ratings), FIDE_2017_RAPID)
    assert sum(reason is None for reason in reasons) == 10
    assert {reason for game, reason in zip(games, reasons) if 6 in (game.white, game.black)} == {
        "not rated: an unrated player who scored nothing in a round robin is left out with all their games"
    }


def test_a_round_robin_with_unrated_players_needs_four_rounds():
    # Four players, all play all: 6 games, in 3 rounds of 2 boards.
    three_rounds = [
        EventGame(white, black, 1, (number // 2) + 1)
        for number, (white, black) in enumerate(combinations(range(1, 5), 2))
    ]
    ratings = {1: 2000, 2: 1900, 3: None, 4: 1700}
    assert games_not_rated(facts(three_rounds, ratings), FIDE_2017_RAPID)[0] == (
        "not rated: a round robin with unrated players over 3 rounds; it needs at least 4"
    )
    # Every player rated: a round robin of any length counts.
    assert games_not_rated(facts(three_rounds, {**ratings, 3: 1600}), FIDE_2017_RAPID) == [None] * 6


def test_a_double_round_robin_with_unrated_players_needs_six_players():
    five = all_play_all(range(1, 6), times=2)  # 20 games, 20 rounds
    ratings = {1: 2000, 2: 1900, 3: 1800, 4: None, 5: None}
    assert games_not_rated(facts(five, ratings), FIDE_2017_RAPID)[0] == (
        "not rated: a double round robin of 5 players with unrated players; it needs at least 6"
    )
    six = all_play_all(range(1, 7), times=2)
    assert games_not_rated(facts(six, {**ratings, 6: None}), FIDE_2017_RAPID) == [None] * 30


def test_a_swiss_whose_pairs_never_repeat_is_not_a_round_robin():
    # Four players, one rated, two rounds: as a round robin 3 x 1 < 4 would fail; a Swiss is
    # decided game by game.
    ratings = {1: 2000, 2: None, 3: None, 4: None}
    assert games_not_rated(facts(swiss_of_four(), ratings, minutes=90), FIDE_2017_RAPID) == [None] * 4


# 16.5 Matches.


def match(results):
    return [EventGame(1, 2, halves, number) for number, halves in enumerate(results, start=1)]


def test_the_games_of_a_match_after_it_was_decided_are_not_rated():
    # Scheduled 9: 5-3 after game 8 (more than 4.5): game 9 is not rated.
    games = match([2, 2, 0, 2, 0, 2, 0, 2, 1])
    reasons = games_not_rated(facts(games, {1: 2300, 2: 2250}, scheduled_rounds=9), FIDE_2017)
    assert reasons == [None] * 8 + ["not rated: played after the match was decided (5-3 after game 8 of 9)"]


def test_the_game_that_decides_a_match_is_rated():
    # Scheduled 4: 2.5-0.5 after game 3 (more than 2): game 3 decides it and is rated, game 4 not.
    games = match([2, 1, 2, 0])
    reasons = games_not_rated(facts(games, {1: 2300, 2: 2250}, scheduled_rounds=4), FIDE_2017)
    assert reasons == [None, None, None, "not rated: played after the match was decided (2.5-0.5 after game 3 of 4)"]
    # Without the file's number of rounds, the games played are the games scheduled: the same.
    assert games_not_rated(facts(games, {1: 2300, 2: 2250}), FIDE_2017) == reasons
    # Scheduled 6: 2.5 is not more than 3, nothing is decided yet.
    assert games_not_rated(facts(games, {1: 2300, 2: 2250}, scheduled_rounds=6), FIDE_2017) == [None] * 4


def test_a_match_against_an_unrated_player_does_not_count():
    reasons = games_not_rated(facts(match([2, 0]), {1: 2300, 2: None}), FIDE_2017)

    assert reasons == ["not rated: a match against an unrated player does not count"] * 2


def test_a_round_robin_whose_file_gives_no_rounds_counts_the_busiest_players_games_as_its_rounds():
    # Four players, all play all, no rounds given: each played 3 games, so at most 3 rounds.
    games = [EventGame(white, black, 1, None) for white, black in combinations(range(1, 5), 2)]
    ratings = {1: 2000, 2: 1900, 3: None, 4: 1700}
    assert games_not_rated(facts(games, ratings), FIDE_2017_RAPID)[0] == (
        "not rated: a round robin with unrated players over 3 rounds; it needs at least 4"
    )


# Many events at once, as a run decides them: each event alike, whatever else is in the month.


@st.composite
def events(draw):
    players = draw(st.integers(2, 7))
    ratings = {player: draw(st.sampled_from([None, 1500, 1800, 2250])) for player in range(players)}
    pairs = list(combinations(range(players), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=14))
    games = [
        EventGame(a, b, draw(st.integers(0, 2)), draw(st.sampled_from([None, number, 1])), DAY)
        for number, (a, b) in enumerate(chosen, start=1)
    ]
    return facts(
        games,
        ratings,
        minutes=draw(st.sampled_from([None, 60, 90, 120])),
        last_day=DAY + datetime.timedelta(days=draw(st.integers(0, 120))),
        scheduled_rounds=draw(st.sampled_from([None, 2, 6])),
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(events(), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_a_month_of_events_decided_at_once_gives_each_event_what_it_gets_alone(month, shuffle):
    rules = FIDE_2017
    alone = [games_not_rated(event, rules) for event in month]
    # Every event's games in one set of columns, players numbered apart, games in any order.
    parts = [event.columns() for event in month]
    # The events' games interleaved at random, each event's in its own order: a run reads games
    # by date, then id, and a match's games of one round and date are taken in that order.
    labels = [at for at, part in enumerate(parts) for _ in range(len(part.event))]
    shuffle.shuffle(labels)
    starts = np.cumsum([0] + [len(part.event) for part in parts])
    taken = [0] * len(parts)
    order = []
    for label in labels:
        order.append(int(starts[label]) + taken[label])
        taken[label] += 1

    def joined(name, offset=None):
        values = np.concatenate([getattr(part, name) + (offset(at) if offset else 0) for at, part in enumerate(parts)])
        return values[order]

    together = EventColumns(
        event=joined("event", lambda at: at),
        white=joined("white", lambda at: 100 * at),
        black=joined("black", lambda at: 100 * at),
        white_halves=joined("white_halves"),
        round=joined("round"),
        day=joined("day"),
        white_rating_used=joined("white_rating_used"),
        black_rating_used=joined("black_rating_used"),
        first_day=np.concatenate([part.first_day for part in parts]),
        last_day=np.concatenate([part.last_day for part in parts]),
        minutes_for_60=[event.minutes_for_60 for event in month],
        first_control_minutes=[event.first_control_minutes for event in month],
        scheduled_rounds=[event.scheduled_rounds for event in month],
        length_approved=[event.length_approved for event in month],
    )
    result = events_not_rated(together, rules)
    expected = [reason for reasons in alone for reason in reasons]
    assert [result.text(order.index(at)) for at in range(len(order))] == expected


def test_players_whose_numbers_are_too_large_to_combine_are_counted_alike():
    # Keys of event, player and day would overflow 64 bits: the players are numbered from 0.
    big = 2**45
    games = [EventGame(big + g.white, big + g.black, g.white_halves, g.round, DAY) for g in swiss_of_four()]
    four = [*games, EventGame(big + 1, big + 4, 1, 3, DAY), EventGame(big + 2, big + 3, 1, 3, DAY)]
    ratings = {big + player: rating for player, rating in RATED.items()}
    # Player 1 has 3 games on the day: 12 hours, rated; a fourth makes 16.
    assert games_not_rated(facts(four, ratings), FIDE_2017) == [None] * 6
    five = [*four, EventGame(big + 1, big + 2, 1, 4, DAY)]
    assert games_not_rated(facts(five, ratings), FIDE_2017)[0].startswith("not rated: a player has 4 games")
    # And a round robin of such players is found: all pairs once, one of four rated, 3 x 1 < 4.
    pairs = [EventGame(big + a, big + b, 1, n) for n, (a, b) in enumerate(combinations(range(1, 5), 2), start=1)]
    one_rated = {big + 1: 2000, big + 2: None, big + 3: None, big + 4: None}
    assert games_not_rated(facts(pairs, one_rated, minutes=90), FIDE_2017_RAPID)[0] == (
        "not rated: a round robin of 4 players with 1 rated; at least a third must be rated"
    )
